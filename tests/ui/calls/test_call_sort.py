"""Sort the tool calls as a person does: s for slowest first, again for trouble first,
again for the order they ran; the title says so, a filter keeps the order, and calls
that arrive live take their place in it."""

from __future__ import annotations

from pathlib import Path

from streamview.core import tools
from streamview.sources.base import FileSource
from streamview.ui.calls.filter import CallFilter, title
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, ScriptedSource, settle, wait_for
from .test_call_filter import rows

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
DENIED = REPO / "recordings" / "denied-tools.ndjson"


async def test_s_sorts_slowest_then_trouble_first_then_as_they_ran() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.tool_table
        calls = app.state.sessions[-1].tool_calls
        await pilot.press("tab", "s")
        await pilot.pause()
        assert table.border_title == "Tool calls (10) · slowest first"
        durations = [calls[table._calls[row].index].duration_ms or -1 for row in range(10)]
        assert durations == sorted(durations, reverse=True)
        slowest = max(calls, key=lambda call: call.duration_ms or -1)
        assert rows(table)[0].lstrip().startswith(f"{slowest.index + 1} ")  # the session's number
        await pilot.press("s")
        await pilot.pause()
        assert table.border_title == "Tool calls (10) · trouble first"
        assert "✗ failed" in rows(table)[0]  # the one failed pytest run leads
        await pilot.press("s")
        await pilot.pause()
        assert table.border_title == "Tool calls (10)"
        assert [table._calls[row].index for row in range(10)] == list(range(10))


async def test_a_filter_keeps_the_order_and_escape_keeps_it_too() -> None:
    app = StreamviewApp(FileSource(DENIED), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.tool_table
        await pilot.press("tab", "s", "K")  # slowest first, then one kind
        await pilot.pause()
        assert table.border_title.endswith("· slowest first")
        assert " of " in table.border_title
        await pilot.press("escape")  # every call again, still slowest first
        await pilot.pause()
        total = len(app.state.sessions[-1].tool_calls)
        assert table.border_title == f"Tool calls ({total}) · slowest first"
        assert table.row_count == total


async def test_calls_arriving_live_take_their_place_in_the_order() -> None:
    lines = RECORDING.read_bytes().splitlines(keepends=True)
    source = ScriptedSource()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        half = len(lines) // 2
        source.push(b"".join(lines[:half]))
        await wait_for(pilot, lambda: bool(app.state.sessions and app.state.sessions[0].tool_calls))
        app.tool_table.focus()
        await pilot.press("s", "s")  # trouble first
        source.push(b"".join(lines[half:]))
        source.close()
        await settle(pilot)
        table = app.tool_table
        statuses = [table._calls[row].status for row in range(table.row_count)]
        assert table.row_count == 10 and statuses[0] == tools.FAILED
        assert all(status == tools.SUCCEEDED for status in statuses[1:])


def test_the_title_says_the_order() -> None:
    assert title(10, 10, CallFilter(order="slowest")) == "Tool calls (10) · slowest first"
    assert title(75, 3, CallFilter(status="failed", order="trouble")) == (
        "Tool calls 3 of 75 · failed · trouble first"
    )
    assert title(0, 0, CallFilter()) == "Tool calls"
