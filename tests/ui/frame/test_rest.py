"""Nothing ticks when nothing on screen can change: on a finished file the frame and
clock timers stop (no drain of the feed for seconds), and a playback key wakes them."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.controls import PlaybackBar
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import FakeClock, settle, wait_for

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"


def count_drains(app: StreamviewApp) -> list[int]:
    """Count the feed's drains from now on (each frame of the pump drains it once)."""
    drains = [0]
    feed = app.feed
    drain = feed.drain

    def counted(limit: int | None = None):  # type: ignore[no-untyped-def]
        drains[0] += 1
        return drain(limit)

    feed.drain = counted  # type: ignore[method-assign]
    return drains


async def quiet_for(pilot: Pilot[StreamviewApp], seconds: float) -> None:
    await pilot.pause(seconds)


async def test_a_finished_file_stops_the_frame_timer() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        drains = count_drains(app)
        await quiet_for(pilot, 0.6)  # ~18 frames at 30 Hz, were the timer running
        assert drains[0] == 0
        assert "✓ success" in app.status_bar.text


async def test_a_playback_key_wakes_it_and_the_end_puts_it_to_rest_again() -> None:
    source = FileSource(RECORDING)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        drains = count_drains(app)
        await quiet_for(pilot, 0.6)
        assert drains[0] == 0
        await pilot.press("9")  # to 90 % of the run's time, paused
        await wait_for(pilot, lambda: feed.loaded and feed.position < feed.total)
        at = feed.position
        await pilot.press("+", "+", "+", "+", "space")  # 16x, playing
        await wait_for(pilot, lambda: feed.position > at)  # it moves: frames run
        await wait_for(pilot, lambda: feed.position == feed.total and not feed.playing)
        await pilot.pause(0.2)
        drains[0] = 0
        await quiet_for(pilot, 0.6)
        assert drains[0] == 0
        bar = app.query_one(PlaybackBar)
        assert "event 170 of 170" in str(bar.render())
