"""The reliability campaign: hostile input, faults, scale and fuzzing, with figures.

Usage::

    python bench/reliability.py            # the whole campaign (several minutes)
    python bench/reliability.py --quick    # smaller counts, for a smoke run
    python bench/reliability.py --markdown bench/RELIABILITY.md

It runs the same checks as ``tests/hostile/`` with much larger counts and prints what
was tried and what held, as Markdown, ready for the README's "Reliability" section.
Every failure is listed with what it was; the exit status is 1 if anything failed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.reliability_core import part_faults, part_fuzz, part_print, part_sanitizer  # noqa: E402
from bench.reliability_input import part_input  # noqa: E402
from bench.reliability_report import Part, markdown_report, timed  # noqa: E402
from bench.reliability_run import part_run_control  # noqa: E402
from bench.reliability_runs import part_runs  # noqa: E402
from bench.reliability_viewer import (  # noqa: E402
    SCALE,
    drive,
    part_app_fuzz,
    part_live,
    part_markdown,
    part_scale,
)

PARTS = (
    "safety",
    "print",
    "fuzz",
    "faults",
    "scale",
    "markdown",
    "live",
    "viewer",
    "runs",
    "run",
    "input",
)
"""The campaign's parts, in the order they run (``--only`` picks some)."""


def main(argv: list[str] | None = None) -> int:
    """Run the campaign; print the Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small counts, a smoke run")
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    parser.add_argument("--drive", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--only", help="comma-separated parts to run: " + ", ".join(PARTS))
    args = parser.parse_args(argv)
    if args.drive:
        drive(*args.drive)
        return 0
    quick = args.quick
    only = set(args.only.split(",")) if args.only else set(PARTS)
    if only - set(PARTS):
        parser.error(f"unknown part: {', '.join(sorted(only - set(PARTS)))}")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="streamview-reliability-") as tmp:
        workdir = Path(tmp)
        runs: dict[str, tuple[Callable[[Part], None], str]] = {
            "safety": (lambda p: part_sanitizer(p, 2_000 if quick else 200_000), "Terminal safety"),
            "print": (lambda p: part_print(p, workdir), "Hostile text through the real command"),
            "fuzz": (lambda p: part_fuzz(p, 200 if quick else 20_000), "Fuzzing the core"),
            "faults": (lambda p: part_faults(p, workdir, 3 if quick else 30), "Faults"),
            "scale": (
                lambda p: part_scale(
                    p, workdir, ["calls-10k", "sessions-100"] if quick else list(SCALE)
                ),
                "Scale",
            ),
            "markdown": (lambda p: part_markdown(p, workdir), "Pathological Markdown"),
            "live": (part_live, "Heavy answers, live"),
            "viewer": (
                lambda p: part_app_fuzz(p, workdir, 3 if quick else 40),
                "Fuzzing the viewer",
            ),
            "runs": (
                lambda p: part_runs(p, workdir, 6 if quick else 24),
                "Recorded runs: at once, a full disk, a failing agent, file modes",
            ),
            "run": (
                lambda p: part_run_control(p, workdir, 2 if quick else 5),
                "Run mode: signals, lingering children, a closed output",
            ),
            "input": (
                lambda p: part_input(p, workdir, 1 if quick else 5),
                "Replaced files and endless input (issue 20)",
            ),
        }
        parts = [timed(run, title) for name, (run, title) in runs.items() if name in only]
    seconds = time.perf_counter() - started
    report = markdown_report(parts, seconds, quick)
    print("\n" + report)
    if args.markdown:
        args.markdown.write_text(report + "\n", encoding="utf-8")
    return 1 if any(part.failures for part in parts) else 0


if __name__ == "__main__":
    raise SystemExit(main())
