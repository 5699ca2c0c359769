"""The row under the mouse pointer is lit, in every list with a row cursor.

Textual's ``DataTable`` lit the hovered row; the Line-API tables that replaced it (the
sessions list, the tool calls, the event log) drew none, so a person moving the mouse
over the list could not see which row a click would open.
"""

from __future__ import annotations

from rich.style import Style
from textual.strip import Strip

from streamview.core import tools
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.sessions.list_app import SessionsApp
from streamview.ui.sessions.runs_table import RunsTable
from tests.ui.calls.test_tool_table import TableApp, complete, make_call, make_session
from tests.ui.conftest import wait_for
from tests.ui.sessions.test_list import RUNS, row_paths


def backgrounds(strip: Strip) -> set[object]:
    """Every background colour a drawn line uses."""
    return {(segment.style or Style()).bgcolor for segment in strip}


async def test_the_sessions_list_lights_the_row_under_the_pointer() -> None:
    """Pointer on the third run: its line takes the hover background (no other line
    does), the cursor stays on the first; the pointer leaving puts the line back."""
    app = SessionsApp(lambda: RUNS)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_for(pilot, lambda: len(row_paths(app)) == 4)
        table = app.query_one("#runs", RunsTable)
        plain = [backgrounds(table.render_line(y)) for y in range(1, 5)]
        await pilot.hover("#runs", offset=(5, 3))  # line 0 is the header: row 2
        await wait_for(pilot, lambda: table.hover_row == 2)
        lit = [backgrounds(table.render_line(y)) for y in range(1, 5)]
        assert lit[2] != plain[2]
        assert [lit[i] for i in (0, 1, 3)] == [plain[i] for i in (0, 1, 3)]
        assert table.cursor_row == 0
        await pilot.hover("#runs", offset=(5, 0))  # the header: no row
        await wait_for(pilot, lambda: table.hover_row is None)
        assert backgrounds(table.render_line(3)) == plain[2]


async def test_the_tool_table_lights_the_row_under_the_pointer() -> None:
    """The same over a call, finished (drawn from the cache) or running (drawn afresh)."""
    calls = [make_call(index) for index in range(4)]
    complete(calls[1], tools.SUCCEEDED, "ok", 120)
    app = TableApp(make_session(calls))
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(ToolCallTable)
        await wait_for(pilot, lambda: table.row_count == 4)
        before = [backgrounds(table.render_line(y)) for y in (2, 3)]
        for row in (1, 2):
            await pilot.hover(ToolCallTable, offset=(3, row + 1))
            await wait_for(pilot, lambda row=row: table.hover_row == row)
            assert backgrounds(table.render_line(row + 1)) != before[row - 1]
