"""Goose's tool calls on the fast path: a message holding one ``toolRequest`` or one
successful ``toolResponse`` is a ``tool_call`` record read from its dict, with exactly
what the long way's event holds; anything else goes the long way (issue 30.8)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

import streamview.core.event_stream as event_stream
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.goose import GooseTranslator
from streamview.core.events import ToolCallEvent
from streamview.core.tool_record import event_fields
from tests.core.test_fast_fold import assert_same_fold
from tests.events.test_fast_events import splits, told

from .fast_taken import target_checked
from .fixtures import FIXTURES


def _message(role: str, *items: Any, created: Any = 1789600002, recv: Any = None) -> bytes:
    message = {"id": None, "role": role, "created": created, "content": list(items)}
    message["metadata"] = {"userVisible": True, "agentVisible": True}
    record: Any = {"type": "message", "message": message}
    if recv is not None:
        record[RECV_KEY] = recv
    return orjson.dumps(record)


def _request(call_id: str, name: str, arguments: Any, status: str = "success") -> Any:
    """A ``toolRequest`` item."""
    value = {"name": name, "arguments": arguments}
    call = {"status": status, "value": value}
    if status == "error":  # a name as well: the status alone says the call cannot run
        call["error"] = "Tool not found: " + name
    return {"type": "toolRequest", "id": call_id, "toolCall": call}


def _response(call_id: str, text: str, *, error: bool = False, status: Any = "success") -> Any:
    """A ``toolResponse`` item (``status`` ``None``: none)."""
    result: Any = {"status": status, "value": {"content": [{"type": "text", "text": text}]}}
    result["value"]["isError"] = error
    if status == "error":
        result = {"status": "error", "error": text}
    elif status is None:
        result = {"value": result["value"]}
    return {"type": "toolResponse", "id": call_id, "toolResult": result}


def _asked(call_id: str, name: str, arguments: Any, status: str = "success", **at: Any) -> bytes:
    return _message("assistant", _request(call_id, name, arguments, status), **at)


def _answered(call_id: str, text: str, **given: Any) -> bytes:
    return _message("user", _response(call_id, text, **given))


EDITOR = "developer__text_editor"
LINES = [
    _message("assistant", {"type": "text", "text": "Looking."}),  # the session starts
    _asked("t1", EDITOR, {"command": "view", "path": "/w/a.py"}),  # 2: a read, its target
    _answered("t1", "one\ntwo"),
    _answered("t9", "early"),  # 4: a response before its request: an unknown call
    _asked("t9", "developer__shell", {"command": "ls"}),
    _asked("t2", "developer__grep", "def f"),  # 6: arguments not an object: the long way
    _answered("t2", "a.py:1"),
    _asked("t3", EDITOR, {"command": "write", "path": 7, "file_text": "x\n"}),  # no target
    _answered("t3", "permission denied", status="error"),  # 9: an error: the long way
    _asked("t4", "github__get_issue", {"number": 3}),  # an MCP call: no target handed
    _message("assistant", _request("t5", "developer__grep", {"pattern": "x"}), _response("t4", "")),
    _answered("t5", "no such pattern", error=True),  # 12: an error the tool said: long way
    _asked("t6", "nope__nope", {}, status="error"),  # a call that cannot run: long way
    _asked("t7", "developer__shell", {"command": "false"}),
    _answered("t7", "failed", error=True),  # 15: a shell's own error is its output: fast
    _answered("t8", "as it came", status=None),  # no status: the long way
    _asked("t10", "developer__glob", {"pattern": "*"}, created=1.5),  # a float time: long way
    _message("user", {**_response("t7", "again"), "id": ""}),  # 18: no id: the long way
    _asked("t11", "developer__web_scrape", {"url": "https://x.test"}, recv=1789600009123),
    _answered("t11", "page"),
    b'{"type":"complete","total_tokens":12}',
]
DATA = b"\n".join(LINES) + b"\n"
NOTICE = b'{"type":"notification","extension_id":"developer","message":"up"}'
NOTICE_FIRST = b"\n".join([NOTICE, *LINES[1:]]) + b"\n"
"""The session started by a record without a time: the first call's is the run's first."""
TAKEN = {2, 3, 4, 5, 7, 8, 10, 14, 15, 19, 20}


def test_the_lines_taken_are_one_call_each_without_an_error() -> None:
    translator = GooseTranslator()
    taken = set()
    for number, line in enumerate(DATA.splitlines(), 1):
        record = orjson.loads(line)
        assert translator.fast_line(line, number) is None  # read from their dicts
        if translator.fast(record, number) is not None:
            taken.add(number)
        else:
            translator.translate(record, number, record.get(RECV_KEY))
    assert taken == TAKEN


@pytest.mark.parametrize(
    "data",
    [DATA, NOTICE_FIRST, (FIXTURES / "goose" / "success-tools.jsonl").read_bytes()],
    ids=["odd", "notice-first", "tools"],
)
def test_a_fast_call_record_holds_what_the_long_ways_event_holds(data: bytes) -> None:
    fast, slow = GooseTranslator(), GooseTranslator()
    taken = 0
    for number, line in enumerate(data.splitlines(), 1):
        record = orjson.loads(line)
        recv = record.get(RECV_KEY)
        hot = fast.fast(record, number)
        events = slow.translate(orjson.loads(line), number, recv)
        if hot is None:
            fast.translate(record, number, recv)
        elif hot[0] == "tool_call":
            taken += 1
            (event,) = events
            assert isinstance(event, ToolCallEvent)
            _, subtype, fields, model_call_id, session_id, ts, when = target_checked(hot)
            assert subtype == ("completed" if event.completed else "started")
            assert (model_call_id, session_id) == (None, event.session_id)
            assert (ts, when) == (event.timestamp_ms, event.recv_ms)
            assert fields == event_fields(event)
        assert vars(fast) == vars(slow), line
    assert taken >= 10


@pytest.mark.parametrize("data", [DATA, NOTICE_FIRST], ids=["odd", "notice-first"])
def test_the_fold_is_that_of_the_long_way(data: bytes) -> None:
    assert_same_fold(data)


@pytest.mark.parametrize("data", [DATA, NOTICE_FIRST], ids=["odd", "notice-first"])
def test_events_tell_the_fast_calls_as_the_long_way_does(
    data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = [told(chunks) for chunks in splits(data)]
    assert b'"call_id":"t1"' in fast[0]
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in splits(data)]
