"""OpenAI Codex's ``codex exec --json`` read into streamview's account of a run.

Fixtures: tests/fixtures/dialects/codex (SOURCES.md says where each shape was seen;
``real-codex-auto.jsonl`` and ``real-open-design-2268.jsonl`` are whole real runs). The
schema is ``codex-rs/exec/src/exec_events.rs`` in openai/codex.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core import tools
from streamview.core.dialects import CallReparser, by_name, decide, detect, translate_line
from streamview.core.dialects.codex import CodexTranslator
from streamview.core.dialects.codex_tools import script_of
from streamview.core.events import (
    AssistantMessage,
    ConnectionNotice,
    ThinkingDelta,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader, fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session, StreamState
from streamview.core.summary import summarize

from .fixtures import FIXTURES


def codex(name: str) -> bytes:
    """The bytes of one Codex fixture."""
    return (FIXTURES / "codex" / name).read_bytes()


def folded(name: str) -> StreamState:
    return fold([codex(name)])


def calls_of(state: StreamState) -> list[tuple[str, str, str | None]]:
    """``(kind, status, target)`` of every call of the only session."""
    (session,) = state.sessions
    return [(call.kind, call.status, call.target) for call in session.tool_calls]


def completed_events(name: str) -> dict[str, ToolCallEvent]:
    """Each call's completion event in a fixture, by call id."""
    translator = CodexTranslator()
    found: dict[str, ToolCallEvent] = {}
    for number, line in enumerate(codex(name).splitlines(), 1):
        if not line.strip():
            continue
        for event in translate_line(translator, line, number):
            if isinstance(event, ToolCallEvent) and event.completed:
                found[event.call_id] = event
    return found


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


def test_a_successful_run_with_tools() -> None:
    state = folded("every-kind.jsonl")
    (session,) = state.sessions
    assert session.agent == "codex"
    assert session.session_id == "0199e4a2-5b1c-7d30-9a6e-3f2d8c41b7aa"
    assert session.model is None  # codex exec --json does not say
    assert calls_of(state) == [
        ("updateTodos", tools.SUCCEEDED, "3 todos"),
        ("shell", tools.SUCCEEDED, 'rg -n "def parse" src'),
        ("edit", tools.SUCCEEDED, "/work/app/src/parse.py (+1 more)"),
        ("mcp", tools.SUCCEEDED, "github: get_issue"),
        ("webSearch", tools.SUCCEEDED, "python list empty string split"),
        ("shell", tools.SUCCEEDED, "python -m pytest -q"),
    ]
    assert [call.summary for call in session.tool_calls] == [
        "3/3 done",
        "exit 0, 2 lines",
        "1 updated, 1 added",
        "Issue #42: parse('') returns None instead of []",
        None,
        "exit 0, 2 lines",
    ]
    assert session.text == (
        "The parser returns `None` for empty input; I'll make it return `[]`.\n\n"
        "Fixed: `parse('')` now returns `[]`, with a new test; all 3 tests pass."
    )
    assert session.thinking == (
        "**Locating the parser**\n\nI need to find where `parse` is defined before changing it."
    )
    outcome = session.outcome
    assert (outcome.status, outcome.num_turns, outcome.message) == ("success", 1, None)
    assert outcome.usage is not None and outcome.usage["cacheReadTokens"] == 40192
    assert outcome.cost_usd is None
    assert not state.unknown and state.counts.total == state.counts.events == 18


def test_each_kind_gets_the_payload_its_view_reads() -> None:
    """Shell output and exit code, a diff header per changed file, MCP content, todos."""
    completed = completed_events("every-kind.jsonl")
    shell = completed["item_2"]
    assert shell.args == {
        "command": 'rg -n "def parse" src',
        "shellCommand": "/bin/bash -lc 'rg -n \"def parse\" src'",
    }
    assert shell.payload == {
        "exitCode": 0,
        "stdout": "src/parse.py:3:def parse(text):\nsrc/parse.py:9:def parse_line(line):\n",
    }
    edit = completed["item_4"]
    assert edit.args is not None and edit.args["changes"] == [
        {"path": "/work/app/src/parse.py", "kind": "update"},
        {"path": "/work/app/tests/test_empty.py", "kind": "add"},
    ]
    assert edit.payload["diffString"] == (
        "--- a/work/app/src/parse.py\n+++ b/work/app/src/parse.py\n"
        "--- /dev/null\n+++ b/work/app/tests/test_empty.py"
    )
    mcp = completed["item_5"]
    assert mcp.args == {
        "providerIdentifier": "github",
        "toolName": "get_issue",
        "args": {"owner": "acme", "repo": "app", "issue_number": 42},
    }
    assert mcp.payload == {
        "content": [{"type": "text", "text": "Issue #42: parse('') returns None instead of []"}]
    }
    web = completed["item_6"]
    assert web.args is not None and web.args["searchTerm"] == "python list empty string split"
    todos = completed["item_1"].payload["todos"]
    assert [(todo["content"], todo["status"]) for todo in todos] == [
        ("Find the parser", "completed"),
        ("Fix empty input", "completed"),
        ("Run the tests", "completed"),
    ]


def test_a_todo_list_updates_while_the_turn_runs() -> None:
    """``item.updated`` of a todo list brings the new list before the item completes."""
    reader = EventReader()
    state = StreamState()
    seen: list[list[str]] = []
    for line in codex("every-kind.jsonl").splitlines(keepends=True):
        for event in reader.feed(line):
            state.apply(event)
            if isinstance(event, ToolCallEvent) and event.call_id == "item_1":
                args = state.sessions[0].calls_by_id["item_1"].args or {}
                seen.append([todo["status"] for todo in args["todos"]])
    assert seen == [
        ["pending", "pending", "pending"],
        ["completed", "completed", "pending"],
        ["completed", "completed", "completed"],
    ]


def test_several_turns_of_a_resumed_thread_are_one_session() -> None:
    state = folded("resumed-thread.jsonl")
    (session,) = state.sessions
    assert session.session_id == "019a851a-0ee8-7920-829f-2a4c6e1d9b03"
    assert calls_of(state) == [
        ("edit", tools.SUCCEEDED, "/work/app/NOTES.md"),
        ("shell", tools.SUCCEEDED, "cat NOTES.md"),
        ("edit", tools.SUCCEEDED, "/work/app/NOTES.md"),
    ]
    assert [call.summary for call in session.tool_calls] == ["added", "exit 0, 1 line", "deleted"]
    assert session.text == "Created `NOTES.md`.\n\nRemoved `NOTES.md` again."
    outcome = session.outcome
    assert (outcome.status, outcome.num_turns) == ("success", 2)
    assert outcome.usage is not None and outcome.usage["inputTokens"] == 19874  # the last


def test_failing_declined_and_failed_items() -> None:
    state = folded("failing-command.jsonl")
    assert calls_of(state) == [
        ("shell", tools.FAILED, "python -m pytest -q"),
        ("shell", tools.REJECTED, "rm -rf build"),
        ("edit", tools.FAILED, "/work/app/src/parse.py"),
        ("mcp", tools.ERROR, "github: get_issue"),
    ]
    summaries = [call.summary for call in state.sessions[0].tool_calls]
    assert summaries == [
        "exit 1, 3 lines",
        "rejected: command declined",
        "patch failed: update /work/app/src/parse.py",
        "tool call error: Not Found",
    ]
    assert state.sessions[0].outcome.status == "success"  # the turn itself completed


def test_a_failed_turn_is_an_error_with_its_message_once() -> None:
    """Reconnects are retries; the fatal error and turn.failed say the same thing once."""
    data = codex("reconnects-then-failed.jsonl")
    state = folded("reconnects-then-failed.jsonl")
    (session,) = state.sessions
    message = (
        "stream disconnected before completion: An error occurred while processing your request."
    )
    assert (session.outcome.status, session.outcome.message) == ("error", message)
    assert session.outcome.num_turns == 1
    assert [(n.type, n.attempt) for n in state.notices if isinstance(n, ConnectionNotice)] == [
        ("retry", 1),
        ("retry", 2),
    ]
    translator = CodexTranslator()
    last = data.splitlines()[-1]
    for number, line in enumerate(data.splitlines()[:-1], 1):
        translate_line(translator, line, number)
    (event,) = translate_line(translator, last, 7)
    assert type(event).__name__ == "ThinkingCompleted"  # not a second outcome


def test_a_turn_failed_without_an_error_before_it_is_the_outcome() -> None:
    translator = CodexTranslator()
    state = StreamState()
    records: list[dict[str, Any]] = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.started"},
        {"type": "turn.failed", "error": {"message": "Quota exceeded. Check your plan."}},
    ]
    for number, record in enumerate(records, 1):
        for event in translate_line(translator, orjson.dumps(record), number):
            state.apply(event)
    outcome = state.sessions[0].outcome
    assert (outcome.status, outcome.subtype) == ("error", "turn_failed")
    assert outcome.message == "Quota exceeded. Check your plan."


def test_a_fatal_error_ends_the_run_and_an_error_item_is_a_notice() -> None:
    state = folded("error.jsonl")
    (session,) = state.sessions
    assert session.outcome.status == "error"
    assert session.outcome.message == (
        "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header"
    )
    (notice,) = state.notices
    assert isinstance(notice, ConnectionNotice) and notice.type == "error"
    assert notice.detail == "Skill descriptions were shortened to fit the context budget."


def test_a_stream_that_stops_mid_way_is_incomplete_with_the_call_interrupted() -> None:
    state = folded("stops-midway.jsonl")
    (session,) = state.sessions
    assert session.outcome.status == "incomplete"
    assert calls_of(state) == [("shell", tools.INTERRUPTED, "python -m pytest -q")]
    assert session.text == "Running the tests first."


def test_noise_and_unknown_records_are_kept_and_counted() -> None:
    state = folded("older-shapes-and-noise.jsonl")
    (session,) = state.sessions
    assert session.agent == "codex"
    assert state.counts.malformed == 1 and state.counts.blank == 1
    assert [(u.type, u.subtype) for u in state.unknown] == [("msg", "agent_message")]
    # An item type nobody maps is a call of its own kind, its fields shown raw.
    # The question asked is a call no answer completed: interrupted when the stream ends.
    assert calls_of(state) == [
        ("plan_update", tools.SUCCEEDED, "1. List files\n2. Count them"),
        ("askQuestion", tools.INTERRUPTED, "Which directory?"),
    ]
    assert session.tool_calls[0].summary is None
    assert session.text == "There are 3 files."
    assert session.outcome.usage is not None
    assert session.outcome.usage["reasoningTokens"] == 0
    assert session.outcome.usage["extra_field"] == 1  # a field nobody knows is kept
    assert state.counts.total == 10  # 11 lines, one blank


def test_the_early_item_type_spelling_is_read() -> None:
    """Builds of late September 2025: ``item_type`` and ``assistant_message``."""
    state = folded("early-item-type.jsonl")
    (session,) = state.sessions
    assert calls_of(state) == [("mcp", tools.SUCCEEDED, "github: search_issues")]
    assert session.text == "You have 2 assigned issues."
    assert session.thinking == "**Planning to list assigned GitHub issues**"
    assert not state.unknown


def test_message_and_reasoning_updates_grow_the_text_once() -> None:
    """``item.updated`` with the text so far shows only the new part; the completed
    message replaces what the updates built."""
    translator = CodexTranslator()
    state = StreamState()
    records: list[dict[str, Any]] = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.updated", "item": {"id": "r", "type": "reasoning", "text": "Let me"}},
        {"type": "item.updated", "item": {"id": "r", "type": "reasoning", "text": "Let me think"}},
        {
            "type": "item.completed",
            "item": {"id": "r", "type": "reasoning", "text": "Let me think"},
        },
        {"type": "item.updated", "item": {"id": "m", "type": "agent_message", "text": "Hel"}},
        {"type": "item.updated", "item": {"id": "m", "type": "agent_message", "text": "Hello"}},
        {"type": "item.completed", "item": {"id": "m", "type": "agent_message", "text": "Hello."}},
    ]
    kinds: list[str] = []
    for number, record in enumerate(records, 1):
        for event in translate_line(translator, orjson.dumps(record), number):
            state.apply(event)
            if isinstance(event, ThinkingDelta | AssistantMessage):
                kinds.append(f"{type(event).__name__}:{event.text}")
    assert kinds == [
        "ThinkingDelta:Let me",
        "ThinkingDelta: think",
        "AssistantMessage:Hel",
        "AssistantMessage:lo",
        "AssistantMessage:Hello.",
    ]
    assert state.sessions[0].thinking == "Let me think"
    assert state.sessions[0].text == "Hello."


@pytest.mark.parametrize(
    ("command", "script"),
    [
        ("/bin/zsh -lc 'rg --files | head -200'", "rg --files | head -200"),
        ('bash -lc "echo hi"', "echo hi"),
        ("ls -la", "ls -la"),
        ("bash -lc 'unterminated", "bash -lc 'unterminated"),
        ("python -c 'print(1)'", "python -c 'print(1)'"),
        ("bash -lc 'echo '\"'\"'hi'\"'\"''", "echo 'hi'"),  # quotes of its own: shlex
        ('bash -c "echo \\"x\\""', 'echo "x"'),
        ("/bin/bash -lc ''", "/bin/bash -lc ''"),
    ],
)
def test_the_shell_wrapper_is_taken_off_the_target(command: str, script: str) -> None:
    assert script_of(command) == script


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
