"""How much CPU the viewer uses while nothing happens, in a real terminal.

Usage::

    python bench/idle_probe.py FILE [--seconds 20] [--pipe]

Starts ``python -m streamview FILE`` on a pseudo-terminal (120x40), or with
``--pipe`` ``python -m streamview`` reading a pipe that gets FILE's first lines and
then stays open and silent. It waits until the screen has been quiet for a while
(the file is folded, the first frames drawn; at most :data:`SETTLE_LIMIT_S`: a viewer
that never stops repainting is measured as it is), then counts the process's CPU ticks
(``utime + stime`` of ``/proc/PID/stat``) over ``--seconds`` and prints one JSON
object: ``cpu_percent`` (of one core), ``ticks``, ``seconds``, ``mode``. Linux only.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
SETTLE_LIMIT_S = 10.0
"""Longest wait for the screen to go quiet before counting."""
PIPE_LINES = 5
"""Lines a ``--pipe`` run gets before the producer falls silent."""


def cpu_ticks(pid: int) -> int:
    """User plus system clock ticks of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def drain(fd: int, seen: list[float]) -> None:
    """Read the terminal's output until it closes, noting when output last came."""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        if not data:
            return
        seen[0] = time.monotonic()


def probe(path: Path, seconds: float, pipe: bool, quiet: float = 2.0) -> dict[str, object]:
    """Measure the viewer's idle CPU on ``path`` (finished file, or a silent pipe)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(REPO)}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    args = [sys.executable, "-m", "streamview"]
    stdin: int = slave
    writer = None
    if pipe:
        read_end, writer = os.pipe()
        stdin = read_end
        with path.open("rb") as handle:
            head = b"".join(line for _, line in zip(range(PIPE_LINES), handle, strict=False))
        os.write(writer, head)
    else:
        args.append(str(path))
    process = subprocess.Popen(
        args, stdin=stdin, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    if pipe:
        os.close(stdin)
    seen = [time.monotonic()]
    threading.Thread(target=drain, args=(master, seen), daemon=True).start()
    try:
        deadline = time.monotonic() + SETTLE_LIMIT_S
        while time.monotonic() - seen[0] < quiet and time.monotonic() < deadline:
            time.sleep(0.1)
        before = cpu_ticks(process.pid)
        time.sleep(seconds)
        ticks = cpu_ticks(process.pid) - before
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
        if writer is not None:
            os.close(writer)
        os.close(master)
    hertz = os.sysconf("SC_CLK_TCK")
    return {
        "mode": "silent pipe" if pipe else "finished file",
        "ticks": ticks,
        "seconds": seconds,
        "cpu_percent": round(100 * ticks / hertz / seconds, 2),
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pipe", action="store_true", help="a silent pipe, not a file")
    args = parser.parse_args(argv)
    result = probe(args.file, args.seconds, args.pipe)
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
