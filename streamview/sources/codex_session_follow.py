"""A Codex rollout followed (``--follow``) with the rollouts of the threads it spawns,
as they are written.

A thread spawned by a ``spawn_agent`` call writes a rollout of its own in the sessions
tree, beside its parent's (:mod:`streamview.sources.codex_session_files` says how it
names its parent and how it is linked to its call). Followed, the parent is read as it
grows; its day's folder (and the next day's) is looked at for new rollouts, whose first
line says whether they are a thread of this one; each such rollout is followed by its
own file follower (:mod:`streamview.sources.nested_follow`), and its lines are handed
on as they are written, marked with the spawn call they work for. A
thread's lines written before its call can be named (the parent has not written the
call's output yet) are held until it can.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from streamview.sources.codex_session_files import (
    SpawnLinks,
    child_folders,
    head_of,
    is_spawn_line,
    mark,
    parent_of,
    payload_of,
    rollout_head,
)
from streamview.sources.nested_follow import NestedFollowSource


def source(path: Path, label: str | None = None) -> NestedFollowSource:
    """A Codex rollout and its spawned threads' rollouts, followed."""
    return NestedFollowSource(path, lambda: _Live(path, rollout_head(path)), label)


def _new_threads(path: Path, thread: str, looked: set[str]) -> list[tuple[Path, dict[str, Any]]]:
    """The rollouts not looked at yet whose ``session_meta`` names ``thread`` as their
    parent (a rollout whose first line is not written whole yet is looked at again)."""
    found: list[tuple[Path, dict[str, Any]]] = []
    for folder in child_folders(path):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if name in looked or not (name.startswith("rollout-") and name.endswith(".jsonl")):
                continue
            whole, meta = head_of(folder / name)
            if not whole:
                continue
            looked.add(name)
            if meta is not None and parent_of(meta) == thread:
                found.append((folder / name, meta))
    return found


class _Live:
    """What is known of the followed rollout so far, and the threads' lines held until
    their spawn call is known (a :class:`~streamview.sources.nested_follow.Nesting`).

    Args:
        path: The followed rollout.
        meta: Its ``session_meta`` payload, if its first line was read.
        metas: The threads found so far: their rollout's name and ``session_meta``.
    """

    def __init__(
        self,
        path: Path,
        meta: dict[str, Any] | None,
        metas: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.path = path
        own = meta.get("id") if meta is not None else None
        self.thread: str | None = own if isinstance(own, str) else None
        self.links = SpawnLinks()
        self.lines = 0
        self.metas: dict[str, dict[str, Any]] = metas if metas is not None else {}
        self.looked: set[str] = {path.name, *self.metas}
        """Rollouts whose first line was read (a thread of this one, or not)."""
        self.held: dict[str, list[bytes]] = {}
        """A thread's lines not handed on yet (its call not known yet)."""
        self.calls: dict[str, str] = {}
        """A thread's rollout and the spawn call it works for."""

    def new_files(self) -> list[tuple[str, Path]]:
        """The threads of this rollout whose rollout appeared since the last look."""
        if self.thread is None:
            return []
        found = _new_threads(self.path, self.thread, self.looked)
        for path, meta in found:
            self.metas[path.name] = meta
        return [(path.name, path) for path, _ in found]

    def restarted(self) -> _Live:
        """The rollout rewritten: its calls learnt again, the threads kept."""
        return _Live(self.path, None, self.metas)

    def main(self, chunk: bytes) -> list[bytes]:
        """The rollout's new lines, learning its spawn calls from them; a held thread
        whose call a line names comes right after that line."""
        out: list[bytes] = []
        for line in chunk.split(b"\n"):
            if not line.strip():
                continue
            if self.thread is None or is_spawn_line(line):
                try:
                    record = orjson.loads(line)
                except orjson.JSONDecodeError:
                    record = None
                meta = payload_of(record, "session_meta")
                if self.thread is None and meta is not None and isinstance(meta.get("id"), str):
                    self.thread = meta["id"]
                self.links.see(self.lines, record)
                self.lines += 1
                out.append(line)
                out += self.linked()  # a thread this line names: its lines after it
                continue
            self.lines += 1
            out.append(line)
        return out

    def agent(self, key: str, chunk: bytes) -> list[bytes]:
        """A thread's new lines: marked if its spawn call is known, else held."""
        lines = [line for line in chunk.split(b"\n") if line.strip()]
        call = self.calls.get(key)
        if call is None:
            self.held.setdefault(key, []).extend(lines)
            return []
        return mark(lines, call)

    def linked(self) -> list[bytes]:
        """The held lines of threads whose spawn call is now known."""
        out: list[bytes] = []
        for key, lines in list(self.held.items()):
            taken = set(self.calls.values())
            call = self.links.call_for(self.metas.get(key, {}), taken, settled=False)
            if call is None or call in taken:
                continue
            self.calls[key] = call
            del self.held[key]
            out.extend(mark(lines, call))
        return out
