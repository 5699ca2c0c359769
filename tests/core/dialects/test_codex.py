"""OpenAI Codex (``codex exec --json``) read fixture by fixture.

Shapes: ``codex-rs/exec/src/exec_events.rs`` (openai/codex) and the real capture in
tests/fixtures/dialects/codex/real-codex-auto.jsonl; see that folder's SOURCES.md.
"""

from __future__ import annotations

from pathlib import Path

from streamview.core import tools
from streamview.core.dialects import detect
from streamview.core.reader import fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session
from streamview.core.summary import summarize

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "codex"


def session_of(name: str) -> Session:
    (session,) = fold([(FIXTURES / name).read_bytes()]).sessions
    return session


def test_the_real_capture_reads_as_one_codex_session() -> None:
    session = session_of("real-codex-auto.jsonl")
    assert session.agent == "codex"
    assert session.session_id == "019c8299-88f5-7931-9430-48246b934214"
    assert "**Formatting final JSON output**" in session.thinking
    assert session.text.startswith('{"x":50,"y":20')
    (call,) = session.tool_calls
    assert (call.kind, call.target, call.status) == (
        "shell",
        "/usr/bin/zsh -lc 'date -Is'",
        tools.SUCCEEDED,
    )
    assert call.summary == "exit 0, 1 line"
    assert session.outcome.status == SUCCESS
    assert session.outcome.usage == {
        "inputTokens": 20368,
        "outputTokens": 375,
        "cacheReadTokens": 16896,
    }
    assert session.outcome.num_turns == 1


def test_every_item_kind_becomes_a_call_of_the_shared_kinds() -> None:
    session = session_of("success-tools.jsonl")
    calls = {(c.kind, c.status) for c in session.tool_calls}
    assert calls == {
        ("updateTodos", tools.SUCCEEDED),
        ("shell", tools.FAILED),
        ("shell", tools.SUCCEEDED),
        ("mcp", tools.SUCCEEDED),
        ("webSearch", tools.SUCCEEDED),
        ("edit", tools.SUCCEEDED),
    }
    todos = next(c for c in session.tool_calls if c.kind == "updateTodos")
    assert todos.summary == "2/2 done"  # updated twice, then completed
    edit = next(c for c in session.tool_calls if c.kind == "edit")
    assert edit.target == "/work/app/src/parse.py (+1 more)"
    assert edit.summary == "update /work/app/src/parse.py, add /work/app/tests/test_empty.py"
    mcp = next(c for c in session.tool_calls if c.kind == "mcp")
    assert mcp.target == "github: get_issue"
    failing = next(c for c in session.tool_calls if c.status == tools.FAILED)
    assert failing.summary == "exit 1, 3 lines"
    assert session.text.startswith("Fixed: `parse('')` now returns `[]`")


def test_several_turns_in_one_thread_add_up() -> None:
    session = session_of("multi-turn.jsonl")
    assert session.outcome.num_turns == 2
    assert session.outcome.usage == {
        "inputTokens": 2500,
        "outputTokens": 50,
        "cacheReadTokens": 900,
    }
    assert "The parser lives in src/parse.py." in session.text
    assert "It is 12 lines long." in session.text


def test_a_failed_turn_is_an_error_with_its_message() -> None:
    session = session_of("turn-failed.jsonl")
    assert session.outcome.status == ERROR
    assert session.outcome.message is not None
    assert "Rate limit reached" in session.outcome.message
    shell, edit = session.tool_calls
    assert shell.status == tools.REJECTED  # declined by the approval policy
    assert edit.status == tools.FAILED
    assert edit.summary == "patch failed: delete /work/app/README.md"


def test_a_stream_that_stops_leaves_the_call_interrupted() -> None:
    session = session_of("stops-mid-run.jsonl")
    assert session.outcome.status == INCOMPLETE
    assert [c.status for c in session.tool_calls] == [tools.INTERRUPTED]


def test_unknown_items_and_records_are_kept_never_dropped() -> None:
    state = fold([(FIXTURES / "noise-and-unknown.jsonl").read_bytes()])
    assert state.counts.malformed == 1  # the CLI's own line before the stream
    assert {u.type for u in state.unknown} == {"item.plan.delta", "request_user_input"}
    (session,) = state.sessions
    (call,) = session.tool_calls
    assert (call.kind, call.status, call.target) == ("frobnicate", tools.SUCCEEDED, "widgets")


def test_the_json_summary_names_codex_with_turns_and_no_cost() -> None:
    summary = summarize(fold([(FIXTURES / "success-tools.jsonl").read_bytes()]))
    session = summary["sessions"][0]
    assert session["agent"] == "codex"
    assert session["outcome"]["num_turns"] == 1
    assert session["outcome"]["cost_usd"] is None
    assert session["model"] is None  # Codex's stream never names it


def test_detection_from_the_first_records() -> None:
    assert detect([{"type": "thread.started", "thread_id": "t"}]).name == "codex"
    assert detect([{"type": "turn.started"}]).name == "codex"
    item = {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": ""}}
    assert detect([item]).name == "codex"
    assert detect([{"type": "item.completed"}]).name != "codex"  # no item: not enough
