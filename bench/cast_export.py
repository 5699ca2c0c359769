"""How long ``--export-cast`` takes on a run of 10,000 tool calls, and how big the cast is.

Usage::

    python bench/cast_export.py                  # the 150k-event synth run, -s 50 -i 0.2
    python bench/cast_export.py --events 20000   # a smaller run
    python bench/cast_export.py --speed 4 --idle 1

The recording is written by ``bench/generate.py`` (deterministic, seed 0) into
``bench/data/`` the first time (the same file ``bench/html_export.py`` uses). The export
runs as a user runs it (``python -m streamview FILE --export-cast OUT -s X -i S``) in a
child process; its wall time and peak RSS (``os.wait4``) are printed with the cast's
frames, length and size. Nothing fails on timing: it prints a table.

The default speed and idle limit are a long run's: the cast's cost follows its frames,
and at ``-s 50 -i 0.2`` the 10,000-call run plays in under two minutes
(``bench/PERFORMANCE.md`` has the figures).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  (bench/ is a folder of scripts)
from export_child import export_child  # noqa: E402

EVENTS = 150_000
"""About 10,000 tool calls in the synth run."""


def export_once(recording: Path, cast: Path, speed: float, idle: float) -> tuple[float, int]:
    """``(wall seconds, peak RSS bytes)`` of one ``--export-cast`` child."""
    return export_child(recording, ["--export-cast", str(cast), "-s", str(speed), "-i", str(idle)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=EVENTS, help=f"default {EVENTS:,}")
    parser.add_argument("--speed", type=float, default=50.0, help="-s (default 50)")
    parser.add_argument("--idle", type=float, default=0.2, help="-i (default 0.2)")
    args = parser.parse_args(argv)
    recording = HERE / "data" / f"html_{args.events}.ndjson"
    if not recording.exists():
        generate.generate(args.events, recording)
    with tempfile.TemporaryDirectory() as folder:
        cast = Path(folder) / "run.cast"
        wall, rss = export_once(recording, cast, args.speed, args.idle)
        lines = cast.read_text(encoding="utf-8").splitlines()
        frames = len(lines) - 1
        length = json.loads(lines[-1])[0] if frames else 0.0
        size = cast.stat().st_size
    print(
        "| events | recording | -s / -i | export | peak RSS | frames | cast length | cast |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|",
        f"| {args.events:,} | {recording.stat().st_size / 1e6:.1f} MB | {args.speed:g} / "
        f"{args.idle:g} | {wall:.1f} s | {rss / 1e6:.0f} MB | {frames:,} | {length:.0f} s "
        f"| {size / 1e6:.1f} MB |",
        sep="\n",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
