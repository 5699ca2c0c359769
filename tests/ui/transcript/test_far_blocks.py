"""A long run holds full entries only for the blocks near the screen (issue 27.5): the
others keep a height, and come back with their text when scrolled to, searched or
copied."""

from __future__ import annotations

from textual.geometry import Offset
from textual.pilot import Pilot
from textual.selection import Selection

from streamview.ui.transcript.entries import RESIDENT_ENTRIES
from streamview.ui.transcript.transcript import Transcript

from ..conftest import wait_for
from .test_transcript import Stream, TranscriptApp, show

STEPS = 1_500
"""Answer blocks, each followed by a tool call: 3,000 blocks."""
HELD_AT_MOST = 2 * RESIDENT_ENTRIES


def long_run() -> Stream:
    """Answers of one to four lines (so heights differ), each followed by a tool call."""
    stream = Stream()
    for number in range(STEPS):
        lines = "\n".join(f"line {k} of step {number:04d}" for k in range(number % 4))
        stream.text(f"Step {number:04d} starts.\n{lines}".rstrip())
        stream.add(
            type="tool_call",
            subtype="started",
            call_id=f"c{number}",
            tool_call={"shellToolCall": {"args": {"command": f"make step{number:04d}"}}},
        )
    return stream


def screen(transcript: Transcript) -> str:
    """What the transcript shows now."""
    return "\n".join(transcript.render_line(y).text for y in range(transcript.size.height))


async def at_rest(pilot: Pilot[None], transcript: Transcript) -> None:
    """Let scrolling and the letting go of far entries settle."""
    animator = pilot.app.animator
    await wait_for(pilot, lambda: not animator.is_being_animated(transcript, "scroll_y"))
    await pilot.pause()
    await pilot.pause()


async def test_scrolling_far_and_back_holds_few_entries_and_shows_the_text() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, long_run())
        entries = transcript._entries
        assert len(entries) == 2 * STEPS
        transcript.focus()
        await at_rest(pilot, transcript)
        assert "make step1499" in screen(transcript)
        assert len(entries.held) < HELD_AT_MOST
        await pilot.press("home")
        await at_rest(pilot, transcript)
        top = screen(transcript)
        assert "Step 0000 starts." in top and "make step0000" in top
        offsets = list(transcript._offsets)
        for _ in range(60):  # well past the first few hundred blocks
            await pilot.press("pagedown")
            await at_rest(pilot, transcript)
            assert len(entries.held) < HELD_AT_MOST
        assert "Step 0000" not in screen(transcript)
        await pilot.press("end")
        await at_rest(pilot, transcript)
        await pilot.press("home")
        await at_rest(pilot, transcript)
        assert screen(transcript) == top  # the far blocks laid out again, alike
        assert list(transcript._offsets[:200]) == offsets[:200]  # at the same places
        assert len(entries.held) < HELD_AT_MOST


async def test_end_then_up_moves_one_line_in_a_long_run() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, long_run())
        transcript.focus()
        await pilot.press("home")
        await at_rest(pilot, transcript)
        await pilot.press("end")
        await at_rest(pilot, transcript)
        end = transcript.max_scroll_y
        assert transcript.scroll_y == end
        await pilot.press("up")
        await at_rest(pilot, transcript)
        assert transcript.scroll_y == end - 1


async def test_search_finds_text_in_blocks_far_from_the_screen() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, long_run())
        await at_rest(pilot, transcript)
        assert transcript.search("step0007") == 1
        await at_rest(pilot, transcript)
        assert "make step0007" in screen(transcript)
        assert transcript.search("line 2 of step") == STEPS // 4
        transcript.go_to_match(transcript.match_count - 1)  # the last, near the end
        await at_rest(pilot, transcript)
        assert "line 2 of step 1499" in screen(transcript)
        assert len(transcript._entries.held) < HELD_AT_MOST


async def test_copying_a_selection_far_from_the_screen_takes_its_text() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, long_run())
        await at_rest(pilot, transcript)
        offsets = transcript._offsets
        start, end = offsets[20] + 1, offsets[30] + 1  # lines near the top, off screen
        assert end < round(transcript.scroll_y)
        selection = Selection(Offset(2, start), Offset(7, end))
        copied = transcript.get_selection(selection)
        lines = transcript.plain_lines()  # every block laid out: the lines as they are
        assert copied is not None
        assert copied[0] == selection.extract("\n".join(lines))
        assert "make step0010" in copied[0] and "Step 0014 starts." in copied[0]


async def test_an_answer_growing_below_a_paused_view_is_estimated_then_shown() -> None:
    """Far below the view, the open answer keeps no entry: its height follows its text
    (estimated), and End shows it whole."""
    stream = long_run()
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, stream)
        transcript.focus()
        await pilot.press("home")
        await at_rest(pilot, transcript)
        assert not transcript.following
        stream.text("The answer begins.\n\n", delta=True)
        transcript.sync()
        total = transcript.total_lines
        for number in range(40):
            stream.text(f"Growing paragraph {number}.\n\n", delta=True)
            transcript.sync()
            await pilot.pause()
        entries = transcript._entries
        assert entries.get(len(entries) - 1) is None  # not held: far from the view
        assert len(transcript._entries.watched) == 1  # what it looked like when estimated
        assert transcript.total_lines >= total + 40  # the estimate grew with the text
        assert transcript.unseen and len(entries.held) < HELD_AT_MOST
        assert "Step 0000 starts." in screen(transcript)  # the view stayed
        await pilot.press("end")
        await at_rest(pilot, transcript)
        shown = screen(transcript)
        assert "Growing paragraph 39." in shown and "Growing paragraph 30." in shown


def think(stream: Stream, text: str, close: bool = True) -> None:
    """A thinking block (one delta), closed unless ``close`` is false."""
    stream.add(type="thinking", subtype="delta", text=text, timestamp_ms=1)
    if close:
        stream.add(type="thinking", subtype="completed")


async def test_a_block_past_an_open_one_keeps_its_laid_out_height_once_let_go() -> None:
    """An answer still open above closed thinking blocks (thinking does not close it):
    a block past it that changed while laid out near the screen, then was let go, keeps
    the height of its lines at the next sync, not an estimate (0601bd3)."""
    stream = Stream()
    stream.text("The answer begins.", delta=True)  # open until the run ends
    blank_lines = "\n\n\n\n\n\n"  # the estimate counts them; Markdown does not
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, stream)
        entries = transcript._entries
        think(stream, f"First thought.{blank_lines}Its end.", close=False)
        transcript.sync()  # seen open: laid out at the tail, near the screen
        await pilot.pause()
        stream.add(type="thinking", subtype="completed")
        transcript.sync()  # closed while held: laid out again
        await pilot.pause()
        first = 1
        assert entries.get(first) is not None and entries.blocks[first].kind == "thinking"
        laid_out = entries.heights[first]
        for number in range(2 * RESIDENT_ENTRIES):  # pushes it far above the view
            think(stream, f"Thought {number}.{blank_lines}Done {number}.")
            transcript.sync()
        await at_rest(pilot, transcript)
        assert entries.get(first) is None  # let go: far from the view
        assert entries.blocks[0].open  # the answer above it still open
        assert entries.heights[first] == laid_out
        stream.text(" More of the answer.", delta=True)
        transcript.sync()
        await pilot.pause()
        assert entries.heights[first] == laid_out  # not estimated again
        transcript.focus()
        await pilot.press("home")
        await at_rest(pilot, transcript)
        assert len(entries[first].lines or ()) == laid_out  # its lines, laid out again
