"""Feed the viewer through a pipe at a fixed rate and time each line until it is on screen.

Usage::

    python bench/live_probe.py FILE --rate 1000 --seconds 5

A producer process (this script with ``--produce``) writes the first ``rate x
seconds`` lines of ``FILE`` into a pipe at ``rate`` lines per second, in small
bursts, like an agent CLI would. The viewer (:class:`~streamview.ui.frame.app.StreamviewApp`,
headless, 120x40) reads the other end as a live :class:`~streamview.sources.base.PipeSource`.

Latency of line *i* = the moment the first screen update composed after a repaint
(``StreamviewApp.sync``) that included line *i* was handed to the terminal
(``App._display``: headless, everything but the write), minus the moment line *i* was
due from the producer. (Until issue 21 the probe asked for a refresh of the whole
screen after each repaint, to be called back after it: every frame was then a full
120x40 repaint, which the viewer itself never asks for, and p99 came out 20-40 ms
higher.) Due, not written: when the viewer does not read fast enough, the
pipe fills, the producer waits, and that wait is latency too. Both processes read
``time.monotonic()``, one clock for the whole machine on Linux.

Meanwhile a key (F12, bound to a no-op action by this probe) is pressed every
``--key-every`` seconds; its latency is from the moment it was due to the moment its
action ran, so a blocked event loop counts.

Prints one JSON object: ``lines``, ``shown`` (lines that reached the screen),
``latency_ms`` (``p50``, ``p99``, ``max``), ``key_ms`` (``p50``, ``p99``, ``max``,
``count``, ``lost``), ``producer_lag_s`` (how far the producer fell behind its schedule
because the pipe was full), ``keeps_up``, ``peak_rss_mb`` and ``error`` (an
exception the app raised, if any, for example while shutting down; the figures
gathered before it are kept).

``keeps_up`` means: every line reached the screen, the last one within 0.5 s of being
due, and the p99 latency of the second half of the run is under 0.5 s (a viewer that
falls behind shows latencies that grow with time).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from bisect import bisect_left
from pathlib import Path
from typing import Any, ClassVar

import orjson

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual import events
from textual.binding import Binding, BindingType

from streamview.sources.base import PipeSource
from streamview.ui import STYLESHEET
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.launch import prepare_process

SIZE = (120, 40)
BURST_SECONDS = 0.002
"""The producer writes whatever is due every this often."""
KEEP_UP_SECONDS = 0.5


def prepare_process_like_run_app() -> None:
    """Set the process up as :func:`streamview.ui.frame.app.run_app` does before ``app.run()``."""
    prepare_process()


def read_lines(path: Path, count: int) -> list[bytes]:
    """The first ``count`` lines of ``path`` (cycling through it if it is shorter)."""
    lines: list[bytes] = []
    while len(lines) < count:
        before = len(lines)
        with path.open("rb") as handle:
            for line in handle:
                if line.strip():
                    lines.append(line if line.endswith(b"\n") else line + b"\n")
                    if len(lines) == count:
                        break
        if len(lines) == before:
            raise SystemExit(f"{path}: no lines")
    return lines


def produce(path: Path, rate: float, count: int, times_path: Path, start: float) -> None:
    """Write ``count`` lines to stdout at ``rate`` per second from ``start``; save due times."""
    lines = read_lines(path, count)
    out = sys.stdout.fileno()
    due = [start + i / rate for i in range(count)]
    lag = 0.0
    sent = 0
    while sent < count:
        now = time.monotonic()
        ready = min(count, bisect_left(due, now) + 1) if now >= due[sent] else sent
        if ready > sent:
            try:
                os.write(out, b"".join(lines[sent:ready]))
            except BrokenPipeError:  # the viewer is gone
                break
            lag = max(lag, time.monotonic() - due[ready - 1])
            sent = ready
        else:
            time.sleep(min(BURST_SECONDS, max(0.0, due[sent] - now)))
    times_path.write_bytes(orjson.dumps({"due": due, "lag": lag}))


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p99 and max of ``values`` (in the values' unit), ``None`` when empty."""
    if not values:
        return {"p50": None, "p99": None, "max": None}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {"p50": pick(0.50), "p99": pick(0.99), "max": ordered[-1]}


class LiveProbeApp(StreamviewApp):
    """The viewer, noting when each repaint reaches the screen and when F12 is handled."""

    CSS_PATH = STYLESHEET
    BINDINGS: ClassVar[list[BindingType]] = [
        *StreamviewApp.BINDINGS,
        Binding("f12", "bench_ping", show=False, priority=True),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.painted: list[tuple[float, int]] = []
        """``(when the screen update went out, lines folded in at the repaint)``."""
        self._synced: int | None = None
        """Lines folded in at the last repaint not on screen yet."""
        self.pings: list[float] = []

    def sync(self) -> None:
        """Repaint as usual; the next screen update shows it (:meth:`_display`)."""
        super().sync()
        total = self.state.counts.total
        if not self.painted or self.painted[-1][1] != total:
            self._synced = total

    def _display(self, screen: Any, renderable: Any) -> None:
        """A screen update goes out: the repaints before it are on screen."""
        super()._display(screen, renderable)
        if renderable is not None and self._synced is not None:
            self.painted.append((time.monotonic(), self._synced))
            self._synced = None

    def action_bench_ping(self) -> None:
        """F12: note when the key was handled."""
        self.pings.append(time.monotonic())


async def watch(
    app: LiveProbeApp,
    producer: subprocess.Popen[bytes],
    count: int,
    start: float,
    key_every: float,
    keys: list[tuple[float, int]],
) -> None:
    """Post F12 on a timetable until every line is on screen or the producer is long done.

    Appends to ``keys`` ``(when the key was due, index into app.pings it must produce)``
    per key, so the figures survive an error while the app shuts down.
    """
    async with app.run_test(headless=True, size=SIZE):
        next_key = start + key_every
        finished_at: float | None = None
        while True:
            now = time.monotonic()
            if app.painted and app.painted[-1][1] >= count:
                break
            if producer.poll() is not None:
                finished_at = finished_at or now
                if now - finished_at > 5.0:
                    break
            elif now >= next_key:
                # Posted like the terminal driver does; the loop may be busy, so the
                # key is late by however long it waits: that is the latency measured.
                keys.append((next_key, len(keys)))
                app.post_message(events.Key("f12", None))
                next_key += key_every
            await asyncio.sleep(0.002)
        deadline = time.monotonic() + 2.0
        while len(app.pings) < len(keys) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)


def run(path: Path, rate: float, seconds: float, key_every: float) -> dict[str, Any]:
    """Start the producer and the viewer; measure; return the figures."""
    count = max(1, int(rate * seconds))
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryDirectory() as scratch:
        times_path = Path(scratch) / "due.json"
        start = time.monotonic() + 1.0
        producer = subprocess.Popen(
            [
                sys.executable,
                __file__,
                str(path),
                "--produce",
                "--rate",
                str(rate),
                "--count",
                str(count),
                "--times",
                str(times_path),
                "--start",
                repr(start),
            ],
            stdout=write_fd,
        )
        os.close(write_fd)
        prepare_process_like_run_app()
        app = LiveProbeApp(PipeSource(read_fd, label="pipe"))
        keys: list[tuple[float, int]] = []
        teardown_error = None
        try:
            asyncio.run(watch(app, producer, count, start, key_every, keys))
        except Exception as error:  # reported; the figures are kept
            teardown_error = f"{type(error).__name__}: {error}"
        finally:
            app.feed.stop(timeout=0.5)
            os.close(read_fd)
            try:
                producer.wait(timeout=10)
            except subprocess.TimeoutExpired:
                producer.kill()
                producer.wait()
        produced = orjson.loads(times_path.read_bytes())
    due: list[float] = produced["due"]
    painted = app.painted
    painted_times = [when for when, _ in painted]
    painted_totals = [total for _, total in painted]
    latencies: list[float] = []
    for number, due_at in enumerate(due, start=1):
        index = bisect_left(painted_totals, number)
        if index == len(painted_totals):
            break
        latencies.append(max(0.0, painted_times[index] - due_at))
    half = latencies[len(latencies) // 2 :]
    tail = percentiles(half)
    keeps_up = (
        len(latencies) == count
        and latencies[-1] < KEEP_UP_SECONDS
        and (tail["p99"] or 0.0) < KEEP_UP_SECONDS
    )
    pings = app.pings
    key_latencies = [pings[index] - due_at for due_at, index in keys if index < len(pings)]

    def ms(stats: dict[str, float | None]) -> dict[str, float | None]:
        return {k: None if v is None else round(v * 1000, 2) for k, v in stats.items()}

    return {
        "rate": rate,
        "lines": count,
        "shown": len(latencies),
        "latency_ms": ms(percentiles(latencies)),
        "key_ms": {
            **ms(percentiles(key_latencies)),
            "count": len(key_latencies),
            "lost": len(keys) - len(key_latencies),
        },
        "producer_lag_s": round(produced["lag"], 4),
        "keeps_up": keeps_up,
        "error": teardown_error,
    }


def peak_rss_mb() -> float:
    """This process's peak resident set (``VmHWM``) in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (the probe, or with ``--produce`` the producer)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--rate", type=float, default=1000.0, help="lines per second")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to produce")
    parser.add_argument("--key-every", type=float, default=0.2, help="seconds between keys")
    parser.add_argument("--produce", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--times", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--start", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.produce:
        produce(args.file, args.rate, args.count, args.times, args.start)
        return 0
    result = run(args.file, args.rate, args.seconds, args.key_every)
    result["peak_rss_mb"] = round(peak_rss_mb(), 1)
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
