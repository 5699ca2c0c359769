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


def payload_of(record: Any, kind: str) -> dict[str, Any] | None:
    """The ``payload`` of a rollout line of type ``kind``; ``None`` for another line."""
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


def rollout_head(path: Path) -> dict[str, Any] | None:
    """A rollout's ``session_meta`` payload, read from its first line alone."""
    return head_of(path)[1]


def head_of(path: Path) -> tuple[bool, dict[str, Any] | None]:
    """Whether a file's first line is written whole yet, and its ``session_meta``
    payload if it is a rollout's."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(HEAD_LIMIT)
    except OSError:
        return False, None
    return first.endswith(b"\n"), payload_of(_load(first), "session_meta")


def child_folders(path: Path) -> list[Path]:
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
    for folder in child_folders(path):
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
            meta = rollout_head(candidate)
            if meta is not None and parent_of(meta) == thread:
                found.append((candidate, meta))
    return found


class SpawnLinks:
    """The spawn calls of a rollout, learnt a line at a time, and what links each to
    the thread it started: its thread id, or its agent path."""

    def __init__(self) -> None:
        self.after: dict[str, int] = {}
        """A spawn call's id and the line after which its thread's lines go."""
        self.threads: dict[str, str] = {}
        self.paths: dict[str, str] = {}
        self.answered: set[str] = set()
        """Spawn calls whose output is written (nothing more will name their thread)."""

    def see(self, number: int, record: Any) -> None:
        """Learn from the rollout's line ``number`` (decoded)."""
        item = payload_of(record, "response_item")
        event = payload_of(record, "event_msg")
        if item is not None and item.get("type") == "function_call":
            call = item.get("call_id")
            if item.get("name") in SPAWN_TOOLS and isinstance(call, str):
                self.after[call] = number
                args = _load(item["arguments"]) if isinstance(item.get("arguments"), str) else None
                name = args.get("task_name") if isinstance(args, dict) else None
                if isinstance(name, str):
                    self.paths.setdefault(call, name if name.startswith("/") else f"/root/{name}")
        elif item is not None and item.get("type") == "function_call_output":
            call = item.get("call_id")
            if isinstance(call, str) and call in self.after:
                self.after[call] = number
                self.answered.add(call)
                said = item.get("output")
                out = _load(said) if isinstance(said, str) and said.startswith("{") else None
                if isinstance(out, dict) and isinstance(out.get("agent_id"), str):
                    self.threads[call] = out["agent_id"]
                if isinstance(out, dict) and isinstance(out.get("task_name"), str):
                    self.paths[call] = out["task_name"]
        elif event is not None and event.get("type") == "collab_agent_spawn_end":
            call, child = event.get("call_id"), event.get("new_thread_id")
            if isinstance(call, str) and isinstance(child, str):
                self.threads[call] = child
                self.after[call] = max(self.after.get(call, number), number)

    def call_for(self, meta: dict[str, Any], taken: set[str], settled: bool) -> str | None:
        """The spawn call that started the thread whose ``session_meta`` is ``meta``:
        named by its thread id or its agent path, else (in spawn order) the first call
        not ``taken`` that names no thread, once its output is written (or once the
        whole rollout is read: ``settled``)."""
        own, agent_path = meta.get("id"), meta.get("agent_path")
        for call, child in self.threads.items():
            if child == own:
                return call
        for call, name in self.paths.items():
            if name == agent_path:
                return call
        for call in self.after:
            if call in taken or call in self.threads or call in self.paths:
                continue
            if settled or call in self.answered:
                return call
        return None


def is_spawn_line(line: bytes) -> bool:
    """Whether a rollout line may say something of a spawn (read before decoding it)."""
    return (
        b"spawn_agent" in line
        or b"collab_agent_spawn_end" in line
        or (b"function_call_output" in line)
    )


def mark(lines: list[bytes], call: str) -> list[bytes]:
    """A child rollout's ``lines``, each saying the spawn ``call`` it works for."""
    out: list[bytes] = []
    for line in lines:
        if not line.strip():
            continue
        record = _load(line)
        if isinstance(record, dict):
            record[PARENT_KEY] = call
            out.append(orjson.dumps(record))
        else:
            out.append(line)
    return out


def _marked(path: Path, call: str) -> list[bytes]:
    """A child's rollout, each line saying the spawn call it works for."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    return mark(data.split(b"\n"), call)


def session_records(path: Path) -> Records | None:
    """A Codex rollout with the rollouts of the threads it spawned fed in, as lines;
    ``None`` when it spawned none that can be found (it is read as the file it is)."""
    if rollout_head(path) is None:  # not a rollout: not read whole
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
    meta = next((m for m in map(lambda r: payload_of(r, "session_meta"), records) if m), None)
    thread = meta.get("id") if meta is not None else None
    if not isinstance(thread, str):
        return None
    links = SpawnLinks()
    for number, record in enumerate(records):
        links.see(number, record)
    taken: set[str] = set()
    fed: dict[int, list[tuple[str, bytes]]] = {}
    for child, child_meta in _children(path, thread):
        call = links.call_for(child_meta, taken, settled=True)
        if call is None or call in taken:
            continue
        taken.add(call)
        for number, line in enumerate(_marked(child, call)):
            fed.setdefault(links.after[call], []).append((f"{child.name}:{number}", line))
    if not fed:
        return None
    out: Records = []
    for number, line in enumerate(lines):
        out.append((str(number), line))
        out.extend(fed.get(number, ()))
    return out
