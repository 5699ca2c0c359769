"""Select and copy, as a person does it: drag over the transcript or a call's details
with the mouse, press c (or ctrl+c); c on a tool call copies its command or path.
Copying says what was copied."""

from __future__ import annotations

from pathlib import Path

from textual.events import MouseMove

from streamview.sources.base import FileSource
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.log.event_log import EventEntryScreen

from ..conftest import FakeClock, settle, settle_sections

REPO = Path(__file__).resolve().parents[3]
CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def notes(app: StreamviewApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def drag(pilot, widget, start: tuple[int, int], end: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """Press the left button at ``start``, move to ``end`` with it held, let go.

    ``start`` and ``end`` are cells of the widget's content (its lines as rendered),
    so the border and padding are added here.
    """
    dx = widget.content_region.x - widget.region.x
    dy = widget.content_region.y - widget.region.y
    start, end = (start[0] + dx, start[1] + dy), (end[0] + dx, end[1] + dy)
    await pilot.mouse_down(widget, offset=start)
    await pilot._post_mouse_events([MouseMove], widget, offset=end, button=1)
    await pilot.mouse_up(widget, offset=end)
    await pilot.pause()


async def test_drag_over_the_answer_then_c_copies_it() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        shown = [transcript.render_line(y).text for y in range(transcript.size.height)]
        row = next(y for y, line in enumerate(shown) if "I'll look at the failing test" in line)
        await drag(pilot, transcript, (1, row), (36, row))  # first to last letter
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == "I'll look at the failing test first."
        assert "Copied 36 characters" in notes(app)


async def test_ctrl_c_copies_a_selection_across_lines() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        shown = [transcript.render_line(y).text for y in range(transcript.size.height)]
        first = next(y for y, line in enumerate(shown) if "updateTodos" in line)
        await drag(pilot, transcript, (0, first), (20, first + 2))
        await pilot.press("ctrl+c")
        await pilot.pause()
        copied = app.clipboard.splitlines()
        assert len(copied) == 3
        assert "updateTodos 2 todos" in copied[0] and "shell" in copied[1]


async def test_c_on_a_tool_call_copies_its_command() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "home", "down", "c")
        await pilot.pause()
        assert app.clipboard == "python -m pytest -q tests/test_parse.py"
        assert "Copied command python -m pytest -q tests/test_parse.py" in notes(app)
        await pilot.press("down", "down", "c")  # the read
        await pilot.pause()
        assert app.clipboard == "/work/app/src/parse.py"
        assert any(note.startswith("Copied path ") for note in notes(app))


async def test_in_a_calls_details_c_copies_everything_and_a_drag_copies_a_part() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "home", "down", "enter")
        await settle_sections(app, pilot)
        assert isinstance(app.screen, ToolCallDetailScreen)
        await pilot.press("c")
        await pilot.pause()
        assert "FAILED tests/test_parse.py::test_empty" in app.clipboard
        assert "command" in app.clipboard and "exit code" in app.clipboard
        assert any(note.startswith("Copied all of it (") for note in notes(app))
        view = app.screen.query_one(SectionView)
        rows = [view.render_line(y).text for y in range(view.size.height)]
        row = next(y for y, line in enumerate(rows) if "FAILED tests/test_parse.py" in line)
        start = rows[row].index("FAILED")
        await drag(pilot, view, (start, row), (start + 5, row))  # F to D, both in
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == "FAILED"


async def test_c_with_nothing_to_copy_says_how() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        assert any(note.startswith("nothing to copy") for note in notes(app))


async def test_in_the_event_log_a_lines_view_is_dragged_over_and_copied() -> None:
    """l opens the log, enter a line in full: a drag selects part of it, c copies it."""
    noisy = REPO / "tests" / "fixtures" / "dialects" / "claude" / "noise-and-unknown.jsonl"
    app = StreamviewApp(FileSource(noisy), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await settle_sections(app, pilot)
        assert isinstance(app.screen, EventEntryScreen)
        view = app.screen.query_one(SectionView)
        rows = [view.render_line(y).text for y in range(view.size.height)]
        # The first entry: a line that is not JSON, the CLI's own warning.
        row = next(y for y, line in enumerate(rows) if "no stdin data received" in line)
        start = rows[row].index("no stdin")
        await drag(pilot, view, (start, row), (start + 7, row))
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == "no stdin"
        assert "Copied 8 characters" in notes(app)
