"""How long ``--export-markdown OUT --summary`` (a CI job's summary) takes on a run of
10,000 tool calls, how big it comes out and what it cut.

Usage::

    python bench/ci_summary.py                 # the 150k-event synth run, about 10,000 calls
    python bench/ci_summary.py --events 20000  # a smaller run

The recording is written by ``bench/generate.py`` (deterministic, seed 0) into
``bench/data/`` the first time (the same file as ``bench/html_export.py``'s). The export
runs as a CI step runs it, in a child process, ``--repeats`` times; the best wall time
is kept, with the child's peak RSS. Nothing fails on timing: it prints a table.
"""

from __future__ import annotations

import argparse
import re
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


def export_once(recording: Path, out: Path) -> tuple[float, int]:
    """``(wall seconds, peak RSS bytes)`` of one ``--export-markdown OUT --summary`` child."""
    return export_child(recording, ["--export-markdown", str(out), "--summary"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=EVENTS, help=f"default {EVENTS:,}")
    parser.add_argument("--repeats", type=int, default=3, help="exports timed (default 3)")
    args = parser.parse_args(argv)
    recording = HERE / "data" / f"html_{args.events}.ndjson"
    if not recording.exists():
        generate.generate(args.events, recording)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "summary.md"
        runs = [export_once(recording, out) for _ in range(max(1, args.repeats))]
        text = out.read_text(encoding="utf-8")
    calls = sum(1 for line in text.splitlines() if re.match(r"\| \d+\.\d+ \|", line))
    cut = next((line for line in text.splitlines() if line.startswith("*Cut")), "nothing cut")
    print("| events | recording | export (best) | peak RSS | summary | calls in its table |")
    print("|--:|--:|--:|--:|--:|--:|")
    print(
        f"| {args.events:,} | {recording.stat().st_size / 1e6:.1f} MB "
        f"| {min(r[0] for r in runs):.2f} s | {max(r[1] for r in runs) / 1e6:.0f} MB "
        f"| {len(text.encode('utf-8')) / 1e3:.1f} KB | {calls:,} |"
    )
    print(cut)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
