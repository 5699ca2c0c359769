"""A Gemini CLI session read whole with its subagents' sessions, each under the call
that started it.

As ``packages/core/src/services/chatRecordingService.ts`` of google-gemini/gemini-cli
writes them (since the JSONL files of spring 2026): a subagent records its own
conversation, in the session's format, with ``kind: "subagent"`` in its header and its
agent id as its ``sessionId``, in ``chats/<parent session id>/<agent id>.jsonl`` (the
folder and file names passed through ``sanitizeFilenamePart``: anything but letters,
digits, ``_`` and ``-`` becomes ``_``). The call that ran it (``invoke_agent``, and the
older per-agent tools) is recorded in the parent once it has ended, with the subagent's
id as the call's ``agentId`` (``recordCompletedToolCalls`` in ``geminiChat.ts``); older
records without it are linked in order, an agent call to the next subagent started.

The parent's message holding the call is handed on first with that call still running
(the fold takes records by id, last wins), then the subagent's records, each with the
call's id under ``parent_tool_use_id`` (the dialect reads them with a translator of
their own and nests what the subagent did under that call), then the message as it was
written, which ends the call. A session with no subagent is read as the file it is
(:func:`session_records` says ``None``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.sources.session_source import Records, gemini_jsonl_folded

AGENT_TOOLS = frozenset({"invoke_agent", "codebase_investigator", "generalist", "cli_help"})
"""Tools that run a subagent (``invoke_agent`` since 2026; earlier, one tool per agent)."""
HEAD_LIMIT = 1 << 16
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def load(line: bytes) -> Any:
    """A line decoded; ``None`` if it is no JSON."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def session_header(path: Path) -> dict[str, Any] | None:
    """A session file's header (its first record), if it is a Gemini CLI session's."""
    try:
        with open(path, "rb") as handle:
            record = load(handle.readline(HEAD_LIMIT))
    except OSError:
        return None
    if not isinstance(record, dict) or "type" in record:
        return None
    if not isinstance(record.get("sessionId"), str) or not isinstance(
        record.get("projectHash"), str
    ):
        return None
    return record


def subagent_folder(path: Path, session_id: str) -> Path:
    """Where the subagents of the session ``session_id`` (kept in ``path``) record."""
    return path.parent / _UNSAFE.sub("_", session_id)


def _subagents(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The subagent sessions in ``folder``, oldest first."""
    try:
        paths = sorted(folder.glob("*.jsonl"))
    except OSError:
        return []
    found = []
    for path in paths:
        header = session_header(path)
        if header is not None and header.get("kind") == "subagent":
            found.append((path, header))
    found.sort(key=lambda pair: str(pair[1].get("startTime") or ""))
    return found


def agent_calls(record: Any) -> list[dict[str, Any]]:
    """The calls of a ``gemini`` message that ran (or may have run) a subagent."""
    if not isinstance(record, dict) or record.get("type") != "gemini":
        return []
    calls = record.get("toolCalls")
    return [
        call
        for call in (calls if isinstance(calls, list) else [])
        if isinstance(call, dict)
        and isinstance(call.get("id"), str)
        and (isinstance(call.get("agentId"), str) or call.get("name") in AGENT_TOOLS)
    ]


def marked(path: Path, call: str) -> list[bytes]:
    """A subagent's records, each saying the call it works for."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    return mark_lines(data.splitlines(), call)


def mark_lines(lines: list[bytes], call: str) -> list[bytes]:
    """A subagent's ``lines``, each saying the ``call`` it works for."""
    out: list[bytes] = []
    for line in lines:
        record = load(line) if line.strip() else None
        if isinstance(record, dict):
            record[PARENT_KEY] = call
            out.append(orjson.dumps(record))
        elif line.strip():
            out.append(line)
    return out


def opened(record: dict[str, Any], calls: set[str]) -> bytes:
    """``record`` with the ``calls`` still running (``executing``, no result yet)."""
    copy = dict(record)
    copy["toolCalls"] = [
        {**call, "status": "executing", "result": None}
        if isinstance(call, dict) and call.get("id") in calls
        else call
        for call in record["toolCalls"]
    ]
    return orjson.dumps(copy)


def session_records(path: Path) -> Records | None:
    """A Gemini CLI JSONL session with its subagents' records fed in under the calls
    that ran them; ``None`` when it ran none that can be found."""
    header = session_header(path)
    if header is None or header.get("kind") == "subagent":
        return None
    agents = _subagents(subagent_folder(path, header["sessionId"]))
    if not agents:
        return None
    base = gemini_jsonl_folded(path)
    if base is None:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        base = [(str(n), line) for n, line in enumerate(data.splitlines()) if line.strip()]
    by_agent: dict[str, str] = {}
    in_order: list[str] = []
    first: dict[str, int] = {}
    records = [load(line) for _, line in base]
    for number, record in enumerate(records):
        for agent_call in agent_calls(record):
            first.setdefault(agent_call["id"], number)
            if isinstance(agent_call.get("agentId"), str):
                by_agent[agent_call["agentId"]] = agent_call["id"]
            elif agent_call["id"] not in in_order:
                in_order.append(agent_call["id"])
    in_order = [call for call in in_order if call not in by_agent.values()]
    fed: dict[int, list[tuple[str, str, Path]]] = {}
    for agent_path, agent_header in agents:
        call = by_agent.get(agent_header["sessionId"]) or (in_order.pop(0) if in_order else None)
        if call is not None:
            fed.setdefault(first[call], []).append((call, agent_path.name, agent_path))
    if not fed:
        return None
    out: Records = []
    for number, (key, line) in enumerate(base):
        here = fed.get(number, [])
        if here:
            out.append((f"{key}:open", opened(records[number], {c for c, _, _ in here})))
            for call, name, agent_path in here:
                out += [(f"{name}:{n}", part) for n, part in enumerate(marked(agent_path, call))]
        out.append((key, line))
    return out
