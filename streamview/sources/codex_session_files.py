"""A Codex rollout read whole with the rollouts of the threads it spawned, each under
the call that spawned it.

A Codex subagent is a thread of its own, with a rollout of its own in the sessions tree
(``rollout-<time>-<thread id>.jsonl``), whose ``session_meta`` names its parent
(``parent_thread_id``, or ``source.subagent.thread_spawn.parent_thread_id``). The
parent spawned it with a ``spawn_agent`` function call; the call is linked to the child
by the thread id (``collab_agent_spawn_end.new_thread_id`` with the call's ``call_id``,
or the call's output ``{"agent_id": ...}``), by the child's ``agent_path``
(0.15x: the output says ``{"task_name": "/root/echo_task"}``), or else in spawn order.
Each line of a child's rollout is handed on after the spawn call's output, with the
call's id under ``parent_tool_use_id``; the dialect reads it with a translator of its
own and nests what it did under that call. A rollout that spawned nothing is read as
the file it is (:func:`session_records` says ``None``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.sources.session_source import Records

SPAWN_TOOLS = ("spawn_agent",)
"""The function calls that start a thread."""
HEAD_LIMIT = 1 << 20
"""Bytes read of a rollout's first line (its ``session_meta`` holds the instructions)."""


def _load(line: bytes | str) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def _payload(record: Any, kind: str) -> dict[str, Any] | None:
    if isinstance(record, dict) and record.get("type") == kind:
        payload = record.get("payload")
        return payload if isinstance(payload, dict) else None
    return None


def parent_of(meta: dict[str, Any]) -> str | None:
    """The thread that spawned the one a ``session_meta`` payload starts, if any."""
    parent = meta.get("parent_thread_id")
    if isinstance(parent, str):
        return parent
    source = meta.get("source")
    spawn = source.get("subagent") if isinstance(source, dict) else None
    spawn = spawn.get("thread_spawn") if isinstance(spawn, dict) else None
    found = spawn.get("parent_thread_id") if isinstance(spawn, dict) else None
    return found if isinstance(found, str) else None


def _head(path: Path) -> dict[str, Any] | None:
    """A rollout's ``session_meta`` payload, read from its first line alone."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(HEAD_LIMIT)
    except OSError:
        return None
    return _payload(_load(first), "session_meta")


def _folders(path: Path) -> list[Path]:
    """Where a rollout's children are: its own day's folder, and the next day's (a
    thread spawned before midnight may start after it)."""
    folders = [path.parent]
    day, month, year = path.parent, path.parent.parent, path.parent.parent.parent
    try:
        days = sorted(os.listdir(month))
        if day.name in days and days.index(day.name) + 1 < len(days):
            folders.append(month / days[days.index(day.name) + 1])
        elif day.name in days:
            months = sorted(os.listdir(year))
            if month.name in months and months.index(month.name) + 1 < len(months):
                after = year / months[months.index(month.name) + 1]
                first = sorted(os.listdir(after))[:1]
                folders.extend(after / name for name in first)
    except OSError:
        pass
    return folders


def _children(path: Path, thread: str) -> list[tuple[Path, dict[str, Any]]]:
    """The rollouts whose ``session_meta`` names ``thread`` as their parent, oldest first."""
    found: list[tuple[Path, dict[str, Any]]] = []
    for folder in _folders(path):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if not (name.startswith("rollout-") and name.endswith(".jsonl")):
                continue
            candidate = folder / name
            if candidate == path:
                continue
            meta = _head(candidate)
            if meta is not None and parent_of(meta) == thread:
                found.append((candidate, meta))
    return found


def _spawns(records: list[Any]) -> tuple[dict[str, int], dict[str, str], dict[str, str]]:
    """The spawn calls (call id to the line after which their children go), and what
    links them to a child: its thread id, or its agent path."""
    after: dict[str, int] = {}
    threads: dict[str, str] = {}
    paths: dict[str, str] = {}
    for number, record in enumerate(records):
        item = _payload(record, "response_item")
        event = _payload(record, "event_msg")
        if item is not None and item.get("type") == "function_call":
            call = item.get("call_id")
            if item.get("name") in SPAWN_TOOLS and isinstance(call, str):
                after[call] = number
                args = _load(item["arguments"]) if isinstance(item.get("arguments"), str) else None
                name = args.get("task_name") if isinstance(args, dict) else None
                if isinstance(name, str):
                    paths.setdefault(call, name if name.startswith("/") else f"/root/{name}")
        elif item is not None and item.get("type") == "function_call_output":
            call = item.get("call_id")
            if isinstance(call, str) and call in after:
                after[call] = number
                said = item.get("output")
                out = _load(said) if isinstance(said, str) and said.startswith("{") else None
                if isinstance(out, dict) and isinstance(out.get("agent_id"), str):
                    threads[call] = out["agent_id"]
                if isinstance(out, dict) and isinstance(out.get("task_name"), str):
                    paths[call] = out["task_name"]
        elif event is not None and event.get("type") == "collab_agent_spawn_end":
            call, child = event.get("call_id"), event.get("new_thread_id")
            if isinstance(call, str) and isinstance(child, str):
                threads[call] = child
                after[call] = max(after.get(call, number), number)
    return after, threads, paths


def _marked(path: Path, call: str) -> list[bytes]:
    """A child's rollout, each line saying the spawn call it works for."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    out: list[bytes] = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        record = _load(line)
        if isinstance(record, dict):
            record[PARENT_KEY] = call
            out.append(orjson.dumps(record))
        else:
            out.append(line)
    return out


def session_records(path: Path) -> Records | None:
    """A Codex rollout with the rollouts of the threads it spawned fed in, as lines;
    ``None`` when it spawned none that can be found (it is read as the file it is)."""
    if _head(path) is None:  # not a rollout: not read whole
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b'"spawn_agent"' not in data and b'"collab_agent_spawn_end"' not in data:
        return None
    lines = data.split(b"\n")
    if lines and not lines[-1].strip():
        lines.pop()
    records = [_load(line) if line.strip() else None for line in lines]
    meta = next((m for m in map(lambda r: _payload(r, "session_meta"), records) if m), None)
    thread = meta.get("id") if meta is not None else None
    if not isinstance(thread, str):
        return None
    after, threads, paths = _spawns(records)
    by_thread = {child: call for call, child in threads.items()}
    by_path = {name: call for call, name in paths.items()}
    waiting = [call for call in after if call not in threads and call not in paths]
    fed: dict[int, list[tuple[str, bytes]]] = {}
    for child, child_meta in _children(path, thread):
        own = child_meta.get("id")
        call = by_thread.get(own) if isinstance(own, str) else None
        agent_path = child_meta.get("agent_path")
        if call is None and isinstance(agent_path, str):
            call = by_path.get(agent_path)
        if call is None and waiting:
            call = waiting.pop(0)
        if call is None:
            continue
        for number, line in enumerate(_marked(child, call)):
            fed.setdefault(after[call], []).append((f"{child.name}:{number}", line))
    if not fed:
        return None
    out: Records = []
    for number, line in enumerate(lines):
        out.append((str(number), line))
        out.extend(fed.get(number, ()))
    return out
