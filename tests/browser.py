"""The browser every browser test, the bench and the screenshot script drive: Debian's
Chromium (``.ci/run`` installs it), launched by Playwright by its path, headless, with
no background traffic (Playwright's own browser download does not work on these
machines, and Chromium's background connections are refused by their closed network)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium() -> Iterator[Browser]:
    """The browser, launched once for a module's tests (``tests/conftest.py`` makes it
    the ``chromium`` fixture); the test is skipped, or under ``.ci/run`` failed, when
    Playwright or Chromium is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()
