"""What following fifty live sessions costs the sessions list (issue 27, point 4).

Fifty Claude Code session files are appended at 20 lines a second each (a call and its
result, in turn) while a :class:`~streamview.runs.session_live.LiveTracker` polls them
every 0.5 s, as the list does. Printed: the share of a core the polls take, their p50
and p99, and the memory the tracker holds after the first and the last third of the
run (``tracemalloc``): it must not grow with the runs' length.

    python bench/session_live_probe.py [--runs 50] [--rate 20] [--seconds 15]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from streamview.runs.session_live import LiveTracker  # noqa: E402
from tests.sessions.live_lines import Claude, lines  # noqa: E402


def main() -> int:
    """Append, poll, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rate", type=int, default=20, help="lines a second per run")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument(
        "--memory", action="store_true", help="trace the memory (slows every poll down)"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        writers = []
        for number in range(options.runs):
            claude = Claude(cwd=f"/home/me/work/p{number}")
            path = Path(folder) / f"s{number}.jsonl"
            path.write_bytes(lines(claude.prompt("go", time.time())))
            writers.append((claude, path))
        tracker = LiveTracker()
        paths = [path for _, path in writers]
        tracker.poll(paths)
        if options.memory:
            tracemalloc.start()
        polls: list[float] = []
        memory: list[int] = []
        spent = 0.0
        start = time.monotonic()
        next_poll = start + 0.5
        tick = 0
        while time.monotonic() - start < options.seconds:
            tick += 1
            for claude, path in writers:  # one tick's lines for every run
                now = time.time()
                records = []
                for _ in range(max(1, options.rate // 10)):
                    call = claude.call("Bash", {"command": f"make step{tick}"}, now)
                    records += [call, claude.result(call, now)]
                with path.open("ab") as file:
                    file.write(lines(*records[: max(1, options.rate // 10)]))
            if time.monotonic() >= next_poll:
                began, cpu = time.perf_counter(), time.process_time()
                tracker.poll(paths)
                polls.append(time.perf_counter() - began)
                spent += time.process_time() - cpu
                next_poll += 0.5
                if options.memory:
                    gc.collect()
                    memory.append(tracemalloc.get_traced_memory()[0])
            time.sleep(max(0.0, 0.1 - (time.monotonic() - start) % 0.1))
        wall = time.monotonic() - start
        tracemalloc.stop()
    polls.sort()
    print(f"{options.runs} runs x {options.rate} lines/s for {wall:.0f} s, {len(polls)} polls")
    print(f"polls: {spent / wall * 100:.1f}% of a core (CPU time of the polls / wall time)")
    p99 = polls[min(len(polls) - 1, int(len(polls) * 0.99))]
    print(f"poll p50 {statistics.median(polls) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    if memory:
        third = max(1, len(memory) // 3)
        early, late = statistics.mean(memory[:third]), statistics.mean(memory[-third:])
        print(f"tracker memory: first third {early / 1024:.0f} KiB, last {late / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
