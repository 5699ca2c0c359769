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

import glob
import re
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.sources.session_source import Records, gemini_jsonl_folded, gemini_records

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


def _legacy_header(path: Path) -> dict[str, Any] | None:
    """A legacy whole-file session's header (its object without ``messages``)."""
    records = gemini_records(path) if path.suffix == ".json" else None
    header = load(records[0][1]) if records else None
    return header if isinstance(header, dict) else None


def _beside(path: Path, session_id: str) -> list[tuple[Path, dict[str, Any]]]:
    """The subagents of a legacy session from before 2026-03-26: each kept its
    whole-file session beside its parent's (``session-<minute>-<id[:8]>.json``) under
    the parent's own ``sessionId``, with ``kind: "subagent"`` (``ChatRecordingService``
    took the session id from the config, the subagent's ``GeminiChat`` passed its kind)."""
    try:
        paths = sorted(path.parent.glob(f"session-*-{glob.escape(session_id[:8])}.json"))
    except OSError:
        return []
    found = []
    for other in paths:
        header = _legacy_header(other) if other != path else None
        if header and header.get("kind") == "subagent" and header.get("sessionId") == session_id:
            found.append((other, header))
    return found


def _subagents(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The subagent sessions in ``folder``, oldest first (JSONL files, and the legacy
    ``.json`` files the CLI wrote there from 2026-03-26 until its JSONL)."""
    try:
        paths = sorted([*folder.glob("*.jsonl"), *folder.glob("*.json")])
    except OSError:
        return []
    found = []
    for path in paths:
        header = session_header(path) if path.suffix == ".jsonl" else _legacy_header(path)
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
    if path.suffix == ".json":  # legacy: one object, handed on as its JSONL records
        return mark_lines([line for _, line in gemini_records(path) or []], call)
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
    that ran them; ``None`` when it ran none that can be found. A legacy whole-file
    ``.json`` session is read as its JSONL records (:func:`gemini_records`)."""
    legacy = gemini_records(path) if path.suffix == ".json" else None
    header = load(legacy[0][1]) if legacy else session_header(path)
    if not isinstance(header, dict) or header.get("kind") == "subagent":
        return None
    if not isinstance(header.get("sessionId"), str):
        return None
    agents = _subagents(subagent_folder(path, header["sessionId"]))
    if legacy:
        agents += _beside(path, header["sessionId"])
        agents.sort(key=lambda pair: str(pair[1].get("startTime") or ""))
    if not agents:
        return None
    base = legacy or gemini_jsonl_folded(path)
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
