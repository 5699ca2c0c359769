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
        if not chunk:
            return []
        buffer = self._buffer
        if not buffer and chunk.rfind(b"\n") == len(chunk) - 1:
            # Fast path: the chunk ends exactly on a line boundary.
            return self._emit(chunk.split(b"\n")[:-1])
        scan_from = len(buffer)
        buffer += chunk
        last_newline = buffer.rfind(b"\n", scan_from)
        if last_newline < 0:
            return []
        complete = bytes(buffer[:last_newline])
        del buffer[: last_newline + 1]
        return self._emit(complete.split(b"\n"))

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
