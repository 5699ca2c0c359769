"""Time to the first full screen: ``streamview FILE`` against a bare Textual app, and
against the framework's floor for a screen that shows Markdown.

Usage::

    python bench/first_screen.py [FILE] [--repeats 7] [--size 120x40]

Three programs are started the same way, ``python -m streamview FILE``,
``python bench/bare_textual.py`` and ``python bench/bare_markdown.py FILE`` (a bare
app that shows FILE's final answer as Rich Markdown: what Textual and Rich need to
paint that answer at all), each in a fresh process on its own
pseudo-terminal (``TERM=xterm-256color``, an empty ``XDG_CONFIG_HOME``). The parent
reads what each writes to its terminal, drops the escape sequences, and notes the
moment the text holds every *marker* of its full screen:

- the bare apps: their one line (:data:`bare_textual.LINE`, :data:`bare_markdown.LINE`);
- streamview: what only the finished first screen shows: the playback bar's
  ``event N of N`` (the whole file read and folded), the status bar's outcome, and
  the transcript's last words (:data:`MARKERS` for the bundled recording; ``--marker``,
  given once or more, for another file).

The time runs from just before the process is started (interpreter start-up and
imports count) to that moment; the CPU time is the child's, every thread's, read
from ``/proc/PID/task/*/schedstat`` at that moment (nanoseconds). Then the child is killed. The
programs take turns, ``--repeats`` times each, so all see the same load; the medians
and their ratios (``ratio_*``: streamview over the bare app; ``markdown_ratio_*``: the
Markdown floor over the bare app; ``over_markdown_wall``: streamview over the floor)
are printed as one JSON object, with every sample and the load average. Linux only.
Nothing here fails on timing.
"""

from __future__ import annotations

import argparse
import codecs
import compileall
import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

import orjson

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
MARKERS = {
    RECORDING.name: ("event 170 of 170", "success in", "parameter later."),
}
"""What the finished first screen of a bundled recording shows, at 120x40: the
playback bar with every event folded, the outcome, the answer's last words."""
BARE_LINE = "bare Textual app: one line"
""":data:`bench.bare_textual.LINE` (not imported: that would import Textual here)."""
MARKDOWN_LINE = "bare Markdown app: one line"
""":data:`bench.bare_markdown.LINE`."""
ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, clipboard
    rb"|\x1bP[^\x1b]*\x1b\\"  # DCS
    rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78NOcDEHM]"
)


def markers_for(path: Path) -> tuple[str, ...]:
    """The markers of ``path``'s full first screen (the bundled recording's, or none)."""
    return MARKERS.get(path.name, ())


def cpu_seconds(pid: int) -> float | None:
    """CPU time process ``pid`` has run so far, all its live threads together.

    Read from ``/proc/PID/schedstat`` (nanoseconds, summed over its threads from
    ``/proc/PID/task``), where the kernel has it; else ``utime + stime`` from
    ``/proc/PID/stat`` (clock ticks: 10 ms steps).
    """
    try:
        total = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        pass
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_screen(
    command: list[str],
    markers: tuple[str, ...],
    size: tuple[int, int] = (120, 40),
    timeout: float = 30.0,
    config_home: str | None = None,
) -> dict[str, Any]:
    """Start ``command`` on a new pseudo-terminal; time until its output shows ``markers``.

    Returns ``{"wall_s", "cpu_s", "timed_out", "bytes"}`` (``"missing"`` lists the
    markers never seen, on a time-out).
    """
    columns, rows = size
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(REPO)}
    env["XDG_CONFIG_HOME"] = config_home or tempfile.mkdtemp(prefix="streamview-bench-config-")
    for name in ("COLUMNS", "LINES", "TEXTUAL", "TEXTUAL_DRIVER", "NO_COLOR"):
        env.pop(name, None)
    began = time.monotonic()
    process = subprocess.Popen(
        command,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=REPO,
        start_new_session=True,
    )
    os.close(slave)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    raw = b""
    text = ""
    total = 0
    missing = list(markers)
    wall = cpu = None
    first: tuple[float, float | None] | None = None
    seen: dict[str, float] = {}
    try:
        deadline = began + timeout
        while missing and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 1 << 16)
            except OSError:
                break
            if not data:
                break
            now = time.monotonic()
            if first is None:
                first = (now - began, cpu_seconds(process.pid))
            total += len(data)
            raw += data
            # Strip up to the last escape: one cut in two by the read waits for the rest.
            cut = raw.rfind(b"\x1b")
            cut = len(raw) if cut < 0 else cut
            text += decoder.decode(ESCAPES.sub(b"", raw[:cut]))
            raw = raw[cut:]
            if len(raw) > 4096:  # an escape that never ends: take it as text
                text += decoder.decode(raw)
                raw = b""
            for marker in missing:
                if marker in text:
                    seen[marker] = round(now - began, 3)
            missing = [marker for marker in missing if marker not in text]
            if not missing:
                wall = now - began
                cpu = cpu_seconds(process.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)
    result: dict[str, Any] = {"wall_s": wall, "cpu_s": cpu, "timed_out": wall is None}
    result["bytes"] = total
    result["markers_s"] = seen
    # The first bytes on the terminal: Textual is imported and running (how long the
    # rest took says what the first screen itself cost).
    result["first_output_s"], result["first_output_cpu_s"] = first or (None, None)
    if missing:
        result["missing"] = missing
        result["text_tail"] = text[-2000:]
    return result


def compare(
    path: Path,
    repeats: int,
    size: tuple[int, int] = (120, 40),
    markers: tuple[str, ...] = (),
    python: str = sys.executable,
) -> dict[str, Any]:
    """``streamview FILE`` and the bare app, alternating, ``repeats`` times each.

    Each run gets its own empty ``XDG_CONFIG_HOME``. Medians of the times that
    reached their full screen, and the ratio of the medians.
    """
    markers = markers or markers_for(path)
    if not markers:
        raise SystemExit(f"no markers known for {path.name}: give --marker")
    # An installed package has its bytecode compiled; a checkout run with
    # PYTHONDONTWRITEBYTECODE (set on some machines) would compile every changed module
    # from source at each start (8 ms for the app's module alone) and time that instead.
    compileall.compile_dir(REPO / "streamview", quiet=1)
    compileall.compile_dir(BENCH, quiet=1, maxlevels=0)
    load_before = os.getloadavg()[0]
    runs: dict[str, list[dict[str, Any]]] = {"bare": [], "markdown": [], "streamview": []}
    commands = {
        "bare": ([python, str(BENCH / "bare_textual.py")], (BARE_LINE,)),
        "markdown": ([python, str(BENCH / "bare_markdown.py"), str(path)], (MARKDOWN_LINE,)),
        "streamview": ([python, "-m", "streamview", str(path)], markers),
    }
    for index in range(repeats):
        # Rotate which goes first too: a burst of load then falls on all alike.
        order = list(commands)[index % 3 :] + list(commands)[: index % 3]
        for name in order:
            command, wanted = commands[name]
            with tempfile.TemporaryDirectory(prefix="streamview-bench-config-") as config:
                runs[name].append(first_screen(command, wanted, size, config_home=config))
    result: dict[str, Any] = {"file": path.name, "size": f"{size[0]}x{size[1]}"}
    for name, samples in runs.items():
        walls = [run["wall_s"] for run in samples if run["wall_s"] is not None]
        cpus = [run["cpu_s"] for run in samples if run["cpu_s"] is not None]
        result[name] = {
            "wall_s": statistics.median(walls) if walls else None,
            "cpu_s": statistics.median(cpus) if cpus else None,
            "samples_wall_s": [run["wall_s"] for run in samples],
            "samples_cpu_s": [run["cpu_s"] for run in samples],
            "timed_out": sum(run["timed_out"] for run in samples),
        }
        failed = next((run for run in samples if run["timed_out"]), None)
        if failed is not None:
            result[name]["missing"] = failed.get("missing")
            result[name]["text_tail"] = failed.get("text_tail")
    bare, floor, viewer = result["bare"], result["markdown"], result["streamview"]
    result["ratio_wall"] = _ratio(viewer["wall_s"], bare["wall_s"])
    result["ratio_cpu"] = _ratio(viewer["cpu_s"], bare["cpu_s"])
    # The floor: what painting Markdown with Textual and Rich costs by itself.
    result["markdown_ratio_wall"] = _ratio(floor["wall_s"], bare["wall_s"])
    result["markdown_ratio_cpu"] = _ratio(floor["cpu_s"], bare["cpu_s"])
    result["over_markdown_wall"] = _ratio(viewer["wall_s"], floor["wall_s"])
    result["load_before"] = load_before
    result["load_after"] = os.getloadavg()[0]
    return result


def _ratio(top: float | None, bottom: float | None) -> float | None:
    return top / bottom if top and bottom else None


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, nargs="?", default=RECORDING)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--size", default="120x40", help="COLUMNSxROWS")
    parser.add_argument("--marker", action="append", default=[], help="text of the full screen")
    args = parser.parse_args(argv)
    columns, rows = (int(part) for part in args.size.lower().split("x"))
    result = compare(args.file, args.repeats, (columns, rows), tuple(args.marker))
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
