"""Runs of deltas to the open text block, which :func:`~streamview.core.reader.fold`
appends in its own loop and counts when the run ends (``fold_runs.DeltaRun``), leave the state
the event-by-event fold leaves: whatever ends a run (another session's delta, a delta
with a time when the session has none yet, thinking, a call, a blank, malformed or cut
line, the end of a chunk or of the input) and in chunks of every size.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core.fields import iso_ms
from streamview.core.framing import line_limit, set_line_limit
from streamview.core.reader import fold
from streamview.core.state import StreamState

from .helpers import SID as SID_CURSOR
from .helpers import delta, flush, init, stream, thinking, thinking_done
from .test_fast_fold import account, assert_same_fold, event_by_event

SID = "s-1"


def claude(text: str, session_id: str | None = SID) -> bytes:
    """A Claude Code text delta (``stream_event``)."""
    record: dict[str, Any] = {
        "type": "stream_event",
        "event": {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": text},
        },
        "parent_tool_use_id": None,
    }
    if session_id is not None:
        record["session_id"] = session_id
    return orjson.dumps(record) + b"\n"


def claude_thinking(text: str) -> bytes:
    """A Claude Code thinking delta."""
    event = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "thinking_delta", "thinking": text},
    }
    return orjson.dumps({"type": "stream_event", "event": event, "session_id": SID}) + b"\n"


def cursor_thinking(text: str, timestamp_ms: int | None, recv_ms: int | None) -> bytes:
    """A Cursor thinking delta, with or without its time and its arrival time."""
    record: dict[str, Any] = {"type": "thinking", "subtype": "delta", "text": text}
    record["session_id"] = SID_CURSOR
    if timestamp_ms is not None:
        record["timestamp_ms"] = timestamp_ms
    if recv_ms is not None:
        record["streamview_recv_ms"] = recv_ms
    return orjson.dumps(record) + b"\n"


def claude_init(session_id: str = SID) -> bytes:
    """A Claude Code ``system/init``."""
    record = {
        "type": "system",
        "subtype": "init",
        "cwd": "/w",
        "session_id": session_id,
        "tools": ["Bash"],
        "mcp_servers": [],
        "model": "m",
        "permissionMode": "acceptEdits",
        "apiKeySource": "none",
    }
    return orjson.dumps(record) + b"\n"


def gemini(text: str, timestamp: str | None = None) -> bytes:
    """A Gemini CLI assistant delta, with or without its time."""
    record: dict[str, Any] = {"type": "message", "role": "assistant", "content": text}
    if timestamp is not None:
        record["timestamp"] = timestamp
    record["delta"] = True
    return orjson.dumps(record) + b"\n"


def gemini_init(timestamp: str | None = None) -> bytes:
    """A Gemini CLI ``init``, with or without its time."""
    record: dict[str, Any] = {"type": "init", "session_id": "g-1", "model": "gemini"}
    if timestamp is not None:
        record["timestamp"] = timestamp
    return orjson.dumps(record) + b"\n"


T1 = "2026-11-20T10:00:00.000Z"
T2 = "2026-11-20T10:00:01.500Z"

RUNS = {
    "claude: another session's delta, and none named": b"".join(
        [
            claude_init(),
            *(claude(f"a{i} ") for i in range(5)),
            claude("other ", "s-2"),
            claude("more "),
            claude("unnamed ", None),
            claude("last "),
        ]
    ),
    "claude: thinking, then text again": b"".join(
        [
            claude_init(),
            claude("one "),
            claude("two "),
            claude_thinking("hmm"),
            claude("three "),
            claude("four "),
        ]
    ),
    "claude: runs of thinking and of text, each ending the other": b"".join(
        [
            claude_init(),
            *(claude_thinking(f"t{i} ") for i in range(4)),
            *(claude(f"a{i} ") for i in range(4)),
            *(claude_thinking(f"u{i} ") for i in range(4)),
            *(claude(f"b{i} ") for i in range(4)),
        ]
    ),
    "cursor: thinking runs, text open under them, another session's": stream(
        init(),
        *(thinking(f"t{i} ") for i in range(4)),
        thinking_done(),
        *(delta(f"a{i} ") for i in range(3)),
        *(thinking(f"u{i} ") for i in range(3)),
        thinking("other ", session_id="s-other"),
        thinking("more "),
        *(delta(f"b{i} ") for i in range(3)),
        flush("done"),
    ),
    "cursor: deltas with their arrival times, then without": stream(
        init(),
        *(cursor_thinking(f"t{i} ", 100 + i, 200 + i) for i in range(3)),
        cursor_thinking("u ", 110, None),
        *(cursor_thinking(f"v{i} ", None, 300 + i) for i in range(3)),
        cursor_thinking("w ", None, None),
    ),
    "thinking deltas without their text in runs": stream(
        init(),
        thinking("a "),
        thinking("b "),
        b'{"type":"thinking","subtype":"delta","text":null,"session_id":"'
        + SID_CURSOR.encode()
        + b'","timestamp_ms":1789000000000}\n',
        thinking("c "),
        thinking("d "),
    )
    + b"".join(
        [
            claude_init(),
            claude_thinking("e "),
            claude_thinking("f "),
            b'{"type":"stream_event","event":{"type":"content_block_delta","index":0,'
            b'"delta":{"type":"thinking_delta","thinking":null}},"session_id":"s-1"}\n',
            claude_thinking("g "),
        ]
    ),
    "claude: blank, malformed and escaped lines in a run": b"".join(
        [
            claude_init(),
            claude("a "),
            claude("b "),
            b"\n   \n",
            claude("c\\n "),
            b'{"type": "stream_event", "event": \n',
            claude("d\u00e9 "),
            claude("e "),
            b"[1, 2]\n",
            claude("f "),
        ]
    ),
    "claude: a run at the end of input, no newline": b"".join(
        [claude_init(), claude("x "), claude("y "), claude("z ")]
    )[:-1],
    "gemini: no first time, then a delta with one": b"".join(
        [
            gemini_init(),
            gemini("a "),
            gemini("b "),
            gemini("c ", T1),
            gemini("d ", T2),
            gemini("e "),
        ]
    ),
    "gemini: times, then none, then later": b"".join(
        [
            gemini_init(T1),
            gemini("a ", T1),
            gemini("b ", T2),
            gemini("c "),
            gemini("d "),
        ]
    ),
    "gemini: a run's last time before a whole message": b"".join(
        [
            gemini_init(T1),
            gemini("a ", T1),
            gemini("b ", T2),
            orjson.dumps({"type": "message", "role": "assistant", "content": "whole"}) + b"\n",
            gemini("c "),
        ]
    ),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_runs_of_deltas_fold_as_events_do(name: str) -> None:
    """Each way a run ends leaves every field as the event-by-event fold leaves it."""
    assert_same_fold(RUNS[name])


@pytest.fixture
def small_lines() -> Any:
    """Lines over 400 bytes are cut (restored after the test)."""
    before = line_limit()
    set_line_limit(400)
    yield
    set_line_limit(before)


@pytest.mark.usefixtures("small_lines")
def test_a_cut_line_ends_a_run() -> None:
    """A line over the limit in a run (a malformed line between its deltas) leaves
    the same state, whole and in small chunks."""
    long = claude("x" * 500)
    data = b"".join([claude_init(), claude("a "), claude("b "), long, claude("c "), claude("d ")])
    assert fold([data]).counts.malformed == 1  # the line was cut
    for size in (len(data), 7):
        chunks = [data[i : i + size] for i in range(0, len(data), size)]
        assert account(fold(chunks)) == account(event_by_event(chunks)), size


class CountedFast(StreamState):
    """A state that counts the records given to :meth:`apply_fast` (or, by a fold that
    counts their lines later, :meth:`apply_lean`)."""

    def __init__(self) -> None:
        super().__init__(track_changes=False)
        self.fast_calls = 0

    def apply_fast(self, fast: Any, line: int) -> bool | None:
        self.fast_calls += 1
        return super().apply_fast(fast, line)

    def apply_lean(self, fast: Any, line: int) -> bool | None:
        self.fast_calls += 1
        return super().apply_lean(fast, line)


@pytest.mark.parametrize("agent", ["claude", "gemini", "cursor"])
def test_a_run_takes_the_deltas_after_its_first(agent: str) -> None:
    """The cases above go through runs: after the first delta of a block, the fold
    appends the rest itself, and counts each as ``apply_fast`` would."""
    if agent == "claude":
        data = b"".join([claude_init(), *(claude(f"{i} ") for i in range(50))])
    elif agent == "gemini":
        data = b"".join([gemini_init(T1), *(gemini(f"{i} ", T2) for i in range(50))])
    else:  # thinking
        data = stream(init(), *(thinking(f"{i} ") for i in range(50)))
    state = fold([data], CountedFast())
    assert isinstance(state, CountedFast)
    assert state.fast_calls == 1
    session = state.sessions[0]
    assert state.counts.total == state.counts.events == 51
    assert session.blocks[-1].deltas == 50
    assert session.last_line == 51
    assert account(state) == account(event_by_event([data]))


def copilot(
    text: str,
    stamp: Any = None,
    kind: str = "assistant.message_delta",
    recv: int | None = None,
    model: str | None = None,
) -> bytes:
    """A Copilot CLI delta, with or without its ISO time (any value) and arrival time."""
    data: dict[str, Any] = {"messageId": "m-1", "deltaContent": text}
    if model is not None:
        data["model"] = model
    record: dict[str, Any] = {"type": kind, "data": data}
    if stamp is not None:
        record["timestamp"] = stamp
    if recv is not None:
        record["streamview_recv_ms"] = recv
    return orjson.dumps(record) + b"\n"


def copilot_start(stamp: str | None = None) -> bytes:
    """A Copilot CLI ``session.start``, with or without its time."""
    record: dict[str, Any] = {"type": "session.start", "data": {"sessionId": "c-1"}}
    if stamp is not None:
        record["timestamp"] = stamp
    return orjson.dumps(record) + b"\n"


def copilot_message(text: str, stamp: str) -> bytes:
    """A Copilot CLI whole ``assistant.message``."""
    record = {"type": "assistant.message", "data": {"messageId": "m-1", "content": text}}
    return orjson.dumps({**record, "timestamp": stamp}) + b"\n"


BAD = "2026-11-20T10:00:0x.000Z"
"""An ISO time of the usual length that is none: read the long way, no time."""
REASONING = "assistant.reasoning_delta"

COPILOT_RUNS = {
    "a run's last time unreadable: the one before it is kept": [
        copilot_start(T1),
        copilot("a ", T1, model="m"),
        copilot("b ", T1),
        copilot("c ", T2),
        copilot("d ", BAD),
    ],
    "a run's last times unreadable or of another type, then a whole message": [
        copilot_start(T1),
        copilot("a ", T1, model="m"),
        copilot("b ", T2),
        copilot("c ", BAD),
        copilot("d ", ""),
        copilot("e "),
        copilot("f ", "2026-11-20T10:00:02.000z"),
        copilot_message("a b c d e f", T1),
    ],
    "every time of a run unreadable": [
        copilot_start(T1),
        copilot("a ", "2026-11-20T10:00:01.000Z", model="m"),
        *(copilot(f"{i} ", BAD) for i in range(4)),
    ],
    "no first time: an unreadable one leaves none, a later one is the first": [
        copilot_start(),
        copilot("a ", model="m"),
        copilot("b "),
        copilot("c ", BAD),
        copilot("d "),
        copilot("e ", T2),
        copilot("f ", T1),
        copilot("g "),
    ],
    "times outside iso_ms's tables, and other forms, last in runs": [
        copilot_start(T1),
        copilot("a ", T1, model="m"),
        copilot("b ", "2004-01-10T13:37:04.369Z"),
        copilot_message("ab", T1),
        copilot("c ", T1),
        copilot("d ", "2038-06-01T00:00:00.001Z"),
        copilot_message("abcd", T1),
        copilot("e ", T1),
        copilot("f ", "1999-12-31T23:59:59.999Z"),
        copilot_message("abcdef", T1),
        copilot("g ", T1),
        copilot("h ", "2026-11-20T10:00:04.567+02:00"),
    ],
    "reasoning and text runs, arrival times over unreadable stamps": [
        copilot_start(T1),
        copilot("t ", T1, REASONING, model="m"),
        copilot("u ", BAD, REASONING, recv=1_789_000_000_000),
        copilot("v ", T2, REASONING),
        copilot("w ", BAD, REASONING),
        copilot("a ", T1),
        copilot("b ", T2, recv=1_789_000_000_500),
        copilot("c ", BAD),
    ],
    "the model named by a delta with an unreadable time": [
        copilot_start(T1),
        copilot("a ", BAD, model="m"),
        copilot("b ", BAD),
        copilot("c ", T2),
    ],
}


@pytest.mark.parametrize("name", sorted(COPILOT_RUNS))
def test_a_run_reads_only_the_time_it_keeps(name: str) -> None:
    """Copilot's deltas hand their ISO time unread to ``--json``'s fold, which reads only
    the last time of a run there is (a bad one is no time: the one before it is kept),
    and a session's first: every time the event-by-event fold sets is the same."""
    assert_same_fold(b"".join(COPILOT_RUNS[name]))


class NoRawStamps(CountedFast):
    """A state that fails if a fast record's time reaches it unread."""

    def apply_fast(self, fast: Any, line: int) -> bool | None:
        assert fast[5] is None or fast[5].__class__ is int, fast
        return super().apply_fast(fast, line)


def test_copilot_s_runs_take_their_times_unread() -> None:
    """The fold asks Copilot for unread times and takes the run's deltas itself; no
    unread time reaches ``apply_fast``; the state is the event-by-event fold's."""
    data = b"".join(
        [
            copilot_start(T1),
            copilot("a ", T1, model="m"),
            *(copilot(f"{i} ", T2) for i in range(50)),
        ]
    )
    data += copilot("z ", BAD)
    state = fold([data], NoRawStamps())
    assert isinstance(state, NoRawStamps)
    assert state.fast_calls == 1  # the first delta; the rest in a run
    assert state.sessions[-1].last_time_ms == iso_ms(T2)  # the last delta's is none
    assert account(state) == account(event_by_event([data]))
