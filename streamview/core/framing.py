"""Turn a byte stream that arrives in chunks of any size into numbered lines.

Lines are split on ``\\n`` before any decoding, so a multi-byte UTF-8 character cut
between two chunks is never damaged. There is no line-length limit, a final line
without ``\\n`` still counts, and a trailing ``\\r`` (``\\r\\n`` endings) is dropped.
"""

from __future__ import annotations

from typing import NamedTuple


class RawLine(NamedTuple):
    """One line of input, before parsing."""

    number: int
    """1-based line number in the stream."""
    offset: int
    """Byte offset of the line's first byte in the stream."""
    data: bytes
    """The line's bytes without the line terminator."""


class LineFramer:
    """Split chunks of bytes into :class:`RawLine` values.

    Feed chunks with :meth:`feed`; call :meth:`finish` at end of input to get a last
    line that had no terminating newline.
    """

    __slots__ = ("_buffer", "_buffer_offset", "_number", "_scan_from")

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._buffer_offset = 0
        self._number = 0
        self._scan_from = 0

    @property
    def lines_seen(self) -> int:
        """How many lines have been produced so far."""
        return self._number

    @property
    def next_offset(self) -> int:
        """Byte offset in the stream of the next line :meth:`split` will return."""
        return self._buffer_offset

    @property
    def pending_bytes(self) -> int:
        """Bytes received that do not yet form a complete line."""
        return len(self._buffer)

    def feed(self, chunk: bytes) -> list[RawLine]:
        """Add a chunk of input and return the lines it completed.

        Args:
            chunk: Any number of bytes, possibly empty, possibly cutting a line or a
                character in two.

        Returns:
            The complete lines, in order.
        """
        return self._emit(self._complete(chunk))

    def split(self, chunk: bytes) -> list[bytes]:
        """Like :meth:`feed`, but return only the lines' bytes, for a fold that needs
        neither offsets nor tuples.

        Line numbers still advance: the first line returned is number
        ``lines_seen + 1`` as read before the call. A trailing ``\\r`` is *not* removed
        (it is JSON whitespace, so a JSON decoder does not care); strip it before
        showing a line.
        """
        before = len(self._buffer)
        pieces = self._complete(chunk)
        if pieces:
            self._number += len(pieces)
            self._buffer_offset += before + len(chunk) - len(self._buffer)
        return pieces

    def _complete(self, chunk: bytes) -> list[bytes]:
        """Split off the complete lines ``chunk`` finishes; buffer the rest.

        One ``split`` copies the chunk once; only a line cut between chunks is joined.
        """
        if not chunk:
            return []
        pieces = chunk.split(b"\n")
        rest = pieces.pop()
        buffer = self._buffer
        if not pieces:
            buffer += rest
            return pieces
        if buffer:
            pieces[0] = bytes(buffer) + pieces[0]
            buffer.clear()
        if rest:
            buffer += rest
        return pieces

    def finish(self) -> list[RawLine]:
        """Signal end of input and return the unterminated last line, if any."""
        if not self._buffer:
            return []
        data = bytes(self._buffer)
        self._buffer.clear()
        return self._emit([data], terminated=False)

    def _emit(self, pieces: list[bytes], terminated: bool = True) -> list[RawLine]:
        lines: list[RawLine] = []
        offset = self._buffer_offset
        number = self._number
        append = lines.append
        for piece in pieces:
            number += 1
            size = len(piece)
            if piece.endswith(b"\r"):
                piece = piece[:-1]
            append(RawLine(number, offset, piece))
            offset += size + 1
        if not terminated:
            offset -= 1
        self._number = number
        self._buffer_offset = offset
        return lines
