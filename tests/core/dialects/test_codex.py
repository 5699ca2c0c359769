"""OpenAI Codex's ``codex exec --json`` read into streamview's account of a run: the real
runs, detection, odd records, the detail's re-read and the summary (the runs written to
show each shape are in ``test_codex_runs.py``).

Fixtures: tests/fixtures/dialects/codex (SOURCES.md says where each shape was seen;
``real-codex-auto.jsonl`` and ``real-open-design-2268.jsonl`` are whole real runs). The
schema is ``codex-rs/exec/src/exec_events.rs`` in openai/codex.
"""

from __future__ import annotations

from typing import Any

import orjson

from streamview.core import tools
from streamview.core.dialects import CallReparser, by_name, decide, detect, translate_line
from streamview.core.dialects.codex import CodexTranslator
from streamview.core.events import UnknownRecord
from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader, fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session, StreamState
from streamview.core.summary import summarize

from .fixtures import codex


def folded(name: str) -> StreamState:
    return fold([codex(name)])


def session_of(name: str) -> Session:
    (session,) = fold([codex(name)]).sessions
    return session


def test_the_real_capture_reads_as_one_codex_session() -> None:
    session = session_of("real-codex-auto.jsonl")
    assert session.agent == "codex"
    assert session.session_id == "019c8299-88f5-7931-9430-48246b934214"
    assert "**Formatting final JSON output**" in session.thinking
    assert session.text.startswith('{"x":50,"y":20')
    (call,) = session.tool_calls
    # The zsh -lc wrapper is taken off the target (the full command is an argument).
    assert (call.kind, call.target, call.status) == ("shell", "date -Is", tools.SUCCEEDED)
    assert call.args is not None and call.args["shellCommand"] == "/usr/bin/zsh -lc 'date -Is'"
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
    assert edit.summary == "1 updated, 1 added"
    mcp = next(c for c in session.tool_calls if c.kind == "mcp")
    assert mcp.target == "github: get_issue"
    failing = next(c for c in session.tool_calls if c.status == tools.FAILED)
    assert failing.summary == "exit 1, 3 lines"
    assert failing.target == "python -m pytest -q tests/test_parse.py"
    assert session.text.startswith("Fixed: `parse('')` now returns `[]`")


def test_several_turns_in_one_thread_end_with_the_threads_usage() -> None:
    """``usage`` is the thread's running total: the last turn's is the run's."""
    session = session_of("multi-turn.jsonl")
    assert session.outcome.num_turns == 2
    assert session.outcome.usage == {
        "inputTokens": 1500,
        "outputTokens": 30,
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
    state = fold([codex("noise-and-unknown.jsonl")])
    assert state.counts.malformed == 1  # the CLI's own line before the stream
    # exec_events.rs prints both: a plan growing, and the model asking the user.
    assert state.unknown == []
    (session,) = state.sessions
    call, ask = session.tool_calls
    assert (call.kind, call.status, call.target) == ("frobnicate", tools.SUCCEEDED, "widgets")
    assert (ask.kind, ask.call_id, ask.target) == ("askQuestion", "call_9", "Continue?")
    assert session.text.startswith("1. Look")
    assert [n.text for n in state.notices] == ["asks for input: Continue?"]  # type: ignore[attr-defined]


def test_the_json_summary_names_codex_with_turns_and_no_cost() -> None:
    summary = summarize(fold([codex("success-tools.jsonl")]))
    session = summary["sessions"][0]
    assert session["agent"] == "codex"
    assert session["outcome"]["num_turns"] == 1
    assert session["outcome"]["cost_usd"] is None
    assert session["model"] is None  # Codex's stream never names it


def test_a_real_run_quoted_in_a_bug_report() -> None:
    """stderr's two lines are shown as bad lines; the run is Codex's, with its answer."""
    state = folded("real-open-design-2268.jsonl")
    (session,) = state.sessions
    assert session.agent == "codex"
    assert session.session_id == "019e49d4-05e3-7111-9bef-5f4f48c36e88"
    assert session.text == "Hello."
    assert session.outcome.status == "success"
    assert session.outcome.usage == {
        "inputTokens": 12632,
        "cacheReadTokens": 3456,
        "outputTokens": 81,
    }
    assert session.outcome.num_turns == 1
    assert state.counts.malformed == 2 and state.counts.events == 4


def test_detection() -> None:
    assert detect([{"type": "thread.started", "thread_id": "t"}]).name == "codex"
    assert detect([{"type": "turn.started"}]).name == "codex"
    item = {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": "x"}}
    noise: list[Any] = [None, {"no": "type"}, item]
    assert detect(noise).name == "codex"
    # A bare ``error`` or an ``item.*`` with no item decides nothing.
    assert decide({"type": "error", "message": "x"}) is None
    assert decide({"type": "item.completed"}) is None
    # Nor does Codex take Claude's or Cursor's records.
    assert decide({"type": "system", "subtype": "init", "tools": []}) is by_name("claude")


def test_odd_records_never_raise() -> None:
    translator = CodexTranslator()
    odd: list[Any] = [
        {"type": "thread.started"},
        {"type": "thread.started", "thread_id": 5},
        {"type": "turn.completed", "usage": "lots"},
        {"type": "turn.failed", "error": "boom"},
        {"type": "error"},
        {"type": "item.started", "item": {}},
        {"type": "item.completed", "item": {"type": "file_change", "changes": [None, {"x": 1}]}},
        {"type": "item.completed", "item": {"type": "command_execution", "exit_code": "1"}},
        {"type": "item.completed", "item": {"type": "mcp_tool_call", "error": "x", "result": 3}},
        {"type": "item.completed", "item": {"type": "todo_list", "items": [None, {"text": 3}]}},
        {"type": "item.completed", "item": {"type": "reasoning", "text": None}},
        {"type": "item.future", "item": {"id": "f", "type": "image_generation"}},
        {"type": "item.plan.delta", "item_id": "p", "delta": "1. "},
        {"type": "item.completed", "item": [1]},
        {"type": 5},
        {},
    ]
    for number, record in enumerate(odd, 1):
        events = translate_line(translator, orjson.dumps(record), number)
        assert events and all(event.line == number for event in events)


def test_unknown_record_types_are_unknown_records() -> None:
    (event,) = CodexTranslator().translate({"type": "thread.archived", "x": 1}, 4, None)
    assert isinstance(event, UnknownRecord) and event.type == "thread.archived"


def test_the_detail_view_re_reads_a_call_from_its_lines() -> None:
    data = codex("every-kind.jsonl")
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in reader.feed(data):
        state.apply(event)
    assert store.agent == "codex"
    call = state.sessions[0].calls_by_id["item_7"]
    reparse = CallReparser(by_name(store.agent), call.call_id)
    assert call.started_line is not None and call.completed_line is not None
    started = reparse(store.get(call.started_line) or b"", call.started_line)
    completed = reparse(store.get(call.completed_line) or b"", call.completed_line)
    assert started is not None and started.args is not None
    assert started.args["command"] == "python -m pytest -q"
    assert completed is not None and completed.payload["stdout"] == "...\n3 passed in 0.02s\n"


def test_the_json_summary_names_the_agent_and_the_turns() -> None:
    summary = summarize(folded("resumed-thread.jsonl"))
    (session,) = summary["sessions"]
    assert session["agent"] == "codex"
    assert session["outcome"]["num_turns"] == 2
    assert session["outcome"]["cost_usd"] is None


def test_codex_usage_reads_as_in_out_and_cache() -> None:
    from streamview.core.formatting import format_usage

    usage = folded("every-kind.jsonl").sessions[0].outcome.usage
    assert format_usage(usage) == "48,210 in · 1,203 out · 40,192 cache read"
