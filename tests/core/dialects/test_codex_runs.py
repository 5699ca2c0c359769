"""Codex runs written to show each shape of ``codex exec --json`` (fixtures in
tests/fixtures/dialects/codex): every item kind with the payload its view reads, turns of
a resumed thread, failed, declined and interrupted items, noise, the early spelling, text
that grows by updates, and the shell wrapper taken off a command."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core import tools
from streamview.core.dialects import translate_line
from streamview.core.dialects.codex import CodexTranslator
from streamview.core.dialects.codex_tools import script_of
from streamview.core.events import AssistantMessage, ConnectionNotice, ThinkingDelta, ToolCallEvent
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState

from .fixtures import codex


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
