"""Qwen Code and Amp: Claude Code's records, told apart from Claude Code's own.

Fixtures: tests/fixtures/dialects/qwen and amp (see their SOURCES.md; ``real-*`` are
real runs). The claude fixtures must still read as Claude Code.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import orjson
import pytest

from streamview.core import tools
from streamview.core.dialects import decide, detect, qwen_tools
from streamview.core.model import ToolCall
from streamview.core.reader import fold
from streamview.core.state import ERROR, SUCCESS, Session, StreamState

from .fixtures import FIXTURES, fixture_files


def folded(agent: str, name: str) -> StreamState:
    return fold([(FIXTURES / agent / name).read_bytes()])


def only(agent: str, name: str) -> Session:
    (session,) = folded(agent, name).sessions
    return session


def records(path: Path) -> list[object]:
    found: list[object] = []
    for line in path.read_bytes().splitlines():
        try:
            found.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            found.append(None)
    return found


@pytest.mark.parametrize("path", fixture_files("claude"), ids=lambda p: p.name)
def test_every_claude_fixture_still_reads_as_claude(path: Path) -> None:
    assert detect(records(path)).name == "claude"
    assert {s.agent for s in fold([path.read_bytes()]).sessions} <= {"claude", None}


def test_inits_tell_the_three_apart() -> None:
    claude_init = {"type": "system", "subtype": "init", "session_id": "4b1e", "tools": [],
                   "mcp_servers": [], "model": "claude-sonnet-4-5", "permissionMode": "default",
                   "apiKeySource": "none"}  # fmt: skip
    qwen_init = {"type": "system", "subtype": "init", "session_id": "4b1e", "tools": [],
                 "mcp_servers": [], "model": "coder-model", "permission_mode": "yolo",
                 "qwen_code_version": "0.12.5"}  # fmt: skip
    amp_init = {"type": "system", "subtype": "init", "session_id": "T-019e47a8-5090-7538",
                "tools": ["Bash"], "mcp_servers": []}  # fmt: skip
    assert [detect([r]).name for r in (claude_init, qwen_init, amp_init)] == [
        "claude",
        "qwen",
        "amp",
    ]


def test_without_an_init_tools_and_thread_ids_decide() -> None:
    def tool_use(name: str, sid: str = "4b1e") -> dict[str, object]:
        block = {"type": "tool_use", "id": "t", "name": name, "input": {}}
        return {"type": "assistant", "session_id": sid, "message": {"content": [block]}}

    found = [decide(tool_use(n)) for n in ("run_shell_command", "edit_file", "Bash")]
    assert [d.name if d else None for d in found] == ["qwen", "amp", "claude"]
    amp_prompt = {"type": "user", "session_id": "T-019e47a8-5090-7538-9035",
                  "message": {"content": [{"type": "text", "text": "hi"}]}}  # fmt: skip
    amp = decide(amp_prompt)
    assert amp is not None and amp.name == "amp"


def test_a_real_qwen_read_in_plan_mode() -> None:
    session = only("qwen", "real-read-file-plan-mode.jsonl")
    assert (session.agent, session.model, session.permission_mode) == (
        "qwen",
        "Qwen3.8-27B-UD-Q8_K_XL",
        "plan",
    )
    (call,) = session.tool_calls
    assert (call.kind, call.status) == ("read", tools.SUCCEEDED)
    assert call.target is not None and call.target.endswith("probe-marker.txt")
    assert session.text == "MARKER-CONTENT-42"
    usage = session.outcome.usage or {}
    # Anthropic's snake_case usage read into the header's keys.
    assert (usage["inputTokens"], usage["cacheReadTokens"]) == (100761, 64602)
    assert session.outcome.cost_usd is None  # Qwen prints no cost


def test_qwen_tools_map_to_the_shared_kinds() -> None:
    session = only("qwen", "success-tools.jsonl")
    kinds = [(c.kind, c.status) for c in session.tool_calls if c.parent_call_id is None]
    assert [k for k, _ in kinds] == [
        "updateTodos", "shell", "grep", "read", "edit", "write", "glob", "ls",
        "webFetch", "webSearch", "task", "mcp", "shell",
    ]  # fmt: skip
    assert kinds[1][1] == tools.FAILED  # "Exit Code: 1" in the shell's display
    by_kind = {c.kind: c for c in session.tool_calls if c.parent_call_id is None}
    assert by_kind["edit"].summary == "+1 -1"
    assert by_kind["grep"].summary == "1 match in 1 file"
    assert by_kind["glob"].summary == "2 files"  # not counting the "Found 2 file(s)" line
    assert by_kind["mcp"].target == "github: get_issue"
    subagent = [c for c in session.tool_calls if c.parent_call_id is not None]
    assert [(c.kind, c.parent_call_id) for c in subagent] == [("grep", "call_task")]


def test_qwen_refusals_fallback_and_error_result() -> None:
    state = folded("qwen", "denial-fallback-error.jsonl")
    (session,) = state.sessions
    statuses = {c.call_id: c.status for c in session.tool_calls}
    assert statuses == {
        "call_1": tools.SUCCEEDED,
        "call_2": tools.REJECTED,  # its tool_result said so; the result's denial not again
        "call_3": tools.ERROR,
        "call_4": tools.REJECTED,  # only the result's permission_denials says it
    }
    assert session.outcome.status == ERROR and session.outcome.subtype == "error_max_turns"
    assert (session.outcome.message or "").startswith("Reached max session turns")
    (notice,) = state.notices
    assert (notice.subtype, notice.detail) == (  # type: ignore[attr-defined]
        "model_fallback",
        "qwen3-coder-plus → qwen3-coder-flash (HTTP 429)",
    )


def test_qwen_partial_messages_grow_the_text_and_skip_bookkeeping() -> None:
    state = folded("qwen", "partial-messages.jsonl")
    (session,) = state.sessions
    assert session.text == "The version is 1.4.2."
    assert state.counts.unknown == 0  # goal_state, tool_progress: read, not unknown


def test_a_real_amp_run_is_named_amp() -> None:
    session = only("amp", "real-what-is-2-plus-2.jsonl")
    assert (session.agent, session.session_id) == ("amp", "T-019e47a8-5090-7538-9035-f2fde26859b7")
    assert session.prompt == "What is 2+2? Answer in one number only."
    assert session.text == "4"
    assert session.outcome.status == SUCCESS and session.outcome.duration_ms == 2442
    # No usage in Amp's result: the assistant message's is summed.
    assert session.outcome.usage == {
        "inputTokens": 7,
        "outputTokens": 13,
        "cacheReadTokens": 14009,
        "cacheWriteTokens": 3,
    }


def test_amp_tools_map_to_the_shared_kinds() -> None:
    session = only("amp", "success-tools.jsonl")
    top = [c for c in session.tool_calls if c.parent_call_id is None]
    assert [c.kind for c in top] == [
        "updateTodos", "shell", "grep", "read", "edit", "write", "glob", "webSearch",
        "webFetch", "task", "task", "mcp", "shell",
    ]  # fmt: skip
    first, last = top[1], top[-1]
    assert (first.target, first.status, first.summary) == (
        "python -m pytest -q",
        tools.FAILED,
        "exit 1, 3 lines",
    )  # Amp's JSON result: output and exitCode
    assert last.status == tools.SUCCEEDED
    assert top[4].summary == "+1 -1" and top[6].target == "tests/**/*.py"


def test_an_amp_error_result_says_its_error() -> None:
    session = only("amp", "error-result.jsonl")
    assert [c.status for c in session.tool_calls] == [tools.REJECTED]
    assert session.outcome.status == ERROR
    assert session.outcome.message == (
        "Tool execution was denied and no --dangerously-allow-all was given"
    )


def test_records_claude_code_defines_are_notices_and_others_stay_unknown() -> None:
    """Qwen prints Claude Code's ``control_request`` and a ``system`` subtype of its own:
    read as Claude Code reads them (notices in the event log, never the answer); a
    record type nobody defines stays an unknown record."""
    state = folded("qwen", "noise-and-unknown.jsonl")
    assert [(n.type, n.subtype) for n in state.notices] == [  # type: ignore[attr-defined]
        ("control_request", None),
        ("system", "session_summary"),
    ]
    assert state.unknown == []
    assert state.sessions[0].text == "Hello!"
    init = (FIXTURES / "qwen" / "noise-and-unknown.jsonl").read_bytes().splitlines()[0]
    invented = b'{"type":"frobnicate","session_id":"s"}'
    other = fold([init + b"\n" + invented + b"\n"], agent="qwen")
    assert [(u.type, u.subtype) for u in other.unknown] == [("frobnicate", None)]


@pytest.mark.parametrize(
    "given",
    [
        {"file_path": "/w/a.py", "old_string": "a", "new_string": "b"},
        {"file_path": "/w/a.py", "old_string": "a\nb\nc", "new_string": "x\ny"},
        {"file_path": "/w/a.py", "old_string": "a\nb", "new_string": "a\nc"},
        {"file_path": "/w/a.py", "old_string": "", "new_string": "x"},
        {"file_path": "/w/a.py", "old_string": "a"},
        {"absolute_path": "/w/b.py", "old_string": "a", "new_string": 3},
        {"old_string": "p\nq", "new_string": "r"},
    ],
)
@pytest.mark.parametrize("name", ["edit", "replace"])
def test_a_qwen_edit_said_is_what_its_payload_says(name: str, given: dict[str, object]) -> None:
    """The fast path's count of an edit (``qwen_tools.success_said``) leaves the call
    as the built payload does, or declines and the payload is built."""
    args = qwen_tools.args_of(name, given)
    kind = qwen_tools.kind_of(name)
    payload = qwen_tools.success_payload(kind, args, "The file was updated.")
    said = qwen_tools.success_said(kind, args, "The file was updated.")
    if said is None:
        return
    by_said, by_payload = ToolCall(0, "c", kind), ToolCall(0, "c", kind)
    by_said.complete("success", said)
    by_payload.complete("success", payload)
    assert msgspec.structs.asdict(by_said) == msgspec.structs.asdict(by_payload)
    assert said.build() == payload


def test_a_qwen_edit_of_lines_in_common_is_built() -> None:
    given = {"file_path": "/w/a.py", "old_string": "a\nb", "new_string": "a\nc"}
    assert qwen_tools.success_said("edit", qwen_tools.args_of("edit", given), "") is None
    given = {"file_path": "/w/a.py", "old_string": "a", "new_string": "b"}
    assert qwen_tools.success_said("edit", qwen_tools.args_of("edit", given), "") is not None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        "ok\n",
        "a\r\nb\r\n\r\n",
        "é\u2028ü",
        "Exit Code: 1\n",
        "out\nExit Code: 2",
        "Command: ls\nDirectory: (root)\nOutput: a\nError: (none)\nExit Code: 0\n",
        "Command: false\nOutput: (empty)\nError: boom\nExit Code: 1",
    ],
)
def test_a_qwen_command_said_is_what_its_payload_says(text: str) -> None:
    """A command's plain output is summarised on the fast path and ends the call as
    its built payload does; a debug-mode display (an ``Exit Code:`` line after the
    first, its exit code and stderr in the payload) is built."""
    said = qwen_tools.success_said("shell", {"command": "ls"}, text)
    payload = qwen_tools.success_payload("shell", {"command": "ls"}, text)
    assert (said is None) == ("\nExit Code: " in text)
    if said is None:
        return
    by_said, by_payload = ToolCall(0, "c", "shell"), ToolCall(0, "c", "shell")
    by_said.complete("success", said)
    by_payload.complete("success", payload)
    assert msgspec.structs.asdict(by_said) == msgspec.structs.asdict(by_payload)
    assert said.build() == payload
