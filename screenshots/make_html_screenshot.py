"""Build ``screenshots/html-export.png``: the page ``--export-html`` writes, in a browser.

Run from the repository root (Playwright and Debian's ``/usr/bin/chromium`` needed)::

    python screenshots/make_html_screenshot.py

The bundled ``recordings/success-multi-tool.ndjson`` is exported as ``--export-html``
does, opened offline in headless Chromium, the first edit is opened (its diff coloured)
and the top of the page is photographed. ``tests/html_export/test_html_browser.py``
runs :func:`shoot` too, so the picture is made the way the test reads the page.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RECORDING = Path("recordings") / "success-multi-tool.ndjson"
"""Relative to the repository: the page's title is the name it was given."""
OUT = REPO / "screenshots" / "html-export.png"

sys.path.insert(0, str(REPO))
from tests.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

EDIT = "details.call:has(.kind:text-is('edit'))"
"""The first edit: the picture shows a call opened, its diff coloured."""


def export(recording: Path, page: Path) -> None:
    """Write ``recording`` as a page, through the command line a user runs."""
    subprocess.run(
        [sys.executable, "-m", "streamview", str(recording), "--export-html", str(page)],
        check=True,
        cwd=REPO,
        capture_output=True,
    )


def shoot(browser: Any, page_path: Path, out: Path, scheme: str = "light") -> None:
    """Open ``page_path`` offline, open its first edit and photograph the top."""
    context = browser.new_context(
        viewport={"width": 1100, "height": 2400}, color_scheme=scheme, offline=True
    )
    try:
        page = context.new_page()
        page.goto(page_path.as_uri())
        edit = page.locator(EDIT).first
        edit.evaluate("call => { call.open = true; }")
        edit.locator("pre.diff .add").first.wait_for()
        # From the header down to the end of the opened edit, its diff whole.
        box = edit.bounding_box()
        height = 1300 if box is None else box["y"] + box["height"] + 24
        page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": 1100, "height": height})
    finally:
        context.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        page = Path(folder) / "run.html"
        export(RECORDING, page)
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            shoot(browser, page, OUT)
        finally:
            browser.close()
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
