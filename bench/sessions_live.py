"""``streamview sessions`` with fifty live runs, each appended at 20 lines/s.

Usage::

    python bench/sessions_live.py [--live 50] [--rate 20] [--seconds 30] [--others 200]

Builds a home under ``/tmp`` (deleted at the end): ``--others`` finished Claude Code
sessions and ``--live`` sessions that a producer process (this script with
``--produce``) appends to, ``--rate`` lines a second each, in bursts every 50 ms: the
lines of a real session (``tests/fixtures/sessions/claude/tool_heavy.jsonl``) played
again and again, each with a fresh ``uuid`` chained to the previous one.

The list is the real one (:class:`~streamview.ui.sessions.list_app.SessionsApp`, its
loader the one ``streamview sessions`` gives it: discovery with the index and the read
budget), headless at 120x40 in this process. Meanwhile a key (F12, bound to a no-op)
is posted every 0.2 s; its latency runs from when it was due to when its action ran,
so a blocked event loop counts. Prints one JSON object: ``key_ms`` (p50, p99, max),
``cpu_cores`` (this process's CPU time over the wall time: every thread, the
producer not counted), ``rss_mb`` sampled every 5 s and at 10 s and 40 s
(``rss_growth_mb``: does it grow with the runs' length?), with ``--trace`` the lines
that allocated what grew between those two (``tracemalloc``), the live runs the list
shows at the end, the lines written, the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

import orjson

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from sessions_list import print_result  # noqa: E402

SOURCE = REPO / "tests" / "fixtures" / "sessions" / "claude" / "tool_heavy.jsonl"
KEY_EVERY = 0.2
MARKS = (10.0, 40.0)
"""Seconds at which RSS is noted (and, with ``--trace``, a ``tracemalloc`` snapshot
taken), unless ``--marks`` says others: what grows between them grows with the runs'
length."""


def build_home(root: Path, live: int, others: int) -> list[Path]:
    """The finished sessions and the live ones' first lines; returns the live files."""
    body = SOURCE.read_bytes()
    projects = root / "claude" / "projects"
    old = time.time() - 86_400
    for number in range(others):
        path = projects / f"-work-old-{number % 20}" / f"old-{number:04d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        os.utime(path, (old + number, old + number))
    files = []
    for number in range(live):
        path = projects / f"-work-live-{number}" / f"live-{number:02d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        prompt = {
            "type": "user",
            "uuid": f"l{number}-0",
            "parentUuid": None,
            "sessionId": f"live-{number}",
            "cwd": f"/work/live-{number}",
            "timestamp": "2026-11-01T10:00:00.000Z",
            "message": {"role": "user", "content": f"live task {number:02d}"},
        }
        path.write_bytes(orjson.dumps(prompt) + b"\n")
        files.append(path)
    return files


def produce(files: list[Path], rate: float, seconds: float) -> int:
    """Append ``rate`` lines a second to each file for ``seconds``; returns lines written."""
    records = [orjson.loads(line) for line in SOURCE.read_bytes().splitlines() if line.strip()]
    records = [record for record in records if record.get("type") in ("user", "assistant")]
    burst = 0.05
    per_burst = rate * burst
    written = 0
    owed = 0.0
    counters = [0] * len(files)
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        owed += per_burst
        lines = int(owed)
        owed -= lines
        for index, path in enumerate(files):
            chunk = []
            for _ in range(lines):
                count = counters[index]
                record = dict(records[count % len(records)])
                record["uuid"] = f"l{index}-{count + 1}"
                record["parentUuid"] = f"l{index}-{count}"
                record["sessionId"] = f"live-{index}"
                chunk.append(orjson.dumps(record) + b"\n")
                counters[index] = count + 1
            with path.open("ab") as out:
                out.write(b"".join(chunk))
            written += len(chunk)
        time.sleep(max(0.0, start + (written / max(1, len(files)) / rate) - time.monotonic()))
    return written


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def top_growth(before: Any, after: Any, count: int = 8) -> list[str]:
    """The ``tracemalloc`` lines that grew most between two snapshots (the frames in
    streamview or the bench that allocated, newest last), as short strings."""
    import tracemalloc

    keep = [tracemalloc.Filter(False, tracemalloc.__file__)]
    stats = after.filter_traces(keep).compare_to(before.filter_traces(keep), "traceback")
    out = []
    for stat in sorted(stats, key=lambda each: each.size_diff, reverse=True)[:count]:
        frames = [
            f"{Path(frame.filename).name}:{frame.lineno}"
            for frame in stat.traceback
            if "streamview" in frame.filename or "bench" in frame.filename
        ][-4:]
        out.append(f"{stat.size_diff / 1024:+.1f} KiB ({stat.count_diff:+d}) {' < '.join(frames)}")
    return out


async def measure(
    seconds: float, trace: bool = False, marks_at: tuple[float, float] = MARKS
) -> dict[str, Any]:
    """The list, its keys, CPU and memory while the producer writes."""
    from textual import events
    from textual.binding import Binding, BindingType

    from streamview.cli import sessions
    from streamview.cli.parsers import build_command_parser
    from streamview.runs.session_index import SessionIndex, index_path
    from streamview.ui.sessions.list_app import SessionsApp

    class ProbeApp(SessionsApp):
        BINDINGS: ClassVar[list[BindingType]] = [
            *SessionsApp.BINDINGS,
            Binding("f12", "bench_ping", show=False, priority=True),
        ]

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.pings: list[float] = []

        def action_bench_ping(self) -> None:
            self.pings.append(time.monotonic())

    args = build_command_parser()[0].parse_args(["sessions"])
    index = SessionIndex(index_path())
    app = ProbeApp(lambda: sessions.find(args, index=index, budget=sessions.READ_BUDGET))
    keys: list[float] = []
    rss: list[tuple[float, float]] = []
    marks: dict[str, float] = {}
    snapshots: list[Any] = []
    if trace:
        import tracemalloc

        tracemalloc.start(25)
    async with app.run_test(headless=True, size=(120, 40)):
        while not app.loaded:
            await asyncio.sleep(0.01)
        began, cpu_began = time.monotonic(), cpu_seconds()
        next_key, next_rss = began + KEY_EVERY, began
        pending = list(marks_at)
        while time.monotonic() - began < seconds:
            now = time.monotonic()
            if now >= next_key:
                keys.append(next_key)
                app.post_message(events.Key("f12", None))
                next_key += KEY_EVERY
            if now >= next_rss:
                rss.append((round(now - began, 1), round(rss_mb(), 1)))
                next_rss += 5.0
            if pending and now - began >= pending[0]:
                gc.collect()
                marks[f"t={pending.pop(0):.0f}s"] = round(rss_mb(), 2)
                if trace:
                    snapshots.append(tracemalloc.take_snapshot())
            await asyncio.sleep(0.002)
        wall, cpu = time.monotonic() - began, cpu_seconds() - cpu_began
        deadline = time.monotonic() + 2.0
        while len(app.pings) < len(keys) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        live_shown = sum(1 for entry in app.entries if entry.live)
        app._live_poll_seconds = None  # no poll left to land on a torn-down screen
        deadline = time.monotonic() + 5.0
        while any(not worker.is_finished for worker in app.workers):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
    latencies = sorted((ping - due) * 1000 for due, ping in zip(keys, app.pings, strict=False))

    def pick(q: float) -> float | None:
        return (
            round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 1)
            if latencies
            else None
        )

    return {
        "key_ms": {"p50": pick(0.5), "p99": pick(0.99), "max": pick(1.0), "count": len(latencies)},
        "keys_lost": len(keys) - len(latencies),
        "cpu_cores": round(cpu / wall, 3),
        "rss_mb": rss,
        "rss_mb_at": marks,
        "rss_growth_mb": (
            round(marks[f"t={marks_at[1]:.0f}s"] - marks[f"t={marks_at[0]:.0f}s"], 2)
            if len(marks) == 2
            else None
        ),
        "traced_growth": top_growth(*snapshots) if len(snapshots) == 2 else None,
        "runs_listed": len(app.entries),
        "live_shown": live_shown,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", type=int, default=50)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument(
        "--trace", action="store_true", help="tracemalloc snapshots at the marks (slower)"
    )
    parser.add_argument(
        "--marks", default="10,40", help="the two seconds RSS is compared at (default 10,40)"
    )
    parser.add_argument("--others", type=int, default=200)
    parser.add_argument("--produce", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.produce is not None:  # the producer: the live files are listed in a file
        files = [Path(line) for line in args.produce.read_text().splitlines()]
        print(produce(files, args.rate, args.seconds))
        return 0
    root = Path(tempfile.mkdtemp(prefix="streamview-sessions-live-"))
    try:
        files = build_home(root, args.live, args.others)
        (root / "live.txt").write_text("\n".join(map(str, files)))
        os.environ.update(
            {
                "HOME": str(root / "home"),
                "CLAUDE_CONFIG_DIR": str(root / "claude"),
                "CODEX_HOME": str(root / "codex"),
                "XDG_CACHE_HOME": str(root / "cache"),
                "XDG_STATE_HOME": str(root / "state"),
                "XDG_CONFIG_HOME": str(root / "config"),
            }
        )
        load_before = os.getloadavg()[0]
        producer = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--produce",
                str(root / "live.txt"),
                "--rate",
                str(args.rate),
                "--seconds",
                str(args.seconds + 5),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            first, last = (float(each) for each in args.marks.split(","))
            result = asyncio.run(measure(args.seconds, args.trace, (first, last)))
        finally:
            written, _ = producer.communicate(timeout=120)
        result["lines_written"] = int(written.strip() or 0)
        result["setup"] = {"live": args.live, "rate": args.rate, "others": args.others}
        print_result(result, load_before)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
