"""pi's fast path takes a call's start and end records (``tool_execution_start``,
``tool_execution_end``) as well as the text deltas: each gives what the long way's
event says of the call, and ``--json``, ``--events`` and the folded state are the same
as when every record goes the long way (issue 30.8)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

import streamview.core.dialects.pi_tools as pi_tools
import streamview.core.event_stream as event_stream
import streamview.core.tools as tools
from streamview.core.dialects.lines import translate_decoded
from streamview.core.dialects.pi import PiTranslator
from streamview.core.events import ToolCallEvent
from streamview.core.tool_record import event_fields
from streamview.core.tools import Said
from tests.core.dialects.test_fast_json import general_summary, summary
from tests.core.test_fast_fold import assert_same_fold
from tests.events.test_fast_events import splits, told

from .fast_taken import said_built, target_checked


def _line(**record: Any) -> bytes:
    return orjson.dumps(record)


def _start(call_id: Any, name: Any, args: Any, **more: Any) -> bytes:
    return _line(type="tool_execution_start", toolCallId=call_id, toolName=name, args=args, **more)


def _end(call_id: Any, name: Any, text: Any, error: Any = False, **more: Any) -> bytes:
    result = {"content": [{"type": "text", "text": text}], "details": {}}
    return _line(
        type="tool_execution_end",
        toolCallId=call_id,
        toolName=name,
        result=result,
        isError=error,
        **more,
    )


ASSISTANT = {"role": "assistant", "content": [], "provider": "anthropic", "model": "m-1"}
HEAD = [
    _line(type="session", version=3, id="p-1", timestamp="2026-02-02T10:00:00.000Z", cwd="/w"),
    _line(type="agent_start"),
    _line(type="message_end", message={"role": "user", "content": "go", "timestamp": 5}),
    _line(type="message_start", message={**ASSISTANT, "timestamp": 10}),
]
"""The header, a prompt and the first assistant message: the session has started."""
CALLS = [
    _start("c1", "read", {"path": "src/a.py", "offset": 2}, streamview_recv_ms=20),  # 5
    _start("c2", "grep", {"pattern": "def a", "path": "src"}),
    _start("c3", "bash", {"command": "pytest -q"}),
    _start("c4", "edit", {"path": "src/a.py", "oldText": "a", "newText": "b"}),
    _end("c1", "read", "one\ntwo\nthree", streamview_recv_ms=25),
    _end("c2", "grep", "src/a.py:1: def a():"),  # 10
    _end("c3", "bash", "F.\n1 failed\n\nCommand exited with code 1", error=True),  # an error
    _end("c4", "edit", "Could not find the text to replace", error=True),
    _start("c5", "write", {"path": 7, "content": ["not", "text"]}),  # unusual arguments
    _start("c6", "find", {"pattern": "*.py", "path": "src"}),  # glob: two target keys
    _end("c6", "find", "src/a.py\nsrc/b.py"),  # 15
    _start("c7", "ls", "not an object"),
    _start("c8", "my_ext_tool", {"query": "x", "n": 1}),  # an extension's tool
    _end("c8", "my_ext_tool", "found"),
    _end("c9", "read", "a result before its start"),
    _start("c9", "read", {"path": "late.py"}),  # 20
    _end("c9", "read", "late"),
    _start("c10", "read", {"path": ""}),  # an empty target
    _end("c10", "read", "x", error="true"),  # an isError that is no boolean: no error
    _start(5, "read", {"path": "x"}),  # a call id that is no string: the long way
    _end(5, "read", "x"),  # 25
    _start("", "read", {"path": "x"}),
    _start("c11", 3, {"path": "x"}),  # a tool name that is no string
    _end("c11", 3, "x"),
    _start("c12", "read", {"path": "y"}, streamview_recv_ms="30"),  # a stamp not an int
    _end("c12", "read", "y", streamview_recv_ms=True),  # 30
    _start("c1", "read", {"path": "again.py"}),  # a call id seen before
    _end("c1", "read", "again"),
    _line(type="tool_execution_end", toolCallId="c13", toolName="bash", result="plain"),
    _start("c14", "bash", {"command": "sleep 100"}),  # never ends
    _line(type="agent_end", messages=[]),  # 35
]
LINES = HEAD + CALLS
DATA = b"\n".join(LINES) + b"\n"
TAKEN = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}
TAKEN |= {27, 28, 31, 32, 33, 34}
"""Every call's record but those with a call id or an arrival stamp the fast path does
not read (24-26, 29, 30): the header and the edges go the long way."""


def test_a_calls_records_give_what_the_long_ways_events_say() -> None:
    fast = PiTranslator()
    slow = PiTranslator()
    taken = set()
    for number, data in enumerate(LINES, 1):
        record = orjson.loads(data)
        found = fast.fast(record, number)
        events = translate_decoded(slow, orjson.loads(data), data, number)  # the stamp read
        if found is None:
            fast.translate(record, number, None)
        else:
            taken.add(number)
            assert len(events) == 1, data
            event = events[0]
            assert isinstance(event, ToolCallEvent), data
            kind, subtype, fields, model_call_id, sid, stamp, recv = said_built(
                target_checked(found)
            )
            assert (kind, subtype) == ("tool_call", "completed" if event.completed else "started")
            assert (model_call_id, sid, stamp) == (None, event.session_id, event.timestamp_ms)
            assert recv == record.get("streamview_recv_ms") == event.recv_ms
            expected = said_built(("tool_call", None, event_fields(event)))[2]
            if isinstance(found[2][6], Said):  # what the fold reads of the payload
                kind, outcome, payload = event.kind, event.outcome, event.payload
                said = (
                    kind,
                    tools.status_of(kind, outcome, payload),
                    tools.summary_of(kind, outcome, payload),
                    tools.numbers_of(kind, payload),
                    payload,
                )
                expected = (*expected[:6], said, *expected[7:])
            assert fields == expected, data
        assert vars(fast) == vars(slow), data
    assert taken == TAKEN


def test_a_result_is_said_only_for_a_successful_read_or_grep() -> None:
    fast = PiTranslator()
    said = {}
    for number, data in enumerate(LINES, 1):
        record = orjson.loads(data)
        found = fast.fast(record, number)
        if found is None:
            fast.translate(record, number, None)
        elif found[1] == "completed":
            said[found[2][2]] = found[2][6].__class__ is Said
    assert said == {
        "c1": True,
        "c2": True,
        "c3": False,  # an error
        "c4": False,
        "c6": False,  # a glob: its payload
        "c8": False,
        "c9": True,
        "c10": True,
        "c11": False,  # a tool of no name: unknown
        "c13": False,
    }


def test_a_result_whose_payload_cannot_be_made_goes_the_long_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_: Any) -> Any:
        raise ValueError("unreadable")

    monkeypatch.setattr(pi_tools.tool_shapes, "success_said", broken)
    monkeypatch.setattr(pi_tools.tool_shapes, "success_payload", broken)
    translator = PiTranslator()
    for number, data in enumerate(HEAD + CALLS[:1], 1):
        record = orjson.loads(data)
        if translator.fast(record, number) is None:
            translator.translate(record, number, None)
    assert translator.fast(orjson.loads(CALLS[4]), 6) is None
    assert "c1" in translator._calls  # the long way forgets it, and says why


def test_the_fold_and_json_are_the_same_as_the_long_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert_same_fold(DATA)
    assert summary(DATA, "pi") == general_summary(DATA, "pi", monkeypatch)


def test_events_are_told_as_the_long_way_tells_them(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [told(chunks) for chunks in splits(DATA)]
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in splits(DATA)]
