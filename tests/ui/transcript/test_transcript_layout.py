"""Long transcript blocks are laid out on the layout thread, never on the UI thread."""

from __future__ import annotations

import threading
import time
from array import array
from itertools import accumulate

import pytest
from rich.style import Style
from rich.theme import Theme
from textual.pilot import Pilot
from textual.strip import Strip

from streamview.ui.transcript import placing
from streamview.ui.transcript.block_layout import BlockLayout, LayoutStyles
from streamview.ui.transcript.layout_thread import LayoutJob, LayoutResult, LayoutThread
from streamview.ui.transcript.transcript import BACKGROUND_MARKDOWN_CHARS, Transcript

from ..conftest import wait_for
from .test_transcript import Stream, TranscriptApp, show

PROSE = "A sentence of the answer with `code` and **bold** words in it. " * 4 + "\n\n"


def long_answer(last: str) -> str:
    """Markdown well over the background threshold, ending with ``last``."""
    paragraphs = PROSE * (BACKGROUND_MARKDOWN_CHARS // len(PROSE) * 3)
    return "# Report\n\n" + paragraphs + last


class HeldLayouts(LayoutThread):
    """A layout thread that runs nothing until the test says so (on the test's thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.jobs: list[LayoutJob] = []

    def submit(self, job: LayoutJob) -> None:
        self.jobs.append(job)

    def release(self, cancelled_too: bool = False) -> int:
        """Run the held jobs, newest first; return how many ran."""
        jobs, self.jobs = self.jobs, []
        ran = 0
        for job in reversed(jobs):
            if job.cancelled and not cancelled_too:
                continue
            job.done(job, job.run(BlockLayout(job.styles)))
            ran += 1
        return ran


def held(transcript: Transcript) -> HeldLayouts:
    """Give ``transcript`` a layout thread the test drives."""
    layouts = HeldLayouts()
    transcript._layouts = layouts
    return layouts


def growing_fence(name: str) -> Stream:
    """A session whose answer is an unclosed fence of 600 lines ``name_N = N``, still open."""
    stream = Stream()
    stream.text("```python\n" + "".join(f"{name}_{n} = {n}\n" for n in range(600)), delta=True)
    return stream


async def show_held(pilot: Pilot[None], stream: Stream) -> tuple[Transcript, HeldLayouts]:
    """Show ``stream``'s session in the app's transcript, with a held layout thread."""
    layouts = held(pilot.app.query_one(Transcript))
    return await show(pilot, stream), layouts


def screen(transcript: Transcript) -> str:
    """What the transcript shows now."""
    return "\n".join(transcript.render_line(y).text for y in range(transcript.size.height))


def entry_text(transcript: Transcript, index: int = -1) -> str:
    """The lines an entry holds now, as text."""
    return "\n".join(strip.text for strip in transcript._entries[index].lines or ())


async def test_a_long_answer_shows_a_placeholder_until_the_layout_thread_sends_it() -> None:
    """The UI thread only draws a note; the lines equal what the UI thread would lay out."""
    stream = Stream()
    stream.text(long_answer("THE LAST LINE"))
    app = TranscriptApp()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript, layouts = await show_held(pilot, stream)
        assert "laying out" in screen(transcript)
        assert transcript.laying_out == 1
        assert layouts.release() == 1
        await pilot.pause()
        assert transcript.laying_out == 0
        shown = screen(transcript)
        assert "THE LAST LINE" in shown and "laying out" not in shown
        from_thread = entry_text(transcript)
        transcript.plain_lines()  # lays everything out again, here
        assert entry_text(transcript) == from_thread


async def test_keys_work_while_a_block_is_being_laid_out() -> None:
    """Scrolling does not wait for the layout: home, end, page keys move the view."""
    stream = Stream()
    for number in range(60):
        stream.text(f"Short segment {number}.")
    stream.text(long_answer("END OF THE LONG ONE"))
    app = TranscriptApp()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript, layouts = await show_held(pilot, stream)
        transcript.focus()
        await pilot.press("home")
        assert "Short segment 0." in screen(transcript)
        await pilot.press("end")
        assert "laying out" in screen(transcript)
        layouts.release()
        await pilot.pause()
        assert "END OF THE LONG ONE" in screen(transcript)
        assert transcript.scroll_y == transcript.max_scroll_y  # still following


async def test_a_growing_block_keeps_its_lines_until_the_new_ones_arrive() -> None:
    """No placeholder flashes while a long open block grows: the old lines stay."""
    stream = growing_fence("line")
    async with TranscriptApp().run_test(size=(80, 24)) as pilot:
        transcript, layouts = await show_held(pilot, stream)
        layouts.release()
        await pilot.pause()
        before = entry_text(transcript)
        assert "line_599 = 599" in before
        stream.text("grown_here = 1\n", delta=True)
        transcript.sync()
        await pilot.pause()
        assert entry_text(transcript) == before  # shown until the new layout comes
        assert transcript.laying_out == 1
        layouts.release()
        await pilot.pause()
        assert "grown_here = 1" in entry_text(transcript)
        assert "grown_here = 1" in screen(transcript)


async def test_a_late_result_never_replaces_newer_lines() -> None:
    """A layout that finishes after the block was laid out again is dropped."""
    stream = growing_fence("value")
    async with TranscriptApp().run_test(size=(80, 24)) as pilot:
        transcript, layouts = await show_held(pilot, stream)
        stream.text("newest = 1\n```\n\nDone.", delta=True)
        transcript.plain_lines()  # the UI thread lays out the newer text first
        assert "newest = 1" in entry_text(transcript)
        layouts.release(cancelled_too=True)  # the old request answers late
        await pilot.pause()
        assert "newest = 1" in entry_text(transcript)
        assert "Done." in entry_text(transcript)


async def test_a_layout_for_an_old_width_is_dropped_and_done_again() -> None:
    """Resizing while a block is being laid out: the lines come at the new width."""
    stream = Stream()
    stream.text(long_answer("WIDTH CHECK"))
    app = TranscriptApp()
    async with app.run_test(size=(100, 24)) as pilot:
        transcript, layouts = await show_held(pilot, stream)
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        layouts.release(cancelled_too=True)
        await pilot.pause()
        await pilot.pause()
        layouts.release()
        await pilot.pause()
        lines = transcript._entries[-1].lines or []
        assert "WIDTH CHECK" in entry_text(transcript)
        assert max(strip.cell_length for strip in lines) <= 60


async def test_search_finds_text_in_a_block_still_being_laid_out() -> None:
    """A search run before the layout came back goes to the match once it does."""
    stream = Stream()
    stream.text(long_answer("the needle is here"))
    for number in range(40):
        stream.text(f"Later segment {number}.")
    app = TranscriptApp()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript, layouts = await show_held(pilot, stream)
        assert transcript.search("NEEDLE") == 0
        layouts.release()
        await pilot.pause()
        assert transcript.match_count == 1
        assert "the needle is here" in screen(transcript)


async def test_the_real_layout_thread_lays_out_a_followed_answer() -> None:
    """With the real thread: the answer arrives, laid out, and the view stays at its end."""
    stream = Stream()
    stream.text(long_answer("REAL THREAD END"))
    app = TranscriptApp()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.show_session(stream.session)
        await wait_for(pilot, lambda: not transcript.laying_out)
        assert "REAL THREAD END" in screen(transcript)
        assert transcript.scroll_y == transcript.max_scroll_y


def test_the_layout_thread_takes_the_newest_job_first_and_skips_cancelled_ones() -> None:
    """While one job runs, later ones wait; the newest goes next; cancelled never run."""
    thread = LayoutThread()
    gate = threading.Event()
    order: list[str] = []
    finished = threading.Event()
    styles = plain_styles()

    def job(name: str, wait: bool = False, last: bool = False) -> LayoutJob:
        def run(layout: BlockLayout) -> LayoutResult:
            if wait:
                gate.wait(10)
            order.append(name)
            if last:
                finished.set()
            return LayoutResult([Strip.blank(0)])

        return LayoutJob((name,), styles, run, lambda job, result: None)

    thread.submit(job("first", wait=True))
    while thread.queued:  # the thread took "first" and waits at the gate
        time.sleep(0.01)
    oldest, cancelled, newest = job("oldest", last=True), job("cancelled"), job("newest")
    for queued in (oldest, cancelled, newest):
        thread.submit(queued)
    cancelled.cancelled = True
    gate.set()
    assert finished.wait(10)
    thread.close()
    assert order == ["first", "newest", "oldest"]


def test_a_layout_that_raises_becomes_a_note_not_a_crash() -> None:
    """An exception in a layout is caught on the thread and shown as a note."""
    thread = LayoutThread()
    results: list[LayoutResult] = []
    done = threading.Event()

    def run(layout: BlockLayout) -> LayoutResult:
        raise RuntimeError("boom")

    def deliver(job: LayoutJob, result: LayoutResult) -> None:
        results.append(result)
        done.set()

    thread.submit(LayoutJob(("x",), plain_styles(), run, deliver))
    assert done.wait(10)
    thread.close()
    text = results[0].lines[0].text
    assert "could not be laid out (RuntimeError)" in text


def plain_styles() -> LayoutStyles:
    """Styles for a layout without an app."""
    return LayoutStyles(Theme({}), "default", *[Style()] * 5)


async def test_a_growing_block_over_the_limit_counts_what_it_does_not_show() -> None:
    """While a huge answer streams, the first 500 KB are laid out and a note counts the rest."""
    stream = Stream()
    line = "y" * 99 + "\n"
    stream.text("FIRST\n" + line * 6_000, delta=True)  # 600 KB, still open
    app = TranscriptApp()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.show_session(stream.session)
        await wait_for(pilot, lambda: not transcript.laying_out)
        text = entry_text(transcript)
        assert "FIRST" in text
        note = next(line for line in text.split("\n") if "more characters not shown" in line)
        more = int(note.split("…")[1].split("more")[0].replace(",", ""))
        assert 100_000 <= more <= 100_200  # 600 KB, shown up to a line end before 500 KB
        stream.text(line * 1_000, delta=True)
        transcript.sync()
        await wait_for(pilot, lambda: not transcript.laying_out)
        note = next(s for s in entry_text(transcript).split("\n") if "more characters" in s)
        assert int(note.split("…")[1].split("more")[0].replace(",", "")) == more + 100_000


async def test_a_paused_view_hears_that_a_long_growing_block_got_longer() -> None:
    """Scrolled up, new lines from the layout thread mark the view as having unseen content."""
    stream = growing_fence("row")
    async with TranscriptApp().run_test(size=(80, 24)) as pilot:
        transcript, layouts = await show_held(pilot, stream)
        layouts.release()
        await pilot.pause()
        transcript.focus()
        await pilot.press("home")
        assert not transcript.following and not transcript.unseen
        stream.text("".join(f"more_{n} = {n}\n" for n in range(50)), delta=True)
        transcript.sync()
        layouts.release()
        await pilot.pause()
        assert transcript.unseen
        assert "row_0 = 0" in screen(transcript)  # the view stayed where the user put it


def test_the_queue_lets_go_of_cancelled_jobs() -> None:
    """A growing answer asks again every frame: replaced requests do not pile up."""
    thread = LayoutThread()
    gate = threading.Event()
    styles = plain_styles()

    def run(layout: BlockLayout) -> LayoutResult:
        gate.wait(10)
        return LayoutResult([])

    def job() -> LayoutJob:
        return LayoutJob(("frame",), styles, run, lambda job, result: None)

    thread.submit(job())  # the thread takes it and waits at the gate
    while thread.queued:
        time.sleep(0.01)
    previous = None
    for _ in range(100):
        if previous is not None:
            previous.cancelled = True
        previous = job()
        thread.submit(previous)
    assert thread.queued == 1
    gate.set()
    thread.close()


async def test_blocks_not_shown_keep_only_a_height() -> None:
    """Blocks far from the screen keep no entry: a height each in one array (4 bytes),
    a flag (1 byte) and their offset (4 bytes), not an object each (issue 27.5: two
    million blocks in a 2 GB session)."""
    stream = Stream()
    for number in range(300):
        stream.text(f"Step {number:03d} is done, the next one starts now.")
        stream.add(
            type="tool_call",
            subtype="started",
            call_id=f"c{number}",
            tool_call={"shellToolCall": {"args": {"command": "ls"}}},
        )
    app = TranscriptApp()
    async with app.run_test(size=(80, 20)) as pilot:
        transcript = await show(pilot, stream)
        entries = transcript._entries
        assert len(entries) == 600 and len(entries.held) < 40
        assert entries.heights.itemsize == 4 and len(entries.heights) == 600
        assert all(entries.known)
        assert transcript._offsets.itemsize == 4 and len(transcript._offsets) == 601


async def test_offsets_past_four_billion_lines_become_8_bytes() -> None:
    """A transcript of more than 2**32 lines (two blocks far from the screen as tall as
    they can be) keeps its offsets exactly, in an 8-byte array, whether the run of
    known heights or a block laid out on its own passes the edge."""
    stream = Stream()
    for number in range(300):
        stream.text(f"Step {number:03d} is done, the next one starts now.")
    app = TranscriptApp()
    async with app.run_test(size=(80, 20)) as pilot:
        transcript = await show(pilot, stream)
        entries = transcript._entries
        assert transcript._offsets.itemsize == 4
        tall = 2**32 - 1
        for index in (200, 250):
            assert index not in entries.held and entries.known[index]
            entries.heights[index] = tall
        transcript._reflow(0)
        offsets = transcript._offsets
        expected = [0]
        for height in entries.heights:
            expected.append(expected[-1] + height)
        assert offsets.itemsize == 8 and list(offsets) == expected
        assert offsets[-1] > 2 * tall
        transcript._offsets = array("I", [0] * 250 + [2**32 - 1])
        entries.known[250] = 0  # estimated again: added on its own, past the edge
        transcript._reflow(250)
        offsets = transcript._offsets
        assert offsets.itemsize == 8 and offsets[250] == 2**32 - 1
        assert offsets[251] == 2**32 - 1 + entries.heights[250] > 2**32 - 1


async def test_known_heights_summed_a_run_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Known heights are summed a few blocks at a time (a 2 GB session's in runs of
    65,536): the offsets are the same as summed at once, whatever the run's length, and
    the paged offsets read back the same from their first item or their last."""
    stream = Stream()
    for number in range(120):
        stream.text(f"Step {number:03d} is done.\n\n" + "more words " * (number % 9))
    app = TranscriptApp()
    async with app.run_test(size=(80, 20)) as pilot:
        transcript = await show(pilot, stream)
        heights = transcript._entries.heights
        expected = [0]
        for height in heights:
            expected.append(expected[-1] + height)
        for run in (1, 2, 7, 64):
            monkeypatch.setattr(placing, "_RUN_AT_ONCE", run)
            transcript._reflow(0)
            offsets = transcript._offsets
            assert list(offsets) == expected
            assert [offsets[at] for at in range(len(expected) - 1, -1, -1)] == expected[::-1]
        # and estimated one block at a time (none known): the same whatever the run
        estimated = []
        for run in (100_000, 1, 3, 64):
            monkeypatch.setattr(placing, "_RUN_AT_ONCE", run)
            transcript._entries.known[:] = bytes(len(transcript._entries.known))
            transcript._reflow(0)
            heights = transcript._entries.heights
            estimated.append((list(heights), list(transcript._offsets)))
            assert estimated[-1][1] == list(accumulate(heights, initial=0))
        assert all(each == estimated[0] for each in estimated)
