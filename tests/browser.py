"""The browser every browser test, the bench and the screenshot script drive: Debian's
Chromium (``.ci/run`` installs it), launched by Playwright by its path, headless, with
no background traffic (Playwright's own browser download does not work on these
machines, and Chromium's background connections are refused by their closed network)."""

from __future__ import annotations

from pathlib import Path

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
