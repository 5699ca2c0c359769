"""``streamview.read_events``: any agent's stream as normalized events, from Python.

The same events, in the same order, as ``streamview --events`` prints (the command is
built on :func:`event_batches`). Every agent streamview reads is told in one
vocabulary (:mod:`streamview.core.normalized`)::

    import streamview

    for event in streamview.read_events("run.ndjson"):
        if event.type == "tool.end":  # or isinstance(event, normalized.ToolEnd)
            print(event.kind, event.target, event.status, event.duration_ms)

Events are frozen :mod:`msgspec` structs (:mod:`streamview.core.normalized`); ``type``
is the tag ``--events`` writes. :func:`to_json_lines` writes them as
``--events`` does, :func:`msgspec.to_builtins` turns one into a dict.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

import msgspec

from streamview.core import normalized as events
from streamview.core.event_stream import EventStream
from streamview.core.normalized import NormalizedEvent
from streamview.core.sanitize import escape_json_unsafe, json_for_terminal

Event = NormalizedEvent
"""Any normalized event (a union of the structs in :mod:`streamview.core.normalized`)."""

READ_SIZE = 1 << 16
"""Bytes asked of a file object at a time (``read1`` returns what is there sooner)."""


if TYPE_CHECKING:

    class _Readable(Protocol):
        def read(self, size: int = ..., /) -> bytes: ...

    Source = str | os.PathLike[str] | bytes | Iterable[bytes] | IO[bytes] | _Readable
    """A path, the bytes of a whole stream, an iterable of byte chunks, or a binary file."""
else:

    def __getattr__(name: str) -> Any:
        """``Source`` (the type above, for type checkers), made when first asked: a
        union with typing's generics and a protocol class cost ~0.4 ms of every
        ``--events`` start, which names it only in annotations."""
        if name != "Source":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

        class _Readable(Protocol):
            def read(self, size: int = ..., /) -> bytes: ...

        source = str | os.PathLike[str] | bytes | Iterable[bytes] | IO[bytes] | _Readable
        globals()["Source"] = source
        return source


def _chunks(source: Any) -> Iterator[bytes]:
    """The bytes of ``source``, chunk by chunk, as soon as each is there."""
    if isinstance(source, str | os.PathLike):
        from streamview.sources.session_files import session_source_for

        # A session read as --events reads it: subagents' files fed in, a database...
        whole = session_source_for(Path(source))
        if whole is not None:
            yield from whole.chunks(threading.Event())
            return
        with Path(source).open("rb") as handle:
            yield from iter(lambda: handle.read(1 << 20), b"")
        return
    if isinstance(source, bytes | bytearray | memoryview):
        yield bytes(source)
        return
    read = getattr(source, "read1", None) or getattr(source, "read", None)
    if read is not None:
        # read1 returns what one read gives (a live pipe's latest lines) instead of
        # waiting for READ_SIZE bytes.
        yield from iter(lambda: read(READ_SIZE), b"")
        return
    for chunk in source:
        if not isinstance(chunk, bytes | bytearray | memoryview):
            raise TypeError(f"read_events reads bytes, not {type(chunk).__name__}")
        yield bytes(chunk)


def event_batches(chunks: Iterable[bytes], agent: str | None = None) -> Iterator[list[Event]]:
    """The events of a stream, one batch per chunk read (what ``--events`` flushes at once).

    The first batch is ``[stream.start]``; the last ends with ``stream.end``.

    Args:
        chunks: The input, chunk by chunk.
        agent: A dialect's name to read the stream as; ``None`` or ``auto`` recognises it.
    """
    stream = EventStream(agent)
    yield [stream.start()]
    for chunk in chunks:
        batch = stream.feed(chunk)
        if batch:
            yield batch
    yield [*stream.finish(), stream.end()]


def read_events(source: Source, agent: str | None = None) -> Iterator[Event]:
    """Read an agent's stream as normalized events, each as soon as its line is read.

    Args:
        source: A path (``str`` or ``PathLike``), the stream's bytes, an iterable of
            byte chunks (a live stream's, as they arrive), or a binary file object
            (``sys.stdin.buffer``, a pipe: read with ``read1``, so no event waits for
            more input than its own line).
        agent: ``cursor``, ``claude``, ``codex``, ``gemini``... to read the stream as
            that agent's; ``None`` (or ``auto``) recognises it from the stream.

    Yields:
        ``stream.start``, the events of the stream in order, then ``stream.end``. A
        line that cannot be read is an event (``malformed``, ``unknown``), never an
        exception.

    Raises:
        OSError: A path that cannot be opened or read.
        TypeError: An iterable that yields something other than bytes.
    """
    for batch in event_batches(_chunks(source), agent):
        yield from batch


_encoder = msgspec.json.Encoder()


def to_json_lines(batch: list[Event]) -> bytes:
    """Events as ``--events`` writes them: one JSON object a line, each ending in ``\\n``.

    Strings are the stream's own, escaped so that the output is safe to show on a
    terminal and decodes back to them (DEL, C1 and bidi controls as ``\\uXXXX``).
    """
    try:
        data = _encoder.encode_lines(batch)
    except (msgspec.EncodeError, OverflowError, UnicodeEncodeError, TypeError):
        # A value msgspec cannot write (a lone surrogate, an integer past 64 bits in
        # an agent's usage object): that event is written by the escaping fallback.
        data = b"".join(_one_line(event) for event in batch)
    return escape_json_unsafe(data)


def _one_line(event: Event) -> bytes:
    try:
        return _encoder.encode(event) + b"\n"
    except (msgspec.EncodeError, OverflowError, UnicodeEncodeError, TypeError):
        return json_for_terminal(msgspec.to_builtins(event)) + b"\n"


__all__ = ["Event", "Source", "event_batches", "events", "read_events", "to_json_lines"]
