"""``--events``' fast teller (:meth:`FastNormalizer.told_fast
<streamview.core.event_fast.FastNormalizer.told_fast>`): a call's start and end, a
block told whole and the close of a block told in deltas, told without a sweep when
the session's facts are as told; they are what the long way tells (issue 30.8)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import streamview.core.event_stream as event_stream
from streamview.core.event_stream import EventStream
from streamview.core.fast_normalizer import FastNormalizer
from streamview.core.model import Session
from streamview.fronts.events_api import event_batches, to_json_lines


def told(chunks: list[bytes]) -> bytes:
    """What ``--events`` writes for the input ``chunks``."""
    return b"".join(to_json_lines(batch) for batch in event_batches(chunks))


def feeds(lines: list[bytes]) -> list[list[bytes]]:
    """The first line alone then the rest at once, and the whole 1, 7 and 64 bytes at
    a time."""
    data = b"".join(lines)
    return [
        [lines[0], b"".join(lines[1:])],
        *([data[i : i + size] for i in range(0, len(data), size)] for size in (1, 7, 64)),
    ]


def _cursor(record: dict[str, Any], session_id: str | None = "s1") -> bytes:
    return json.dumps({**record, "session_id": session_id}).encode() + b"\n"


def _init(session_id: str | None = "s1") -> bytes:
    return _cursor({"type": "system", "subtype": "init", "model": "m", "cwd": "/w"}, session_id)


def _say(text: str, session_id: str | None = "s1", **more: Any) -> bytes:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    record = {"type": "assistant", "message": message, "timestamp_ms": 5, **more}
    return _cursor(record, session_id)


def _call(
    subtype: str,
    call_id: str,
    kind: str,
    args: dict[str, Any] | None,
    result: Any = None,
    session_id: str | None = "s1",
) -> bytes:
    body: dict[str, Any] = {}
    if args is not None:
        body["args"] = args
    if result is not None:
        body["result"] = result
    record = {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {f"{kind}ToolCall": body},
        "timestamp_ms": 7,
    }
    return _cursor(record, session_id)


READ = {"success": {"content": "one\ntwo\n", "totalLines": 2}}
SHELL = {"success": {"exitCode": 0, "stdout": "ok\n", "stderr": ""}}
FAILED = {"failure": {"exitCode": 2, "stdout": "", "stderr": "no\n"}}


def turn_lines() -> list[bytes]:
    """A session whose init names none, then what a call's records may be: a result
    that names the session (``session.update``), a start that closes text told in
    deltas, a result that brings the same arguments again, one that brings others,
    a call first seen completed, a result again, an edit, a call never ended, and a
    second session begun by a call."""
    return [
        _init(None),
        _call("started", "c1", "read", {"path": "a.py"}, session_id=None),
        _call("completed", "c1", "read", {"path": "a.py"}, READ),  # names it
        *(_say(f"a{i} ") for i in range(3)),
        _call("started", "c2", "shell", {"command": "ls"}),
        _call("completed", "c2", "shell", {"command": "ls -l"}, SHELL),  # other args
        _call("completed", "c3", "read", {"path": "b.py"}, READ),  # first seen ended
        _call("completed", "c3", "read", {"path": "b.py"}, READ),  # again
        _call("started", "c4", "edit", {"path": "c.py", "streamContent": "x" * 50}),
        _say("between", model_call_id="m1"),  # a whole text while the edit runs
        _call("completed", "c4", "edit", {"path": "c.py", "streamContent": "x" * 50}, {}),
        _call("started", "c5", "shell", {"command": "make"}),
        _call("completed", "c5", "shell", {"command": "make"}, FAILED),
        _call("started", "c6", "read", {"path": "never.py"}),
        _call("started", "d1", "shell", {"command": "pwd"}, session_id="s2"),
        _call("completed", "d1", "shell", {"command": "pwd"}, SHELL, session_id="s2"),
    ]


def test_calls_told_the_fast_way_are_told_as_the_long_way_tells_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = turn_lines()
    fast = [told(chunks) for chunks in feeds(lines)]
    said = fast[0]
    # c3's result again is told again; c6 never ended: interrupted
    assert said.count(b'"tool.start"') == 7 and said.count(b'"tool.end"') == 8
    assert said.count(b'"session.update"') == 1 and b'"target":"ls -l"' in said
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in feeds(lines)]


def test_a_call_s_records_are_told_without_handle_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the session is as told, a call's records are told by ``told_fast`` alone:
    only the line that changes the session's facts (a result that names it) and the
    one that begins a session go through ``handle_fast``, whose test looks again."""
    asked: list[int] = []
    handle_fast = FastNormalizer.handle_fast

    def counting(normalizer: FastNormalizer, session: Session, line: int, *rest: Any) -> Any:
        asked.append(line)
        return handle_fast(normalizer, session, line, *rest)

    monkeypatch.setattr(FastNormalizer, "handle_fast", counting)
    lines = turn_lines()
    told([lines[0], b"".join(lines[1:])])
    assert asked == [3, 17]


def test_a_told_call_holds_no_arguments_and_a_running_one_only_light_ones() -> None:
    """An edit lets go of its arguments (a whole file) once its start is told; a read
    or a command keeps its own while it runs (a result bringing the same again is then
    the fold's plain case) and lets go of them once its end is told."""
    lines = turn_lines()
    stream = EventStream()
    stream.start()
    stream.feed(lines[0])
    stream.feed(b"".join(lines[1:11]))  # up to the edit's start
    calls = stream.state.sessions[-1].tool_calls
    assert [call.args for call in calls] == [{}, {}, {}, {}]
    stream.feed(b"".join(lines[11:16]))  # c6 started, not ended
    calls = stream.state.sessions[-1].tool_calls
    assert [call.args for call in calls[4:]] == [{}, {"path": "never.py"}]
