"""Playback in the viewer: stepping back and forth gives the state a straight replay has."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from streamview.core.state import StreamState
from streamview.core.summary import summarize
from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.controls import PlaybackBar, clock_text, describe_position
from streamview.ui.playback.feed import PlaybackFeed

REPO = Path(__file__).resolve().parents[2]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"


class FakeClock:
    """Monotonic seconds moved by hand."""

    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def fingerprint(state: StreamState) -> Any:
    """Everything a view shows of a state: the summary plus each block's text and calls."""
    blocks = [
        [(block.kind, block.text, block.open, block.call_index) for block in session.blocks]
        for session in state.sessions
    ]
    calls = [
        [(call.call_id, call.status, call.summary, call.args) for call in session.tool_calls]
        for session in state.sessions
    ]
    return summarize(state), blocks, calls, state.counts.total, state.ended


class Consumer:
    """Folds what a PlaybackFeed hands out, like the app's pump does."""

    def __init__(self, feed: PlaybackFeed) -> None:
        self.feed = feed
        self.state = StreamState(track_changes=False)
        feed.on_rewind = self.rewind

    def rewind(self) -> None:
        self.state = StreamState(track_changes=False)

    def pump(self) -> None:
        batch = self.feed.drain()
        if batch.state is not None:
            self.state = batch.state
        for event in batch.events:
            self.state.apply(event)
        if batch.ended and not self.state.ended:
            self.state.finish()


def straight(feed: PlaybackFeed, count: int) -> StreamState:
    """A fresh fold of the first ``count`` events (finished when that is all of them)."""
    state = StreamState(track_changes=False)
    for event in feed.events[:count]:
        state.apply(event)
    if count >= len(feed.events):
        state.finish()
    return state


def loaded_feed(path: Path = RECORDING, **options: Any) -> PlaybackFeed:
    if not path.is_file():
        pytest.fail(f"bundled recording missing: {path}")
    feed = PlaybackFeed(FileSource(path), **options)
    feed.load()
    return feed


def test_opens_at_the_final_state() -> None:
    feed = loaded_feed()
    consumer = Consumer(feed)
    consumer.pump()
    assert feed.position == feed.total == 170
    assert fingerprint(consumer.state) == fingerprint(straight(feed, feed.total))
    assert not feed.playing


def test_random_steps_always_match_a_straight_replay() -> None:
    feed = loaded_feed()
    consumer = Consumer(feed)
    consumer.pump()
    rng = random.Random(4)
    for _ in range(60):
        move = rng.choice(["step", "step", "call", "seek"])
        if move == "step":
            feed.step(rng.choice([-1, 1, -5, 3]))
        elif move == "call":
            feed.jump_to_call(rng.choice([-1, 1]))
        else:
            feed.seek_fraction(rng.randrange(10) / 10)
        consumer.pump()
        assert fingerprint(consumer.state) == fingerprint(straight(feed, feed.position))
    feed.go_to(feed.total)
    consumer.pump()
    assert fingerprint(consumer.state) == fingerprint(straight(feed, feed.total))


def test_step_back_then_forward_returns_to_the_same_state() -> None:
    feed = loaded_feed()
    consumer = Consumer(feed)
    consumer.pump()
    final = fingerprint(consumer.state)
    for _ in range(30):
        feed.step(-1)
        consumer.pump()
    assert feed.position == 140
    for _ in range(30):
        feed.step(1)
        consumer.pump()
    assert fingerprint(consumer.state) == final


def test_tool_call_jumps_land_just_after_a_call_starts() -> None:
    feed = loaded_feed()
    consumer = Consumer(feed)
    feed.go_to(1)
    consumer.pump()
    assert feed.jump_to_call(1)
    consumer.pump()
    session = consumer.state.sessions[0]
    assert len(session.tool_calls) == 1 and session.tool_calls[0].status == "running"
    assert feed.jump_to_call(1)
    consumer.pump()
    assert len(consumer.state.sessions[0].tool_calls) == 2
    assert feed.jump_to_call(-1)
    consumer.pump()
    assert len(consumer.state.sessions[0].tool_calls) == 1
    assert not feed.jump_to_call(-1)


def test_playing_follows_the_fake_clock_and_pauses_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "r.ndjson"
    path.write_bytes(
        b"".join(
            b'{"type":"assistant","session_id":"s","timestamp_ms":1,"streamview_recv_ms":%d}\n' % ms
            for ms in (0, 1_000, 2_000, 60_000)
        )
    )
    clock = FakeClock()
    feed = loaded_feed(path, playing=True, speed=2.0, idle_limit=5.0, clock=clock)
    consumer = Consumer(feed)
    consumer.pump()
    assert feed.position == 1 and feed.playing
    clock.now += 0.5
    consumer.pump()
    assert feed.position == 2
    assert describe_position(feed) == "▶ 2x · event 2 of 4 · 0:01 / 0:07"
    feed.toggle()
    clock.now += 100
    consumer.pump()
    assert feed.position == 2 and not feed.playing
    feed.toggle()
    clock.now += 2.0  # offsets 0, 1, 2 and 7 s (a 58 s silence cut to 5 s); at speed 2
    consumer.pump()
    assert feed.position == 3
    clock.now += 1.0
    consumer.pump()
    assert feed.position == 4 and not feed.playing and consumer.state.ended
    feed.toggle()  # at the end: from the start again
    consumer.pump()
    assert feed.position == 1 and feed.playing


def test_restart_and_speed() -> None:
    clock = FakeClock()
    feed = loaded_feed(clock=clock)
    consumer = Consumer(feed)
    consumer.pump()
    assert feed.faster() == 2.0
    feed.restart()
    consumer.pump()
    assert feed.position == 1 and feed.playing
    assert feed.slower() == 1.0


def test_clock_text() -> None:
    assert clock_text(0) == "0:00"
    assert clock_text(62_500) == "1:02"
    assert clock_text(3_723_000) == "1:02:03"


async def test_keys_step_and_seek_in_the_viewer() -> None:
    """The real app: , and . step, digits seek, the bar says where playback is."""
    feed = PlaybackFeed(FileSource(RECORDING))
    app = StreamviewApp(FileSource(RECORDING), feed=feed, clock=lambda: 1_789_644_720_000)
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 20
        while not app.state.ended:
            assert time.monotonic() < deadline
            await pilot.pause(0.05)
        final = fingerprint(app.state)
        bar = app.query_one(PlaybackBar)
        await pilot.press("comma", "comma", "comma")
        await pilot.pause(0.1)
        assert feed.position == 167
        assert fingerprint(app.state) == fingerprint(straight(feed, 167))
        assert "event 167 of 170" in str(bar.render())
        await pilot.press("5")
        await pilot.pause(0.1)
        assert fingerprint(app.state) == fingerprint(straight(feed, feed.position))
        assert 1 < feed.position < 170
        await pilot.press("less_than_sign")
        await pilot.pause(0.1)
        assert fingerprint(app.state) == fingerprint(straight(feed, feed.position))
        for _ in range(3):
            await pilot.press("full_stop")
        await pilot.press("9")
        await pilot.pause(0.1)
        feed.go_to(170)
        app.pump()
        await pilot.pause(0.1)
        assert fingerprint(app.state) == final


def test_recorded_clock_follows_the_playback_position(tmp_path: Path) -> None:
    """Running calls' timers count in the run's own time, not today's."""
    path = tmp_path / "r.ndjson"
    path.write_bytes(
        b"".join(
            b'{"type":"assistant","session_id":"s","timestamp_ms":1,"streamview_recv_ms":%d}\n' % ms
            for ms in (1_000_000, 1_004_000)
        )
    )
    clock = FakeClock()
    feed = loaded_feed(path, playing=True, clock=clock)
    consumer = Consumer(feed)
    consumer.pump()
    clock.now += 1.5
    assert feed.recorded_now_ms() == 1_001_500
    clock.now += 10
    consumer.pump()
    assert feed.recorded_now_ms() == 1_004_000
