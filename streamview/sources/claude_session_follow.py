"""A Claude Code session followed (``--follow``) with its subagents' files as they grow.

Claude Code 2.1.x mirrors part of a subagent's work in the session as ``agent_progress``
lines; later releases write it only in the subagent's own file
(``<session>/subagents/agent-<id>.jsonl``), which grows beside the session while the
``Task``/``Agent`` call is open. Followed, the session is read as it grows (a rewind is
said where it comes, as the dialect says it), the ``subagents/`` folder is looked at
for new files, and each subagent's lines are handed on as they are written, marked with
the call that started it (:mod:`streamview.sources.claude_session_files` says how a
file is linked to its call). A subagent's lines written before its call can be named
are held until it can. Each file is followed by its own
:class:`~streamview.sources.follow.FollowedFile` (torn last lines wait, a rewritten
session starts over).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from streamview.core.framing import Restart
from streamview.sources.base import CHUNK_SIZE, POLL_SECONDS, Source, open_file
from streamview.sources.claude_session_files import (
    COMPACTION_PREFIX,
    SessionMap,
    call_of,
    find_links,
    marked,
    mirror_of_fed,
)
from streamview.sources.claude_session_scan import scan_line
from streamview.sources.follow import FollowedFile

SCAN_SECONDS = 0.5
"""How often the ``subagents/`` folder is looked at for new files."""
MAIN = ""
"""The key of the session's own file among the followed ones."""


class ClaudeFollowSource(Source):
    """A Claude Code session and its subagents' files, followed.

    Args:
        path: The session file.
        label: What the user knows it as (the path, by default).
    """

    follow = True
    live = True

    def __init__(self, path: Path, label: str | None = None) -> None:
        self._file = path
        self.label = label or str(path)

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """The session's lines and its subagents' (marked) as they are written."""
        open_file(self._file).close()  # a missing or unreadable session: said at once
        done = threading.Event()
        arrived: queue.Queue[tuple[str, bytes]] = queue.Queue()
        following: set[str] = set()

        def pump(key: str, path: Path) -> None:
            followed = FollowedFile(path, open_file, CHUNK_SIZE, POLL_SECONDS)
            try:
                for chunk in followed.chunks(done):
                    arrived.put((key, chunk))
            except Exception:  # a subagent's file that vanished: its lines so far stay
                return

        def start(key: str, path: Path) -> None:
            following.add(key)
            threading.Thread(target=pump, args=(key, path), daemon=True).start()

        start(MAIN, self._file)
        state = _Live()
        folder = self._file.with_suffix("") / "subagents"
        scanned = 0.0
        try:
            while not stop.is_set():
                if time.monotonic() - scanned >= SCAN_SECONDS:
                    scanned = time.monotonic()
                    for name in _agent_files(folder):
                        if name not in following:
                            start(name, folder / name)
                try:
                    key, chunk = arrived.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    continue
                if key == MAIN and isinstance(chunk, Restart):
                    state = _Live()
                    yield chunk
                    continue
                if isinstance(chunk, Restart):
                    continue  # a subagent's file rewritten: what was shown stays
                out = state.main(chunk) if key == MAIN else state.agent(key, chunk)
                out += state.linked()
                if out:
                    yield b"".join(line + b"\n" for line in out)
        finally:
            done.set()


def _agent_files(folder: Path) -> list[str]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [
        name
        for name in names
        if name.startswith("agent-")
        and name.endswith(".jsonl")
        and not name.startswith(COMPACTION_PREFIX)
    ]


class _Live:
    """What is known of the session so far, and the subagents' lines held until their
    call is known."""

    def __init__(self) -> None:
        self.session = SessionMap([], [])
        self.held: dict[str, list[bytes]] = {}
        """A subagent file's lines not handed on yet (its call not known yet)."""
        self.calls: dict[str, str] = {}
        """A subagent file and the call it works for."""

    def main(self, chunk: bytes) -> list[bytes]:
        """The session's new lines, learning its calls and subagents from them."""
        session = self.session
        before = len(session.records)
        fed = set(self.calls.values())
        out: list[bytes] = []
        for line in chunk.split(b"\n"):
            if not line.strip():
                continue
            record: Any = scan_line(line)
            session.lines.append(line)
            session.records.append(record)
            if mirror_of_fed(record, fed):
                continue  # the subagent's own file is handed on
            out.append(line)
        find_links(session, before)
        return out

    def agent(self, key: str, chunk: bytes) -> list[bytes]:
        """A subagent's new lines: marked if its call is known, else held."""
        lines = [line for line in chunk.split(b"\n") if line.strip()]
        call = self.calls.get(key)
        if call is None:
            self.held.setdefault(key, []).extend(lines)
            return []
        return marked(lines, call)

    def linked(self) -> list[bytes]:
        """The held lines of subagents whose call is now known."""
        out: list[bytes] = []
        for key, lines in list(self.held.items()):
            agent = key[len("agent-") : -len(".jsonl")]
            call = call_of(self.session, agent, lines, set(self.calls.values()))
            if call is None:
                continue
            self.calls[key] = call
            del self.held[key]
            out.extend(marked(lines, call))
        return out
