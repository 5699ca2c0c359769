"""``--events``' fast path counts its hot lines late (the lean fold's
:meth:`~streamview.core.fold_lean.LeanFold.settle_lean`, from their line numbers): at
the end of every chunk the fold holds the counts, each session's events, last line and
times the long way leaves (issue 30.8)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

import streamview.core.event_stream as event_stream
from streamview.core.event_stream import EventStream
from streamview.core.framing import line_limit, set_line_limit

from .streams import every_stream, name


def _account(stream: EventStream) -> tuple[object, ...]:
    """What the fold counts: the line counts, the last event's time, and each session's
    events, last line and times."""
    state = stream.state
    sessions = [(s.events, s.last_line, s.first_time_ms, s.last_time_ms) for s in state.sessions]
    return msgspec.to_builtins(state.counts), state.last_event_ms, sessions


def _accounts(chunks: list[bytes]) -> list[tuple[object, ...]]:
    """The fold's account after each chunk, then after the end of input."""
    stream = EventStream()
    stream.start()
    seen = []
    for chunk in chunks:
        stream.feed(chunk)
        seen.append(_account(stream))
    stream.finish()
    seen.append(_account(stream))
    return seen


def _both_ways(chunks: list[bytes], monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    fast = _accounts(chunks)
    with monkeypatch.context() as patched:
        patched.setattr(event_stream, "fast_line_of", lambda reader: None)
        assert fast == _accounts(chunks)
    return fast


def _cursor(record: dict[str, object]) -> bytes:
    return json.dumps({"session_id": "s1", **record}).encode() + b"\n"


def _say(text: str, when: int | None = 5, **more: object) -> bytes:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return _cursor({"type": "assistant", "message": message, "timestamp_ms": when, **more})


def _think(text: str, when: int | None = 4, subtype: str = "delta", **more: object) -> bytes:
    return _cursor(
        {"type": "thinking", "subtype": subtype, "text": text, "timestamp_ms": when, **more}
    )


def _call(subtype: str, call: str, when: int | None = 7, **more: object) -> bytes:
    shell: dict[str, object] = {"args": {"command": "ls"}}
    if subtype == "completed":
        shell["result"] = {"success": {"exitCode": 0, "stdout": "a\n"}}
    record = {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call,
        "tool_call": {"shellToolCall": shell},
    }
    return _cursor({**record, "timestamp_ms": when, **more})


LINES = [
    _cursor({"type": "system", "subtype": "init", "model": "m", "cwd": "/w"}),
    *(_think(f"t{i} ", when=10 + i) for i in range(3)),
    b"\n",  # a blank line inside a run of deltas: not counted
    *(_think(f"u{i} ", when=None) for i in range(2)),
    _think("", subtype="completed", when=20),
    _call("started", "c1", when=None),
    _cursor({"type": "mystery", "timestamp_ms": 21}),  # the long way, between hot lines
    _call("completed", "c1", when=22),
    b"not json\n",  # a malformed line: counted, no session's
    *(_say(f"a{i} ", when=30 + i) for i in range(3)),
    _call("started", "c2", when=40, session_id="s2"),  # a hot line opens a session
    *(_say(f"b{i} ", when=None, session_id="s2") for i in range(2)),
    _say("whole", model_call_id="m1", session_id="s2"),
    _call("completed", "c2", when=None, session_id="s2", streamview_recv_ms=50),
    b"   \r\n",
]


@pytest.mark.parametrize("size", [0, 1, 7, 61, 400])
def test_the_hot_lines_are_counted_as_the_long_way_counts_them(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After each chunk (the first line alone, then the rest whole or in pieces of
    ``size`` bytes): the counts, each session's events, last line and times."""
    rest = b"".join(LINES[1:])
    cut = size or len(rest)
    fast = _both_ways(
        [LINES[0]] + [rest[i : i + cut] for i in range(0, len(rest), cut)], monkeypatch
    )
    counts, last, sessions = fast[-1]
    assert counts["blank"] == 2 and counts["malformed"] == 1  # type: ignore[index]
    assert counts["total"] == len(LINES) - 2  # type: ignore[index]
    assert last == 50
    assert len(sessions) == 2  # type: ignore[arg-type]


def test_a_line_cut_for_its_length_is_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line over the line limit goes its own way between hot lines (``too_long``)."""
    limit = line_limit()
    set_line_limit(200)
    try:
        long = _say("x" * 400, when=33)
        lines = [LINES[0], *LINES[1:4], long, *LINES[4:]]
        _both_ways([lines[0], b"".join(lines[1:])], monkeypatch)
    finally:
        set_line_limit(limit)


@pytest.mark.parametrize("path", every_stream(), ids=name)
def test_every_stream_is_counted_alike_both_ways(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every dialect's records (a whole answer and a call's start on one line, thinking
    told whole: two events), whole and in 4 KiB chunks."""
    data = path.read_bytes()
    for size in (len(data) or 1, 4096):
        _both_ways([data[i : i + size] for i in range(0, len(data), size)], monkeypatch)
