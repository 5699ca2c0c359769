"""What the first (and last) records of a session file say about its run, in the shapes
each agent writes (``../shared/design/session-files.md``): its folder, its title or first
prompt, when it started, a running total of tokens. Not a dialect: the session is not
folded here, only these few fields are looked for, and a shape not known leaves them
unknown.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.codex_session import ide_request
from streamview.sources.codex_session_files import parent_of, payload_of


def records(data: bytes) -> Iterator[dict[str, Any]]:
    """The JSON objects of NDJSON bytes, or of one whole JSON document; bad lines skipped."""
    stripped = data.lstrip()
    if stripped.startswith(b"{") and b"\n" in stripped and not stripped[1:2].strip(b' "'):
        try:  # a pretty-printed document (Gemini's older chat file, opencode's session)
            whole = orjson.loads(data)
        except orjson.JSONDecodeError:
            whole = None
        if isinstance(whole, dict):
            yield whole
            return
    for line in data.splitlines():
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(record, dict):
            yield record


def _text(value: Any) -> str | None:
    """A prompt's text from a string or a list of content blocks."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for block in value:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                return str(block["text"])
    return None


def _first_prompt(record: dict[str, Any]) -> str | None:
    """The person's words in a session record, in the shapes the agents write."""
    payload = record.get("payload")
    if isinstance(payload, dict) and payload.get("type") == "user_message":
        text = _text(payload.get("message"))  # Codex's event message
        return None if text is None else ide_request(text)[0]
    if record.get("type") in ("user", "human") and not record.get("isMeta"):
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else record.get("content")
        text = _text(content)  # Claude, Gemini's JSONL
        if text is None or text.startswith(("<", "[Request interrupted by user")):
            return None  # a command's output, or Claude Code's own mark of an interrupt
        return text
    if record.get("role") == "user":
        message = record.get("message")
        return _text(message.get("content") if isinstance(message, dict) else None)  # Cursor
    messages = record.get("messages")
    if isinstance(messages, list):  # Gemini's older whole-file chat
        for message in messages:
            if isinstance(message, dict) and message.get("type") == "user":
                return _text(message.get("content"))
    return None


def _timestamp(value: Any) -> float | None:
    """Epoch seconds of an ISO-8601 string or epoch ms/s number, else ``None``."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return value / 1000 if value > 1e11 else float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    return None


@dataclass
class Head:
    """What the first records of a session file say about it."""

    project: str | None = None
    title: str | None = None
    prompt: str | None = None
    started: float | None = None
    parent: str | None = None
    """The session that spawned this one (a Codex thread's rollout, an opencode
    subagent's session): it is shown under the parent's call, not as a run of its own."""


def read_head(records: Iterable[dict[str, Any]]) -> Head:
    found = Head()
    for record in records:
        payload = record.get("payload")
        inner = payload if isinstance(payload, dict) else {}
        if found.project is None:
            cwd = record.get("cwd") or inner.get("cwd") or record.get("directory")
            found.project = cwd if isinstance(cwd, str) else None
        if found.started is None:
            times = record.get("time")
            created = times.get("created") if isinstance(times, dict) else None
            found.started = _timestamp(
                record.get("timestamp") or record.get("startTime") or created
            )
        meta = payload_of(record, "session_meta")
        if meta is not None and found.parent is None:
            found.parent = parent_of(meta)
        elif isinstance(record.get("parentID"), str) and str(record.get("id")).startswith("ses_"):
            found.parent = record["parentID"]  # an opencode subagent's session (1.0's files)
        if found.title is None:
            if record.get("type") == "summary" and isinstance(record.get("summary"), str):
                found.title = record["summary"]  # Claude's auto title
            elif isinstance(record.get("title"), str):
                found.title = record["title"]  # opencode's session
        if found.prompt is None:
            found.prompt = _first_prompt(record)
        if found.project and found.started and found.prompt:
            break
    return found


def cursor_project(path: Path) -> str | None:
    """The project folder's name Cursor gave a transcript (``projects/<name>/...``)."""
    parts = path.parts
    if "agent-transcripts" in parts:
        at = parts.index("agent-transcripts")
        return parts[at - 1] if at > 0 else None
    return None


def running_total_tokens(records: Iterable[dict[str, Any]]) -> int | None:
    """The last running total of a session's tokens among ``records``: Codex's
    ``event_msg`` ``token_count`` carries ``info.total_token_usage.total_tokens`` for
    the whole session so far, so the file's tail is enough."""
    total = None
    for record in records:
        payload = record.get("payload")
        if not isinstance(payload, dict) or payload.get("type") != "token_count":
            continue
        info = payload.get("info")
        usage = info.get("total_token_usage") if isinstance(info, dict) else None
        value = usage.get("total_tokens") if isinstance(usage, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            total = value
    return total
