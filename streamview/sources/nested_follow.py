"""A session file followed (``--follow``) with the files its subagents write beside it.

Codex's spawned threads, Cursor's subagents and Gemini CLI's subagents each keep a
file of their own, which appears and grows while the session is followed. The session
and each subagent's file are followed by their own
:class:`~streamview.sources.follow.FollowedFile` on a thread (torn last lines wait, a
rewritten session starts over); what each agent needs (where its subagents' files are,
how one is linked to the call that started it, how its lines are marked) is a
:class:`Nesting`, which hands on the session's lines and the subagents' lines marked
with their call, holding a subagent's lines until its call can be named.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

from streamview.core.framing import Restart
from streamview.sources.base import CHUNK_SIZE, POLL_SECONDS, Source, open_file
from streamview.sources.follow import FollowedFile

SCAN_SECONDS = 0.5
"""How often the subagents' folders are looked at for new files."""
MAIN = ""
"""The key of the session's own file among the followed ones."""


class Nesting(Protocol):
    """What is known of a followed session and its subagents so far."""

    def new_files(self) -> list[tuple[str, Path]]:
        """The subagents' files to follow from now on: a key and a path each."""

    def main(self, chunk: bytes) -> list[bytes]:
        """The session's new lines as they are handed on (learning its calls), each
        held subagent whose call a line names right after that line."""

    def agent(self, key: str, chunk: bytes) -> list[bytes]:
        """A subagent's new lines, marked if its call is known (else held)."""

    def linked(self) -> list[bytes]:
        """The held lines of subagents whose call is now known, marked."""

    def restarted(self) -> Nesting:
        """What is kept once the session's file was rewritten (read from its start)."""


class NestedFollowSource(Source):
    """A session file and its subagents' files, followed.

    Args:
        path: The session file.
        nesting: Makes the session's :class:`Nesting` (once per read).
        label: What the user knows it as (the path, by default).
    """

    follow = True
    live = True

    def __init__(
        self, path: Path, nesting: Callable[[], Nesting], label: str | None = None
    ) -> None:
        self._file = path
        self._nesting = nesting
        self.label = label or str(path)
        self._history = False

    @property
    def history(self) -> bool:
        """The chunk just yielded was in its file when the file was opened (its time
        is not known: see :attr:`Source.history`)."""
        return self._history

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """The session's lines and its subagents' (marked) as they are written."""
        open_file(self._file).close()  # a missing or unreadable session: said at once
        done = threading.Event()
        arrived: queue.Queue[tuple[str, bytes, bool]] = queue.Queue()

        def pump(key: str, path: Path, skip: int = 0) -> None:
            followed = FollowedFile(path, open_file, CHUNK_SIZE, POLL_SECONDS)
            try:
                for chunk in followed.chunks(done):
                    if skip and not isinstance(chunk, Restart):
                        cut, skip = min(skip, len(chunk)), skip - min(skip, len(chunk))
                        chunk = chunk[cut:]  # already read (whole lines: cut at a newline)
                        if not chunk:
                            continue
                    arrived.put((key, chunk, followed.history))
            except Exception:  # a subagent's file that vanished: its lines so far stay
                return

        state = self._nesting()
        for key, path in state.new_files():
            # What the subagents wrote before the session was opened is read first, so
            # that each comes in the session's order, right after the call naming it.
            written = _whole_lines(path)
            state.agent(key, written)
            threading.Thread(target=pump, args=(key, path, len(written)), daemon=True).start()
        threading.Thread(target=pump, args=(MAIN, self._file), daemon=True).start()
        scanned = time.monotonic()
        try:
            while not stop.is_set():
                if time.monotonic() - scanned >= SCAN_SECONDS:
                    scanned = time.monotonic()
                    for key, path in state.new_files():
                        threading.Thread(target=pump, args=(key, path), daemon=True).start()
                try:
                    key, chunk, history = arrived.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    continue
                if key == MAIN and isinstance(chunk, Restart):
                    state = state.restarted()
                    yield chunk
                    continue
                if isinstance(chunk, Restart):
                    continue  # a subagent's file rewritten: what was shown stays
                out = state.main(chunk) if key == MAIN else state.agent(key, chunk)
                out += state.linked()
                if out:
                    self._history = history
                    yield b"".join(line + b"\n" for line in out)
        finally:
            done.set()


def new_jsonl(folder: Path, seen: set[str]) -> list[tuple[str, Path]]:
    """The ``.jsonl`` files of ``folder`` not in ``seen`` (added to it now), by name:
    the subagents' files written since the last look."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    new = [name for name in names if name.endswith(".jsonl") and name not in seen]
    seen.update(new)
    return [(name, folder / name) for name in new]


def _whole_lines(path: Path) -> bytes:
    """The whole lines of ``path`` written so far (a torn last line waits)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return b""
    return data[: data.rfind(b"\n") + 1]
