"""Gemini CLI (``gemini -p --output-format stream-json``) read fixture by fixture.

Shapes: ``packages/core/src/output/types.ts`` and ``stream-json-formatter.test.ts``
(google-gemini/gemini-cli); see tests/fixtures/dialects/gemini/SOURCES.md.
``real-oneshot-web-search.jsonl`` and ``real-shell-echo.jsonl`` are real runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from streamview.core import tools
from streamview.core.dialects import CallReparser, by_name, decide, detect, translate_line
from streamview.core.dialects.gemini import GeminiTranslator
from streamview.core.events import (
    AssistantMessage,
    ConnectionNotice,
    RunResult,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader, fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session, StreamState
from streamview.core.summary import summarize

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "gemini"


def session_of(name: str) -> Session:
    (session,) = fold([(FIXTURES / name).read_bytes()]).sessions
    return session


def test_a_run_with_tools_reads_as_one_gemini_session() -> None:
    session = session_of("success-tools.jsonl")
    assert (session.agent, session.model) == ("gemini", "gemini-2.5-pro")
    assert session.prompt == "Fix the failing parser test"
    assert session.text.startswith("I'll look at the test first.")
    assert session.text.endswith("both parser tests pass.")
    kinds = [(c.kind, c.status) for c in session.tool_calls]
    assert kinds == [
        ("updateTodos", tools.SUCCEEDED),
        ("shell", tools.FAILED),
        ("grep", tools.SUCCEEDED),
        ("read", tools.SUCCEEDED),
        ("edit", tools.SUCCEEDED),
        ("glob", tools.SUCCEEDED),
        ("webSearch", tools.SUCCEEDED),
        ("activate_skill", tools.SUCCEEDED),  # a tool nobody maps keeps its name
        ("shell", tools.SUCCEEDED),
    ]
    shell = session.tool_calls[1]
    assert shell.summary == "exit 1, 2 lines"
    assert shell.duration_ms == 2000
    edit = session.tool_calls[4]
    assert (edit.target, edit.summary) == ("/work/app/src/parse.py", "+1 -1")
    assert session.outcome.status == SUCCESS
    assert session.outcome.duration_ms == 16000
    usage = session.outcome.usage or {}
    assert (usage["inputTokens"], usage["outputTokens"]) == (58958, 1208)
    assert (usage["cacheReadTokens"], usage["totalTokens"], usage["toolCalls"]) == (47022, 61149, 9)


def test_tool_errors_refusals_and_an_error_result() -> None:
    state = fold([(FIXTURES / "errors.jsonl").read_bytes()])
    assert state.counts.malformed == 2  # "YOLO mode is enabled." and "Loaded cached credentials."
    (session,) = state.sessions
    read, todos, shell = session.tool_calls
    assert (read.status, read.summary) == (tools.ERROR, "File not found: /work/app/NOTES.md")
    assert todos.status == tools.ERROR
    assert shell.status == tools.REJECTED
    assert session.outcome.status == ERROR
    assert session.outcome.subtype == "MaxSessionTurnsError"
    assert session.outcome.message == "Maximum session turns exceeded"
    assert any("Loop detected" in (n.detail or "") for n in state.notices)  # type: ignore[attr-defined]


def test_a_stream_that_stops_leaves_the_call_interrupted() -> None:
    session = session_of("stops-mid-run.jsonl")
    assert session.outcome.status == INCOMPLETE
    assert [c.status for c in session.tool_calls] == [tools.INTERRUPTED]


def test_an_unknown_record_is_kept() -> None:
    state = fold([(FIXTURES / "noise-and-unknown.jsonl").read_bytes()])
    assert [u.type for u in state.unknown] == ["thought"]
    assert state.sessions[0].text == "Hello!"


def test_the_json_summary_names_gemini() -> None:
    summary = summarize(fold([(FIXTURES / "success-tools.jsonl").read_bytes()]))
    session = summary["sessions"][0]
    assert session["agent"] == "gemini"
    assert session["outcome"]["cost_usd"] is None and session["outcome"]["num_turns"] is None


def test_detection_claims_geminis_result_not_cursors() -> None:
    assert detect([{"type": "init", "session_id": "s", "model": "gemini-2.5-pro"}]).name == (
        "gemini"
    )
    assert detect([{"type": "tool_use", "tool_name": "glob", "tool_id": "g"}]).name == "gemini"
    assert detect([{"type": "result", "status": "success", "stats": {}}]).name == "gemini"
    cursor_result = {"type": "result", "subtype": "success", "is_error": False}
    assert detect([cursor_result]).name == "cursor"


GEMINI = FIXTURES
CURSOR_RESULT: dict[str, Any] = {
    "type": "result",
    "subtype": "success",
    "duration_ms": 1234,
    "is_error": False,
    "result": "done",
    "session_id": "s",
}
"""Cursor's ``result`` (STREAM_FORMAT.md): it has a ``subtype``, Gemini's never does."""


def gemini(name: str) -> bytes:
    return (GEMINI / name).read_bytes()


def folded(name: str) -> StreamState:
    return fold([gemini(name)])


def calls_of(state: StreamState) -> list[tuple[str, str, str | None]]:
    """``(kind, status, target)`` of every call of the only session."""
    (session,) = state.sessions
    return [(call.kind, call.status, call.target) for call in session.tool_calls]


def completed_payloads(name: str) -> dict[str, ToolCallEvent]:
    translator = GeminiTranslator()
    completed: dict[str, ToolCallEvent] = {}
    for number, line in enumerate(gemini(name).splitlines(), 1):
        for event in translate_line(translator, line, number):
            if isinstance(event, ToolCallEvent) and event.completed:
                completed[event.call_id.split("-", 1)[0]] = event
    return completed


def test_a_real_web_search_run_after_the_clis_own_lines() -> None:
    """The three lines Gemini CLI prints before ``init`` are shown, not lost."""
    state = folded("real-oneshot-web-search.jsonl")
    (session,) = state.sessions
    assert session.agent == "gemini"
    assert session.session_id == "b35ecd66-4ed8-43cd-b73b-9dd2eb9b2f4e"
    assert session.model == "auto-gemini-2.5"
    assert session.prompt == "what is the capital of columbia?\n"
    assert calls_of(state) == [("webSearch", tools.SUCCEEDED, "capital of columbia")]
    assert session.tool_calls[0].duration_ms == 1818
    assert session.text == "Bogotá is the capital and largest city of Colombia."
    assert state.counts.malformed == 3 and state.counts.total == 10
    outcome = session.outcome
    assert (outcome.status, outcome.duration_ms, outcome.message) == ("success", 6824, None)
    assert outcome.usage is not None
    assert (outcome.usage["inputTokens"], outcome.usage["outputTokens"]) == (32282, 76)
    assert (outcome.usage["cacheReadTokens"], outcome.usage["toolCalls"]) == (13673, 1)


def test_a_real_shell_run() -> None:
    state = folded("real-shell-echo.jsonl")
    (session,) = state.sessions
    assert calls_of(state) == [("shell", tools.SUCCEEDED, "echo amux-fixture")]
    call = session.tool_calls[0]
    assert call.description == "Runs a simple echo command to output the string 'amux-fixture'"
    assert call.summary == "1 line"
    assert session.text == "amux-fixture"
    assert session.outcome.usage is not None
    assert set(session.outcome.usage["models"]) == {"gemini-3.1-flash-lite", "gemini-3.5-flash"}


def test_a_successful_run_with_every_kind_of_tool() -> None:
    state = folded("success-every-tool.jsonl")
    (session,) = state.sessions
    assert session.model == "gemini-2.5-pro"
    assert calls_of(state) == [
        ("updateTodos", tools.SUCCEEDED, "2 todos"),
        ("ls", tools.SUCCEEDED, "src"),
        ("grep", tools.SUCCEEDED, "def parse"),
        ("read", tools.SUCCEEDED, "src/parse.py"),
        ("edit", tools.SUCCEEDED, "src/parse.py"),
        ("write", tools.SUCCEEDED, "tests/test_empty.py"),
        ("glob", tools.SUCCEEDED, "tests/**/*.py"),
        ("shell", tools.SUCCEEDED, "python -m pytest -q tests"),
        ("webFetch", tools.SUCCEEDED, "https://docs.python.org/3/library/stdtypes.html#list"),
        ("mcp", tools.SUCCEEDED, "github: get_issue"),
        ("save_memory", tools.SUCCEEDED, "parse('') returns []"),
    ]
    summaries = {call.kind: call.summary for call in session.tool_calls}
    assert summaries["updateTodos"] == "0/2 done"
    assert summaries["edit"] == "+1 -1"
    assert summaries["write"] == "5 lines written"
    assert summaries["glob"] == "2 files"
    assert summaries["shell"] == "2 lines"
    assert summaries["mcp"] == "Issue #42: parse('') returns None"
    # The deltas of one stretch of text join; a call between two stretches splits them.
    assert session.text == (
        "I'll look at the parser first.\n\n"
        "An empty string falls through to `return None`.\n\n"
        "Fixed: `parse('')` now returns `[]`, and both tests pass."
    )
    assert session.outcome.status == "success" and session.outcome.duration_ms == 15575


def test_each_kind_gets_the_payload_its_view_reads() -> None:
    """A diff made from old_string/new_string, todos with their text, MCP's server."""
    completed = completed_payloads("success-every-tool.jsonl")
    edit = completed["replace"].payload
    assert edit["diffString"] == (
        "--- a/src/parse.py\n+++ b/src/parse.py\n@@ -1,2 +1,2 @@\n"
        "     if not text:\n-        return None\n+        return []"
    )
    assert (edit["linesAdded"], edit["linesRemoved"]) == (1, 1)
    assert completed["run_shell_command"].payload == {"stdout": "..\n2 passed in 0.04s"}
    todos = completed["write_todos"].payload["todos"]
    assert [(t["content"], t["status"]) for t in todos] == [
        ("Find the parser", "in_progress"),
        ("Fix parse('')", "pending"),
    ]
    assert completed["read_file"].payload == {"path": "src/parse.py"}
    assert completed["list_directory"].payload == {"message": "Listed 3 item(s)."}
    assert completed["glob"].payload == {"totalFiles": 2, "message": "Found 2 matching file(s)"}
    assert completed["mcp_github_get_issue"].payload == {
        "content": [{"text": "Issue #42: parse('') returns None"}]
    }
    other = completed["save_memory"]
    assert other.kind == "save_memory"
    assert other.payload == {"content": "Okay, I've remembered that: \"parse('') returns []\""}


def test_tool_errors_a_policy_denial_and_a_failing_command() -> None:
    state = folded("tool-error-and-policy-denial.jsonl")
    assert calls_of(state) == [
        ("read", tools.ERROR, "/etc/hosts"),
        ("edit", tools.ERROR, "src/app.py"),
        ("shell", tools.REJECTED, "rm -rf build"),
        ("shell", tools.FAILED, "false"),
    ]
    read, edit, denied, failing = state.sessions[0].tool_calls
    assert read.summary == "File path must be within one of the workspace directories: /work/app"
    assert edit.summary == "Failed to edit, 0 occurrences found for old_string in src/app.py."
    assert denied.summary == "rejected: Tool execution denied by policy."
    assert failing.summary == "exit 1"
    completed = completed_payloads("tool-error-and-policy-denial.jsonl")
    assert completed["read_file"].payload["type"] == "invalid_tool_params"
    # The run itself went on and ended well.
    assert state.sessions[0].outcome.status == "success"


def test_an_error_result_is_a_failure_with_its_message() -> None:
    state = folded("error-result.jsonl")
    (session,) = state.sessions
    outcome = session.outcome
    assert outcome.status == "error"
    assert outcome.message == (
        "Reached max session turns for this session. Increase the number of turns "
        "by specifying maxSessionTurns in settings.json."
    )
    assert outcome.result == outcome.message  # what the status bar shows of an error
    assert outcome.duration_ms is None  # the CLI writes 0 when it stops on an error
    assert outcome.usage is not None and outcome.usage["outputTokens"] == 90
    (notice,) = state.notices
    assert isinstance(notice, ConnectionNotice)
    assert (notice.subtype, notice.detail) == ("error", "Maximum session turns exceeded")
    assert calls_of(state) == [("ls", tools.SUCCEEDED, ".")]


def test_a_stream_that_stops_mid_run_is_incomplete_with_its_call_interrupted() -> None:
    state = folded("stops-mid-answer.jsonl")
    (session,) = state.sessions
    assert session.outcome.status == "incomplete"
    assert calls_of(state) == [("shell", tools.INTERRUPTED, "go test ./repo-agent/...")]
    assert session.text.endswith("runs that consume tokens but ultimately fail.")


def test_noise_and_unknown_records_are_kept_and_counted() -> None:
    state = folded("drift-and-noise.jsonl")
    (session,) = state.sessions
    assert state.counts.malformed == 1
    assert state.counts.total == 9
    assert [(u.type, u.record.get("role")) for u in state.unknown] == [
        ("thought", None),
        ("message", "system"),
    ]
    assert session.init_extra == {"extensions": ["conductor"]}
    (orphan,) = session.tool_calls
    assert (orphan.kind, orphan.status) == ("unknown", tools.COMPLETED)
    assert session.text == "Hello!"
    (notice,) = state.notices
    assert "Loop detected" in str(notice)
    assert session.outcome.status == "success"


def test_detection_claims_geminis_records_and_its_result_only() -> None:
    """Cursor has a ``result`` too: Gemini's has a ``status`` and never a ``subtype``."""
    gemini_result = {"type": "result", "status": "success", "stats": {"total_tokens": 1}}
    assert decide(gemini_result) is by_name("gemini")
    assert decide(CURSOR_RESULT) is by_name("cursor")
    assert detect([CURSOR_RESULT]).name == "cursor"
    assert detect([{**CURSOR_RESULT, "status": "ok"}]).name == "cursor"
    for record in (
        {"type": "init", "timestamp": "t", "session_id": "s", "model": "auto"},
        {"type": "message", "role": "user", "content": "hi"},
        {"type": "tool_use", "tool_name": "glob", "tool_id": "t", "parameters": {}},
        {"type": "tool_result", "tool_id": "t", "status": "success"},
    ):
        assert decide(record) is by_name("gemini"), record
    # Cursor's and Claude Code's own records are not taken for Gemini's.
    assert decide({"type": "user", "message": {"content": "hi"}}) is by_name("cursor")
    assert decide({"type": "system", "subtype": "init", "tools": []}) is by_name("claude")


def test_every_fixture_is_detected_as_gemini_through_the_noise() -> None:
    for path in sorted(GEMINI.glob("*.jsonl")):
        assert fold([path.read_bytes()]).sessions[0].agent == "gemini", path.name


def test_odd_records_never_raise() -> None:
    translator = GeminiTranslator()
    odd: list[dict[str, Any]] = [
        {"type": "message"},
        {"type": "message", "role": "assistant", "content": 3},
        {"type": "tool_use", "parameters": "x"},
        {"type": "tool_result", "status": "error", "error": "boom"},
        {"type": "tool_result", "tool_id": 7},
        {"type": "result", "status": 1, "stats": {"duration_ms": "x", "models": []}},
        {"type": "result", "error": {"message": 5}},
        {"type": "error"},
        {"type": "init", "session_id": None, "timestamp": "yesterday"},
        {"type": 5},
        {},
    ]
    for number, record in enumerate(odd, 1):
        events = translate_line(translator, orjson.dumps(record), number)
        assert events and all(event.line == number for event in events)


def test_an_unknown_result_status_is_an_error_outcome_not_a_success() -> None:
    (event,) = GeminiTranslator().translate({"type": "result", "status": "aborted"}, 1, None)
    assert isinstance(event, RunResult) and event.is_error and event.subtype == "status aborted"


def test_assistant_messages_without_delta_are_whole_segments() -> None:
    (event,) = GeminiTranslator().translate(
        {"type": "message", "role": "assistant", "content": "All of it."}, 1, None
    )
    assert isinstance(event, AssistantMessage) and event.delta is False
    (event,) = GeminiTranslator().translate({"type": "future", "x": 1}, 2, None)
    assert isinstance(event, UnknownRecord) and event.type == "future"


def test_the_detail_view_re_reads_a_call_through_its_dialect() -> None:
    """A tool_result does not name its tool: the started line is read first."""
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in reader.feed(gemini("success-every-tool.jsonl")):
        state.apply(event)
    assert store.agent == "gemini"
    call = next(c for c in state.sessions[0].tool_calls if c.kind == "edit")
    reparse = CallReparser(by_name(store.agent), call.call_id)
    assert call.started_line is not None and call.completed_line is not None
    started = reparse(store.get(call.started_line) or b"", call.started_line)
    completed = reparse(store.get(call.completed_line) or b"", call.completed_line)
    assert started is not None and started.args is not None
    assert started.args["path"] == "src/parse.py"
    assert completed is not None and "+        return []" in completed.payload["diffString"]


def test_the_json_summary_names_the_agent_and_has_no_cost() -> None:
    summary = summarize(folded("real-shell-echo.jsonl"))
    (session,) = summary["sessions"]
    assert session["agent"] == "gemini"
    assert session["outcome"]["cost_usd"] is None
    assert session["outcome"]["num_turns"] is None
    assert session["outcome"]["usage_raw"]["totalTokens"] == 23632
