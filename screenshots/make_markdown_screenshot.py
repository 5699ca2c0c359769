"""Build ``screenshots/ci-summary.png``: the CI summary ``--export-markdown - --summary``
writes, rendered as a job's summary page renders Markdown.

Run from the repository root (Playwright and Debian's ``/usr/bin/chromium`` needed)::

    python screenshots/make_markdown_screenshot.py

The bundled ``recordings/success-multi-tool.ndjson`` is exported as a CI step exports
it, the Markdown is rendered by a CommonMark parser (markdown-it-py, tables on, its
``<details>`` kept) into a page styled like a code host's, and the page is opened
offline in headless Chromium, its failure's output unfolded, and photographed.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[1]
RECORDING = Path("recordings") / "success-multi-tool.ndjson"
OUT = REPO / "screenshots" / "ci-summary.png"
WIDTH = 1100
HEIGHT = 1030
"""The top of the page: the summary, the calls' table, the failure folded below."""

sys.path.insert(0, str(REPO))
from tests.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

STYLE = """
body { font: 14px/1.5 -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1f2328;
       background: #fff; margin: 0; padding: 24px 32px; }
h3, h4 { margin: 18px 0 8px; } h3 { font-size: 20px; border-bottom: 1px solid #d1d9e0;
       padding-bottom: 6px; } h4 { font-size: 16px; }
table { border-collapse: collapse; margin: 8px 0 14px; font-size: 13px; }
th, td { border: 1px solid #d1d9e0; padding: 4px 10px; }
td:not(:has(code)) { white-space: nowrap; }
tr:nth-child(2n) td { background: #f6f8fa; }
code { font: 12px "DejaVu Sans Mono", monospace; background: #eff1f3; padding: 1px 4px;
       border-radius: 4px; }
pre { background: #f6f8fa; padding: 10px; border-radius: 6px; overflow: hidden; }
pre code { background: none; padding: 0; }
details { margin: 8px 0; } summary { cursor: pointer; }
"""


def summary_markdown(recording: Path) -> str:
    """The CI summary of ``recording``, as the command line writes it to stdout."""
    command = [sys.executable, "-m", "streamview", str(recording)]
    done = subprocess.run(
        [*command, "--export-markdown", "-", "--summary"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    return done.stdout


def page_html(markdown: str) -> str:
    """The summary rendered by a CommonMark parser, in a page of its own."""
    body = MarkdownIt("commonmark").enable("table").render(markdown)
    return f"<!doctype html><meta charset=utf-8><style>{STYLE}</style><body>{body}</body>"


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        page_path = Path(folder) / "summary.html"
        page_path.write_text(page_html(summary_markdown(RECORDING)), encoding="utf-8")
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, offline=True)
            page = context.new_page()
            page.goto(page_path.as_uri())
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            page.screenshot(path=str(OUT), clip={"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT})
        finally:
            browser.close()
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
