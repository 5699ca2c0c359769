"""Parsing one line: every record of the format guide, bad input as values, never a raise."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core.events import (
    AssistantMessage,
    ConnectionNotice,
    InteractionQuery,
    MalformedLine,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.parse import parse_line

from .helpers import SID, assistant, completed, init, result, started, user


def parse(data: bytes, number: int = 7) -> Any:
    """Parse a builder's line (its ``\\n`` removed)."""
    return parse_line(data.rstrip(b"\n"), number)


def test_system_init_becomes_session_started_with_every_field() -> None:
    event = parse(init(tools=["read"], mcp_servers=[]))
    assert isinstance(event, SessionStarted)
    assert event.line == 7
    assert event.session_id == SID
    assert event.model == "GPT-5 Mini"
    assert event.cwd == "/work/project"
    assert event.permission_mode == "default"
    assert event.api_key_source == "login"
    assert event.extra == {"tools": ["read"], "mcp_servers": []}


def test_user_becomes_prompt_with_its_text_items_concatenated() -> None:
    record = {
        "type": "user",
        "message": {
            "content": [
                {"type": "text", "text": "Fix "},
                {"type": "image", "url": "x"},
                {"type": "text", "text": "the test"},
            ]
        },
        "session_id": SID,
    }
    event = parse(orjson.dumps(record))
    assert isinstance(event, PromptSubmitted)
    assert event.text == "Fix the test"


def test_assistant_keeps_model_call_id_and_timestamp() -> None:
    event = parse(assistant("hi", model_call_id="mc-1", timestamp_ms=1789566810062))
    assert isinstance(event, AssistantMessage)
    assert (event.text, event.model_call_id, event.timestamp_ms) == ("hi", "mc-1", 1789566810062)


def test_thinking_delta_and_completed() -> None:
    delta = parse(b'{"type":"thinking","subtype":"delta","text":"Hmm","session_id":"s"}')
    done = parse(b'{"type":"thinking","subtype":"completed","session_id":"s"}')
    assert isinstance(delta, ThinkingDelta) and delta.text == "Hmm"
    assert isinstance(done, ThinkingCompleted) and done.session_id == "s"


def test_tool_call_started_and_completed() -> None:
    start = parse(started("c1", "read", {"path": "a.py"}, model_call_id="mc"))
    end = parse(completed("c1", "read", {"success": {"totalLines": 3}}))
    assert isinstance(start, ToolCallEvent) and not start.completed
    assert (start.call_id, start.kind, start.args, start.model_call_id) == (
        "c1",
        "read",
        {"path": "a.py"},
        "mc",
    )
    assert isinstance(end, ToolCallEvent) and end.completed
    assert (end.outcome, end.payload, end.args) == ("success", {"totalLines": 3}, None)


def test_interaction_query_request_and_response() -> None:
    request = {
        "type": "interaction_query",
        "subtype": "request",
        "query_type": "webFetchRequestQuery",
        "query": {
            "id": 0,
            "webFetchRequestQuery": {"args": {"url": "https://e.com", "toolCallId": "t1"}},
        },
        "session_id": SID,
    }
    response = {
        "type": "interaction_query",
        "subtype": "response",
        "query_type": "webFetchRequestQuery",
        "response": {"id": 0, "webFetchRequestResponse": {"rejected": {"reason": "User Rejected"}}},
        "session_id": SID,
    }
    asked = parse(orjson.dumps(request))
    answered = parse(orjson.dumps(response))
    assert isinstance(asked, InteractionQuery)
    assert (asked.subtype, asked.query_id, asked.tool_call_id) == ("request", 0, "t1")
    assert asked.args == {"url": "https://e.com", "toolCallId": "t1"}
    assert isinstance(answered, InteractionQuery)
    assert (answered.approved, answered.reason) == (False, "User Rejected")


def test_interaction_query_response_approved() -> None:
    response = {
        "type": "interaction_query",
        "subtype": "response",
        "query_type": "shellRequestQuery",
        "response": {"id": 3, "shellRequestResponse": {"approved": {}}},
    }
    event = parse(orjson.dumps(response))
    assert isinstance(event, InteractionQuery)
    assert event.approved is True


def test_connection_and_retry_become_notices() -> None:
    reconnecting = parse(
        b'{"type":"connection","subtype":"reconnecting","session_id":"s","timestamp_ms":1,'
        b'"attempt":1,"endpoint_url":"https://agent.example"}'
    )
    retry = parse(
        b'{"type":"retry","subtype":"starting","session_id":"s","attempt":2,"is_resume":true}'
    )
    assert isinstance(reconnecting, ConnectionNotice)
    assert (reconnecting.type, reconnecting.subtype, reconnecting.attempt) == (
        "connection",
        "reconnecting",
        1,
    )
    assert reconnecting.detail == "https://agent.example"
    assert isinstance(retry, ConnectionNotice)
    assert (retry.type, retry.subtype, retry.attempt) == ("retry", "starting", 2)


def test_result_keeps_durations_text_request_and_usage() -> None:
    usage = {"inputTokens": 1, "outputTokens": 2, "cacheReadTokens": 3, "cacheWriteTokens": 0}
    event = parse(result("answer", usage=usage))
    assert isinstance(event, RunResult)
    assert (event.subtype, event.is_error, event.duration_ms, event.duration_api_ms) == (
        "success",
        False,
        1234,
        1200,
    )
    assert (event.result, event.request_id, event.usage) == ("answer", "req-1", usage)


def test_result_with_is_error_true() -> None:
    event = parse(result("boom", is_error=True))
    assert isinstance(event, RunResult) and event.is_error is True


# -- malformed lines ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "reason_part"),
    [
        (b"Not logged in. Run cursor-agent login", "not JSON"),
        (b"T: free plan", "not JSON"),
        (b'{"type": "user", ', "not JSON"),
        (b"[1, 2, 3]", "list"),
        (b"42", "int"),
        (b'"just a string"', "str"),
        (b"null", "NoneType"),
        (b'{"type":"user","text":"\xff\xfe"', "UTF-8"),
        (b'{"session_id":"s","message":{}}', "type"),
        (b'{"type":42}', "type"),
        (b'{"type":null}', "type"),
        (b'{"type":["user"]}', "type"),
    ],
)
def test_bad_lines_become_malformed_with_line_number_and_raw(raw: bytes, reason_part: str) -> None:
    event = parse_line(raw, 12)
    assert isinstance(event, MalformedLine)
    assert event.line == 12
    assert event.raw == raw
    assert event.raw_size == len(raw)
    assert reason_part in event.reason


def test_a_record_with_invalid_utf8_is_read_with_replacement_characters() -> None:
    """One bad byte no longer loses the record: its text keeps U+FFFD in its place,
    and every path (Cursor's reader, the fold, other dialects) marks the line."""
    from streamview.core.events import ConnectionNotice, SessionStarted
    from streamview.core.reader import EventReader, fold
    from streamview.core.state import StreamState

    line = b'{"type":"user","message":{"content":[{"type":"text","text":"caf\xe9 ok"}]}}\n'
    event = parse_line(line.rstrip(), 3)
    assert isinstance(event, PromptSubmitted)
    assert event.text == "caf\ufffd ok"
    reader = EventReader(agent="cursor")
    events = [*reader.feed(line), *reader.finish()]
    # The forced dialect is named first (issue 22.3), then the line and its mark.
    assert [type(e) for e in events] == [SessionStarted, PromptSubmitted, ConnectionNotice]
    assert isinstance(events[0], SessionStarted) and events[0].agent == "cursor"
    assert isinstance(events[2], ConnectionNotice) and events[2].subtype == "invalid-utf8"
    state = fold([line], StreamState(track_changes=False))
    assert state.counts.malformed == 0 and state.counts.events == 1
    assert [n.subtype for n in state.notices] == ["invalid-utf8"]
    assert state.sessions[0].prompt == "caf\ufffd ok"


def test_malformed_line_text_replaces_invalid_utf8() -> None:
    event = parse_line(b"abc\xffdef", 1)
    assert isinstance(event, MalformedLine)
    assert event.text == "abc\ufffddef"


def test_no_type_and_type_not_a_string_give_different_reasons() -> None:
    missing = parse_line(b'{"a":1}', 1)
    wrong = parse_line(b'{"type":1}', 1)
    assert isinstance(missing, MalformedLine) and isinstance(wrong, MalformedLine)
    assert missing.reason != wrong.reason


# -- unknown records ------------------------------------------------------------------


def test_unknown_type_is_kept_as_unknown_record() -> None:
    raw = b'{"type":"hologram","text":"hello","session_id":"s","timestamp_ms":5}'
    event = parse_line(raw, 3)
    assert isinstance(event, UnknownRecord)
    assert (event.line, event.type, event.subtype, event.session_id, event.timestamp_ms) == (
        3,
        "hologram",
        None,
        "s",
        5,
    )
    assert event.record == orjson.loads(raw)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"type":"thinking","subtype":"summary","text":"x"}',
        b'{"type":"tool_call","subtype":"progress","call_id":"c"}',
        b'{"type":"interaction_query","subtype":"cancel"}',
    ],
)
def test_unknown_subtype_of_a_known_type_is_kept_as_unknown_record(raw: bytes) -> None:
    event = parse_line(raw, 1)
    assert isinstance(event, UnknownRecord)
    record = orjson.loads(raw)
    assert event.type == record["type"]
    assert event.subtype == record.get("subtype")
    assert event.record == record


# -- recordings -------------------------------------------------------------------------


def test_recording_arrival_key_is_taken_out_as_recv_ms() -> None:
    raw = b'{"type":"user","message":{"content":[]},"streamview_recv_ms":1789000000123}'
    event = parse_line(raw, 1)
    assert isinstance(event, PromptSubmitted)
    assert event.recv_ms == 1789000000123


def test_recording_arrival_key_leaves_an_unknown_record_clean() -> None:
    event = parse_line(b'{"type":"later","x":1,"streamview_recv_ms":"1789000000123"}', 1)
    assert isinstance(event, UnknownRecord)
    assert event.recv_ms == 1789000000123
    assert event.record == {"type": "later", "x": 1}


def test_live_arrival_time_is_used_when_the_line_has_none() -> None:
    assert parse_line(b'{"type":"user"}', 1, recv_ms=99).recv_ms == 99


def test_timestamp_and_started_at_strings_are_read_as_numbers() -> None:
    event = parse(started("c", "read", {"path": "p"}, after={"startedAtMs": "1789000000500"}))
    assert isinstance(event, ToolCallEvent)
    assert event.started_at_ms == 1789000000500


# -- wrong types never raise ---------------------------------------------------------------

WRONG_VALUES: list[Any] = [
    None,
    True,
    0,
    -1,
    1.5,
    1e300,
    "",
    "--5",
    "²",
    "1" * 5000,
    [],
    [None],
    {},
    {"text": 1},
]


def records_with_wrong_fields() -> list[tuple[str, dict[str, Any]]]:
    """Every known record shape with each field replaced by each wrong value: (key, record)."""
    templates: list[dict[str, Any]] = [
        orjson.loads(init()),
        orjson.loads(user("x")),
        orjson.loads(assistant("x", "mc", 5)),
        {"type": "thinking", "subtype": "delta", "text": "t", "timestamp_ms": 1},
        orjson.loads(
            started("c", "shell", {"command": "ls"}, after={"startedAtMs": "1", "toolCallId": "c"})
        ),
        orjson.loads(completed("c", "shell", {"success": {"exitCode": 0}})),
        {
            "type": "interaction_query",
            "subtype": "request",
            "query_type": "q",
            "query": {"id": 0, "q": {"args": {"toolCallId": "c"}}},
        },
        {
            "type": "interaction_query",
            "subtype": "response",
            "query_type": "q",
            "response": {"id": 0, "q": {"rejected": {"reason": "no"}}},
        },
        {"type": "connection", "subtype": "reconnecting", "attempt": 1, "endpoint_url": "u"},
        {"type": "retry", "subtype": "starting", "attempt": 1, "is_resume": True},
        orjson.loads(result("x", usage={"inputTokens": 1})),
    ]
    records = []
    for template in templates:
        for key in [*template.keys(), "streamview_recv_ms", "timestamp_ms", "session_id"]:
            if key == "type":
                continue
            for value in WRONG_VALUES:
                record = dict(template)
                record[key] = value
                records.append((key, record))
    return records


def test_fields_of_wrong_types_never_raise_and_the_record_stays_known() -> None:
    checked = 0
    for key, record in records_with_wrong_fields():
        event = parse_line(orjson.dumps(record), 1)
        assert event.line == 1
        if key != "subtype":
            # the builder did not give up on a wrong field: the record keeps its meaning
            assert not isinstance(event, MalformedLine | UnknownRecord), (key, record, event)
            checked += 1
    assert checked > 500


def test_nested_wrong_types_in_tool_calls_never_raise() -> None:
    shapes: list[Any] = [
        None,
        [],
        "x",
        {},
        {"readToolCall": None},
        {"readToolCall": []},
        {"readToolCall": {"args": "x", "result": "y"}},
        {"readToolCall": {"args": {}, "result": []}},
        {"readToolCall": {"result": {}}},
        {"function": None},
        {"function": {"name": 1, "arguments": "not json"}},
        {"function": {"name": "f", "arguments": "[1]"}},
        {"toolCallId": 5, "startedAtMs": [], "completedAtMs": {}},
    ]
    for shape in shapes:
        for subtype in ("started", "completed"):
            raw = orjson.dumps(
                {"type": "tool_call", "subtype": subtype, "call_id": 1, "tool_call": shape}
            )
            event = parse_line(raw, 4)
            assert isinstance(event, ToolCallEvent), (shape, event)
            assert event.line == 4


def test_deeply_nested_json_does_not_raise() -> None:
    deep = b'{"type":"x","a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    event = parse_line(deep, 1)
    assert isinstance(event, MalformedLine | UnknownRecord)


def test_json_beyond_orjson_limits_is_still_read() -> None:
    event = parse_line(b'{"type":"result","subtype":"success","duration_ms":1e400}', 1)
    assert isinstance(event, RunResult)
    assert event.duration_ms is None


def test_a_byte_order_mark_before_the_first_line_is_ignored() -> None:
    data = b'\xef\xbb\xbf{"type":"system","subtype":"init","model":"GPT-5","session_id":"s"}'
    event = parse_line(data, 1)
    assert isinstance(event, SessionStarted)
    assert event.model == "GPT-5"


def test_a_byte_order_mark_on_a_later_line_is_malformed() -> None:
    event = parse_line(b'\xef\xbb\xbf{"type":"user"}', 2)
    assert isinstance(event, MalformedLine)
