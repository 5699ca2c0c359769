"""Large, deterministic streams of opencode, Copilot CLI, Goose and Cline, for
``bench/run.py`` (through :data:`dialect_streams.GENERATORS`).

Each is turns of its agent's answer (as that agent prints it: whole text parts for
opencode, deltas for Copilot CLI, a chunk a message for Goose, growing partial
messages for Cline) and a tool call in turn (a command, a read, an edit, a search)
with its result, ending with the run's outcome. Kilo prints opencode's stream.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import orjson

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
TOOLS = ("shell", "read", "edit", "grep")


def _words(rng: random.Random) -> list[str]:
    return [rng.choice(WORDS) for _ in range(rng.randint(20, 60))]


def _opencode(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``opencode run --format json``: steps of a text part and a finished tool part."""
    rng = random.Random(seed)
    sid, ts, made, turn = "ses_bench0000000000000001", 1775000000000, 0, 0
    names = {"shell": "bash", "read": "read", "edit": "edit", "grep": "grep"}
    while made < events - 1:
        turn += 1
        ts += 1000
        part = {"sessionID": sid, "messageID": f"msg_{turn:08d}"}
        yield {
            "type": "step_start",
            "timestamp": ts,
            "sessionID": sid,
            "part": {**part, "type": "step-start"},
        }
        text = " ".join(_words(rng))
        yield {
            "type": "text",
            "timestamp": ts + 100,
            "sessionID": sid,
            "part": {**part, "type": "text", "text": text, "time": {"start": ts, "end": ts + 90}},
        }
        kind = TOOLS[turn % 4]
        inputs = {
            "shell": {"command": f"pytest -q tests/test_{turn}.py", "description": "Run a test"},
            "read": {"filePath": f"/work/app/src/m{turn}.py"},
            "edit": {
                "filePath": f"/work/app/src/m{turn}.py",
                "oldString": "a = 1",
                "newString": "a = 2",
            },
            "grep": {"pattern": f"def f{turn}", "include": "*.py"},
        }[kind]
        meta = {"exit": (turn % 5 == 0 and 1) or 0} if kind == "shell" else {}
        yield {
            "type": "tool_use",
            "timestamp": ts + 400,
            "sessionID": sid,
            "part": {
                **part,
                "type": "tool",
                "callID": f"call_{turn:08d}",
                "tool": names[kind],
                "state": {
                    "status": "completed",
                    "input": inputs,
                    "output": "\n".join(_words(rng)),
                    "title": kind,
                    "metadata": meta,
                    "time": {"start": ts + 200, "end": ts + 390},
                },
            },
        }
        yield {
            "type": "step_finish",
            "timestamp": ts + 500,
            "sessionID": sid,
            "part": {
                **part,
                "type": "step-finish",
                "reason": "tool-calls",
                "cost": 0.001,
                "tokens": {
                    "input": 900,
                    "output": 80,
                    "reasoning": 0,
                    "cache": {"read": 5000, "write": 0},
                },
            },
        }
        made += 4
    yield {
        "type": "step_finish",
        "timestamp": ts + 900,
        "sessionID": sid,
        "part": {
            "sessionID": sid,
            "messageID": "msg_last",
            "type": "step-finish",
            "reason": "stop",
            "cost": 0.001,
            "tokens": {"input": 10, "output": 5, "reasoning": 0, "cache": {"read": 0, "write": 0}},
        },
    }


def _copilot(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``copilot -p --output-format json``: deltas, the whole message, a tool call."""
    rng = random.Random(seed)
    made, turn = 2, 0

    def event(kind: str, data: dict[str, Any], n: int) -> dict[str, Any]:
        return {
            "type": kind,
            "data": data,
            "id": f"e-{n}",
            "timestamp": f"2026-08-03T09:{(n // 60) % 60:02d}:{n % 60:02d}.000Z",
            "parentId": None,
        }

    yield event(
        "session.start",
        {
            "sessionId": "bench-copilot-0001",
            "selectedModel": "gpt-5.4",
            "context": {"cwd": "/work/app"},
        },
        0,
    )
    yield event("user.message", {"content": "Fix the parser."}, 1)
    while made < events - 1:
        turn += 1
        words = _words(rng)
        for word in words:
            made += 1
            yield event(
                "assistant.message_delta",
                {"messageId": f"m-{turn}", "deltaContent": word + " "},
                made,
            )
        made += 3
        yield event(
            "assistant.message",
            {"messageId": f"m-{turn}", "content": " ".join(words) + " ", "model": "gpt-5.4"},
            made,
        )
        kind = TOOLS[turn % 4]
        name, args = {
            "shell": ("bash", {"command": f"pytest -q tests/test_{turn}.py"}),
            "read": ("view", {"path": f"/work/app/src/m{turn}.py"}),
            "edit": (
                "edit",
                {"path": f"/work/app/src/m{turn}.py", "old_str": "a = 1", "new_str": "a = 2"},
            ),
            "grep": ("grep", {"pattern": f"def f{turn}"}),
        }[kind]
        yield event(
            "tool.execution_start",
            {"toolCallId": f"c-{turn}", "toolName": name, "arguments": args},
            made,
        )
        yield event(
            "tool.execution_complete",
            {
                "toolCallId": f"c-{turn}",
                "success": True,
                "result": {"content": "\n".join(_words(rng)) + "\n<exited with exit code 0>"},
            },
            made,
        )
    yield {
        "type": "result",
        "timestamp": "2026-08-03T10:00:00.000Z",
        "sessionId": "bench-copilot-0001",
        "exitCode": 0,
        "usage": {"premiumRequests": 1, "totalApiDurationMs": 9000, "sessionDurationMs": 60000},
    }


def _goose(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``goose run --output-format stream-json``: text a chunk a message, a call, its response."""
    rng = random.Random(seed)
    made, turn, created = 0, 0, 1789600000
    meta = {
        "userVisible": True,
        "agentVisible": True,
        "inference": {"requestedModel": "claude-sonnet-4-5"},
    }
    while made < events - 1:
        turn += 1
        created += 1
        for word in _words(rng):
            made += 1
            yield {
                "type": "message",
                "message": {
                    "id": f"gen-{turn}",
                    "role": "assistant",
                    "created": created,
                    "content": [{"type": "text", "text": word + " "}],
                    "metadata": meta,
                },
            }
        kind = TOOLS[turn % 4]
        name, args = {
            "shell": ("developer__shell", {"command": f"pytest -q tests/test_{turn}.py"}),
            "read": (
                "developer__text_editor",
                {"command": "view", "path": f"/work/app/src/m{turn}.py"},
            ),
            "edit": (
                "developer__text_editor",
                {
                    "command": "str_replace",
                    "path": f"/work/app/src/m{turn}.py",
                    "old_str": "a = 1",
                    "new_str": "a = 2",
                },
            ),
            "grep": ("developer__grep", {"pattern": f"def f{turn}"}),
        }[kind]
        yield {
            "type": "message",
            "message": {
                "id": None,
                "role": "assistant",
                "created": created,
                "metadata": meta,
                "content": [
                    {
                        "type": "toolRequest",
                        "id": f"t-{turn}",
                        "toolCall": {
                            "status": "success",
                            "value": {"name": name, "arguments": args},
                        },
                    }
                ],
            },
        }
        yield {
            "type": "message",
            "message": {
                "id": None,
                "role": "user",
                "created": created + 1,
                "metadata": meta,
                "content": [
                    {
                        "type": "toolResponse",
                        "id": f"t-{turn}",
                        "toolResult": {
                            "status": "success",
                            "value": {
                                "content": [{"type": "text", "text": "\n".join(_words(rng))}],
                                "isError": False,
                            },
                        },
                    }
                ],
            },
        }
        made += 2
    yield {
        "type": "complete",
        "total_tokens": 100000,
        "input_tokens": 90000,
        "output_tokens": 10000,
    }


def _cline(events: int, seed: int) -> Iterator[dict[str, Any]]:
    """``cline --json``: a text growing as partial messages, a tool or a command."""
    rng = random.Random(seed)
    made, turn, ts = 2, 0, 1787000000000
    yield {"type": "task_started", "taskId": str(ts)}
    yield {"ts": ts, "type": "say", "say": "task", "text": "Fix the parser."}
    while made < events - 1:
        turn += 1
        ts += 1000
        text = ""
        for word in _words(rng):
            text += word + " "
            made += 1
            yield {"ts": ts, "type": "say", "say": "text", "text": text, "partial": True}
        made += 3
        yield {"ts": ts, "type": "say", "say": "text", "text": text, "partial": False}
        if turn % 2:
            yield {
                "ts": ts + 10,
                "type": "say",
                "say": "command",
                "text": f"pytest -q tests/test_{turn}.py",
            }
            yield {
                "ts": ts + 20,
                "type": "say",
                "say": "command_output",
                "text": "\n".join(_words(rng)),
            }
        else:
            yield {
                "ts": ts + 10,
                "type": "say",
                "say": "tool",
                "text": orjson.dumps(
                    {"tool": "readFile", "path": f"src/m{turn}.py", "content": f"/app/m{turn}.py"}
                ).decode(),
            }
            yield {
                "ts": ts + 20,
                "type": "say",
                "say": "api_req_started",
                "text": '{"tokensIn":900,"tokensOut":80,"cost":0.001}',
            }
    yield {"ts": ts + 900, "type": "say", "say": "completion_result", "text": "Done."}


GENERATORS_A = {
    "opencode": _opencode,
    "kilo": _opencode,
    "copilot": _copilot,
    "goose": _goose,
    "cline": _cline,
}
"""A stream generator per dialect name, merged into ``dialect_streams.GENERATORS``."""
