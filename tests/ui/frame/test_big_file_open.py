"""A big file opens at its final state: a preview of its start and end, then the whole fold."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from streamview.core.preview import PREVIEW_FROM_BYTES
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.core.summary import summarize
from streamview.sources.base import FileSource
from streamview.ui.feed.reader import Batch
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.status_bar import StatusBar
from streamview.ui.playback.feed import PlaybackFeed

REPO = Path(__file__).resolve().parents[3]
LONG_RUN = REPO / "recordings" / "long-run.ndjson"
WAIT_SECONDS = 60.0


class GatedFile(FileSource):
    """A file whose sequential read waits until the test opens the gate."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = threading.Event()

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """The file's bytes, once the gate is open."""
        while not self.gate.wait(0.01):
            if stop.is_set():
                return
        yield from super().chunks(stop)


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three copies of the bundled long run back to back: three sessions, a few MB."""
    if not LONG_RUN.is_file():
        pytest.fail(f"bundled recording missing: {LONG_RUN}")
    data = LONG_RUN.read_bytes()
    copies = PREVIEW_FROM_BYTES // len(data) + 1
    path = tmp_path_factory.mktemp("big") / "big.ndjson"
    path.write_bytes(data * copies)
    assert path.stat().st_size >= PREVIEW_FROM_BYTES
    return path


def fingerprint(state: StreamState) -> Any:
    """What a view shows of a state: the summary, each block's text, each call."""
    blocks = [
        [(block.kind, block.text, block.open, block.call_index) for block in session.blocks]
        for session in state.sessions
    ]
    calls = [
        [(c.call_id, c.status, c.summary, c.args, c.completed_line) for c in session.tool_calls]
        for session in state.sessions
    ]
    return summarize(state), blocks, calls, state.counts.total, state.counts.blank, state.ended


def next_state(feed: PlaybackFeed) -> Batch:
    """Drain until the feed hands a state over."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        batch = feed.drain()
        assert not batch.events, "opening at the final state hands out no events"
        if batch.state is not None:
            return batch
        time.sleep(0.005)
    pytest.fail("no state was handed over")


def wait_until(condition: Any) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("timed out")
        time.sleep(0.005)


def test_preview_then_the_exact_final_state(big_file: Path) -> None:
    """The preview holds the run's start and end; then comes fold() of the whole file."""
    source = GatedFile(big_file)
    feed = PlaybackFeed(source)
    feed.start()
    try:
        preview = next_state(feed)
        assert preview.state is not None and feed.is_preview(preview.state)
        assert not preview.state.ended and not preview.ended
        sessions = preview.state.sessions
        assert sessions[0].prompt and sessions[-1].outcome.result  # start and end are there
        assert feed.progress == 0.0
        source.gate.set()
        final = next_state(feed)
        assert final.state is not None and not feed.is_preview(final.state)
        expected = fold([big_file.read_bytes()])
        assert fingerprint(final.state) == fingerprint(expected)
        assert feed.progress == 1.0
    finally:
        feed.stop()


def test_payloads_load_and_playback_steps_back(big_file: Path) -> None:
    """After the fold, a call's line reads back from the file, and `,` replays to there."""
    feed = PlaybackFeed(FileSource(big_file))
    feed.start()
    try:
        state: StreamState | None = None
        while state is None or feed.is_preview(state):
            state = next_state(feed).state
        lines = big_file.read_bytes().split(b"\n")
        calls = [call for session in state.sessions for call in session.tool_calls]
        assert calls
        for call in calls[:: max(1, len(calls) // 50)]:
            for number in (call.started_line, call.completed_line):
                assert number is not None
                assert feed.store.get(number) == lines[number - 1]
        assert not feed.loaded, "the events for playback are read on demand"
        feed.step(-1)
        assert feed.request_index()
        wait_until(lambda: feed.loaded)
        assert feed.position == feed.total == state.counts.total
        rewound: list[bool] = []
        feed.on_rewind = lambda: rewound.append(True)
        feed.step(-1)
        assert rewound, "stepping back from the final state starts over"
        batch = feed.drain()
        assert batch.state is not None, "from the nearest checkpoint's state"
        replay = batch.state
        for event in batch.events:
            replay.apply(event)
        straight = StreamState(track_changes=False)
        for event in feed.events[: feed.total - 1]:
            straight.apply(event)
        assert feed.position == feed.total - 1
        assert fingerprint(replay) == fingerprint(straight)
    finally:
        feed.stop()


async def test_the_viewer_shows_loading_then_the_final_state(big_file: Path) -> None:
    """The status bar says "loading" over the preview; then the last session's outcome."""
    source = GatedFile(big_file)
    feed = PlaybackFeed(source)
    app = StreamviewApp(source, feed=feed, clock=lambda: 1_700_000_000_000)
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + WAIT_SECONDS
        while not feed.is_preview(app.state) and time.monotonic() < deadline:
            await pilot.pause(0.02)
        assert feed.is_preview(app.state)
        await pilot.pause(0.05)
        status = app.query_one(StatusBar)
        assert status.text.startswith("loading 0%")
        app.tool_table.focus()
        await pilot.press("enter")
        assert app.screen is app.main_screen, "no detail from a preview"
        source.gate.set()
        while not app.state.ended and time.monotonic() < deadline:
            await pilot.pause(0.02)
        await pilot.pause(0.05)
        assert app.state is feed.final_state()
        assert app.session_index == len(app.state.sessions) - 1
        assert status.text.startswith("✓ success")
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert app.screen is not app.main_screen, "the detail opens once loaded"
        await pilot.press("escape")
        await pilot.pause(0.05)
        assert not feed.loaded, "nothing indexed before a playback key"
        await pilot.press("comma")
        while feed.position != feed.total - 1 and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert feed.loaded and feed.position == feed.total - 1
        assert not app.state.ended, "one event back from the end, the run is not over"
