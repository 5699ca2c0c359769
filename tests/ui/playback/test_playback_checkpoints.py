"""Playback keys in the real viewer on a file indexed on demand, through checkpoints.

The file is "big" here because the feed is told so (``on_demand_from=1``), and its
checkpoints are a few events apart (``checkpoint_every``), so a small file crosses
many of them. Every key is pressed as a person would; every position reached must
show exactly the state a straight fold of the events before it gives. The feed's
clock is a fake one: nothing depends on how fast the machine is.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.pilot import Pilot

from streamview.core.events import AnyEvent
from streamview.core.reader import EventReader
from streamview.core.state import Block, StreamState
from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.controls import PlaybackBar
from streamview.ui.playback.feed import PlaybackFeed

REPO = Path(__file__).resolve().parents[3]
LONG_RUN = REPO / "recordings" / "long-run.ndjson"
ACROSS = REPO / "tests" / "fixtures" / "playback" / "across-sessions.ndjson"
"""Several sessions, calls completed after the checkpoint before them, a malformed line
(``tests/core/test_checkpoints.py`` writes the same bytes as ``ACROSS``)."""
WAIT_SECONDS = 30.0
"""A safety net for conditions awaited, never a pace the test relies on."""


class FakeClock:
    """Monotonic seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def dump(value: Any) -> Any:
    """Every field of a state object, recursively, as plain comparable values (a
    block's text, not how its parts are split: showing it joins them)."""
    # ``__struct_fields__`` names the fields as ``msgspec.structs.fields`` does, without
    # building their descriptions at every call (two thirds of this test's time).
    if isinstance(value, Block):
        fields = {name: dump(getattr(value, name)) for name in value.__struct_fields__}
        return "Block", {**fields, "parts": "".join(value.parts)}
    if isinstance(value, msgspec.Struct):
        names = value.__struct_fields__
        return type(value).__name__, {name: dump(getattr(value, name)) for name in names}
    if isinstance(value, list | tuple):
        return [dump(item) for item in value]
    if isinstance(value, dict):
        return [(repr(key), dump(item)) for key, item in value.items()]
    return value


def account(state: StreamState) -> Any:
    """Everything a view can read from a state."""
    parts = (state.sessions, state.counts, state.malformed, state.unknown, state.notices)
    return dump([*parts, state.last_event_ms, state.ended])


def reference(path: Path) -> list[AnyEvent]:
    """The events a straight replay folds."""
    reader = EventReader()
    data = path.read_bytes()
    return [*reader.feed(data), *reader.finish()]


def straight(events: list[AnyEvent], count: int) -> Any:
    """What a fresh fold of the first ``count`` events holds (finished at the end)."""
    state = StreamState(track_changes=False)
    for event in events[:count]:
        state.apply(event)
    if count == len(events):
        state.finish()
    return account(state)


def viewer(path: Path, every: int) -> tuple[StreamviewApp, PlaybackFeed, FakeClock]:
    """The viewer on ``path`` as ``streamview FILE`` builds it, indexed on demand."""
    clock = FakeClock()
    source = FileSource(path)
    feed = PlaybackFeed(source, clock=clock, on_demand_from=1, checkpoint_every=every)
    app = StreamviewApp(source, feed=feed, clock=lambda: 1_789_644_720_000)
    return app, feed, clock


async def until(pilot: Pilot[Any], condition: Any) -> None:
    """Let the app run until ``condition()`` holds."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("the condition never held")
        await pilot.pause(0.01)


async def opened(pilot: Pilot[Any], app: StreamviewApp, feed: PlaybackFeed) -> None:
    """Wait until the whole file is folded and shown, not yet indexed for playback."""
    await until(pilot, lambda: feed.folded and app.state.ended)
    await pilot.pause()
    assert not feed.loaded, "a big file is indexed only when a playback key asks"


def shown(app: StreamviewApp, feed: PlaybackFeed) -> Any:
    """The viewer's state, checked to be the fold of exactly ``feed.position`` events."""
    assert app.state.counts.total == feed.position
    return account(app.state)


async def test_the_first_key_indexes_then_plays_from_the_start(tmp_path: Path) -> None:
    """Space on a file opened at its end says "indexing", then plays from the start."""
    app, feed, clock = viewer(LONG_RUN, every=50)
    events = reference(LONG_RUN)
    async with app.run_test(size=(120, 40)) as pilot:
        await opened(pilot, app, feed)
        bar = app.query_one(PlaybackBar)
        assert "a playback key indexes them" in str(bar.content)
        await pilot.press("space")
        await until(pilot, lambda: feed.loaded and app.controls is not None)
        await until(pilot, lambda: not app.controls.waiting)  # type: ignore[union-attr]
        assert feed.playing
        assert feed.position == 1
        assert shown(app, feed) == straight(events, 1)
        assert str(bar.content).startswith("▶")
        clock.now += 5
        app.pump()
        await pilot.press("space")
        assert not feed.playing
        assert feed.position > 1
        assert shown(app, feed) == straight(events, feed.position)


async def test_the_first_key_steps_back_from_the_end(tmp_path: Path) -> None:
    """A comma before the index exists waits for it, then shows one event less."""
    app, feed, _ = viewer(LONG_RUN, every=50)
    events = reference(LONG_RUN)
    async with app.run_test(size=(120, 40)) as pilot:
        await opened(pilot, app, feed)
        await pilot.press("comma")
        await until(pilot, lambda: feed.loaded and not app.controls.waiting)  # type: ignore[union-attr]
        assert feed.position == len(events) - 1
        assert shown(app, feed) == straight(events, len(events) - 1)
        assert not app.state.ended


async def test_random_keys_always_show_a_straight_fold() -> None:
    """Digits, steps, call jumps, restart and the end, at random (fixed seed)."""
    app, feed, _ = viewer(LONG_RUN, every=40)
    events = reference(LONG_RUN)
    keys = [*map(str, range(10)), "comma", "full_stop", "less_than_sign", "greater_than_sign"]
    rng = random.Random(5)
    folds: dict[int, Any] = {}
    """The straight fold of each position met (the digits come back to the same ones):
    each is a fold of up to 4,224 events, and folding each anew took 17 s on a busy machine."""
    async with app.run_test(size=(120, 40)) as pilot:
        await opened(pilot, app, feed)
        await pilot.press("5")
        await until(pilot, lambda: feed.loaded and not app.controls.waiting)  # type: ignore[union-attr]
        for _ in range(40):
            await pilot.press(rng.choice(keys))
            if feed.playing:
                await pilot.press("space")
            at = feed.position
            if at not in folds:
                folds[at] = straight(events, at)
            assert shown(app, feed) == folds[at], at
        await pilot.press("G")
        assert feed.position == len(events)
        assert account(app.state) == straight(events, len(events))


async def test_stepping_back_across_checkpoints_sessions_and_a_late_completion() -> None:
    """One event at a time from the end to the start and back, checkpoints every 3
    events: across each checkpoint, the session boundary, and calls completed after
    the checkpoint before them."""
    path = ACROSS
    app, feed, _ = viewer(path, every=3)
    events = reference(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await opened(pilot, app, feed)
        await pilot.press("comma")
        await until(pilot, lambda: feed.loaded and not app.controls.waiting)  # type: ignore[union-attr]
        positions = []
        while feed.position > 1:
            assert shown(app, feed) == straight(events, feed.position), feed.position
            positions.append(feed.position)
            await pilot.press("comma")
        assert positions == list(range(len(events) - 1, 1, -1))
        assert len(app.state.sessions) == 1
        while feed.position < len(events):
            await pilot.press("full_stop")
            assert shown(app, feed) == straight(events, feed.position), feed.position
        assert len(app.state.sessions) > 2, "the stream switches sessions often"
        assert app.state.ended
