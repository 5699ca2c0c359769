"""Session lines of three agents as they write them while a run goes on (the shapes of
``../shared/design/session-files.md``, as the real files in ``tests/fixtures/sessions``
have them), to append to a file the way the agent would."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson


def stamp(seconds: float) -> str:
    """ISO-8601 UTC with milliseconds, as the agents write it."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def lines(*records: dict[str, Any]) -> bytes:
    """Records as NDJSON bytes."""
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


class Claude:
    """A Claude Code session's lines, each chained to the last by ``parentUuid``."""

    def __init__(self, cwd: str = "/home/me/work/shop") -> None:
        self.cwd = cwd
        self.last: str | None = None
        self.count = 0

    def _line(self, kind: str, when: float, **fields: Any) -> dict[str, Any]:
        self.count += 1
        uuid = f"u{self.count}"
        record = {
            "type": kind,
            "uuid": uuid,
            "parentUuid": self.last,
            "sessionId": "0b6c",
            "cwd": self.cwd,
            "timestamp": stamp(when),
            **fields,
        }
        self.last = uuid
        return record

    def prompt(self, text: str, when: float) -> dict[str, Any]:
        return self._line("user", when, message={"role": "user", "content": text})

    def call(self, name: str, args: dict[str, Any], when: float) -> dict[str, Any]:
        block = {"type": "tool_use", "id": f"toolu_{self.count}", "name": name, "input": args}
        message = {"id": f"msg_{self.count}", "role": "assistant", "content": [block]}
        return self._line("assistant", when, message=message)

    def result(self, call: dict[str, Any], when: float) -> dict[str, Any]:
        call_id = call["message"]["content"][0]["id"]
        block = {"type": "tool_result", "tool_use_id": call_id, "content": "ok"}
        return self._line("user", when, message={"role": "user", "content": [block]})

    def turn_end(self, when: float) -> dict[str, Any]:
        return self._line("system", when, subtype="turn_duration", durationMs=1000)


def codex(kind: str, payload: dict[str, Any], when: float) -> dict[str, Any]:
    """A Codex rollout line."""
    return {"timestamp": stamp(when), "type": kind, "payload": payload}


def codex_start(when: float) -> list[dict[str, Any]]:
    """A Codex session's first lines: its meta and the person's prompt."""
    return [
        codex("session_meta", {"id": "019b", "cwd": "/srv/api", "originator": "codex-tui"}, when),
        codex("event_msg", {"type": "user_message", "message": "add a health endpoint"}, when),
    ]


def codex_call(call_id: str, command: list[str], when: float) -> dict[str, Any]:
    arguments = orjson.dumps({"command": command}).decode()
    item = {"type": "function_call", "name": "shell", "arguments": arguments, "call_id": call_id}
    return codex("response_item", item, when)


def codex_output(call_id: str, when: float) -> dict[str, Any]:
    item = {"type": "function_call_output", "call_id": call_id, "output": "ok"}
    return codex("response_item", item, when)


def codex_done(when: float) -> dict[str, Any]:
    return codex("event_msg", {"type": "task_complete", "turn_id": "t1"}, when)


def gemini_header(when: float) -> dict[str, Any]:
    """A Gemini CLI JSONL session's first line."""
    return {
        "sessionId": "5b8f",
        "projectHash": "ab12",
        "startTime": stamp(when),
        "lastUpdated": stamp(when),
        "kind": "main",
    }


def gemini_prompt(text: str, when: float) -> dict[str, Any]:
    return {"id": "m1", "timestamp": stamp(when), "type": "user", "content": [{"text": text}]}


def gemini_call(status: str, when: float) -> dict[str, Any]:
    """The model's message ``g1`` with a ``glob`` call in ``status``, re-appended under
    the same id as the call goes on (``executing``, then ``success``)."""
    call = {"id": "glob-1", "name": "glob", "args": {"pattern": "**/*.py"}, "status": status}
    if status == "success":
        call["result"] = [{"functionResponse": {"id": "glob-1", "name": "glob"}}]
    return {
        "id": "g1",
        "timestamp": stamp(when),
        "type": "gemini",
        "content": "",
        "toolCalls": [call],
    }


def gemini_reply(text: str, when: float) -> dict[str, Any]:
    """The model's last message of a turn: an answer with its tokens and no call."""
    tokens = {"input": 10, "output": 5, "total": 15}
    return {
        "id": "g2",
        "timestamp": stamp(when),
        "type": "gemini",
        "content": text,
        "tokens": tokens,
    }
