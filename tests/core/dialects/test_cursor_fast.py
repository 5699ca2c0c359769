"""Cursor's fast path (``cursor_fast``): deltas read from their bytes give what the
decoded record gives, an assistant record says by the format guide's rule whether it
is a delta, a tool call carries the twelve fields the fold takes, and the fold is the
same with the fast path off (issue 30.8)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core import tools
from streamview.core.dialects.cursor import CursorTranslator
from streamview.core.dialects.cursor_fast import fast_line, fast_record
from streamview.core.reader import fold
from streamview.core.state import StreamState

LINES = [
    b'{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w",'
    b'"apiKeySource":"login","permissionMode":"default"}',
    b'{"type":"thinking","subtype":"delta","text":"a\\\\n","session_id":"s1","timestamp_ms":1}',
    b'{"type":"thinking","subtype":"delta","text":"\\u00e9","session_id":"s1","timestamp_ms":2}',
    b'{"type":"thinking","subtype":"completed","session_id":"s1","timestamp_ms":3}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Hel"}]},"session_id":"s1","timestamp_ms":4}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"lo"}]},"session_id":"s1","timestamp_ms":5,"streamview_recv_ms":6}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Hello"}]},"session_id":"s1","model_call_id":"mc1","timestamp_ms":7}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Again"}]},"session_id":"s1"}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":7}]},"session_id":"s1","timestamp_ms":8}',
    b'{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"readToolCall":'
    b'{"args":{"path":"a.py"}}},"session_id":"s1","timestamp_ms":9}',
    b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":'
    b'{"args":{"path":"a.py"},"result":{"success":{"totalLines":3}}}},"session_id":"s1",'
    b'"timestamp_ms":10}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Done"}]},"session_id":"s1","timestamp_ms":11}',
]
"""Thinking deltas (an escaped backslash before an ``n``, a unicode escape), its end,
assistant deltas (one stamped on arrival), a whole message (a ``model_call_id``), one
with no time, a text that is a number, a read call started and ended, a delta after."""


def test_fast_line_gives_what_fast_record_gives_and_says_which_text_is_a_delta() -> None:
    said = []
    for number, data in enumerate(LINES, 1):
        from_dict = fast_record(orjson.loads(data), number)
        from_bytes = fast_line(data, number)
        if from_bytes is not None:
            assert from_bytes == from_dict, data
        if from_dict is not None and from_dict[0] == "assistant":
            said.append(from_dict[1])
    assert said == [True, True, False, False, True]
    assert fast_line(LINES[8], 9) is None and fast_record(orjson.loads(LINES[8]), 9) is None


def test_a_tool_call_carries_twelve_fields_the_last_no_parent() -> None:
    for number in (10, 11):
        hot = fast_record(orjson.loads(LINES[number - 1]), number)
        assert hot is not None and hot[0] == "tool_call"
        assert len(hot[2]) == 12 and hot[2][11] is None


def _folded(data: bytes) -> list[Any]:
    state = fold([data], StreamState(track_changes=False), agent="cursor")
    return [
        (
            [(b.kind, b.line, b.text, b.deltas, b.open) for b in session.blocks],
            [(c.call_id, c.kind, c.status, c.summary) for c in session.tool_calls],
            session.events,
            session.first_time_ms,
            session.last_time_ms,
        )
        for session in state.sessions
    ] + [state.counts]


def test_the_fold_is_the_same_with_the_fast_path_off(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"\n".join(LINES)
    folded = _folded(data)
    monkeypatch.setattr(CursorTranslator, "fast", staticmethod(lambda *_: None))
    monkeypatch.setattr(CursorTranslator, "fast_line", staticmethod(lambda *_: None))
    assert _folded(data) == folded


def _line(n: int, count: int = 2) -> dict[str, Any]:
    return {
        "lineNumber": n,
        "content": "x = _CACHE\\n",
        "contentTruncated": False,
        "isContextLine": count == 1,
    }


def _file(name: str, count: int) -> dict[str, Any]:
    return {"file": name, "matches": [_line(n, count) for n in range(count)]}


def _content(*files: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "content": {
            "matches": list(files),
            "totalLines": 9,
            "totalMatchedLines": 4,
            "clientTruncated": False,
            "ripgrepTruncated": False,
            **more,
        }
    }


def _grep(
    number: int,
    results: Any,
    *,
    call: Any = None,
    success: Any = None,
    result: Any = None,
    body: Any = None,
) -> bytes:
    found = {
        "pattern": "_CACHE",
        "path": "/w",
        "outputMode": "content",
        "workspaceResults": results,
        **(success or {}),
    }
    grep = {
        "args": {"pattern": "_CACHE", "path": "/w"},
        "result": result if result is not None else {"success": found},
        **(body or {}),
    }
    tool_call = {
        "grepToolCall": grep,
        "toolCallId": "t",
        "startedAtMs": "100",
        "completedAtMs": "200",
        "hookAdditionalContexts": [],
        **(call or {}),
    }
    record = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": f"g{number}",
        "tool_call": tool_call,
        "model_call_id": "mc",
        "session_id": "s1",
        "timestamp_ms": 1000 + number,
    }
    return orjson.dumps(record)


_PLAIN = _content(_file("a.py", 3), _file("b.py", 1), _file("c.py", 2))
GREPS = [
    _grep(1, {"/w": _PLAIN}),
    _grep(2, {"/w": _content()}),
    _grep(3, {"/w": _PLAIN, "/v": _content(_file("d.py", 1))}),
    _grep(4, {}),
    _grep(5, {"/w": _content(_file("a.py", 1))}, call={"startedAtMs": 100}),
    _grep(
        6,
        {
            "/w": _content(
                {
                    "file": "a.py",
                    "matches": [{**_line(1), "more": {"matches": [1, 2], "file": "z.py"}}],
                }
            )
        },
    ),
    _grep(7, {"/w": _content({"file": "a.py", "matches": [{**_line(1), "file": "b.py"}]})}),
    _grep(8, {"/w": _content(_file("a.py", 1), files=["a.py"])}),
    _grep(9, {"/w": _PLAIN}, success={"exitCode": 1}),
    _grep(10, {"/w": _PLAIN}, result={"failure": {"message": "x"}, "success": {}}),
    _grep(11, {"/w": _PLAIN}, body={"args": ["_CACHE"]}),
    _grep(12, {"/w": _PLAIN}, body={"description": 7}),
    _grep(13, {"/w": _PLAIN}, call={"startedAtMs": "1e3"}),
    _grep(14, {"/w": {"content": {"matches": [_file("a.py", 1)], "totalMatchedLines": 2.5}}}),
    orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "g15",
            "tool_call": {
                "toolCallId": "t",
                "grepToolCall": {"result": {"success": {"workspaceResults": {}}}},
            },
            "session_id": "s1",
        }
    ),
]
"""Grep results: plain ones (three files; none; two workspaces; no workspace; a start
time as a number), then shapes the counts must not be taken from the lists' lengths
for (a line holding an object with ``matches``, a line naming a ``file``, another
output mode's ``files``), an exit code, a failure beside the success, arguments or a
description of another type, a start time not in digits, a float total, and a call
whose ``toolCallId`` comes first (read from the dict)."""

GREPS_TAKEN = {1, 2, 3, 4}


def test_a_grep_result_is_counted_as_it_is_decoded() -> None:
    """Each grep result ``fast_line`` takes is what ``fast_record`` gives, its payload
    said as ``tools`` would say it of the decoded payload; the unusual shapes decline."""
    taken = set()
    for number, data in enumerate(GREPS, 1):
        from_dict = fast_record(orjson.loads(data), number)
        from_bytes = fast_line(data, number)
        if from_bytes is None:
            continue
        taken.add(number)
        assert from_dict is not None
        said, payload = from_bytes[2][6], from_dict[2][6]
        assert isinstance(said, tools.Said) and said.kind == "grep"
        assert said.build() == payload
        assert said.status == tools.status_of("grep", "success", payload)
        assert said.summary == tools.summary_of("grep", "success", payload), number
        assert said.numbers == tools.numbers_of("grep", payload)
        plain = (*from_bytes[2][:6], payload, *from_bytes[2][7:])
        assert (*from_bytes[:2], plain, *from_bytes[3:]) == from_dict
    assert taken == GREPS_TAKEN
    summaries = [fast_line(GREPS[n - 1], n)[2][6].summary for n in sorted(GREPS_TAKEN)]  # type: ignore[index]
    assert summaries == ["9 matches in 4 files", "1 file", "11 matches in 6 files", "no matches"]


def test_the_fold_of_grep_results_is_the_same_with_the_fast_path_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = b"\n".join([LINES[0], *GREPS])
    folded = _folded(data)
    monkeypatch.setattr(CursorTranslator, "fast", staticmethod(lambda *_: None))
    monkeypatch.setattr(CursorTranslator, "fast_line", staticmethod(lambda *_: None))
    assert _folded(data) == folded
