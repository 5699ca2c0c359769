"""Large, deterministic streams of Qwen Code, Amp, Droid, Kimi CLI and pi, for ``bench/run.py``.

Merged into :data:`dialect_streams.GENERATORS`. Each run is turns of the agent's text
(streamed as deltas where the agent streams them: Qwen's partial messages, pi's
``message_update``), then one tool call and its result (shell, read, edit, grep in
turn), ending with the agent's final record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

WORDS = ["the", "parser", "returns", "an", "empty", "list", "when", "input", "is", "blank"]
TOOLS = ("shell", "read", "edit", "grep")


def _words(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40)))


def _body(rng: random.Random) -> str:
    return "\n".join(f"line {n}: {_words(rng)}" for n in range(rng.randint(5, 60)))


def _claude_like(
    names: dict[str, str], args: dict[str, dict[str, Any]], init: dict[str, Any], deltas: bool
) -> Callable[[int, int], Iterator[dict[str, Any]]]:
    """A generator of Claude Code's records with an agent's tool names and init."""

    def generate(events: int, seed: int) -> Iterator[dict[str, Any]]:
        rng = random.Random(seed)
        sid = init["session_id"]
        yield init
        made, turn = 1, 0
        while made < events - 1:
            turn += 1
            text = ""
            if deltas:
                for _ in range(rng.randint(10, 40)):
                    piece = rng.choice(WORDS) + " "
                    text += piece
                    yield {"type": "stream_event", "uuid": f"u{made}", "session_id": sid,
                           "parent_tool_use_id": None, "event": {"type": "content_block_delta",
                           "index": 0, "delta": {"type": "text_delta", "text": piece}}}  # fmt: skip
                    made += 1
            else:
                text = _words(rng)
            yield {"type": "assistant", "session_id": sid, "parent_tool_use_id": None,
                   "message": {"role": "assistant", "content": [{"type": "text", "text": text}],
                               "usage": {"input_tokens": 900, "output_tokens": 40}}}  # fmt: skip
            kind = TOOLS[turn % len(TOOLS)]
            call = f"call_{turn}"
            yield {"type": "assistant", "session_id": sid, "parent_tool_use_id": None,
                   "message": {"role": "assistant", "content": [{"type": "tool_use", "id": call,
                               "name": names[kind], "input": args[kind]}]}}  # fmt: skip
            yield {"type": "user", "session_id": sid, "parent_tool_use_id": None,
                   "message": {"role": "user", "content": [{"type": "tool_result",
                               "tool_use_id": call, "is_error": False,
                               "content": _body(rng)}]}}  # fmt: skip
            made += 3
        yield {"type": "result", "subtype": "success", "session_id": sid, "is_error": False,
               "duration_ms": 600000, "num_turns": turn, "result": "done",
               "usage": {"input_tokens": 9000, "output_tokens": 1000}}  # fmt: skip

    return generate


_EDIT = {"old_string": "return None", "new_string": "return []"}
_qwen = _claude_like(
    {"shell": "run_shell_command", "read": "read_file", "edit": "edit", "grep": "grep_search"},
    {"shell": {"command": "pytest -q"}, "read": {"file_path": "/work/app/src/parse.py"},
     "edit": {"file_path": "/work/app/src/parse.py", **_EDIT}, "grep": {"pattern": "def parse"}},
    {"type": "system", "subtype": "init", "uuid": "q", "session_id": "bench-qwen-0001",
     "cwd": "/work/app", "tools": [], "mcp_servers": [], "model": "qwen3-coder-plus",
     "permission_mode": "yolo", "qwen_code_version": "0.25.0"},
    deltas=True,
)  # fmt: skip
_amp = _claude_like(
    {"shell": "Bash", "read": "Read", "edit": "edit_file", "grep": "Grep"},
    {"shell": {"cmd": "pytest -q"}, "read": {"path": "/work/app/src/parse.py"},
     "edit": {"path": "/work/app/src/parse.py", "old_str": "return None", "new_str": "return []"},
     "grep": {"pattern": "def parse"}},
    {"type": "system", "subtype": "init", "cwd": "/work/app",
     "session_id": "T-019e0000-0000-7000-8000-000000000001", "tools": [], "mcp_servers": []},
    deltas=False,
)  # fmt: skip


def _droid(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``droid exec --output-format stream-json``: whole messages, calls and results."""
    rng = random.Random(seed)
    sid, ms = "bench-droid-0001", 1_770_000_000_000
    yield {"type": "system", "subtype": "init", "cwd": "/work/app", "session_id": sid,
           "tools": ["Execute"], "model": "claude-sonnet-4-5",
           "reasoning_effort": "low"}  # fmt: skip
    names = {"shell": "Execute", "read": "Read", "edit": "Edit", "grep": "Grep"}
    params = {"shell": {"command": "pytest -q"}, "read": {"file_path": "/work/app/src/parse.py"},
              "edit": {"file_path": "/work/app/src/parse.py", "old_str": "return None",
                       "new_str": "return []"}, "grep": {"pattern": "def parse"}}  # fmt: skip
    made, turn = 1, 0
    while made < events - 1:
        turn += 1
        ms += 500
        yield {"type": "message", "role": "assistant", "id": f"m{turn}", "text": _words(rng),
               "timestamp": ms, "session_id": sid}  # fmt: skip
        kind = TOOLS[turn % len(TOOLS)]
        yield {"type": "tool_call", "id": f"c{turn}", "messageId": f"m{turn}",
               "toolId": names[kind], "toolName": names[kind], "parameters": params[kind],
               "timestamp": ms + 10, "session_id": sid}  # fmt: skip
        yield {"type": "tool_result", "id": f"c{turn}", "messageId": f"m{turn}",
               "toolId": names[kind], "isError": False, "value": _body(rng),
               "timestamp": ms + 300, "session_id": sid}  # fmt: skip
        made += 3
    yield {"type": "completion", "finalText": "done", "numTurns": turn, "durationMs": 600000,
           "session_id": sid, "usage": {"input_tokens": 9000, "output_tokens": 1000}}  # fmt: skip


def _kimi(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``kimi --print --output-format stream-json``: assistant and tool messages."""
    rng = random.Random(seed)
    names = {"shell": "Shell", "read": "ReadFile", "edit": "StrReplaceFile", "grep": "Grep"}
    arguments = {
        "shell": '{"command": "pytest -q"}',
        "read": '{"path": "/work/app/src/parse.py"}',
        "edit": '{"path": "/work/app/src/parse.py", "edit": {"old": "a", "new": "b"}}',
        "grep": '{"pattern": "def parse", "path": "src"}',
    }
    made, turn = 0, 0
    while made < events:
        turn += 1
        kind = TOOLS[turn % len(TOOLS)]
        call = f"{names[kind]}:{turn}"
        yield {"role": "assistant", "content": [{"type": "text", "text": _words(rng)}],
               "tool_calls": [{"type": "function", "id": call, "function": {
                   "name": names[kind], "arguments": arguments[kind]}}]}  # fmt: skip
        yield {"role": "tool", "tool_call_id": call, "content": [
            {"type": "text", "text": "<system>Command executed successfully.</system>"},
            {"type": "text", "text": _body(rng)}]}  # fmt: skip
        made += 2


def _pi(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``pi --mode json``: text as ``message_update`` deltas, then a tool's execution."""
    rng = random.Random(seed)
    yield {"type": "session", "version": 3, "id": "bench-pi-0001", "cwd": "/work/app",
           "timestamp": "2026-02-02T10:00:00.000Z"}  # fmt: skip
    usage = {"input": 900, "output": 40, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 940,
             "cost": {"total": 0.001}}  # fmt: skip
    args = {"shell": {"command": "pytest -q"}, "read": {"path": "src/parse.py"},
            "edit": {"path": "src/parse.py", "oldText": "a", "newText": "b"},
            "grep": {"pattern": "def parse"}}  # fmt: skip
    names = {"shell": "bash", "read": "read", "edit": "edit", "grep": "grep"}
    made, turn = 1, 0
    while made < events - 1:
        turn += 1
        partial = {"role": "assistant", "content": [], "model": "claude-sonnet-4-5",
                   "provider": "anthropic", "usage": usage, "stopReason": "toolUse",
                   "timestamp": 1_770_000_000_000 + turn}  # fmt: skip
        text = ""
        for _ in range(rng.randint(10, 40)):
            piece = rng.choice(WORDS) + " "
            text += piece
            yield {"type": "message_update", "message": partial, "assistantMessageEvent": {
                "type": "text_delta", "contentIndex": 0, "delta": piece}}  # fmt: skip
            made += 1
        yield {"type": "message_end", "message": {**partial, "content": [
            {"type": "text", "text": text}]}}  # fmt: skip
        kind = TOOLS[turn % len(TOOLS)]
        yield {"type": "tool_execution_start", "toolCallId": f"t{turn}",
               "toolName": names[kind], "args": args[kind]}  # fmt: skip
        yield {"type": "tool_execution_end", "toolCallId": f"t{turn}", "toolName": names[kind],
               "result": {"content": [{"type": "text", "text": _body(rng)}]},
               "isError": False}  # fmt: skip
        made += 3
    yield {"type": "agent_end", "messages": []}


MORE: dict[str, Callable[[int, int], Iterator[dict[str, Any]]]] = {
    "qwen": _qwen,
    "amp": _amp,
    "droid": _droid,
    "kimi": _kimi,
    "pi": _pi,
}
"""A stream generator per dialect name, for the dialects of this module."""
