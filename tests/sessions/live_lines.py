"""Session lines of three agents as they write them while a run goes on (the shapes of
``../shared/design/session-files.md``, as the real files in ``tests/fixtures/sessions``
have them), to append to a file the way the agent would."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
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


def codex_start(
    when: float, prompt: str = "add a metrics endpoint", cwd: str = "/srv/metrics"
) -> list[dict[str, Any]]:
    """A Codex session's first lines: its meta and the person's prompt."""
    meta = {"id": "02c4", "cwd": cwd, "originator": "codex-tui"}
    return [
        codex("session_meta", meta, when),
        codex("event_msg", {"type": "user_message", "message": prompt}, when),
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


class ThreeRuns:
    """A Claude, a Codex and a Gemini session going on at once under ``root``, in each
    agent's place (:meth:`env` points the agents there), plus an old Claude session
    that is not live; each step appends to the three files at once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.claude = Claude(cwd=f"{root}/home/work/till")
        projects = root / "claude-config" / "projects" / "-home-me-work-till"
        self.files = {
            "claude": projects / "7f3a.jsonl",
            "codex": root
            / "codex-home"
            / "sessions"
            / "2027"
            / "01"
            / "15"
            / "rollout-2027-01-16T09-00-00-02c4.jsonl",
            "gemini": root
            / "home"
            / ".gemini"
            / "tmp"
            / "cd34"
            / "chats"
            / "session-2027-01-16T09-00-9a1c.jsonl",
        }
        self.old = projects / "9e1d.jsonl"
        self._call: dict[str, Any] = {}

    def env(self) -> dict[str, str]:
        """The environment that points the agents at these files."""
        return {
            "HOME": str(self.root / "home"),
            "CLAUDE_CONFIG_DIR": str(self.root / "claude-config"),
            "CODEX_HOME": str(self.root / "codex-home"),
        }

    def _append(self, records: dict[str, list[dict[str, Any]]]) -> None:
        for agent, written in records.items():
            with self.files[agent].open("ab") as file:
                file.write(lines(*written))

    def start(self, now: float) -> None:
        """Each run's first lines: the person's prompt (and the old run, long over)."""
        for path in (*self.files.values(), self.old):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")
        old = Claude(cwd=f"{self.root}/home/blog")
        self.old.write_bytes(lines(old.prompt("rename the blog", now - 7200), old.turn_end(now)))
        os.utime(self.old, (now - 7200, now - 7200))
        self._append(
            {
                "claude": [self.claude.prompt("the till rounds wrong", now)],
                "codex": codex_start(now),
                "gemini": [gemini_header(now), gemini_prompt("explain the deploy", now)],
            }
        )

    def work(self, now: float) -> None:
        """Each run starts a call: Claude ``npm test``, Codex ``pytest -q``, Gemini a glob."""
        self._call = self.claude.call("Bash", {"command": "npm test"}, now)
        self._append(
            {
                "claude": [self._call],
                "codex": [codex_call("call_1", ["pytest", "-q"], now)],
                "gemini": [gemini_call("executing", now)],
            }
        )

    def need_you(self, now: float) -> None:
        """Claude asks the person a question; Codex and Gemini finish their turns."""
        ask = self.claude.call("AskUserQuestion", {"questions": [{"question": "Which?"}]}, now)
        self._append(
            {
                "claude": [self.claude.result(self._call, now), ask],
                "codex": [codex_output("call_1", now), codex_done(now)],
                "gemini": [gemini_call("success", now), gemini_reply("three targets", now)],
            }
        )

    def chatter(self, now: float) -> None:
        """Lines that change no run's phase (Codex's token count, Gemini's ``$set``)."""
        count = {"type": "token_count", "info": {"total_token_usage": {"total_tokens": 99}}}
        self._append({"codex": [codex("event_msg", count, now)], "gemini": [{"$set": {}}]})
