"""How long ``--export-html`` takes on a run of 10,000 tool calls, and how big the page is.

Usage::

    python bench/html_export.py                 # the 150k-event synth run, about 10,000 calls
    python bench/html_export.py --events 20000  # a smaller run
    python bench/html_export.py --browser       # also open the page in headless Chromium

The recording is written by ``bench/generate.py`` (deterministic, seed 0) into
``bench/data/`` the first time. The export runs as a user runs it (``python -m
streamview FILE --export-html OUT``) in a child process, ``--repeats`` times; the best
wall time is kept (other jobs on a shared machine only ever add time) with the child's
peak RSS from ``os.wait4``. With ``--browser``, the page is loaded from ``file://`` in
Debian's Chromium (Playwright), and the time to the ``load`` event and to the first
call's detail laid out are printed too. Nothing fails on timing: it prints a table.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  (bench/ is a folder of scripts)
from export_child import export_child  # noqa: E402

sys.path.insert(0, str(REPO))
from tests.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

EVENTS = 150_000
"""About 10,000 tool calls in the synth run (6,805 in 100,000 events)."""


def export_once(recording: Path, page: Path) -> tuple[float, int]:
    """``(wall seconds, peak RSS bytes)`` of one ``--export-html`` child."""
    return export_child(recording, ["--export-html", str(page)])


def browser_times(page: Path) -> tuple[float, float]:
    """``(seconds to load, seconds to the first call's detail)`` in headless Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            tab = browser.new_context(offline=True).new_page()
            began = time.perf_counter()
            tab.goto(page.as_uri(), timeout=300_000)
            loaded = time.perf_counter() - began
            began = time.perf_counter()
            tab.evaluate("() => { document.querySelector('details.call').open = true; }")
            tab.locator("details.call .detail .section").first.wait_for(timeout=300_000)
            opened = time.perf_counter() - began
        finally:
            browser.close()
    return loaded, opened


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=EVENTS, help=f"default {EVENTS:,}")
    parser.add_argument("--repeats", type=int, default=3, help="exports timed (default 3)")
    parser.add_argument("--browser", action="store_true", help="also time Chromium")
    args = parser.parse_args(argv)
    recording = HERE / "data" / f"html_{args.events}.ndjson"
    if not recording.exists():
        generate.generate(args.events, recording)
    from streamview.core.reader import fold

    with recording.open("rb") as handle:
        state = fold(iter(lambda: handle.read(1 << 20), b""))
    calls = sum(len(session.tool_calls) for session in state.sessions)
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "run.html"
        runs = [export_once(recording, page) for _ in range(max(1, args.repeats))]
        wall = min(run[0] for run in runs)
        rss = max(run[1] for run in runs)
        size = page.stat().st_size
        row = (
            f"| {args.events:,} | {calls:,} | {recording.stat().st_size / 1e6:.1f} MB "
            f"| {wall:.2f} s | {rss / 1e6:.0f} MB | {size / 1e6:.1f} MB |"
        )
        head = "| events | tool calls | recording | export (best) | peak RSS | page |"
        rule = "|--:|--:|--:|--:|--:|--:|"
        if args.browser:
            loaded, opened = browser_times(page)
            head += " Chromium load | first call opened |"
            rule += "--:|--:|"
            row += f" {loaded:.2f} s | {opened:.2f} s |"
    print(head, rule, row, sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
