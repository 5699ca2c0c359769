"""Scrolling moves from where the transcript *is*: keys and wheel, followed or not.

The bug these pin: `Home`, `End`, `↑` jumped to the top of the transcript, because
the view moved ``scroll_y`` for follow mode and jumps but left Textual's
``scroll_target_y`` (where its keys and wheel scroll from) behind.
"""

from __future__ import annotations

from pathlib import Path

from textual.events import MouseScrollUp
from textual.pilot import Pilot

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, ScriptedSource, settle, spy_on_glides, wait_for

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"


async def at_rest(pilot: Pilot[StreamviewApp]) -> None:
    """Let a key's scroll animation finish."""
    transcript = pilot.app.transcript
    await wait_for(pilot, lambda: not pilot.app.animator.is_being_animated(transcript, "scroll_y"))
    await pilot.pause()


async def test_home_end_then_one_up_moves_one_line_from_the_end() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        transcript.focus()
        end = transcript.max_scroll_y
        assert end > 50  # a transcript several screens long
        await pilot.press("home")
        await at_rest(pilot)
        assert transcript.scroll_y == 0
        await pilot.press("end")
        await at_rest(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y
        await pilot.press("up")
        await at_rest(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y - 1
        assert not transcript.following
        await pilot.press("up", "up")
        await at_rest(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y - 3
        await pilot.press("pageup")
        await at_rest(pilot)
        page = transcript.scrollable_content_region.height
        from_end = transcript.max_scroll_y - 3
        assert from_end - page <= transcript.scroll_y < from_end


async def test_the_first_up_after_opening_a_finished_file_leaves_the_end() -> None:
    """No Home first: the view opens at the end (following); one ↑ is one line up."""
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        transcript.focus()
        assert transcript.scroll_y == transcript.max_scroll_y
        await pilot.press("up")
        await at_rest(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y - 1


async def test_wheel_up_from_the_end_stays_near_the_end() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        await pilot.press("home", "end")
        await at_rest(pilot)
        end = transcript.max_scroll_y
        # The wheel, as the driver sends it (Pilot has no wheel method of its own).
        await pilot._post_mouse_events([MouseScrollUp], transcript, offset=(10, 5))
        await at_rest(pilot)
        assert end - 10 <= transcript.scroll_y < end
        assert not transcript.following


async def test_up_while_following_a_growing_run_moves_one_line() -> None:
    """Live: lines keep coming while the view follows; ↑ leaves the end by one line."""
    lines = RECORDING.read_bytes().splitlines(keepends=True)
    source = ScriptedSource(lines[:60])
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total >= 60)
        transcript = app.transcript
        transcript.focus()
        for start in range(60, len(lines) - 20, 20):
            source.push(b"".join(lines[start : start + 20]))
            await wait_for(pilot, lambda start=start: app.state.counts.total >= start + 20)
            await pilot.pause(0.05)
            assert transcript.following
            assert transcript.scroll_y == transcript.max_scroll_y
        await pilot.press("up")
        await at_rest(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y - 1
        assert not transcript.following
        kept = transcript.scroll_y
        source.push(b"".join(lines[-20:]))
        await wait_for(pilot, lambda: app.state.counts.total >= len(lines) - 1)
        await pilot.pause(0.1)
        assert transcript.scroll_y == kept  # paused: new lines do not move the view


async def test_resize_then_up_moves_one_line_from_where_the_view_is() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        transcript.focus()
        await pilot.press("end")
        await at_rest(pilot)
        await pilot.resize_terminal(90, 30)
        await pilot.pause(0.2)
        await at_rest(pilot)
        before = transcript.scroll_y
        assert before == transcript.max_scroll_y
        await pilot.press("up")
        await at_rest(pilot)
        assert transcript.scroll_y == before - 1


async def test_j_and_k_move_the_transcript_like_the_arrows() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        transcript.focus()
        # Following, it rests at the end: on a busy machine not yet when the run is read.
        await wait_for(pilot, lambda: transcript.scroll_y == transcript.max_scroll_y > 0)
        end = transcript.max_scroll_y
        await pilot.press("k", "k")
        await at_rest(pilot)
        assert transcript.scroll_y == end - 2
        await pilot.press("j")
        await at_rest(pilot)
        assert transcript.scroll_y == end - 1
        await pilot.press("g")
        await at_rest(pilot)
        assert transcript.scroll_y == 0
        await pilot.press("G")
        await at_rest(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y and transcript.following


async def test_an_animated_scroll_that_ends_at_the_bottom_resumes_following_without_a_crash() -> (
    None
):
    """Paging down to the end resumes following. That used to scroll to the end from
    inside the animation's last step, stopping the animation Textual was finishing:
    its animator then failed on a missing key (KeyError) and the app died. With
    Textual's own easing that happened only when the last step was the first at the
    end; a linear animation makes it happen every time."""
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        transcript.focus()
        await pilot.press("home")
        await at_rest(pilot)
        assert not transcript.following
        transcript._user_scrolls()  # as a key or the wheel would
        transcript.scroll_to(y=transcript.max_scroll_y, animate=True, duration=0.3, easing="linear")
        await wait_for(pilot, lambda: transcript.following)
        await pilot.pause(0.2)
        assert app.is_running and app.return_code is None
        assert round(transcript.scroll_y) == transcript.max_scroll_y


async def test_a_relayout_during_a_scroll_the_person_started_does_not_undo_it() -> None:
    """Home pressed while following, and a relayout comes before the animation has
    moved the view (a lexer built on its thread, a theme change): the view still goes
    to the top. The relayout used to scroll back to the end, as following said, and
    stop the person's scroll there (seen in tmux on a loaded machine)."""
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        transcript.focus()
        assert transcript.following and transcript.scroll_y > 0
        transcript._user_scrolls()
        transcript.scroll_home(animate=True, duration=0.3)
        transcript.invalidate()  # before the animation's first step
        await wait_for(pilot, lambda: not app.animator.is_being_animated(transcript, "scroll_y"))
        await at_rest(pilot)
        assert transcript.scroll_y == 0
        assert not transcript.following


async def test_home_and_end_jump_as_in_less_and_keep_follow_semantics() -> None:
    """Home and End move the view at once (Textual glided up to a second): right after
    the key the view is there, no animation under way; End follows again, and one ↑
    after it leaves following and moves exactly one line."""
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        transcript.focus()
        assert transcript.max_scroll_y > 50 and transcript.following
        glides = spy_on_glides(transcript)
        await pilot.press("home")
        assert transcript.scroll_y == 0 and transcript.scroll_target_y == 0
        assert not transcript.following
        await pilot.press("end")
        assert transcript.scroll_y == transcript.max_scroll_y
        assert glides == []  # neither key started an animation (Pilot waits one out)
        await wait_for(pilot, lambda: transcript.following)
        await pilot.press("g")  # the vi key too
        assert transcript.scroll_y == 0
        await pilot.press("G", "up")
        await at_rest(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y - 1
        assert not transcript.following
