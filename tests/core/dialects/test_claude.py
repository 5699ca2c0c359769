"""Claude Code's stream-json read into streamview's account of a run.

Fixtures: tests/fixtures/dialects/claude (SOURCES.md says where each shape was seen;
``real-agentic-org-task-018-head.jsonl`` is the head of a real run).
"""

from __future__ import annotations

from typing import Any

import orjson

from streamview.core import tools
from streamview.core.dialects import CallReparser, by_name, translate_line
from streamview.core.dialects.claude import ClaudeTranslator
from streamview.core.events import AgentNotice, AssistantMessage, ToolCallEvent, UnknownRecord
from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState
from streamview.core.summary import summarize

from .fixtures import claude


def folded(name: str) -> StreamState:
    return fold([claude(name)])


def calls_of(state: StreamState) -> list[tuple[str, str, str | None]]:
    """``(kind, status, target)`` of every call of the only session."""
    (session,) = state.sessions
    return [(call.kind, call.status, call.target) for call in session.tool_calls]


def test_a_successful_run_with_tools() -> None:
    state = folded("success-tools.jsonl")
    (session,) = state.sessions
    assert session.agent == "claude"
    assert session.model == "claude-sonnet-4-5-20250929"
    assert session.cwd == "/work/app"
    assert session.permission_mode == "acceptEdits"
    assert "mcp_servers" in session.init_extra and "tools" in session.init_extra
    assert calls_of(state) == [
        ("updateTodos", tools.SUCCEEDED, "2 todos"),
        ("shell", tools.FAILED, "python -m pytest -q tests/test_parse.py"),
        ("grep", tools.SUCCEEDED, "def parse"),
        ("read", tools.SUCCEEDED, "/work/app/src/parse.py"),
        ("edit", tools.SUCCEEDED, "/work/app/src/parse.py"),
        ("glob", tools.SUCCEEDED, "tests/**/*.py"),
        ("mcp", tools.SUCCEEDED, "github: get_issue"),
        ("shell", tools.SUCCEEDED, "python -m pytest -q tests/test_parse.py"),
    ]
    summaries = [call.summary for call in session.tool_calls]
    assert summaries[:6] == [
        "0/2 done",
        "exit 1, 3 lines",
        "2 matches in 1 file",
        "6 lines",
        "+1 -1",
        "2 files",
    ]
    assert session.tool_calls[1].description == "Run the parser tests"
    assert session.text == (
        "I'll look at the failing test first.\n\n"
        "Fixed: `parse('')` now returns `[]`, and both parser tests pass."
    )
    outcome = session.outcome
    assert outcome.status == "success"
    assert outcome.cost_usd == 0.1234567
    assert outcome.num_turns == 9
    assert outcome.duration_ms == 41230
    assert outcome.message is None


def test_each_kind_gets_the_payload_its_view_reads() -> None:
    """Read content without line numbers, a diff for the edit, stdout for the shell."""
    translator = ClaudeTranslator()
    completed: dict[str, ToolCallEvent] = {}
    for number, line in enumerate(claude("success-tools.jsonl").splitlines(), 1):
        for event in translate_line(translator, line, number):
            if isinstance(event, ToolCallEvent) and event.completed:
                completed[event.call_id] = event
    read = completed["toolu_01READ"].payload
    assert read["content"].startswith("import re\n\ndef parse(text):")
    assert read["totalLines"] == 6
    edit = completed["toolu_01EDIT"].payload
    assert "-        return None\n+        return []" in edit["diffString"]
    assert edit["diffString"].startswith(
        "--- a/work/app/src/parse.py\n+++ b/work/app/src/parse.py\n@@ -2,5 +2,5 @@\n \n def parse"
    )
    assert (
        edit["message"]
        == "The file /work/app/src/parse.py has been updated. Here's the result \
of running `cat -n` on a snippet of the edited file:"
    )
    assert (edit["linesAdded"], edit["linesRemoved"]) == (1, 1)
    shell = completed["toolu_01BASH"]
    assert shell.outcome == "success"
    assert shell.payload == {
        "exitCode": 1,
        "stdout": "F.\nFAILED tests/test_parse.py::test_empty - assert None == []\n"
        "1 failed, 1 passed in 0.02s",
    }
    assert completed["toolu_01BASH2"].payload["stdout"] == "..\n2 passed in 0.01s"
    grep = completed["toolu_01GREP"].payload["workspaceResults"]
    assert grep == [
        {
            "file": "/work/app/src/parse.py",
            "matches": [
                {"lineNumber": 3, "content": "def parse(text):"},
                {"lineNumber": 9, "content": "def parse_line(line):"},
            ],
        }
    ]
    todos = completed["toolu_01TODO"].payload["todos"]
    assert [todo["status"] for todo in todos] == ["in_progress", "pending"]
    mcp = completed["toolu_01MCP"]
    assert mcp.payload == {"content": [{"text": "Issue #42: parse('') returns None instead of []"}]}


def test_partial_messages_show_the_text_once_and_grow_it_live() -> None:
    data = claude("partial-messages.jsonl")
    reader = EventReader()
    state = StreamState()
    texts: list[str] = []
    for line in data.splitlines(keepends=True):
        for event in reader.feed(line):
            state.apply(event)
            if isinstance(event, AssistantMessage) and event.delta:
                texts.append(state.sessions[0].text)
    assert texts == [
        "Water finds its way",
        "Water finds its way\nstones remember every song",
        "Water finds its way\nstones remember every song\nthe sea keeps the rest",
    ]
    state.finish()
    (session,) = state.sessions
    assert session.text == "Water finds its way\nstones remember every song\nthe sea keeps the rest"
    assert session.thinking == "The user wants a haiku about rivers."
    assert not state.unknown
    assert state.counts.events == state.counts.total == 17


def test_a_refused_permission_is_rejected_once() -> None:
    state = folded("permission-denied.jsonl")
    (session,) = state.sessions
    (call,) = session.tool_calls
    assert (call.kind, call.status, call.target) == ("write", "rejected", "/work/app/NOTES.md")
    assert call.summary is not None
    assert call.summary.startswith("rejected: Claude requested permissions to write")
    assert session.outcome.status == "success"


def test_a_denial_only_the_result_lists_still_shows() -> None:
    record = {
        "type": "result",
        "subtype": "success",
        "permission_denials": [
            {"tool_name": "Bash", "tool_use_id": "toolu_X", "tool_input": {"command": "rm -rf /"}}
        ],
    }
    events = ClaudeTranslator().translate(record, 1, None)
    call = events[0]
    assert isinstance(call, ToolCallEvent) and call.outcome == "rejected"
    assert (call.kind, call.args) == ("shell", {"command": "rm -rf /"})


def test_max_turns_is_an_error_outcome() -> None:
    state = folded("max-turns.jsonl")
    outcome = state.sessions[0].outcome
    assert (outcome.status, outcome.subtype, outcome.num_turns) == ("error", "error_max_turns", 2)
    assert outcome.cost_usd == 0.00055


def test_an_error_during_execution_keeps_its_message_and_the_retry() -> None:
    state = folded("error-during-execution.jsonl")
    (session,) = state.sessions
    assert session.outcome.status == "error"
    assert session.outcome.message == "API Error: 529 overloaded_error"
    (notice,) = state.notices
    assert "api_retry" in str(notice) and "attempt=1" in str(notice)


def test_a_real_run_cut_mid_way() -> None:
    """The head of a real run: thinking, a read, a missing file, a sibling error."""
    state = folded("real-agentic-org-task-018-head.jsonl")
    (session,) = state.sessions
    assert session.agent == "claude" and session.model == "claude-sonnet-4-6"
    assert session.thinking == "Let me start by reading the required files before writing any code."
    assert [call.status for call in session.tool_calls] == ["succeeded", "error", "error"]
    assert session.tool_calls[0].summary == "25 lines"
    assert session.tool_calls[1].summary is not None
    assert session.tool_calls[1].summary.startswith("File does not exist.")
    assert session.outcome.status == "incomplete"
    assert state.counts.total == state.counts.events == 8


def test_a_subagents_calls_name_their_task() -> None:
    state = folded("subagent.jsonl")
    (session,) = state.sessions
    task, grep = session.tool_calls
    assert (task.kind, task.status, task.target) == ("task", "succeeded", "Find the parser")
    assert (grep.kind, grep.status, grep.parent_call_id) == ("grep", "succeeded", "toolu_01TASK")
    assert task.parent_call_id is None
    assert grep.summary == "1 file"
    # The subagent's narration is not the answer; its prompt is not the run's prompt.
    assert session.text == "The subagent found it: src/parse.py, line 4."
    assert "Empty input is handled" in session.thinking
    assert session.prompt is None
    # The subagent's task is its Task call's: a line of the event log, no second row.
    assert state.unknown == []
    (task_started,) = state.notices
    assert isinstance(task_started, AgentNotice) and task_started.topic == "task"
    assert "toolu_01TASK" in task_started.text and "Find the parser" in task_started.text


def test_noise_and_unknown_records_are_kept_and_counted() -> None:
    state = folded("noise-and-unknown.jsonl")
    assert len(state.sessions) == 1
    assert state.sessions[0].agent == "claude"
    assert state.counts.malformed == 1
    # A hook before the init and a rate-limit warning: Claude Code's own notices now.
    assert state.unknown == []
    assert [(n.type, n.subtype) for n in state.notices] == [  # type: ignore[attr-defined]
        ("system", "hook_started"),
        ("rate_limit_event", None),
    ]
    assert state.counts.total == 9
    assert state.sessions[0].outcome.status == "success"


def test_a_message_with_two_tool_uses_counts_as_one_line() -> None:
    record = {
        "type": "assistant",
        "message": {
            "content": [
                {"type": "text", "text": "Two at once."},
                {"type": "tool_use", "id": "a", "name": "Read", "input": {"file_path": "/x"}},
                {"type": "tool_use", "id": "b", "name": "LS", "input": {"path": "/"}},
                {"type": "image_of_the_future", "data": "…"},
            ]
        },
    }
    data = orjson.dumps({**record}) + b"\n"
    state = fold([orjson.dumps({"type": "system", "subtype": "init", "tools": []}) + b"\n" + data])
    assert state.counts.total == 2 and state.counts.events == 2
    assert [c.kind for c in state.sessions[0].tool_calls] == ["read", "ls"]
    assert [u.subtype for u in state.unknown] == ["image_of_the_future"]


def test_odd_records_never_raise() -> None:
    translator = ClaudeTranslator()
    odd: list[dict[str, Any]] = [
        {"type": "assistant"},
        {"type": "assistant", "message": {"content": [None, 3, {"type": "tool_use"}]}},
        {"type": "user", "message": {"content": [{"type": "tool_result"}]}},
        {"type": "user", "message": "x"},
        {"type": "stream_event", "event": {"type": "content_block_delta", "delta": None}},
        {"type": "result", "permission_denials": [None, {"tool_use_id": 3}], "errors": [1]},
        {"type": "result", "total_cost_usd": "free", "num_turns": True},
        {"type": 5},
        {},
    ]
    for number, record in enumerate(odd, 1):
        events = translate_line(translator, orjson.dumps(record), number)
        assert events and all(event.line == number for event in events)


def test_unknown_record_types_are_unknown_records() -> None:
    (event,) = ClaudeTranslator().translate({"type": "hologram", "x": 1}, 4, None)
    assert isinstance(event, UnknownRecord) and event.type == "hologram"


def test_the_detail_view_re_reads_a_call_through_its_dialect() -> None:
    """A tool_result line does not name its tool: the started line is read first."""
    data = claude("success-tools.jsonl")
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in reader.feed(data):
        state.apply(event)
    assert store.agent == "claude"
    call = next(c for c in state.sessions[0].tool_calls if c.call_id == "toolu_01EDIT")
    reparse = CallReparser(by_name(store.agent), call.call_id)
    assert call.started_line is not None and call.completed_line is not None
    started = reparse(store.get(call.started_line) or b"", call.started_line)
    completed = reparse(store.get(call.completed_line) or b"", call.completed_line)
    assert started is not None and started.args == {
        "path": "/work/app/src/parse.py",
        "old_string": "        return None",
        "new_string": "        return []",
    }
    assert completed is not None and "+        return []" in completed.payload["diffString"]
    assert (
        CallReparser(by_name(store.agent), "someone-else")(store.get(call.started_line) or b"", 1)
        is None
    )


def test_the_json_summary_names_the_agent_and_the_cost() -> None:
    summary = summarize(folded("success-tools.jsonl"))
    (session,) = summary["sessions"]
    assert session["agent"] == "claude"
    assert session["outcome"]["cost_usd"] == 0.1234567
    assert session["outcome"]["num_turns"] == 9
    assert session["outcome"]["message"] is None


def test_an_error_flag_on_a_success_subtype_is_an_error_with_its_text() -> None:
    """Seen in wrappers' tests of real runs: an expired token ends with subtype
    ``success`` but ``is_error: true`` and the reason in ``result``."""
    record = {
        "type": "result",
        "subtype": "success",
        "is_error": True,
        "terminal_reason": "api_error",
        "api_error_status": 403,
        "duration_ms": 4569000,
        "num_turns": 12,
        "result": "Failed to authenticate. API Error: 403 The security token is expired",
        "session_id": "abc",
    }
    state = StreamState()
    for event in ClaudeTranslator().translate(record, 1, None):
        state.apply(event)
    outcome = state.sessions[0].outcome
    assert (outcome.status, outcome.num_turns) == ("error", 12)
    assert outcome.message == "Failed to authenticate. API Error: 403 The security token is expired"
