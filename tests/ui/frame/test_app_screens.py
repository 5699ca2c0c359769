"""Screens over the viewer: a call's details (enter, a click) and the event log (l)."""

from __future__ import annotations

from pathlib import Path

from streamview.ui.calls.table import ToolCallTable
from streamview.ui.transcript.transcript import Transcript

from ..conftest import (
    capture,
    lines_of,
    settle,
)
from .pilot_helpers import (
    PROBE_43,
    RECORDINGS,
    file_app,
    screen_lines,
)


async def test_enter_on_a_row_opens_the_call_and_escape_comes_back() -> None:
    from streamview.ui.details.screen import ToolCallDetailScreen

    app = file_app(RECORDINGS / "success-multi-tool.ndjson")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        session = app.state.sessions[-1]
        edit = next(call for call in session.tool_calls if call.kind == "edit")
        table = app.query_one(ToolCallTable)
        await pilot.press("tab")
        assert table.has_focus
        table.select_call(edit.index)
        await pilot.pause()
        # The transcript marks the call under the table's cursor.
        transcript = app.query_one(Transcript)
        assert transcript._marked == transcript._entries.of_call(edit.index)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ToolCallDetailScreen)
        assert app.screen.call is edit
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
        await pilot.press("shift+tab")
        assert transcript.has_focus
        assert transcript._marked is None


async def test_clicking_a_tool_marker_opens_the_call() -> None:
    from streamview.ui.details.screen import ToolCallDetailScreen

    app = file_app(capture(PROBE_43))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        row = next(y for y, line in enumerate(screen_lines(transcript)) if "●" in line)
        await pilot.click(Transcript, offset=(5, row + 1))  # + 1: the border
        await pilot.pause()
        assert isinstance(app.screen, ToolCallDetailScreen)
        assert app.screen.call is app.state.sessions[0].tool_calls[0]


async def test_l_opens_the_event_log(tmp_path: Path) -> None:
    from streamview.ui.log.event_log import EventLogScreen

    path = tmp_path / "odd.ndjson"
    path.write_bytes(b"not json at all\n" + b"".join(lines_of(PROBE_43)))
    app = file_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, EventLogScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
