"""A running call's time in the table (issue 30.5): how long it has run, never ``0ms``
(a call that arrived between two ticks of the clock showed ``0ms`` until the next)."""

from __future__ import annotations

from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, ScriptedSource, wait_for

SESSION = "0d1e2f3a-0000-4000-8000-000000000001"
INIT = (
    '{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/tmp/project",'
    f'"session_id":"{SESSION}","model":"Fake 1","permissionMode":"default"}}\n'
).encode()
STARTED = (
    '{"type":"tool_call","subtype":"started","call_id":"tool_1","tool_call":'
    '{"shellToolCall":{"args":{"command":"make test"}}},'
    f'"session_id":"{SESSION}"}}\n'
).encode()


def test_elapsed_time_is_never_zero_milliseconds() -> None:
    from streamview.core.formatting import format_elapsed

    assert [format_elapsed(ms) for ms in (0, 999, 1_000, 4_200, 185_000)] == [
        "<1s",
        "<1s",
        "1.0s",
        "4.2s",
        "3m05s",
    ]


async def test_a_running_call_shows_how_long_it_has_run() -> None:
    clock = FakeClock()
    source = ScriptedSource([INIT])
    app = StreamviewApp(source, clock=clock)
    async with app.run_test(size=(110, 30)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.sessions))
        table = app.tool_table
        clock.advance(5_000)  # the call starts later than the table's last tick
        source.push(STARTED)
        await wait_for(pilot, lambda: table.row_count == 1)
        row = table.render_line(1).text
        assert "make test" in row and "0ms" not in row and "<1s" in row, row
        clock.advance(3_000)  # the clock ticks once a second: the time moves on
        await wait_for(pilot, lambda: "3.0s" in table.render_line(1).text, timeout=15)


async def test_a_running_calls_details_say_how_long_it_has_run() -> None:
    """Its details said nothing of time while it ran; now "running <1s", then on."""
    from textual.widgets import Static

    clock = FakeClock()
    source = ScriptedSource([INIT, STARTED])
    app = StreamviewApp(source, clock=clock)
    async with app.run_test(size=(110, 30)) as pilot:
        await wait_for(pilot, lambda: app.tool_table.row_count == 1)
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: app.screen is not app.main_screen)
        duration = app.screen.query_one("#detail-duration", Static)
        await wait_for(pilot, lambda: str(duration.render()) == "running <1s")
        clock.advance(3_000)
        await wait_for(pilot, lambda: str(duration.render()) == "running 3.0s")
