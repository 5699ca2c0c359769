"""The playback bar counts events ("event 1,570 of 4,224": what ``.`` steps over), the
status line counts input lines ("1,570 lines"): one word for each, and in a recording
with one event a line the two read the same number at every moment of a playback."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import Static

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import FakeClock, wait_for

REPO = Path(__file__).resolve().parents[3]
LONG_RUN = REPO / "recordings" / "long-run.ndjson"
CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "subagent.jsonl"
EVENT = re.compile(r"event ([\d,]+) of ([\d,]+)")
LINES = re.compile(r"([\d,]+) lines")


def number(text: str) -> int:
    return int(text.replace(",", ""))


def readings(app: StreamviewApp) -> tuple[int, int, int]:
    """``(event n, of N, lines)`` as the playback bar and the status line show them."""
    bar = str(app.query_one("#playback-bar", Static).render())
    event = EVENT.search(bar)
    lines = LINES.search(app.status_bar.text)
    assert event is not None and lines is not None, (bar, app.status_bar.text)
    return number(event[1]), number(event[2]), number(lines[1])


async def test_while_a_replay_plays_the_bar_and_the_status_line_agree() -> None:
    source = FileSource(LONG_RUN)
    feed = PlaybackFeed(source, playing=True, speed=20.0)
    app = StreamviewApp(source, feed=feed, clock=FakeClock())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: feed.loaded and feed.position > 20, timeout=20)
        seen = set()
        for _ in range(12):
            await pilot.pause(0.07)
            event, total, lines = readings(app)
            assert total == len(LONG_RUN.read_bytes().splitlines())
            assert event == lines, "one event a line here: the two counts are one number"
            seen.add(event)
        assert len(seen) > 3  # it was playing all along


async def test_a_finished_run_counts_events_and_lines_each_by_its_own_word() -> None:
    source = FileSource(CLAUDE)
    feed = PlaybackFeed(source, index_on_demand=False)
    app = StreamviewApp(source, feed=feed, clock=FakeClock())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: feed.loaded and app.state.ended)
        await pilot.pause(0.3)
        event, total, lines = readings(app)
        assert lines == len([x for x in CLAUDE.read_bytes().splitlines() if x.strip()])
        assert event == total == feed.total  # a line with two blocks is two events
        assert " events" not in app.status_bar.text
