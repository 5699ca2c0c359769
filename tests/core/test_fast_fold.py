"""The fast fold behind ``--json`` leaves exactly the state the event-by-event fold leaves.

:func:`~streamview.core.reader.fold` applies each dialect's hot records (Cursor's
thinking, assistant and tool-call records; Claude Code's and Gemini CLI's deltas)
straight from their decoded dicts (the translator's ``fast``,
:meth:`StreamState.apply_fast`) and builds events only for the rest. These tests
compare every field of the resulting state with a fold that parses each line into an
event and applies it, on real captures and every dialect's fixtures, on synthetic
streams and on lines mutated at random (fixed seeds), cut into chunks of every size.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest

from streamview.core.dialects.cursor import CursorTranslator
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState
from streamview.core.summary import summarize

from .helpers import (
    SID,
    assistant,
    capture_files,
    completed,
    delta,
    flush,
    init,
    recap,
    result,
    started,
    stream,
    thinking,
    thinking_done,
    user,
)


@functools.cache
def field_names(struct: type[msgspec.Struct]) -> tuple[str, ...]:
    """A struct type's fields (``msgspec.structs.fields`` evaluates every annotation
    again on each call: 90% of a long run's comparisons of accounts)."""
    return tuple(field.name for field in msgspec.structs.fields(struct))


def dump(value: Any) -> Any:
    """Every field of a state object, recursively, as plain comparable values."""
    if isinstance(value, msgspec.Struct):
        return (
            type(value).__name__,
            {name: dump(getattr(value, name)) for name in field_names(type(value))},
        )
    if isinstance(value, list | tuple):
        return [dump(item) for item in value]
    if isinstance(value, dict):
        return [(repr(key), dump(item)) for key, item in value.items()]
    if isinstance(value, set):
        return sorted(repr(item) for item in value)
    return value


def account(state: StreamState) -> Any:
    """Everything a front end can read from a folded state."""
    return dump(
        {
            "sessions": state.sessions,
            "counts": state.counts,
            "malformed": state.malformed,
            "unknown": state.unknown,
            "notices": state.notices,
            "last_event_ms": state.last_event_ms,
            "ended": state.ended,
        }
    )


def event_by_event(chunks: list[bytes]) -> StreamState:
    """The reference: parse every line into an event and apply it."""
    state = StreamState(track_changes=False)
    reader = EventReader()
    for chunk in chunks:
        for event in reader.feed(chunk):
            state.apply(event)
    for event in reader.finish():
        state.apply(event)
    state.counts.blank += reader.blank_lines
    state.finish()
    return state


def chunked(data: bytes, size: int) -> list[bytes]:
    """``data`` in pieces of ``size`` bytes."""
    return [data[i : i + size] for i in range(0, len(data), size)] or [b""]


def assert_same_fold(data: bytes) -> None:
    """The fast fold equals the reference, whole and cut into small chunks."""
    expected = account(event_by_event([data]))
    for size in (len(data) or 1, 7, 1):
        if size == 1 and len(data) > 20_000:
            continue
        assert account(fold(chunked(data, size))) == expected, size


SYNTHETIC = {
    "deltas, recap, flush": stream(
        init(),
        user("hi"),
        thinking("let me "),
        thinking("see"),
        thinking_done(),
        delta("Hel"),
        delta("lo"),
        recap("Hello", "mc-1"),
        started("call-1", "read", {"path": "a.py"}),
        completed("call-1", "read", result={"success": {"totalLines": 3}}),
        delta("Done"),
        delta("."),
        flush("Done."),
        result("Hello\nDone."),
    ),
    "parallel calls, completion without start": stream(
        init(),
        started("a", "shell", {"command": "ls"}),
        started("b", "grep", {"pattern": "x"}),
        completed("b", "grep", result={"success": {"workspaceResults": {"/w": {"matches": []}}}}),
        completed(
            "c", "webSearch", result={"rejected": {"reason": "no"}}, args={"searchTerm": "q"}
        ),
        completed("a", "shell", result={"success": {"exitCode": 1, "stdout": "a\nb"}}),
    ),
    "two sessions, crlf, blank lines": stream(
        init(session_id="s-1"),
        assistant("one"),
        result("one", session_id="s-1"),
    ).replace(b"\n", b"\r\n")
    + b"\n  \n"
    + stream(init(session_id="s-2"), thinking("t", session_id="s-2"), assistant("two")),
}


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_synthetic_streams(name: str) -> None:
    """Deltas, recaps, flushes, thinking, tool calls and sessions fold the same way."""
    assert_same_fold(SYNTHETIC[name])


def test_real_captures() -> None:
    """Every real capture folds the same way (tests/fixtures/cursor-real)."""
    for path in capture_files():
        assert_same_fold(path.read_bytes())


ODD_VALUES: list[Any] = [None, 0, -3, "", "x", "12", "--5", 1.5, 1e300, True, [], {}, 2**70]
KEYS = [
    "type",
    "subtype",
    "session_id",
    "timestamp_ms",
    "streamview_recv_ms",
    "model_call_id",
    "text",
    "message",
    "tool_call",
    "call_id",
    # Other dialects' fields: Claude Code's deltas, Gemini CLI's messages, Codex's items.
    "event",
    "delta",
    "content",
    "role",
    "timestamp",
    "parent_tool_use_id",
    "item",
]
DIALECT_FIXTURES = sorted(
    (Path(__file__).parent.parent / "fixtures" / "dialects").glob("*/*.*json*")
)


def mutate(line: bytes, rng: random.Random) -> bytes:
    """One line with a field removed, retyped or its nested values replaced."""
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return line
    if not isinstance(record, dict):
        return line
    choice = rng.random()
    if choice < 0.3 and record:
        del record[rng.choice(list(record))]
    elif choice < 0.7:
        record[rng.choice(KEYS)] = rng.choice(ODD_VALUES)
    else:
        for value in record.values():
            if isinstance(value, dict):
                for key in list(value):
                    if rng.random() < 0.4:
                        value[key] = rng.choice(ODD_VALUES)
    try:
        return orjson.dumps(record)
    except TypeError:
        return line


@pytest.mark.parametrize("seed", range(8))
def test_mutated_lines(seed: int) -> None:
    """Fields of unusual types send a record down the slow path, with the same result."""
    rng = random.Random(seed)
    lines = [line for data in SYNTHETIC.values() for line in data.splitlines()]
    for path in capture_files()[:6]:
        lines += path.read_bytes().splitlines()[:80]
    picked = [rng.choice(lines) for _ in range(300)]
    mutated = [mutate(line, rng) if rng.random() < 0.5 else line for line in picked]
    assert_same_fold(b"\n".join(mutated) + b"\n")


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_compact_state_gives_the_same_summary(name: str) -> None:
    """``compact`` (used by ``--json``) drops fragments and args, never a summary field."""
    data = SYNTHETIC[name]
    compact = fold([data], StreamState(track_changes=False, compact=True))
    assert summarize(compact) == summarize(fold([data]))


@pytest.mark.parametrize(
    "path", DIALECT_FIXTURES, ids=lambda path: f"{path.parent.name}/{path.name}"
)
def test_every_dialects_fixtures(path: Path) -> None:
    """Each agent's streams (real captures and written shapes) fold the same way."""
    assert_same_fold(path.read_bytes())


MUTATED = [
    *((agent, seed) for agent in ("claude", "codex", "gemini") for seed in range(4)),
    # Fast paths of issue 30.8: two seeds each (each caught its injected bug with them).
    *((agent, seed) for agent in ("cline", "copilot", "goose", "opencode") for seed in range(2)),
    *((agent, seed) for agent in ("droid", "kimi", "pi") for seed in range(2)),
]


@pytest.mark.parametrize(("agent", "seed"), MUTATED)
def test_mutated_lines_of_other_dialects(agent: str, seed: int) -> None:
    """A delta with a field of an unusual type goes the slow way, with the same result."""
    rng = random.Random(seed)
    lines = [
        line
        for path in DIALECT_FIXTURES
        if path.parent.name == agent
        for line in path.read_bytes().splitlines()
    ]
    # The fast path's records: deltas, and Cline's growing messages.
    lines += [line for line in lines if b"delta" in line or b'"partial":true' in line] * 10
    picked = [rng.choice(lines) for _ in range(300)]
    mutated = [mutate_deep(line, rng) if rng.random() < 0.5 else line for line in picked]
    assert_same_fold(b"\n".join(mutated) + b"\n")


def mutate_deep(line: bytes, rng: random.Random) -> bytes:
    """One line with values at any depth (a delta's ``text``...) replaced or removed."""
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return line

    def visit(value: Any) -> None:
        if isinstance(value, dict):
            for key in list(value):
                roll = rng.random()
                if roll < 0.1:
                    del value[key]
                elif roll < 0.3:
                    value[key] = rng.choice(ODD_VALUES)
                else:
                    visit(value[key])

    visit(record)
    try:
        return orjson.dumps(record)
    except TypeError:
        return line


EDGE_LINES = [
    b'{"type":"thinking","subtype":"delta","text":"a","type":"thinking"}',
    b'{"type":"thinking","subtype":"delta","text":"\\ud800"}',
    b'{"type":"thinking","subtype":"delta","text":"a\xff"}',
    b'{"type":"thinking","subtype":"delta","text":"a","timestamp_ms":1e3}',
    b'{"type":"thinking","subtype":"delta","text":"a","timestamp_ms":1.0}',
    b'{"type":"thinking","subtype":"delta","text":"a","timestamp_ms":123456789012345678901234}',
    b'{"type":"thinking","subtype":"delta","text":"a","timestamp_ms":18446744073709551615}',
    b'{"type":"thinking","subtype":"delta","text":"a","streamview_recv_ms":true}',
    b'{"type":"thinking","subtype":"completed","text":5}',
    b'{"type":"thinking","subtype":"delta","text":"a"} x',
    b'{"type":"thinking","subtype":"delta","text":"a"}\r',
    b'{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"text"}]}}',
    b'{"type":"assistant","message":{"content":[{"type":"text","text":"a","x":[1]}]},"text":3}',
    b'{"type":"assistant","message":{"content":["a"]}}',
    b'{"type":"assistant","message":null,"model_call_id":"m"}',
    b'{"type":"assistant","message":{"content":[{"type":"text","text":"a"}]},"model_call_id":7}',
    b'{"type":"assistant","message":{"content":[{"type":"text","text":"a\\u0000"}]},"session_id":"s"}',
    b'{"type":"assistant","subtype":3,"message":{"content":[{"type":"text","text":"a"}]}}',
]


@pytest.mark.parametrize("data", EDGE_LINES)
def test_cursors_typed_decoding_agrees_with_the_dict_or_declines(data: bytes) -> None:
    """What msgspec reads from the bytes is what the dict path reads, or nothing."""
    hot = CursorTranslator.fast_line(data, 1)
    try:
        record = orjson.loads(data)
    except orjson.JSONDecodeError:
        assert hot is None
        return
    if hot is not None:
        assert hot == CursorTranslator.fast(record, 1)


def test_every_line_of_the_real_captures_reads_the_same_typed() -> None:
    """On real Cursor output the typed decoder takes the deltas, and agrees on each."""
    taken = 0
    for path in capture_files():
        for data in path.read_bytes().splitlines():
            hot = CursorTranslator.fast_line(data, 1)
            if hot is not None:
                taken += 1
                assert hot == CursorTranslator.fast(orjson.loads(data), 1)
    assert taken > 100 or not capture_files()


def _codex(kind: str, item: dict[str, Any]) -> bytes:
    return orjson.dumps({"type": kind, "item": item})


CODEX_GROWTH = b"\n".join(
    [
        orjson.dumps({"type": "thread.started", "thread_id": "t-1"}),
        orjson.dumps({"type": "turn.started"}),
        _codex("item.started", {"id": "r", "type": "reasoning", "text": "Look"}),
        _codex("item.updated", {"id": "r", "type": "reasoning", "text": "Look"}),  # no news
        _codex("item.updated", {"id": "r", "type": "reasoning", "text": "Looking"}),
        _codex("item.completed", {"id": "r", "type": "reasoning", "text": "Looking."}),
        _codex("item.completed", {"id": "r2", "type": "reasoning", "text": ""}),
        _codex("item.started", {"id": "m", "type": "agent_message", "text": "Do"}),
        _codex("item.updated", {"id": "m", "type": "agent_message", "text": "Do"}),  # no news
        _codex("item.updated", {"id": "m", "type": "agent_message", "text": "Redo"}),  # rewrite
        _codex("item.updated", {"id": "m", "type": "agent_message", "text": "Redone"}),
        _codex("item.completed", {"id": "m", "type": "agent_message", "text": "Redone."}),
        _codex("item.whatever", {"type": "agent_message", "text": "no id"}),
        _codex("item.completed", {"id": "", "type": "reasoning", "text": 5}),
        orjson.dumps({"type": "turn.completed", "usage": {"input_tokens": 3}}),
    ]
)


def test_codex_messages_and_reasoning_that_grow_rewrite_or_stall() -> None:
    """Codex's growing items on the fast path: no news, a rewrite, an empty id."""
    assert_same_fold(CODEX_GROWTH + b"\n")


def _thought(text: str, when: int) -> bytes:
    """A thinking delta at ``when`` (epoch ms)."""
    return (
        orjson.dumps(
            {
                "type": "thinking",
                "subtype": "delta",
                "text": text,
                "session_id": SID,
                "timestamp_ms": when,
            }
        )
        + b"\n"
    )


class LeanCounted(StreamState):
    """A ``--json`` state that counts the hot records applied with their line counts left
    for later (:meth:`~streamview.core.fold_lean.LeanFold.apply_lean`)."""

    def __init__(self) -> None:
        super().__init__(track_changes=False, compact=True)
        self.lean_calls = 0

    def apply_lean(self, fast: Any, line: int) -> bool | None:
        self.lean_calls += 1
        return super().apply_lean(fast, line)


LATE_COUNTS = {
    # A hot record of another session opens it: the lines before are the first's.
    "a session opened by a hot record": stream(
        init(session_id="s-1"),
        started("c-1", "read", {"path": "a.py"}, session_id="s-1", timestamp_ms=5),
        thinking("a", session_id="s-1"),
        thinking_done(session_id="s-1"),
        assistant("one", session_id="s-1"),
        thinking("b", session_id="s-2"),
        thinking_done(session_id="s-2"),
        completed("c-1", "read", result={"success": {"totalLines": 3}}, session_id="s-2"),
        assistant("two", session_id="s-2"),
    ),
    # Lines without a time after timed ones: the last time is the last one there was.
    "times, then none": stream(
        init(),
        _thought("a", 7),
        _thought("b", 9),
        thinking_done(),
        _thought("c", 11),
        assistant("Done."),
        assistant("Done again."),
    ),
    # Lines that go the long way amid hot ones, a malformed and a blank one among them.
    "hot lines around others": stream(
        init(),
        thinking("a"),
        thinking_done(),
        b"{not json\n",
        started("c-1", "shell", {"command": "ls"}, timestamp_ms=3),
        b"\n",
        user("more"),
        completed("c-1", "shell", result={"success": {"exitCode": 0, "stdout": "a"}}),
        thinking("b"),
        result("Done."),
        thinking("c"),
    ),
}


@pytest.mark.parametrize("name", sorted(LATE_COUNTS))
def test_hot_lines_counted_later_count_as_each_would(name: str) -> None:
    """``--json``'s fold counts its hot lines a stretch at a time (before another line,
    a new session, a run of deltas, a chunk's end): every count, line and time comes
    out as the event-by-event fold's, whole and cut into chunks of every size."""
    data = LATE_COUNTS[name]
    expected = event_by_event([data])
    for size in (len(data), 7, 1):
        state = fold(chunked(data, size), LeanCounted())
        assert isinstance(state, LeanCounted)
        assert state.lean_calls >= 3, size  # the hot lines went the lean way
        assert state.counts == expected.counts, size
        assert state.last_event_ms == expected.last_event_ms, size
        for got, want in zip(state.sessions, expected.sessions, strict=True):
            assert (got.events, got.first_line, got.last_line) == (
                want.events,
                want.first_line,
                want.last_line,
            ), size
            assert (got.first_time_ms, got.last_time_ms) == (
                want.first_time_ms,
                want.last_time_ms,
            ), size
        assert summarize(state) == summarize(fold([data])), size
