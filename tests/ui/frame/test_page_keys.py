"""PgUp and PgDn as a person presses them (issue 30.5): a page at once, like Home and
End, in every pane that scrolls (transcript, tool calls, a call's details, the event
log, the help), never a glide through the pages between (Textual animates them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import RECORDINGS, FakeClock, settle, wait_for

RECORDING = RECORDINGS / "long-run.ndjson"


def glides(widget: Widget) -> list[str]:
    """Every attribute ``widget`` animates from now on (its scroll, for a glide)."""
    seen: list[str] = []
    animate = widget.animate

    def spy(attribute: str, *args: Any, **kwargs: Any) -> None:
        seen.append(attribute)
        animate(attribute, *args, **kwargs)

    widget.animate = spy  # type: ignore[method-assign]
    return seen


async def open_pane(pilot: Pilot[Any], where: str) -> Widget:
    """Go where ``where`` scrolls, as a person would; the widget that scrolls there."""
    app = pilot.app
    assert isinstance(app, StreamviewApp)
    if where == "transcript":
        await pilot.press("home")
        return app.transcript
    await pilot.press("tab")
    if where == "table":
        await pilot.press("home")
        return app.tool_table
    if where == "help":
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        return app.screen.query_one("#help-box")
    await pilot.press("l" if where == "log" else "enter")
    await wait_for(pilot, lambda: app.screen is not app.main_screen)
    await pilot.pause()
    focused = app.focused
    assert focused is not None
    return focused


def position(widget: Widget) -> float:
    """Where a pane is: its cursor row (tables of rows), else its scroll."""
    cursor = getattr(widget, "cursor", None)
    return float(cursor) if isinstance(cursor, int) else widget.scroll_y


@pytest.mark.parametrize("where", ["transcript", "table", "details", "log", "help"])
async def test_page_keys_jump_a_page_at_once(where: str, tmp_path: Path) -> None:
    run = tmp_path / "run.ndjson"  # a long run, and lines that are not JSON: a long log
    noise = b"".join(b"not json %d\n" % number for number in range(120))
    run.write_bytes(RECORDING.read_bytes() + noise)
    app = StreamviewApp(FileSource(run), clock=FakeClock())
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        pane = await open_pane(pilot, where)
        await wait_for(pilot, lambda: pane.max_scroll_y > 2 * pane.size.height)  # pages
        seen = glides(pane)
        start = position(pane)
        await pilot.press("pagedown")
        one = position(pane)  # at once: no frame has passed for a glide to finish
        assert one > start + 3, (start, one)
        await pilot.press("pagedown")
        two = position(pane)
        assert two - one == pytest.approx(one - start, abs=1), (start, one, two)
        await pilot.press("pageup")
        assert position(pane) == pytest.approx(one, abs=1)
        assert not [name for name in seen if name.startswith("scroll")], seen
