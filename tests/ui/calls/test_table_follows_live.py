"""A live run's tool table follows the newest call while the transcript follows the
end; a move in the table (or a scroll of the transcript) leaves it where the person put
it; End in the table, or the transcript following again, resumes it."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, ScriptedSource, wait_for

REPO = Path(__file__).resolve().parents[3]
LINES = (REPO / "recordings" / "long-run.ndjson").read_bytes().splitlines(keepends=True)


def newest_on_screen(table: ToolCallTable) -> bool:
    """The newest call's row is on screen and under the cursor."""
    rows = table.scrollable_content_region.height - 1
    top = round(table.scroll_y)
    newest = table.row_count - 1
    return table.cursor == newest and top <= newest < top + rows


async def stream(pilot: Pilot[StreamviewApp], source: ScriptedSource, upto: int) -> int:
    """Let the run go on until it has ``upto`` calls (in small pieces, as a pipe)."""
    app = pilot.app
    at = stream.at  # type: ignore[attr-defined]
    while app.tool_table.total_calls < upto:
        source.push(b"".join(LINES[at : at + 40]))
        at += 40
        await pilot.pause(0.02)
    stream.at = at  # type: ignore[attr-defined]
    await pilot.pause(0.1)
    return app.tool_table.total_calls


async def test_the_table_follows_a_live_run_until_the_person_moves_in_it() -> None:
    stream.at = 0  # type: ignore[attr-defined]
    source = ScriptedSource()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(120, 36)) as pilot:
        table = app.tool_table
        await stream(pilot, source, 30)
        assert newest_on_screen(table) and table.cursor_call == table.total_calls - 1
        await stream(pilot, source, 45)
        assert newest_on_screen(table)
        # Tab into the table, one row up: it stays there while calls arrive.
        await pilot.press("tab", "up")
        held = table.cursor_call
        assert held == table.total_calls - 2
        await stream(pilot, source, 60)
        assert table.cursor_call == held and not newest_on_screen(table)
        # End resumes following.
        await pilot.press("end")
        await stream(pilot, source, 70)
        assert newest_on_screen(table)
        # Back in the transcript, a page up: the table shows the call in view and stays.
        await pilot.press("shift+tab", "pageup")
        await wait_for(pilot, lambda: not app.transcript.following)
        await pilot.pause(0.1)
        held = table.cursor_call
        assert held is not None and held < table.total_calls - 1
        await stream(pilot, source, 80)
        assert table.cursor_call == held
        # End in the transcript: both follow again.
        await pilot.press("end")
        await stream(pilot, source, 90)
        await wait_for(pilot, lambda: newest_on_screen(table))
        # Up in the table, then End in the transcript (which never stopped following).
        await pilot.press("tab", "up", "shift+tab")
        assert app.transcript.following and not table.following
        await pilot.press("end")
        await stream(pilot, source, 100)
        await wait_for(pilot, lambda: newest_on_screen(table))


async def test_calls_folded_before_a_resize_are_still_followed() -> None:
    """The fold appends calls to the session's list before the table is told; a
    resize in between (the panes settling, the terminal resized) used to take them
    into the scroll range, and the table, told afterwards, saw no new row: the cursor
    stayed behind on one playing of a replay in seven."""
    from .test_tool_table import TableApp, make_call, make_session

    session = make_session([make_call(i) for i in range(3)])
    app = TableApp(session)
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(ToolCallTable)
        await pilot.pause()
        table.follow_newest()
        assert table.cursor_call == 2
        for index in range(3, 40):  # folded: in the session's list, not yet shown
            session.tool_calls.append(make_call(index))
        await pilot.resize_terminal(80, 14)
        await pilot.pause()
        table.refresh_calls(range(3, 40))
        await pilot.pause()
        assert table.cursor_call == 39
        assert newest_on_screen(table)
