"""Tool calls: kind, correlation by call_id, status, target, summary and duration."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from streamview.core import tools
from streamview.core.events import ToolCallEvent
from streamview.core.parse import parse_line
from streamview.core.state import StreamState, ToolCall

from .helpers import SID, completed, init, line, only_session, result, started, stream, user

BOOKKEEPING_FIRST = {
    "toolCallId": "c1",
    "startedAtMs": "1789000000000",
    "hookAdditionalContexts": [],
}


def one_call(*lines: bytes) -> ToolCall:
    """Fold a run made of these lines and return its only tool call."""
    session = only_session(stream(init(), user("go"), *lines, result("done")))
    assert len(session.tool_calls) == 1, session.tool_calls
    return session.tool_calls[0]


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


# -- targets -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "args", "target"),
    [
        ("read", {"path": "/w/a.py", "offset": 1, "limit": 20}, "/w/a.py"),
        ("write", {"path": "/w/new.py", "fileText": "x"}, "/w/new.py"),
        ("edit", {"path": "/w/e.py", "streamContent": "y"}, "/w/e.py"),
        ("delete", {"path": "/w/old.py"}, "/w/old.py"),
        ("ls", {"path": "/w", "ignore": []}, "/w"),
        ("shell", {"command": "pytest -x", "workingDirectory": "/w"}, "pytest -x"),
        ("grep", {"pattern": "TODO", "path": "/w", "glob": "*.py"}, "TODO"),
        ("glob", {"globPattern": "**/app.ts", "targetDirectory": "/w"}, "**/app.ts"),
        ("webFetch", {"url": "https://example.com"}, "https://example.com"),
        ("webSearch", {"searchTerm": "textual line api"}, "textual line api"),
        (
            "semSearch",
            {"query": "where is the parser", "targetDirectories": []},
            "where is the parser",
        ),
    ],
)
def test_target_per_kind(kind: str, args: dict[str, Any], target: str) -> None:
    call = one_call(started("c", kind, args), completed("c", kind, {"success": {}}))
    assert call.target == target


def test_target_of_an_mcp_call_is_its_tool_name() -> None:
    args = {"name": "srv-search", "toolName": "search", "providerIdentifier": "docs", "args": {}}
    call = one_call(started("m", "mcp", args), completed("m", "mcp", {"success": {}}))
    assert call.target is not None and "search" in call.target
    assert "docs" in call.target


def test_target_is_none_without_args() -> None:
    call = one_call(completed("c", "read", {"success": {}}))
    assert call.target is None


# -- summaries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "payload", "summary"),
    [
        ("read", {"content": "a\nb\nc", "totalLines": 3, "fileSize": 5}, "3 lines"),
        ("read", {"totalLines": 1}, "1 line"),
        ("read", {"isEmpty": True, "content": ""}, "empty file"),
        ("write", {"path": "p", "linesCreated": 12}, "12 lines written"),
        ("edit", {"linesAdded": 4, "linesRemoved": 2, "diffString": "..."}, "+4 -2"),
        ("edit", {"linesAdded": 1, "linesRemoved": 0}, "+1 -0"),
        ("shell", {"exitCode": 0, "stdout": "", "interleavedOutput": ""}, "exit 0"),
        ("shell", {"exitCode": 0, "interleavedOutput": "a\nb\n"}, "exit 0, 2 lines"),
        ("shell", {"exitCode": 7, "stderr": "boom"}, "exit 7, 1 line"),
        ("shell", {"exitCode": 0, "stdout": "HTTP/2 200 \r\nage: 1\r\n\r\n"}, "exit 0, 2 lines"),
        ("shell", {"exitCode": 0, "stdout": "HTTP/2 200 \nage: 1\n\n"}, "exit 0, 2 lines"),
        ("glob", {"files": ["./a", "./b"], "totalFiles": 2}, "2 files"),
        ("glob", {"files": ["./a"]}, "1 file"),
        ("webSearch", {"references": [{"title": "t", "url": "u", "chunk": "c"}] * 3}, "3 results"),
        ("updateTodos", {"todos": [{"status": "completed"}, {"status": "pending"}]}, "1/2 done"),
    ],
)
def test_success_summary_per_kind(kind: str, payload: dict[str, Any], summary: str) -> None:
    call = one_call(completed("c", kind, {"success": payload}))
    assert call.summary == summary


def test_failure_summary_of_a_shell_call_says_its_exit_code() -> None:
    call = one_call(completed("c", "shell", {"failure": {"exitCode": 127, "stderr": "not found"}}))
    assert call.summary is not None and call.summary.startswith("exit 127")


def test_rejection_summary_carries_the_reason() -> None:
    call = one_call(completed("c", "webFetch", {"rejected": {"reason": "User Rejected"}}))
    assert call.summary == "rejected: User Rejected"


def test_rejection_summary_with_an_empty_reason() -> None:
    call = one_call(completed("c", "shell", {"rejected": {"reason": "", "command": "curl"}}))
    assert call.summary == "rejected"


@pytest.mark.parametrize(
    "payload",
    [
        {"message": "File not found: a.py"},
        {"error": "File not found: a.py"},
        {"path": "a.py", "error": "File not found: a.py"},
    ],
)
def test_error_summary_is_the_error_message(payload: dict[str, Any]) -> None:
    call = one_call(completed("c", "read", {"error": payload}))
    assert call.status == tools.ERROR
    assert call.summary == "File not found: a.py"


def test_unknown_result_variant_is_shown_by_its_key() -> None:
    call = one_call(completed("c", "read", {"deferred": {"until": "later"}}))
    assert call.status == tools.COMPLETED
    assert call.summary == "deferred"


# -- duration ----------------------------------------------------------------------------------


def test_duration_from_started_and_completed_at_ms() -> None:
    call = one_call(
        started("c", "read", {"path": "p"}, after={"startedAtMs": "1000"}, timestamp_ms=1),
        completed(
            "c",
            "read",
            {"success": {}},
            after={"startedAtMs": "1000", "completedAtMs": "1750"},
            timestamp_ms=99_999,
        ),
    )
    assert call.duration_ms == 750


def test_duration_from_event_timestamps_when_the_call_has_no_times() -> None:
    call = one_call(
        started("c", "shell", {"command": "sleep 5"}, timestamp_ms=1770823845357),
        completed("c", "shell", {"success": {"exitCode": 0}}, timestamp_ms=1770823850766),
    )
    assert call.duration_ms == 1770823850766 - 1770823845357


def test_duration_from_arrival_times_when_nothing_else_is_known() -> None:
    start = orjson.loads(started("c", "shell", {"command": "x"}))
    end = orjson.loads(completed("c", "shell", {"success": {"exitCode": 0}}))
    start["streamview_recv_ms"] = 5_000
    end["streamview_recv_ms"] = 7_500
    call = one_call(line(start), line(end))
    assert call.duration_ms == 2_500


def test_duration_is_none_when_no_time_is_known() -> None:
    call = one_call(
        started("c", "shell", {"command": "x"}),
        completed("c", "shell", {"success": {"exitCode": 0}}),
    )
    assert call.duration_ms is None


def test_duration_is_none_for_a_call_that_never_completed() -> None:
    call = one_call(started("c", "shell", {"command": "x"}, timestamp_ms=5))
    assert call.duration_ms is None


@pytest.mark.parametrize(
    "union",
    [
        {"success": {"exitCode": 0}, "isBackground": False},
        {"isBackground": False, "success": {"exitCode": 0}},
    ],
)
def test_result_variant_is_found_whatever_the_order_of_its_siblings(
    union: dict[str, Any],
) -> None:
    """Shell results carry ``isBackground`` beside the variant (reifying captures)."""
    call = one_call(completed("c", "shell", union))
    assert call.outcome == "success"
    assert call.status == tools.SUCCEEDED
    assert call.summary == "exit 0"


def test_unknown_result_variant_beside_a_flag_is_still_shown_by_its_key() -> None:
    call = one_call(completed("c", "shell", {"isBackground": True, "deferred": {"pid": 4}}))
    assert call.status == tools.COMPLETED
    assert call.summary == "deferred"


@pytest.mark.parametrize(
    ("path", "cwd", "shown"),
    [
        ("/home/dev/proj/src/app.py", "/home/dev/proj", "src/app.py"),
        ("/home/dev/proj/src/app.py", "/home/dev/proj/", "src/app.py"),
        ("/home/dev/project2/app.py", "/home/dev/proj", "/home/dev/project2/app.py"),
        ("/home/dev/proj", "/home/dev/proj", "/home/dev/proj"),
        ("/etc/hosts", None, "/etc/hosts"),
        ("relative/x.py", "/home/dev/proj", "relative/x.py"),
    ],
)
def test_paths_below_the_working_directory_are_shown_relative(
    path: str, cwd: str | None, shown: str
) -> None:
    assert tools.relative_path(path, cwd) == shown


@given(st.text(alphabet="a \t\r\n", max_size=40))
def test_a_shells_line_count_is_counted_in_place_as_the_plain_rule_says(output: str) -> None:
    """Lines of output: \\r\\n read as \\n, trailing newlines not counted (no copy made)."""
    summary = tools.summary_of("shell", "success", {"stdout": output})
    if not output.strip():
        assert summary is None
    else:
        lines = output.replace("\r\n", "\n").rstrip("\n").count("\n") + 1
        assert summary == f"{lines:,} line{'' if lines == 1 else 's'}"


def _count_matches_by_walking_every_node(value: Any) -> tuple[int, int]:
    """The plain rule: every dict with a ``matches`` list is a file with that many
    matches; any other dict counts a ``file`` string and ``totalMatches`` numbers."""
    files = matches = 0
    if isinstance(value, dict):
        found = value.get("matches")
        if isinstance(found, list):
            files, matches = 1, len(found)
        else:
            files = int(isinstance(value.get("file"), str))
            for key in ("totalMatchedLines", "totalMatches"):
                count = tools.as_int(value[key]) if key in value else None
                matches += count or 0
        children: Any = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return 0, 0
    for child in children:
        more_files, more_matches = _count_matches_by_walking_every_node(child)
        files, matches = files + more_files, matches + more_matches
    return files, matches


_GREP_KEYS = st.sampled_from(
    ["matches", "file", "totalMatches", "totalMatchedLines", "lineNumber", "content", "x"]
)
_GREP_TREES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=3) | st.just("7"),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(_GREP_KEYS, inner, max_size=4)
        # a file's match lines, and lists that only look like them
        | st.lists(st.dictionaries(_GREP_KEYS, inner, max_size=3), min_size=3, max_size=6)
    ),
    max_leaves=40,
)


@given(_GREP_TREES)
@example([{"content": "a"}, {"x": {"file": "f", "totalMatches": 2}}, {"lineNumber": 3}])
@example([{"content": "a"}, {"content": "b"}, {"x": [{"matches": [1, 2]}]}])
def test_grep_counts_agree_with_walking_every_node(tree: Any) -> None:
    """Lists of plain match lines are skipped in C: the counts stay the plain rule's."""
    assert tools._count_matches(tree) == _count_matches_by_walking_every_node(tree)
