"""Tool calls: kind, correlation by call_id and status."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core import tools
from streamview.core.events import ToolCallEvent
from streamview.core.parse import parse_line
from streamview.core.state import StreamState

from .helpers import (
    SID,
    completed,
    init,
    line,
    one_call,
    only_session,
    result,
    started,
    stream,
    user,
)

BOOKKEEPING_FIRST = {
    "toolCallId": "c1",
    "startedAtMs": "1789000000000",
    "hookAdditionalContexts": [],
}


# -- kind -----------------------------------------------------------------------------------


def test_kind_comes_from_the_key_ending_in_toolcall_when_bookkeeping_keys_come_first() -> None:
    raw = started("c1", "read", {"path": "a.py"}, first=BOOKKEEPING_FIRST)
    assert next(iter(orjson.loads(raw)["tool_call"])) == "toolCallId"
    event = parse_line(raw.rstrip(b"\n"), 1)
    assert isinstance(event, ToolCallEvent)
    assert event.kind == "read"
    assert event.args == {"path": "a.py"}
    assert event.started_at_ms == 1789000000000


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("readToolCall", "read"),
        ("shellToolCall", "shell"),
        ("updateTodosToolCall", "updateTodos"),
        ("webFetchToolCall", "webFetch"),
        ("frobnicateToolCall", "frobnicate"),
    ],
)
def test_kind_is_the_key_without_its_suffix(key: str, kind: str) -> None:
    raw = orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "c",
            "tool_call": {"toolCallId": "c", key: {"args": {}}},
        }
    )
    event = parse_line(raw, 1)
    assert isinstance(event, ToolCallEvent) and event.kind == kind


def test_unknown_tool_kind_is_named_and_its_target_guessed() -> None:
    call = one_call(
        started("c1", "frobnicate", {"widget": "gear-7", "count": 3}),
        completed("c1", "frobnicate", {"success": {"ok": True}}),
    )
    assert call.kind == "frobnicate"
    assert call.target == "gear-7"
    assert call.status == tools.SUCCEEDED


def test_function_shape_uses_the_functions_name_and_parses_its_arguments() -> None:
    record = {
        "type": "tool_call",
        "subtype": "started",
        "call_id": "f1",
        "tool_call": {
            "function": {"name": "read", "arguments": orjson.dumps({"path": "x.py"}).decode()}
        },
    }
    call = one_call(
        line(record),
        completed("f1", "read", {"success": {"totalLines": 9}}),
    )
    assert call.kind == "read"
    assert call.target == "x.py"
    assert call.status == tools.SUCCEEDED
    assert call.summary == "9 lines"


def test_function_shape_with_arguments_that_are_not_json_keeps_them() -> None:
    record = {
        "type": "tool_call",
        "subtype": "started",
        "call_id": "f1",
        "tool_call": {"function": {"name": "lookup", "arguments": "not json"}},
    }
    event = parse_line(orjson.dumps(record), 1)
    assert isinstance(event, ToolCallEvent)
    assert event.kind == "lookup"
    assert event.args == {"arguments": "not json"}


# -- correlation ------------------------------------------------------------------------------


def test_call_id_with_a_newline_correlates_and_stays_whole() -> None:
    call_id = "call_PFAupCWibROFKbdASSdiHCoi\nfc_0d2609f619ccdca801698ca0a51c6481a0"
    call = one_call(
        started(call_id, "shell", {"command": "sleep 5"}),
        completed(call_id, "shell", {"success": {"exitCode": 0}}),
    )
    assert call.call_id == call_id
    assert call.status == tools.SUCCEEDED


def test_parallel_calls_completing_out_of_order() -> None:
    session = only_session(
        stream(
            init(),
            user("go"),
            started("a", "shell", {"command": "sleep 6"}, model_call_id="m"),
            started("b", "shell", {"command": "sleep 4"}, model_call_id="m"),
            started("c", "read", {"path": "r.txt"}, model_call_id="m"),
            completed("b", "shell", {"success": {"exitCode": 0}}),
            completed("c", "read", {"rejected": {"reason": "no"}}),
            completed("a", "shell", {"success": {"exitCode": 3}}),
            result("done"),
        )
    )
    by_id = {call.call_id: call for call in session.tool_calls}
    assert [call.call_id for call in session.tool_calls] == ["a", "b", "c"]
    assert by_id["a"].status == tools.FAILED and by_id["a"].target == "sleep 6"
    assert by_id["b"].status == tools.SUCCEEDED and by_id["b"].target == "sleep 4"
    assert by_id["c"].status == tools.REJECTED and by_id["c"].target == "r.txt"
    assert by_id["b"].completed_line is not None and by_id["a"].completed_line is not None
    assert by_id["b"].completed_line < by_id["a"].completed_line


def test_calls_are_correlated_by_call_id_only_not_by_kind_or_order() -> None:
    session = only_session(
        stream(
            init(),
            started("x", "shell", {"command": "one"}),
            started("y", "shell", {"command": "two"}),
            completed("y", "shell", {"success": {"exitCode": 1}}),
            result(),
        )
    )
    first, second = session.tool_calls
    assert (first.target, first.status) == ("one", tools.INTERRUPTED)
    assert (second.target, second.status) == ("two", tools.FAILED)


def test_completion_without_start_creates_the_call() -> None:
    call = one_call(completed("w1", "webSearch", {"rejected": {"reason": "User Rejected"}}))
    assert call.call_id == "w1"
    assert call.kind == "webSearch"
    assert call.status == tools.REJECTED
    assert call.summary == "rejected: User Rejected"


def interaction_request(tool_call_id: str, args: dict[str, Any], beside: bool = False) -> bytes:
    """An ``interaction_query`` request naming the call (in or beside its args)."""
    inner: dict[str, Any] = {"args": dict(args)}
    if beside:
        inner["toolCallId"] = tool_call_id
    else:
        inner["args"]["toolCallId"] = tool_call_id
    return line(
        {
            "type": "interaction_query",
            "subtype": "request",
            "query_type": "webSearchRequestQuery",
            "query": {"id": 1, "webSearchRequestQuery": inner},
            "session_id": SID,
        }
    )


def interaction_response(rejected_reason: str) -> bytes:
    """The matching rejection."""
    return line(
        {
            "type": "interaction_query",
            "subtype": "response",
            "query_type": "webSearchRequestQuery",
            "response": {
                "id": 1,
                "webSearchRequestResponse": {"rejected": {"reason": rejected_reason}},
            },
            "session_id": SID,
        }
    )


def test_completion_without_start_takes_args_from_the_interaction_request() -> None:
    call = one_call(
        interaction_request("tool_a6", {"searchTerm": "example.com page title"}),
        interaction_response("User Rejected"),
        completed("tool_a6", "webSearch", {"rejected": {"reason": "User Rejected"}}),
    )
    assert call.target == "example.com page title"
    assert call.status == tools.REJECTED
    assert call.approval == "rejected: User Rejected"


def test_interaction_request_with_tool_call_id_beside_args_is_correlated() -> None:
    """probe-20's shape: ``{"args": {...}, "toolCallId": ...}``."""
    call = one_call(
        interaction_request("tool_q", {"searchTerm": "rivers"}, beside=True),
        interaction_response("Questions skipped"),
        completed("tool_q", "webSearch", {"rejected": {}}),
    )
    assert call.target == "rivers"
    assert call.approval == "rejected: Questions skipped"
    assert call.summary == "rejected: Questions skipped"


def test_completion_without_args_keeps_the_args_of_the_start() -> None:
    call = one_call(
        started("s1", "shell", {"command": "curl -sI https://example.com"}),
        completed("s1", "shell", {"rejected": {"command": "curl", "reason": ""}}),
    )
    assert call.args == {"command": "curl -sI https://example.com"}
    assert call.target == "curl -sI https://example.com"
    assert call.summary == "rejected"


def test_completion_with_args_updates_them() -> None:
    call = one_call(
        started("e1", "edit", {"path": "a.txt"}),
        completed("e1", "edit", {"success": {"linesAdded": 1}}, args={"path": "b.txt", "x": 1}),
    )
    assert call.args == {"path": "b.txt", "x": 1}
    assert call.target == "b.txt"


def test_a_call_started_twice_is_one_call() -> None:
    session = only_session(
        stream(
            init(),
            started("d", "read", {"path": "p"}),
            started("d", "read", {"path": "p"}),
            completed("d", "read", {"success": {}}),
            result(),
        )
    )
    assert len(session.tool_calls) == 1


# -- status ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "result_union", "status"),
    [
        ("read", {"success": {"totalLines": 1}}, tools.SUCCEEDED),
        ("shell", {"success": {"exitCode": 0}}, tools.SUCCEEDED),
        ("shell", {"success": {"exitCode": 2, "stderr": "nope"}}, tools.FAILED),
        ("shell", {"success": {"exitCode": "1"}}, tools.FAILED),
        ("shell", {"failure": {"exitCode": 1, "stdout": ""}}, tools.FAILED),
        ("mcp", {"success": {"isError": True, "content": []}}, tools.FAILED),
        ("shell", {"rejected": {"reason": ""}}, tools.REJECTED),
        ("read", {"error": {"message": "ENOENT"}}, tools.ERROR),
        ("read", {"timedOut": {"after": 30}}, tools.COMPLETED),
    ],
)
def test_status_from_the_result_union(kind: str, result_union: dict[str, Any], status: str) -> None:
    call = one_call(
        started("c", kind, {"path": "p", "command": "c"}),
        completed("c", kind, result_union),
    )
    assert call.status == status
    assert call.outcome == next(iter(result_union))


def test_a_call_still_running_is_running_until_the_stream_ends() -> None:
    state = StreamState()
    for number, raw in enumerate((init(), started("c", "shell", {"command": "x"})), 1):
        state.apply(parse_line(raw.rstrip(b"\n"), number))
    session = state.sessions[0]
    assert session.tool_calls[0].status == tools.RUNNING
    assert session.open_calls == session.tool_calls
    state.finish()
    assert session.tool_calls[0].status == tools.INTERRUPTED
    assert session.open_calls == []


def test_a_call_without_completion_is_interrupted_at_end_of_stream() -> None:
    call = one_call(started("c", "shell", {"command": "sleep 100"}))
    assert call.status == tools.INTERRUPTED
    assert call.summary


def test_every_status_is_a_known_status() -> None:
    assert set(tools.STATUSES) == {
        "running",
        "succeeded",
        "failed",
        "rejected",
        "error",
        "completed",
        "interrupted",
    }
