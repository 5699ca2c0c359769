"""Scrolling the transcript moves the tool table's cursor to the call on screen (the
first marker line in view, else the last one above it), as moving the table's cursor
brings its call into the transcript: the two panes stay on the same place of the run."""

from __future__ import annotations

from pathlib import Path

from textual.events import MouseScrollDown
from textual.pilot import Pilot

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle, wait_for
from ..transcript.test_scroll_keeps_place import at_rest

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
MARKER = " ● "
"""How a tool call's line starts in the transcript (this run has no nested calls)."""


def call_on_screen(app: StreamviewApp) -> int | None:
    """The call a reader sees: the first marker line on screen, else the last above."""
    transcript = app.transcript
    lines = transcript.plain_lines()
    top = round(transcript.scroll_y)
    height = transcript.scrollable_content_region.height
    markers = [y for y, line in enumerate(lines) if line.startswith(MARKER)]
    on_screen = [n for n, y in enumerate(markers) if top <= y < top + height]
    if on_screen:
        return on_screen[0]
    above = [n for n, y in enumerate(markers) if y < top]
    return above[-1] if above else None


async def cursor_follows(pilot: Pilot[StreamviewApp]) -> int | None:
    """Once the scroll is done, the table's cursor reaches the call on screen (the
    message goes from the transcript to the app, so it may take a moment)."""
    await at_rest(pilot)
    app = pilot.app
    expected = call_on_screen(app)
    if expected is not None:
        await wait_for(pilot, lambda: app.tool_table.cursor_call == expected)
    return expected


async def opened(pilot: Pilot[StreamviewApp]) -> StreamviewApp:
    await settle(pilot)
    app = pilot.app
    app.transcript.focus()
    await pilot.press("home")
    await at_rest(pilot)
    return app


async def test_paging_down_the_transcript_moves_the_tables_cursor_along() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 34)) as pilot:
        await opened(pilot)
        seen = []
        while app.transcript.scroll_y < app.transcript.max_scroll_y:
            await pilot.press("pagedown")
            expected = await cursor_follows(pilot)
            if expected is not None:
                seen.append(expected)
        assert len(set(seen)) >= 3  # the cursor really travelled down the table


async def test_one_line_up_past_a_call_puts_the_cursor_on_the_call_above() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 34)) as pilot:
        await opened(pilot)
        for _ in range(30):  # line by line, as ↓ is pressed
            await pilot.press("down")
            await cursor_follows(pilot)
        for _ in range(10):
            await pilot.press("up")
            await cursor_follows(pilot)
        assert app.tool_table.cursor_call == 3  # back above the fifth call's line


async def test_the_mouse_wheel_moves_it_too_and_the_focused_table_is_left_alone() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 34)) as pilot:
        await opened(pilot)
        transcript = app.transcript
        for _ in range(8):
            transcript.post_message(MouseScrollDown(transcript, 5, 5, 0, 0, 0, False, False, False))
        expected = await cursor_follows(pilot)
        assert expected is not None and expected > 0
        # With the table focused, its cursor is the person's: the transcript follows it.
        app.tool_table.focus()
        await pilot.press("home")
        await at_rest(pilot)
        assert app.tool_table.cursor_call == 0
        assert call_on_screen(app) is not None
