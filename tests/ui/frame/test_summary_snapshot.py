"""The summary screen as an SVG snapshot (regenerate with ``--snapshot-update`` on this
test, then render it to PNG and look at it before committing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.summary_screen import SummaryScreen

from ..conftest import RECORDINGS, FakeClock, settle, wait_for


def test_summary_screen(snap_compare: Callable[..., bool]) -> None:
    """success-multi-tool.ndjson summed up over the viewer: "success in 36.5s · 10 calls ·
    1 failed or refused · 2 files +18 -7", the tokens, the two edited files with their
    +/- lines, the two pytest runs (✗ exit 1, ✓ exit 0) and the failed one."""
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen))
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(110, 34), run_before=run_before)
