"""Where the bytes come from: a file, a pipe, a file still being written.

A source only produces chunks of bytes; parsing and display live elsewhere, so the
same source feeds the TUI, the plain printer and the JSON summary. Reads never block
for long: a stop event is checked at least every :data:`POLL_SECONDS`, so quitting
while a producer is silent exits at once.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from streamview.core.events import AgentNotice
from streamview.sources.follow import FollowedFile

POLL_SECONDS = 0.05
CHUNK_SIZE = 1 << 20
FILE_CHUNK_SIZE = 256 << 10
"""A whole file is read this much at a time: a chunk and the lines split from it stay
in a core's 2 MB L2 cache, as 1 MB and its lines did not (the fold of every dialect's
100k file 2-4% faster in process, issue 30.8)."""
PIPE_CHUNK_SIZE = 1 << 16


class InputError(Exception):
    """The input cannot be read; the message is meant for the user, on one line."""


def now_ms() -> int:
    """Wall-clock time in epoch milliseconds."""
    return time.time_ns() // 1_000_000


class Source(ABC):
    """A stream of bytes to show.

    Attributes:
        label: What the user knows the input as (a file name, ``stdin``, a command).
        live: Whether bytes arrive as things happen, so arrival times mean something.
    """

    label: str = "input"
    live: bool = False
    arrived_ms: int | None = None
    """When the chunk just yielded arrived (epoch ms), for a source that read it
    earlier than it yields it (:mod:`streamview.sources.read_ahead`); ``None``: just now."""

    @property
    def history(self) -> bool:
        """Whether the chunk just yielded was there before the source opened (a followed
        file's existing lines): when it arrived is not known, and stamping it with the
        time it was read would make every call in it start at once (``+0:00``)."""
        return False

    @abstractmethod
    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield chunks until the input ends or ``stop`` is set."""

    @property
    def path(self) -> Path | None:
        """The file behind the source, if there is one (lets views re-read a line)."""
        return None

    def ended_notice(self) -> AgentNotice | None:
        """A notice for the event log once the input ended (``--redact``'s counts)."""
        return None


class FileSource(Source):
    """A recorded run in a file; with ``follow``, keep reading as it grows (``tail -F``).

    A followed file that is truncated, rewritten or replaced is read again from its
    start, after a :class:`~streamview.core.framing.Restart` chunk (see
    :mod:`streamview.sources.follow`).
    """

    def __init__(self, path: Path, follow: bool = False) -> None:
        self._path = path
        self.follow = follow
        self.live = follow
        self.label = str(path)
        self._followed: FollowedFile | None = None

    @property
    def truncations(self) -> int:
        """How many times a followed file shrank, was rewritten or was replaced."""
        followed = self._followed
        return 0 if followed is None else followed.truncations + followed.replacements

    @property
    def path(self) -> Path:
        """The file."""
        return self._path

    @property
    def history(self) -> bool:
        """A followed file's lines that were written before it was opened."""
        followed = self._followed
        return followed is not None and followed.history

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield the file's bytes; when following, wait for more until stopped."""
        if self.follow:
            self._followed = FollowedFile(self._path, open_file, CHUNK_SIZE, POLL_SECONDS)
            yield from self._followed.chunks(stop)
            return
        with open_file(self._path) as handle:
            while not stop.is_set():
                data = handle.read(FILE_CHUNK_SIZE)
                if not data:
                    return
                yield data


class PipeSource(Source):
    """A pipe (usually stdin), read with a short poll so a stop is seen at once."""

    live = True

    def __init__(self, fd: int, label: str = "stdin") -> None:
        self.fd = fd
        self.label = label

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield what the producer writes until it closes the pipe or ``stop`` is set."""
        import selectors  # a pipe's: a file's --json does without it (start-up, 30.8)

        with selectors.DefaultSelector() as selector:
            try:
                selector.register(self.fd, selectors.EVENT_READ)
            except (PermissionError, ValueError):
                # Regular files cannot be registered with epoll: read them plainly.
                while not stop.is_set():
                    data = os.read(self.fd, CHUNK_SIZE)
                    if not data:
                        return
                    yield data
                return
            while not stop.is_set():
                if not selector.select(POLL_SECONDS):
                    continue
                try:
                    data = os.read(self.fd, PIPE_CHUNK_SIZE)
                except BlockingIOError:
                    continue
                except OSError as error:
                    raise InputError(f"cannot read {self.label}: {error.strerror}") from error
                if not data:
                    return
                yield data


class MemorySource(Source):
    """Bytes already read (a pipe read once and shown again, for an export)."""

    def __init__(self, data: bytes, label: str = "input") -> None:
        self.data = data
        self.label = label

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield the bytes in one chunk."""
        if self.data and not stop.is_set():
            yield self.data


def empty_input(source: Source, received: int) -> str:
    """Why an input with no line to show is refused: nothing at all, or only blank lines.

    Args:
        source: The input.
        received: Bytes it held (all blank, if any).
    """
    if received == 0:
        return f"{source.label}: input is empty"
    return f"{source.label}: input is empty (only blank lines)"


def open_file(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading, turning OS errors into one-line messages.

    Raises:
        InputError: The path is missing, a directory, or unreadable.
    """
    try:
        if stat.S_ISDIR(os.stat(path).st_mode):
            raise InputError(f"{path} is a directory, not a recording")
        return open(path, "rb")
    except FileNotFoundError as error:
        raise InputError(f"{path}: no such file") from error
    except PermissionError as error:
        raise InputError(f"{path}: permission denied") from error
    except IsADirectoryError as error:
        raise InputError(f"{path} is a directory, not a recording") from error
    except OSError as error:
        raise InputError(f"{path}: {error.strerror or error}") from error


def is_fifo(path: Path) -> bool:
    """Whether ``path`` is a named pipe (``mkfifo``), read as the pipe it is."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def open_fifo(path: Path) -> PipeSource:
    """A named pipe as a live source, opened once.

    Opening it for reading without waiting lets the viewer start before the writer
    does; a second open (to check it, then to read it) would leave the writer with
    no reader in between, and it would die of SIGPIPE.

    Raises:
        InputError: It cannot be opened.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise InputError(f"{path}: {error.strerror or error}") from error
    return PipeSource(fd, label=str(path))


def source_for(name: str | None, follow: bool = False) -> Source:
    """The source named on the command line: a path, or ``-``/``None`` for stdin.

    A named pipe is read as the pipe it is (``--follow`` or not), as ``<(cmd)`` is.

    Raises:
        InputError: The file cannot be opened.
    """
    if name in (None, "-"):
        return PipeSource(0)
    path = Path(name)
    if is_fifo(path):
        return open_fifo(path)
    open_file(path).close()
    return FileSource(path, follow=follow)


def detach_stdin_for_keys() -> int:
    """Move piped stdin to a new descriptor and put the terminal on fd 0.

    Textual reads keys from fd 0. With ``producer | streamview`` fd 0 is the pipe, so
    the pipe is kept on a duplicate and ``/dev/tty`` takes its place.

    Returns:
        The descriptor that now holds the pipe.

    Raises:
        InputError: There is no terminal to read keys from.
    """
    pipe_fd = os.dup(0)
    try:
        tty_fd = os.open("/dev/tty", os.O_RDONLY)
    except OSError as error:
        os.close(pipe_fd)
        raise InputError("no terminal to read keys from (use --print or --json)") from error
    os.dup2(tty_fd, 0)
    os.close(tty_fd)
    return pipe_fd
