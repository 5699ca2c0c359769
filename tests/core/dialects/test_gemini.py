"""Gemini CLI (``gemini -p --output-format stream-json``) read fixture by fixture.

Shapes: ``packages/core/src/output/types.ts`` and ``stream-json-formatter.test.ts``
(google-gemini/gemini-cli); see tests/fixtures/dialects/gemini/SOURCES.md.
"""

from __future__ import annotations

from pathlib import Path

from streamview.core import tools
from streamview.core.dialects import detect
from streamview.core.reader import fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session
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
    assert session.outcome.usage == {
        "inputTokens": 58958,
        "outputTokens": 1208,
        "cacheReadTokens": 47022,
    }


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
