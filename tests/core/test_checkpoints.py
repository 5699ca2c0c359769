"""Seeking through checkpoints gives exactly the state a straight fold of the events
before that point gives.

A :class:`~streamview.core.checkpoints.PlaybackIndex` filled by the fast fold, and a
:class:`~streamview.core.timeline.FileTimeline` over it, must hand out the same events
an :class:`~streamview.core.reader.EventReader` makes, and the state of the nearest
checkpoint plus the events after it must equal the fold of every event before ``n``,
for every ``n``: across checkpoint boundaries, session boundaries, tool calls started
before a checkpoint and completed after it, on every dialect. Checkpoints must not
change when a state restored from them is played on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from streamview.core.checkpoints import NO_TIME, PlaybackIndex
from streamview.core.events import AnyEvent
from streamview.core.linestore import FileLineStore
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState
from streamview.core.time_column import TimeColumn
from streamview.core.timeline import FileTimeline
from streamview.core.timing import build_column_schedule, build_schedule

from .helpers import (
    assistant,
    completed,
    delta,
    init,
    recap,
    result,
    started,
    stream,
    thinking,
    thinking_done,
    user,
)
from .test_fast_fold import CODEX_GROWTH, SYNTHETIC, account

REPO = Path(__file__).resolve().parents[2]
RECORDINGS = sorted(
    path for path in (REPO / "recordings").glob("*.ndjson") if path.name != "long-run.ndjson"
)
"""The bundled runs short enough to check at every position (the long one: at random)."""
DIALECT_FILES = sorted((REPO / "tests" / "fixtures" / "dialects").glob("*/*.jsonl"))

ACROSS = stream(
    init(session_id="s-1"),
    user("first"),
    thinking("hmm", session_id="s-1"),
    started("call-1", "read", {"path": "a.py"}),
    delta("Rea"),
    delta("ding"),
    completed("call-1", "read", result={"success": {"totalLines": 3}}),
    recap("Reading", "mc-1"),
    started("call-2", "shell", {"command": "ls"}),
    result("one", session_id="s-1"),
    init(session_id="s-2"),
    user("second", session_id="s-2"),
    thinking("again", session_id="s-2"),
    thinking_done(session_id="s-2"),
    started("call-3", "grep", {"pattern": "x"}),
    delta("Look"),
    delta("ing"),
    completed("call-3", "grep", result={"success": {"workspaceResults": {}}}),
    assistant("Looking"),
    b"not json\n",
    completed("call-3", "grep", result={"success": {"workspaceResults": {}}}),
    result("two", session_id="s-2"),
)
"""Sessions switching back and forth (records without a session id of their own carry
the helpers' default one), a call left running at a session's end, a call started before a
checkpoint and completed after it (for every checkpoint spacing), a completed call
touched again, deltas replaced by a recap, and a malformed line."""


def test_the_viewer_tests_fixture_is_this_stream() -> None:
    """``tests/ui/test_playback_checkpoints.py`` plays the same stream from a file."""
    fixture = REPO / "tests" / "fixtures" / "playback" / "across-sessions.ndjson"
    assert fixture.read_bytes() == ACROSS


def indexed(path: Path, every: int, per_call: int = 0) -> tuple[StreamState, FileTimeline]:
    """The fast fold of ``path`` with an index of checkpoints every ``every`` events."""
    store = FileLineStore(path)
    index = PlaybackIndex(every, per_call)
    state = fold([path.read_bytes()], store=store, index=index)
    return state, FileTimeline(store, index)


def reference_events(path: Path) -> list[AnyEvent]:
    """The events an EventReader makes of the file: the straight replay's."""
    reader = EventReader()
    data = path.read_bytes()
    return [*reader.feed(data), *reader.finish()]


def straight(events: list[AnyEvent], count: int) -> StreamState:
    """A fresh fold of the first ``count`` events."""
    state = StreamState(track_changes=False)
    for event in events[:count]:
        state.apply(event)
    return state


def seek(timeline: FileTimeline, count: int, slack: int = 0) -> StreamState:
    """The state at ``count`` reached as the viewer does: checkpoint plus replay.

    ``slack``: events a checkpoint may come late by, since it is taken at the end of a
    line (a line of several events: a thinking block and text in one message).
    """
    state, start = timeline.state_before(count)
    assert start <= count
    # A checkpoint sharing a finished call named again later is not used: the one
    # before that call finished is, a longer replay.
    wanted = timeline.recorded.checkpoints[timeline._window_of(count)].events
    assert count - start <= timeline.recorded.every + slack or start < wanted
    for event in timeline.between(start, count):
        state.apply(event)
    return state


def assert_whole(state: StreamState) -> None:
    """The open blocks are in the transcript, and each call is the one its id maps to."""
    for session in state.sessions:
        for block in (session.open_text, session.open_thinking):
            if block is not None:
                assert any(item is block for item in session.blocks)
        for call in session.calls_by_id.values():
            assert session.tool_calls[call.index] is call


def assert_seeks_match(path: Path, every: int, counts: list[int] | None = None) -> None:
    """Every ``count`` reached through a checkpoint equals the straight fold."""
    final, timeline = indexed(path, every)
    events = reference_events(path)
    assert len(timeline) == len(events)
    assert timeline.between(0, len(events)) == events
    expected = account(final)
    per_line: dict[int, int] = {}
    for event in events:
        per_line[event.line] = per_line.get(event.line, 0) + 1
    slack = max(per_line.values(), default=1) - 1
    for count in counts if counts is not None else range(len(events) + 1):
        state = seek(timeline, count, slack)
        assert_whole(state)
        assert account(state) == account(straight(events, count)), count
    assert account(final) == expected, "checkpoints share nothing the seeks changed"


@pytest.mark.parametrize("every", [1, 2, 3, 5, 8])
def test_every_position_across_sessions_and_calls(tmp_path: Path, every: int) -> None:
    """Two sessions, calls completed after a checkpoint, every spacing, every position."""
    path = tmp_path / "across.ndjson"
    path.write_bytes(ACROSS)
    assert_seeks_match(path, every)


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_synthetic_streams(tmp_path: Path, name: str) -> None:
    """CRLF, blank lines, recaps, parallel calls: every position, checkpoints every 2."""
    path = tmp_path / "synthetic.ndjson"
    path.write_bytes(SYNTHETIC[name])
    assert_seeks_match(path, 2)


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.name)
def test_bundled_recordings(path: Path) -> None:
    """Real runs: every position, checkpoints every 7 events."""
    assert_seeks_match(path, 7)


@pytest.mark.parametrize("path", DIALECT_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_other_dialects(path: Path) -> None:
    """Claude, Codex, Gemini: the translator's memory is part of each checkpoint."""
    assert_seeks_match(path, 3)


def test_playing_on_from_a_checkpoint_leaves_it_as_it_was(tmp_path: Path) -> None:
    """A state restored from a checkpoint and played to the end does not change the
    checkpoint: seeking there again gives the same state."""
    path = tmp_path / "across.ndjson"
    path.write_bytes(ACROSS)
    _, timeline = indexed(path, 4)
    events = reference_events(path)
    for count in range(len(events) + 1):
        state = seek(timeline, count)
        for event in events[count:]:
            state.apply(event)
        state.finish()
    for count in range(len(events) + 1):
        assert account(seek(timeline, count)) == account(straight(events, count)), count


def test_random_seeks_on_a_long_run() -> None:
    """Back and forth at random on the long bundled run (fixed seed)."""
    path = REPO / "recordings" / "long-run.ndjson"
    events = reference_events(path)
    rng = random.Random(12)
    counts = [rng.randrange(len(events) + 1) for _ in range(40)]
    assert_seeks_match(path, 50, counts)


@pytest.mark.parametrize("name", ["success-multi-tool.ndjson", "long-run.ndjson"])
def test_call_starts_and_times_match_the_events(name: str) -> None:
    """The index's first event of each call and times are those of the events (the long
    run's past the times the index holds before adding them to its columns)."""
    path = REPO / "recordings" / name
    _, timeline = indexed(path, 5)
    events = reference_events(path)
    seen: set[str] = set()
    starts = []
    for number, event in enumerate(events):
        call_id = getattr(event, "call_id", None)
        if type(event).__name__ == "ToolCallEvent" and call_id not in seen:
            seen.add(call_id)
            starts.append(number)
    assert list(timeline.call_starts) == starts
    for number, event in enumerate(events):
        assert timeline.moment(number, True) == event.recv_ms
        assert timeline.moment(number, False) == event.timestamp_ms


def column(values: Sequence[int | None]) -> TimeColumn:
    """Times as the index keeps them."""
    kept = TimeColumn(NO_TIME)
    for value in values:
        kept.append(NO_TIME if value is None else value)
    return kept


@pytest.mark.parametrize("seed", range(30))
def test_column_schedule_equals_the_tuple_schedule(seed: int) -> None:
    """Arrival times, timestamps, gaps, one or equal arrival times: the same offsets."""
    rng = random.Random(seed)
    size = rng.randrange(0, 40)
    shape = seed % 5

    def moment() -> int | None:
        if shape == 0 or rng.random() < 0.3:
            return None
        return 1_000 + rng.randrange(0, 100_000)

    received = [moment() for _ in range(size)]
    if shape == 1:
        received = [5 if value is not None else None for value in received]
    if shape == 2 and size:
        received = [None] * size
        received[rng.randrange(size)] = 7
    stamps = [moment() for _ in range(size)]
    limit: Any = rng.choice([None, 0.5, 3])
    expected = build_schedule(list(zip(received, stamps, strict=True)), limit, 40)
    got = build_column_schedule(column(received), column(stamps), NO_TIME, limit, 40)
    assert got.clock == expected.clock
    assert list(got.offsets) == list(expected.offsets)


def test_times_past_64_bits_count_as_none(tmp_path: Path) -> None:
    """A timestamp too big for the index's arrays is no time, not a crash."""
    path = tmp_path / "huge.ndjson"
    path.write_bytes(
        b'{"type":"thinking","subtype":"delta","text":"a","timestamp_ms":%d}\n' % (1 << 70)
        + b'{"type":"thinking","subtype":"delta","text":"b","timestamp_ms":5}\n'
    )
    _, timeline = indexed(path, 1)
    # The first event names the agent (a thinking record is Cursor's): it has no time.
    assert [timeline.moment(n, False) for n in range(3)] == [None, None, 5]


@pytest.mark.parametrize("seed", range(10))
def test_column_schedule_of_fully_timed_lines(seed: int) -> None:
    """Every line timed, no idle limit (the viewer's case): the running-maximum shortcut
    gives build_schedule's offsets, clocks going back included."""
    rng = random.Random(seed)
    received = [1_000 + rng.randrange(-500, 100_000) for _ in range(rng.randrange(1, 60))]
    stamps: list[int | None] = [None] * len(received)
    for limit in (None, 2):
        expected = build_schedule(list(zip(received, stamps, strict=True)), limit)
        got = build_column_schedule(column(received), column(stamps), NO_TIME, limit)
        assert (got.clock, list(got.offsets)) == (expected.clock, list(expected.offsets))


def test_codex_items_that_grow_across_checkpoints(tmp_path: Path) -> None:
    """Codex's growing message and reasoning (complete reasoning is two events of one
    line: its text, then the block closes) at every position, a checkpoint every 2."""
    path = tmp_path / "codex-growth.jsonl"
    path.write_bytes(CODEX_GROWTH + b"\n")
    assert_seeks_match(path, 2)


def test_checkpoints_space_out_in_a_session_of_many_calls(tmp_path: Path) -> None:
    """One session of many calls: each checkpoint copies them all, so checkpoints come
    at least two events apart per call, and seeks still give a straight fold."""
    calls = [
        part
        for number in range(40)
        for part in (
            started(f"c{number}", "read", {"path": f"{number}.py"}),
            completed(f"c{number}", "read", result={"success": {"totalLines": 1}}),
        )
    ]
    path = tmp_path / "many-calls.ndjson"
    path.write_bytes(stream(init(), user("go"), *calls, result("done")))
    _, timeline = indexed(path, 4, per_call=2)
    checkpoints = timeline.recorded.checkpoints
    for before, after in pairwise(checkpoints):
        open_calls = before.open_session.calls if before.open_session else 0
        assert after.events - before.events >= max(4, 2 * open_calls)
    assert len(checkpoints) < len(timeline) // 4
    events = reference_events(path)
    for count in range(len(events) + 1):
        state, start = timeline.state_before(count)
        for event in timeline.between(start, count):
            state.apply(event)
        assert account(state) == account(straight(events, count)), count


def test_checkpoints_share_the_calls_that_finished() -> None:
    """A checkpoint copies only the calls still running: the finished ones are the
    fold's own (issue 27.5: copies of every call at every checkpoint were a quarter of
    the viewer's memory on a long session), and a seek from any of them still gives the
    straight fold's state (the tests above)."""
    path = REPO / "recordings" / "long-run.ndjson"
    state, timeline = indexed(path, every=50, per_call=0)
    live = {id(call) for session in state.sessions for call in session.tool_calls}
    shared = copied = 0
    for checkpoint in timeline.recorded.checkpoints:
        kept = checkpoint.open_session
        for call in kept.calls_kept() if kept is not None else ():
            if call.status == "running":
                assert id(call) not in live
            else:
                shared += id(call) in live
                copied += id(call) not in live
    assert shared > 100
    assert copied == 0


def test_checkpoints_share_the_folds_lists() -> None:
    """A checkpoint keeps the open session's lists of calls and blocks as the fold's own
    lists and their lengths then (a list per checkpoint was what a checkpoint of a long
    session cost), the open blocks and unfinished calls as copies at their places."""
    path = REPO / "recordings" / "long-run.ndjson"
    state, timeline = indexed(path, every=50, per_call=0)
    kept_ones = [c.open_session for c in timeline.recorded.checkpoints if c.open_session]
    assert len(kept_ones) > 5
    for kept in kept_ones:
        live = state.sessions[kept.session.index]
        assert kept.tool_calls is live.tool_calls and kept.blocks_of is live
        assert kept.calls <= len(live.tool_calls) and kept.blocks <= len(live.blocks)
        assert kept.session.tool_calls == [] and kept.session.blocks == []
        for place, block in kept.block_copies.items():
            assert block is not live.blocks[place]
            assert block in (kept.session.open_text, kept.session.open_thinking)
        rebuilt = kept.rebuilt()
        assert len(rebuilt.tool_calls) == kept.calls and len(rebuilt.blocks) == kept.blocks
