"""Garbage collection between frames: the young generation collected after a frame."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from streamview.ui.feed import gc as frame_gc
from streamview.ui.frame.app import StreamviewApp

from ..conftest import RECORDINGS, FakeClock, ScriptedSource, lines_of, wait_for

PROBE_43 = "hcn_2026.09.15_probe-43_partial-output-tool-turn.ndjson"


@pytest.fixture(autouse=True)
def viewer_thresholds() -> Iterator[None]:
    """The thresholds the viewer runs with (restored afterwards)."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def cycles(count: int) -> list[list[object]]:
    """``count`` two-object reference cycles."""
    pairs = []
    for _ in range(count):
        a: list[object] = []
        b: list[object] = [a]
        a.append(b)
        pairs.append(a)
    return pairs


def test_nothing_is_collected_below_the_young_threshold() -> None:
    gc.collect()
    assert not frame_gc.collection_due()
    assert frame_gc.collect_between_frames() == -1


def test_the_young_generation_is_collected_once_enough_piled_up() -> None:
    gc.collect()
    kept = cycles(frame_gc.YOUNG_OBJECTS)
    assert frame_gc.collection_due()
    assert frame_gc.collect_between_frames() == 0
    assert gc.get_count()[0] < frame_gc.YOUNG_OBJECTS // 10
    assert len(kept) == frame_gc.YOUNG_OBJECTS  # live objects are kept, of course


def test_the_older_generations_take_their_turns() -> None:
    gc.collect()
    generations = []
    for _ in range(frame_gc.YOUNG_PER_MIDDLE + 1):
        garbage = cycles(frame_gc.YOUNG_OBJECTS)
        del garbage
        generations.append(frame_gc.collect_between_frames())
    assert generations == [0] * frame_gc.YOUNG_PER_MIDDLE + [1]


async def test_the_viewer_collects_after_a_frame_while_lines_stream_in() -> None:
    lines = lines_of(PROBE_43)
    source = ScriptedSource(lines[:1])
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 1)
        gc.collect()
        garbage = cycles(frame_gc.YOUNG_OBJECTS)
        del garbage
        source.push(lines[1])
        await wait_for(pilot, lambda: app.state.counts.total == 2)
        await wait_for(pilot, lambda: not frame_gc.collection_due())
        assert "Read the file notes.txt" in str(app.header.render())


def test_a_full_collection_waits_a_hundred_times_as_long_as_the_last_one_took(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a big heap a full collection is a long pause: at most 1% of the time."""
    now = [1000.0]
    collected: list[int] = []

    def collect(generation: int = 2) -> int:
        collected.append(generation)
        now[0] += 0.5 if generation == 2 else 0.01  # a full one takes half a second
        return 0

    monkeypatch.setattr(gc, "get_count", lambda: (frame_gc.YOUNG_OBJECTS, 10, 1_000))
    monkeypatch.setattr(gc, "collect", collect)
    clock = lambda: now[0]  # noqa: E731
    monkeypatch.setitem(frame_gc._full, "not_before", 0.0)
    assert frame_gc.collect_between_frames(clock) == 2
    assert frame_gc.collect_between_frames(clock) == 1  # right after: the middle only
    now[0] += 48.0
    assert frame_gc.collect_between_frames(clock) == 1  # 49 s later: not yet (50 s)
    now[0] += 2.0
    assert frame_gc.collect_between_frames(clock) == 2
    assert collected == [2, 1, 1, 2]


def test_nothing_is_collected_while_a_file_is_folded_and_its_state_is_frozen_after() -> None:
    gc.unfreeze()
    garbage = cycles(30_000)
    try:
        with frame_gc.folding_a_file():
            assert not gc.isenabled()
            state = [{"block": index} for index in range(frame_gc.YOUNG_OBJECTS * 2)]
            assert gc.get_count()[0] >= frame_gc.YOUNG_OBJECTS
            assert not frame_gc.collection_due()  # not between frames either
            assert frame_gc.collect_between_frames() == -1
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(state)  # the folded state left the generations
        assert frame_gc.collection_due() is False  # nothing young is left to collect
    finally:
        gc.unfreeze()
        del garbage


def test_folds_on_two_threads_freeze_once_both_are_done() -> None:
    gc.unfreeze()
    try:
        with frame_gc.folding_a_file():
            with frame_gc.folding_a_file():
                pass
            assert not gc.isenabled() and gc.get_freeze_count() == 0
        assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


async def test_opening_a_file_folds_it_with_the_collector_paused(tmp_path: Path) -> None:
    from streamview.sources.base import FileSource
    from streamview.ui.playback.feed import PlaybackFeed

    path = tmp_path / "run.ndjson"
    path.write_text((RECORDINGS / "success-multi-tool.ndjson").read_text())
    seen: list[bool] = []
    real = frame_gc.folding_a_file

    @contextmanager
    def spying() -> Iterator[None]:
        with real():
            seen.append(gc.isenabled())
            yield

    gc.unfreeze()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("streamview.ui.playback.feed.folding_a_file", spying)
            feed = PlaybackFeed(FileSource(path), playing=False, speed=1.0, idle_limit=None)
            app = StreamviewApp(FileSource(path), feed=feed, clock=feed.recorded_now_ms)
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_for(pilot, lambda: app.state.ended)
        assert seen == [False]
        assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
