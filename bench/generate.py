"""Write a large, deterministic, realistic streamview recording for benchmarks.

Usage::

    python bench/generate.py --events 100000 --out bench/data/events_100k.ndjson
    python bench/generate.py --events 2000 --out /tmp/small.ndjson --seed 7
    python bench/generate.py --sizes        # 10k, 100k and 1M into bench/data/

The output is a stream-json file as the Cursor agent CLI prints it, with each line
stamped ``"streamview_recv_ms"`` (the recording format, see ``recordings/README.md``).
It holds several runs back to back (each ``init`` ... ``result``, as when runs are
appended to one log). About 80% of the lines are thinking and assistant token deltas
(Markdown and code); the rest are tool calls of every kind with 1-20 KB results,
pytest output with ANSI colours and ``\\r\\n``, edits with diffs and both full file
contents, approvals, reconnects and context-compaction silences. Files of 100k
events or more get one multi-MB line per 100k events. Lines are written as they are
made, so memory stays flat however large the file.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import BinaryIO

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth  # bench/ is a folder of scripts, not a package

START_MS = 1789650000000
"""CLI clock of the first record (September 2026, like the newest captures)."""

HUGE_EVERY = 100_000
"""One multi-MB line per this many events."""

SIZES = {"10k": 10_000, "100k": 100_000, "1m": 1_000_000}
"""What ``--sizes`` writes into ``bench/data/``."""

MODELS: tuple[tuple[str, synth.CallIdStyle], ...] = (
    ("Composer 2.5 Fast", "tool"),
    ("GPT-5 Mini", "openai"),
    ("GPT-5", "openai"),
    ("Composer 2.5", "tool"),
)
"""Display names with the call-id style each family prints."""


def huge_positions(events: int) -> list[int]:
    """Event indexes after which a multi-MB line goes (none below 100k events)."""
    return [k * HUGE_EVERY + HUGE_EVERY // 2 for k in range(events // HUGE_EVERY)]


def write_recording(out: BinaryIO, events: int, seed: int = 0) -> int:
    """Write about ``events`` recording lines to ``out``.

    Args:
        out: A binary file (or anything with ``write(bytes)``).
        events: Target number of lines.
        seed: Seed of the single ``random.Random`` everything draws from.

    Returns:
        The number of lines written.
    """
    rng = random.Random(seed)
    project = synth.FakeProject(rng)
    pending = huge_positions(events)
    written = 0
    clock = START_MS
    while events - written > 0:
        remaining = events - written
        budget = rng.randint(1500, 25000)
        if remaining - budget < 1500:
            budget = remaining
        model, style = rng.choice(MODELS)
        run = synth.Run(
            rng,
            out.write,
            start_ms=clock,
            cwd=project.cwd,
            model=model,
            partial=rng.random() < 0.8,
            call_id_style=style,
            token_gap_ms=(0, 25) if style == "tool" else (4, 40),
        )
        due = [max(0, p - written) for p in pending if p < written + budget - 200]
        pending = pending[len(due) :]
        session = synth.RandomSession(
            run,
            project,
            payload_kb=(1.0, 20.0),
            think_sentences=(1, 3),
            think_words=4,
            code_chance=0.12,
            huge_lines_at=due,
        )
        session.play(budget)
        written += run.count
        clock = run.now + rng.randint(5_000, 90_000)
    return written


def generate(events: int, path: Path, seed: int = 0) -> tuple[int, int, float]:
    """Write a recording file.

    Args:
        events: Target number of lines.
        path: Destination; parent folders are created.
        seed: Random seed.

    Returns:
        ``(lines, bytes, seconds)``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    with path.open("wb", buffering=1 << 20) as out:
        lines = write_recording(out, events, seed)
    return lines, path.stat().st_size, time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, help="target number of lines")
    parser.add_argument("--out", type=Path, help="output file")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--sizes", action="store_true", help="write events_10k/100k/1m.ndjson into bench/data/"
    )
    args = parser.parse_args(argv)
    jobs: list[tuple[int, Path]] = []
    if args.sizes:
        data = Path(__file__).resolve().parent / "data"
        jobs += [(n, data / f"events_{name}.ndjson") for name, n in SIZES.items()]
    if args.events is not None or args.out is not None:
        if args.events is None or args.out is None:
            parser.error("--events and --out go together")
        jobs.append((args.events, args.out))
    if not jobs:
        parser.error("give --events N --out PATH, or --sizes")
    for events, path in jobs:
        lines, size, seconds = generate(events, path, args.seed)
        print(
            f"{path}: {lines} lines, {size / 1e6:.1f} MB "
            f"({size / max(lines, 1) / 1024:.2f} KB/line) in {seconds:.1f} s",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
