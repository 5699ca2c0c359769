"""``r`` on a call whose record nests 900 deep, then Escape and ``q`` (issue 26.4): the
raw view spun at 100 % CPU with the keys ignored."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.test_deep_nesting import deep_run

from streamview.sources.base import FileSource
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle, settle_sections, wait_for


async def test_r_on_a_900_deep_call_then_escape_and_q_work(tmp_path: Path) -> None:
    """The issue's case: ``r`` spun at 100 % CPU and Escape and ``q`` were ignored."""
    app = StreamviewApp(FileSource(deep_run(tmp_path / "run.ndjson")), clock=FakeClock())
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        await pilot.press("r")
        await settle_sections(app, pilot)
        screen = app.screen
        assert isinstance(screen, ToolCallDetailScreen) and screen.raw
        shown = "\n".join(view.text for view in screen.query(SectionView))
        assert "raw JSON" in shown and "… nested" in shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ToolCallDetailScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running)


async def test_a_loader_that_fails_is_shown_and_the_keys_still_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any exception while a call's details are built is shown in one line, not handed to
    Textual's report of a failed worker (which painted the worker's locals)."""

    def fail(self: ToolCallDetailScreen) -> list[object]:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(ToolCallDetailScreen, "build_sections", fail)
    app = StreamviewApp(FileSource(deep_run(tmp_path / "run.ndjson", 3)), clock=FakeClock())
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        shown = "\n".join(view.text for view in app.screen.query(SectionView))
        assert "could not show this" in shown
        assert "RecursionError: maximum recursion depth exceeded" in shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ToolCallDetailScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running)
