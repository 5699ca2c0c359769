"""Write a large, deterministic stream in one agent's dialect, for ``bench/run.py``.

Usage::

    python bench/dialect_streams.py --dialect claude --events 100000 --out /tmp/claude.ndjson

One generator per dialect that is not Cursor's: Claude Code, Codex, Gemini CLI (Cursor's
recordings come from ``bench/generate.py``). A Claude Code stream is ``system/init``,
then turns of partial-message text deltas (``stream_event``), the complete ``assistant``
text, a ``tool_use`` (Bash, Read, Edit, Grep in turn) and its ``tool_result`` with
Claude Code's ``tool_use_result``, ending with a ``result``. Lines are written as they
are made, so memory stays flat however large the file.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
from dialect_streams_a import GENERATORS_A

WORDS = [
    "the",
    "parser",
    "returns",
    "an",
    "empty",
    "list",
    "when",
    "input",
    "is",
    "blank",
    "and",
    "tests",
    "pass",
    "again",
]


def _claude(events: int, seed: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    sid = "bench-claude-0001"
    yield {
        "type": "system",
        "subtype": "init",
        "cwd": "/work/app",
        "session_id": sid,
        "tools": ["Bash", "Read", "Edit", "Grep"],
        "mcp_servers": [],
        "model": "claude-sonnet-4-5-20250929",
        "permissionMode": "acceptEdits",
        "apiKeySource": "none",
    }
    made = 1
    turn = 0
    while made < events - 1:
        turn += 1
        words = [rng.choice(WORDS) for _ in range(rng.randint(20, 60))]
        for word in words:
            yield {
                "type": "stream_event",
                "event": {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": word + " "},
                },
                "session_id": sid,
                "parent_tool_use_id": None,
            }
        text = " ".join(words) + " "
        yield {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
            "parent_tool_use_id": None,
            "session_id": sid,
        }
        call = f"toolu_{turn:08d}"
        name, tool_input, result, structured = _claude_tool(turn, rng)
        yield {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": call, "name": name, "input": tool_input}],
            },
            "parent_tool_use_id": None,
            "session_id": sid,
        }
        yield {
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call, "content": result}],
            },
            "parent_tool_use_id": None,
            "session_id": sid,
            "tool_use_result": structured,
        }
        made += len(words) + 3
    yield {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 600_000,
        "num_turns": turn,
        "result": "done",
        "session_id": sid,
        "total_cost_usd": 1.25,
        "usage": {"input_tokens": 1000, "output_tokens": 5000},
        "permission_denials": [],
    }


def _claude_tool(turn: int, rng: random.Random) -> tuple[str, dict[str, Any], str, Any]:
    body = "\n".join(
        f"line {n}: " + " ".join(rng.choice(WORDS) for _ in range(8))
        for n in range(rng.randint(5, 80))
    )
    kind = turn % 4
    if kind == 0:
        return (
            "Bash",
            {"command": "pytest -q"},
            body,
            {"stdout": body, "stderr": "", "interrupted": False},
        )
    if kind == 1:
        file = {
            "filePath": "/work/app/src/parse.py",
            "content": body,
            "numLines": body.count("\n") + 1,
            "startLine": 1,
            "totalLines": body.count("\n") + 1,
        }
        return "Read", {"file_path": "/work/app/src/parse.py"}, body, {"type": "text", "file": file}
    if kind == 2:
        edit = {
            "file_path": "/work/app/src/parse.py",
            "old_string": "return None",
            "new_string": "return []",
        }
        return (
            "Edit",
            edit,
            "The file has been updated.",
            {
                "structuredPatch": [
                    {
                        "oldStart": 4,
                        "oldLines": 1,
                        "newStart": 4,
                        "newLines": 1,
                        "lines": ["-return None", "+return []"],
                    }
                ]
            },
        )
    matches = "\n".join(f"/work/app/src/m{n}.py:{n}:def parse" for n in range(rng.randint(1, 30)))
    return "Grep", {"pattern": "def parse", "output_mode": "content"}, matches, {"mode": "content"}


def _body(rng: random.Random) -> str:
    return "\n".join(
        f"line {n}: " + " ".join(rng.choice(WORDS) for _ in range(8))
        for n in range(rng.randint(5, 80))
    )


def _codex(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``codex exec --json``: turns of reasoning, a command (started, completed), an
    occasional file change, and the agent's message; Codex streams no text deltas."""
    rng = random.Random(seed)
    yield {"type": "thread.started", "thread_id": "bench-codex-0001"}
    made, item = 1, 0
    while made < events - 2:
        yield {"type": "turn.started"}
        for _ in range(rng.randint(3, 12)):
            item += 1
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 40)))
            yield {
                "type": "item.completed",
                "item": {"id": f"item_{item}", "type": "reasoning", "text": words},
            }
            item += 1
            command = {
                "id": f"item_{item}",
                "type": "command_execution",
                "command": "bash -lc 'pytest -q'",
            }
            yield {
                "type": "item.started",
                "item": {
                    **command,
                    "aggregated_output": "",
                    "exit_code": None,
                    "status": "in_progress",
                },
            }
            yield {
                "type": "item.completed",
                "item": {
                    **command,
                    "aggregated_output": _body(rng),
                    "exit_code": rng.choice((0, 0, 1)),
                    "status": "completed",
                },
            }
            made += 3
            if rng.random() < 0.3:
                item += 1
                change = [{"path": "/work/app/src/parse.py", "kind": "update"}]
                yield {
                    "type": "item.completed",
                    "item": {
                        "id": f"item_{item}",
                        "type": "file_change",
                        "changes": change,
                        "status": "completed",
                    },
                }
                made += 1
        item += 1
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60)))
        yield {
            "type": "item.completed",
            "item": {"id": f"item_{item}", "type": "agent_message", "text": text},
        }
        yield {
            "type": "turn.completed",
            "usage": {"input_tokens": 20000, "cached_input_tokens": 15000, "output_tokens": 400},
        }
        made += 3


def _gemini(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``gemini -p --output-format stream-json``: assistant text in ``delta`` chunks, a
    tool_use and tool_result per turn (shell, read_file, replace, glob in turn)."""
    rng = random.Random(seed)
    stamp = "2026-11-20T10:00:00.000Z"
    yield {
        "type": "init",
        "timestamp": stamp,
        "session_id": "bench-gemini-0001",
        "model": "gemini-2.5-pro",
    }
    yield {"type": "message", "timestamp": stamp, "role": "user", "content": "Fix the parser"}
    made, turn = 2, 0
    tools = (
        ("run_shell_command", {"command": "pytest -q"}),
        ("read_file", {"absolute_path": "/work/app/src/parse.py"}),
        (
            "replace",
            {
                "file_path": "/work/app/src/parse.py",
                "old_string": "return None",
                "new_string": "return []",
            },
        ),
        ("glob", {"pattern": "tests/**/*.py"}),
    )
    while made < events - 1:
        turn += 1
        for _ in range(rng.randint(20, 60)):
            yield {
                "type": "message",
                "timestamp": stamp,
                "role": "assistant",
                "content": rng.choice(WORDS) + " ",
                "delta": True,
            }
            made += 1
        name, parameters = tools[turn % len(tools)]
        call = f"{name}-{turn}"
        yield {
            "type": "tool_use",
            "timestamp": stamp,
            "tool_name": name,
            "tool_id": call,
            "parameters": parameters,
        }
        output = _body(rng)
        if name == "run_shell_command":
            output = (
                f"Command: pytest -q\nDirectory: (root)\nOutput: {output}\n"
                "Error: (none)\nExit Code: 0\nSignal: (none)"
            )
        yield {
            "type": "tool_result",
            "timestamp": stamp,
            "tool_id": call,
            "status": "success",
            "output": output,
        }
        made += 2
    yield {
        "type": "result",
        "timestamp": stamp,
        "status": "success",
        "stats": {
            "total_tokens": 9000,
            "input_tokens": 8000,
            "output_tokens": 1000,
            "cached": 6000,
            "input": 2000,
            "duration_ms": 600000,
            "tool_calls": turn,
        },
    }


GENERATORS: dict[str, Callable[[int, int], Iterator[dict[str, Any]]]] = {
    "claude": _claude,
    "codex": _codex,
    "gemini": _gemini,
    **GENERATORS_A,
}
"""A stream generator per dialect name (Cursor's is ``bench/generate.py``)."""

from dialect_streams_b import MORE  # noqa: E402  (Qwen Code, Amp, Droid, Kimi CLI, pi)

GENERATORS.update(MORE)


def write(dialect: str, events: int, out: Path, seed: int = 1) -> None:
    """Write about ``events`` lines of ``dialect`` to ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as handle:
        for record in GENERATORS[dialect](events, seed):
            handle.write(orjson.dumps(record) + b"\n")


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dialect", required=True, choices=sorted(GENERATORS))
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    write(args.dialect, args.events, args.out, args.seed)


if __name__ == "__main__":
    main()
