"""The status line of a replay (issue 30.5): while it plays it says so, and how fast,
where it said "● streaming" as if the run were live; paused, it says where."""

from __future__ import annotations

from pathlib import Path

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import wait_for

REPO = Path(__file__).resolve().parents[3]
LONG_RUN = REPO / "recordings" / "long-run.ndjson"


async def test_a_playing_replay_says_it_plays_not_that_it_streams() -> None:
    source = FileSource(LONG_RUN)
    feed = PlaybackFeed(source, playing=True, speed=1.0)  # as --replay starts
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    async with app.run_test(size=(120, 36)) as pilot:
        bar = app.status_bar
        await wait_for(pilot, lambda: feed.loaded and feed.playing and feed.position > 1)
        await wait_for(pilot, lambda: bar.text.startswith("▶ replaying at 1x"), timeout=15)
        assert "streaming" not in bar.text
        await pilot.press("space")  # pause
        await wait_for(pilot, lambda: bar.text.startswith("‖ paused at event "))
        await pilot.press("plus", "space")  # faster, and play on
        await wait_for(pilot, lambda: bar.text.startswith("▶ replaying at 2x"))
        assert "streaming" not in bar.text
