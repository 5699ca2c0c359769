"""Sessions the watch reads whole because their subagents write files of their own.

A subagent's work is not in its session's file: Claude Code writes it to
``<session>/subagents/agent-<id>.jsonl`` (2.0.x: ``agent-<id>.jsonl`` beside the
session), Codex to the rollout of a thread of its own whose ``session_meta`` names its
parent, Gemini CLI to ``<session id>/<agent id>.jsonl`` beside the session and Cursor to
``<id>/subagents/*.jsonl``. Read by offset, a session's own bytes never hold those calls.
So a session found with subagents' files is read whole, as ``export`` reads it (the
agent's ``session_records``: each subagent's lines fed in under the call that started
it), and folded: every span keeps the id it has in a read by offset (ids come from the
session and call ids), so the ledger's sent ids keep what went before the switch from
going twice, and a subagent's call gets its spawning call's span as parent.

Finding the subagents' files is cheap (a folder listed, first lines read, each cached);
the whole read is not, so a live session is read again only when its marker (the size
and time of its file and of each subagent's) moved, and no sooner than
:data:`PAUSE_FACTOR` times the last whole read's duration after it (a 200 MB session
read in 2 s is read at most every 20 s); once quiet, at once.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from streamview.core.otlp_spans import SpanRecord
from streamview.core.state import StreamState
from streamview.fronts.otlp.whole import folded
from streamview.runs.session_discovery import LIVE_SECONDS
from streamview.sources.session_source import Records

PAUSE_FACTOR = 10.0
"""A live session is read whole again no sooner than this many times its last whole
read's duration after that read."""
KNOWN_SIZE = 64 * 1024
"""A file this big whose head names no agent is not looked at again (a smaller one
may still be writing its first line)."""

Due = Callable[[StreamState, bool, int], list[SpanRecord]]
"""The watch's finished spans of a fold not sent yet: (fold, quiet, anchor ms)."""


@dataclass(frozen=True)
class NestedLook:
    """What a look at a session with subagents found."""

    spans: list[SpanRecord]
    """Its finished spans not sent yet."""
    taken: Callable[[], None] | None
    """Moves what the watch remembers once the backend took ``spans`` (``None``:
    nothing read this look, nothing to move)."""
    quiet: bool
    """Neither it nor a subagent's file changed within the live window."""


@dataclass
class _Read:
    marker: tuple[int, ...] = ()
    """The marker at the last look whose spans the backend took."""
    live: bool = True
    at: float = 0.0
    """When the last whole read started (monotonic seconds)."""
    took: float = 0.0
    """How long it took."""


class NestedSessions:
    """The sessions of the watch that have subagents' files, and their whole reads."""

    def __init__(self) -> None:
        self._kinds: dict[str, tuple[int, str, str]] = {}
        """Of each file: its inode, agent (``""``: none) and own id (Codex thread,
        Gemini CLI session)."""
        self._listings: dict[Path, tuple[int, list[str]]] = {}
        """A folder's names, as of its mtime."""
        self._owned: dict[tuple[Path, str], tuple[int, dict[str, str]]] = {}
        """Of each folder (and prefix of names): as of its listing's mtime, the session
        each file's first record names (``""``: none)."""
        self._reads: dict[str, _Read] = {}

    def look(self, path: Path, status: os.stat_result, live: bool, due: Due) -> NestedLook | None:
        """Read ``path`` whole with its subagents' lines if it has subagents' files;
        ``None`` when it has none (it is read by offset)."""
        found = self.subagent_files(path, status)
        if not found:
            return None
        marker = [status.st_size, status.st_mtime_ns]
        latest = status.st_mtime_ns
        for file in found:
            try:
                each = file.stat()
            except OSError:
                continue
            marker += [each.st_size, each.st_mtime_ns]
            latest = max(latest, each.st_mtime_ns)
        live = live or time.time() - latest / 1e9 < LIVE_SECONDS
        name = str(path)
        read = self._reads.setdefault(name, _Read())
        if read.marker == tuple(marker) and read.live == live:
            return NestedLook([], None, False)  # nothing new since the last look, nothing owed
        now = time.monotonic()
        if live and read.at and now < read.at + PAUSE_FACTOR * read.took:
            return NestedLook([], None, False)  # read again once a pause of its size passed
        records = _records(path, self._kinds[name][1])
        spans = due(folded(records), not live, latest // 1_000_000)
        read.at, read.took = now, time.monotonic() - now

        def taken() -> None:
            read.marker, read.live = tuple(marker), live

        return NestedLook(spans, taken, not live)

    def forget(self, path: Path) -> None:
        """Let a session that went quiet go from memory (read again if it changes)."""
        self._reads.pop(str(path), None)

    def subagent_files(self, path: Path, status: os.stat_result) -> list[Path]:
        """The files of the subagents of the session in ``path`` (cheap: heads and
        listings are cached)."""
        kind, own = self._kind(path, status)
        if kind == "claude":
            return self._claude(path)
        if kind == "codex":
            return self._codex(path, own)
        if kind == "gemini":
            from streamview.sources.gemini_session_files import subagent_folder

            return self._jsonl(subagent_folder(path, own))
        if kind == "cursor":
            return self._jsonl(path.parent / "subagents")
        return []

    def _kind(self, path: Path, status: os.stat_result) -> tuple[str, str]:
        name = str(path)
        known = self._kinds.get(name)
        if known is not None and known[0] == status.st_ino:
            return known[1], known[2]
        from streamview.sources import (
            claude_session_files,
            codex_session_files,
            cursor_session_files,
            gemini_session_files,
        )

        kind, own = "", ""
        if claude_session_files.is_session(path):
            kind = "claude"
        elif (meta := codex_session_files.rollout_head(path)) is not None:
            kind, own = ("codex", meta["id"]) if isinstance(meta.get("id"), str) else ("", "")
        elif cursor_session_files.is_transcript(path):
            kind = "cursor"
        elif (header := gemini_session_files.session_header(path)) is not None and (
            header.get("kind") != "subagent"
        ):
            kind, own = "gemini", str(header["sessionId"])
        if kind or status.st_size >= KNOWN_SIZE:
            self._kinds[name] = (status.st_ino, kind, own)
        return kind, own

    def _listing(self, folder: Path) -> list[str]:
        try:
            stamp = folder.stat().st_mtime_ns
        except OSError:
            return []
        known = self._listings.get(folder)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return []
        self._listings[folder] = (stamp, names)
        return names

    def _owners(
        self, folder: Path, prefix: str, owner: Callable[[Any], str | None]
    ) -> dict[str, str]:
        """Of each ``<prefix>*.jsonl`` in ``folder``: the session its first record says it
        works for (``owner`` of it), read once per file: as of the folder's listing, a
        file whose first line is not written whole yet read again at the next look."""
        names = [n for n in self._listing(folder) if n.startswith(prefix) and n.endswith(".jsonl")]
        stamp = self._listings.get(folder, (0, []))[0]
        known = self._owned.get((folder, prefix))
        if known is None or known[0] != stamp:
            old = known[1] if known is not None else {}
            known = (stamp, {name: old[name] for name in names if name in old})
            self._owned[(folder, prefix)] = known
        found = known[1]
        for name in names:
            if name not in found:
                head = _first_record(folder / name)
                if head is not _UNWRITTEN:
                    found[name] = owner(head) or ""
        return {name: who for name, who in found.items() if who}

    def _jsonl(self, folder: Path) -> list[Path]:
        return [folder / name for name in self._listing(folder) if name.endswith(".jsonl")]

    def _claude(self, path: Path) -> list[Path]:
        from streamview.sources.claude_session_files import COMPACTION_PREFIX

        folder = path.with_suffix("") / "subagents"
        found = [
            folder / name
            for name in self._listing(folder)
            if name.startswith("agent-")
            and name.endswith(".jsonl")
            and not name.startswith(COMPACTION_PREFIX)
        ]
        beside = self._owners(path.parent, "agent-", _session_id)  # 2.0.x
        found += [path.parent / name for name, who in beside.items() if who == path.stem]
        return found

    def _codex(self, path: Path, thread: str) -> list[Path]:
        from streamview.sources.codex_session_files import child_folders

        found = []
        for folder in child_folders(path):
            children = self._owners(folder, "rollout-", _parent_thread)
            found += [folder / n for n, who in children.items() if who == thread]
        return [each for each in found if each != path]


_UNWRITTEN = object()
"""A file's first line not written whole yet (or the file gone)."""


def _first_record(path: Path) -> Any:
    """A file's first line, decoded (``None``: no JSON); :data:`_UNWRITTEN` if it is not
    written whole yet."""
    from streamview.sources.codex_session_files import HEAD_LIMIT

    try:
        with open(path, "rb") as handle:
            first = handle.readline(HEAD_LIMIT)
    except OSError:
        return _UNWRITTEN
    if not first.endswith(b"\n"):
        return _UNWRITTEN
    try:
        return orjson.loads(first)
    except orjson.JSONDecodeError:
        return None


def _session_id(record: Any) -> str | None:
    """The session a Claude Code subagent's first record names."""
    found = record.get("sessionId") if isinstance(record, dict) else None
    return found if isinstance(found, str) else None


def _parent_thread(record: Any) -> str | None:
    """The thread that spawned the Codex thread whose rollout starts with ``record``."""
    from streamview.sources.codex_session_files import parent_of, payload_of

    meta = payload_of(record, "session_meta")
    return parent_of(meta) if meta is not None else None


def _records(path: Path, kind: str) -> Records:
    """The session read whole by its agent's reader (its own lines if that finds
    nothing to feed in)."""
    from streamview.sources import (
        claude_session_files,
        codex_session_files,
        cursor_session_files,
        gemini_session_files,
    )

    readers = {
        "claude": claude_session_files.session_records,
        "codex": codex_session_files.session_records,
        "cursor": cursor_session_files.session_records,
        "gemini": gemini_session_files.session_records,
    }
    records = readers[kind](path)
    if records is not None:
        return records
    try:
        data = path.read_bytes()
    except OSError:
        return []
    lines = data[: data.rfind(b"\n") + 1].splitlines()  # whole lines only
    return [(str(number), line) for number, line in enumerate(lines) if line.strip()]
