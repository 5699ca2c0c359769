"""``--follow``: read a file as it grows, and notice when it is truncated or replaced.

Like ``tail -F`` and lnav, a followed file is known by three things: its identity
(device and inode), its size, and a fingerprint of its bytes (the first
:data:`FINGERPRINT_BYTES`, and the last ones read before the current offset). Each poll
compares them with the file at the path:

* the same inode, smaller, or with other bytes where it was already read (``cp
  new.ndjson followed.ndjson``, faster than a poll, keeps the inode and may even keep
  the size): *truncated*, read again from its start;
* another inode at the path (a rename, log rotation, an editor's save): *replaced*.
  The old file is read on to its end while its writer still appends (``tail -F`` stops
  at the end it saw and loses those lines); once it has been quiet for
  :data:`RENAMED_QUIET_SECONDS`, the new file is read from its start;
* no file at the path: the old one is read on, and the path is watched.

Only whole lines are handed on while following (an unfinished last line waits for its
newline), so a file rewritten under the reader never produces a torn line: what was
unfinished is dropped and said so. Before a restart, a
:class:`~streamview.core.framing.Restart` chunk tells the reader to start over.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from streamview.core.framing import Restart, describe_size

FINGERPRINT_BYTES = 4096
"""Bytes compared at the file's start and before the read offset."""
RENAMED_QUIET_SECONDS = 1.0
"""How long a renamed-away file must stay unchanged before the new file at the path is
read (its writer may still be appending to it)."""
HOLD_LIMIT = 1 << 20
"""An unfinished line longer than this is handed on anyway (the framer caps lines)."""


def _identity(status: os.stat_result) -> tuple[int, int]:
    return status.st_dev, status.st_ino


class FollowedFile:
    """The reading state of one followed path.

    Args:
        path: The file.
        open_file: Opens it (turns OS errors into one-line input errors).
        chunk_size: Bytes read at once.
        poll: Seconds between two looks at an idle file.
        quiet: :data:`RENAMED_QUIET_SECONDS`.
    """

    def __init__(
        self,
        path: Path,
        open_file: Callable[[Path], BinaryIO],
        chunk_size: int,
        poll: float,
        quiet: float = RENAMED_QUIET_SECONDS,
    ) -> None:
        self.path = path
        self._open = open_file
        self.chunk_size = chunk_size
        self.poll = poll
        self.quiet = quiet
        self.truncations = 0
        """Times the file was truncated or rewritten in place."""
        self.replacements = 0
        """Times another file took its place."""
        self.history = False
        """The chunk just handed on was in the file when it was opened (or read again
        from its start): it was written before, at a time no one knows."""
        self._backlog = 0

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Whole lines as they are written, a :class:`Restart` before each new start."""
        handle = self._reopen(None)
        try:
            yield from self._follow(handle, stop)
        finally:
            self._handle.close()

    def _reopen(self, old: BinaryIO | None) -> BinaryIO:
        if old is not None:
            old.close()
        handle = self._open(self.path)
        self._handle = handle
        self._stat = os.fstat(handle.fileno())
        self._regular = stat.S_ISREG(self._stat.st_mode)
        """Only a regular file can be compared with what was read (not a FIFO, a tty)."""
        self._position = 0
        self._backlog = self._stat.st_size
        self._head = b""
        self._tail = b""
        self._held = b""
        return handle

    def _follow(self, handle: BinaryIO, stop: threading.Event) -> Iterator[bytes]:
        last_data = time.monotonic()
        seen: tuple[int, ...] | None = None
        while not stop.is_set():
            data = handle.read(self.chunk_size)
            if data:
                if self._rewritten():  # under us, since the last read: start over
                    yield self._restart("truncated", "rewritten in place")
                    handle = self._handle
                    continue
                last_data = time.monotonic()
                out = self._take(data)
                if out:
                    self.history = self._position <= self._backlog
                    yield out
                continue
            stop.wait(self.poll)
            try:
                status = os.stat(self.path)
            except OSError:
                continue  # gone for now: read the old file on, watch the path
            if _identity(status) != _identity(self._stat):
                if time.monotonic() - last_data < self.quiet:
                    continue  # its writer may still be appending: read it on
                yield self._restart("replaced", "another file took its place")
                handle = self._handle
                continue
            key = (status.st_size, status.st_mtime_ns, status.st_ctime_ns)
            if key == seen:
                continue
            seen = key
            if self._regular and status.st_size < self._position:
                yield self._restart("truncated", f"shrank to {describe_size(status.st_size)}")
                handle = self._handle
            elif self._rewritten():
                yield self._restart("truncated", "rewritten in place")
                handle = self._handle

    def _take(self, data: bytes) -> bytes:
        """Note ``data`` as read; return the whole lines ready to hand on."""
        start = self._position
        self._position = start + len(data)
        if start < FINGERPRINT_BYTES:
            self._head = (self._head + data)[:FINGERPRINT_BYTES]
        self._tail = (self._tail + data)[-FINGERPRINT_BYTES:]
        held = self._held + data if self._held else data
        end = held.rfind(b"\n") + 1
        if end == 0 and len(held) <= HOLD_LIMIT:
            self._held = held
            return b""
        if end == 0 or len(held) - end > HOLD_LIMIT:
            end = len(held)
        self._held = held[end:]
        return held[:end]

    def _rewritten(self) -> bool:
        """Whether the bytes already read are no longer those in the file."""
        if not self._regular:
            return False
        fd = self._handle.fileno()
        try:
            if self._head and os.pread(fd, len(self._head), 0) != self._head:
                return True
            tail = self._tail
            if tail and os.pread(fd, len(tail), self._position - len(tail)) != tail:
                return True
        except OSError:
            return True
        return False

    def _restart(self, reason: str, why: str) -> Restart:
        """Open the file at the path again and say how the input starts over."""
        dropped = len(self._held)
        if reason == "replaced":
            self.replacements += 1
            self._reopen(self._handle)
        else:
            self.truncations += 1
            self._handle.seek(0)
            self._stat = os.fstat(self._handle.fileno())
            self._position = 0
            self._backlog = self._stat.st_size
            self._head = self._tail = self._held = b""
        detail = f"{self.path.name} {reason} ({why}): reading it again from its start"
        if dropped:
            detail += f"; an unfinished line of {describe_size(dropped)} dropped"
        return Restart(reason, detail)
