"""Get a line's raw bytes back later, without the fold holding every payload.

The fold keeps summaries only. When a person opens a tool call, the view asks the
store for the call's ``completed`` line and decodes it then. A file-backed store keeps
``(offset, length)`` per line and reads from the file; a memory store (for pipes)
keeps the bytes of the lines a view may open: tool calls, unknown records and
malformed lines.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from itertools import accumulate, repeat
from operator import add
from pathlib import Path
from typing import Any

from streamview.core.events import AnyEvent, MalformedLine, ToolCallEvent, UnknownRecord
from streamview.core.paged_array import PagedArray, widened


class LineStore:
    """Raw lines kept in memory, for sources that cannot be read again."""

    def __init__(self) -> None:
        self._lines: dict[int, bytes] = {}
        self.agent: str | None = None
        """The stream's dialect, once known: a line is read back through it."""

    def remember(self, number: int, offset: int, data: bytes, event: AnyEvent) -> None:
        """Note a parsed line; keep its bytes if a view may want them."""
        if isinstance(event, ToolCallEvent | UnknownRecord | MalformedLine):
            self._lines[number] = data

    def get(self, number: int) -> bytes | None:
        """The line's bytes, or ``None`` when they were not kept."""
        return self._lines.get(number)

    def restart(self, first: int) -> None:
        """The input started over at line ``first`` (kept bytes stay readable)."""


class FileLineStore(LineStore):
    """Offsets into a file that can be read again; bytes are loaded on demand.

    Offsets live in two compact arrays indexed by line number, 4-byte ints while they
    fit (a file under 4 GB: a million lines cost 8 MB, not a copy of the file), made
    8-byte when a place or length does not; their full pages are in the page file
    (:mod:`~streamview.core.paged_array`).
    """

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self._offsets: Any = PagedArray("I")
        """Where each line starts, plus one (``0``: not known)."""
        self._lengths: Any = PagedArray("I")
        """Each line's length, without its terminator."""
        self._end = 0
        """Where the line after the last one :meth:`remember_next` saw starts."""
        self._first = 0
        """Lines before this one were in an earlier version of the file (:meth:`restart`)."""

    def remember(self, number: int, offset: int, data: bytes, event: AnyEvent) -> None:
        """Record where line ``number`` sits in the file."""
        offsets, lengths = self._offsets, self._lengths
        if len(offsets) <= number:
            missing = number + 1 - len(offsets)
            offsets.extend(repeat(0, missing))
            lengths.extend(repeat(0, missing))
        try:
            offsets[number] = offset + 1
        except OverflowError:
            self._offsets = widened(offsets, "q")
            self._offsets[number] = offset + 1
        try:
            lengths[number] = len(data)
        except OverflowError:
            self._lengths = widened(lengths, "q")
            self._lengths[number] = len(data)

    def _add(self, starts: array[int], lengths: array[int]) -> None:
        """Append lines: their starts plus one and their lengths (8-byte arrays),
        each made 8-byte here first if a value does not fit in 4 bytes."""
        for name, values in (("_offsets", starts), ("_lengths", lengths)):
            kept = getattr(self, name)
            if kept.typecode != "q":
                try:
                    values = array(kept.typecode, values)
                except OverflowError:
                    kept = widened(kept, "q")
                    setattr(self, name, kept)
            kept.extend(values)

    def remember_next(self, data: bytes) -> None:
        """Record the next line of the file, blank or not, from its bytes alone.

        For :func:`~streamview.core.reader.fold`, which numbers every line in order
        from the file's start and makes no event for most of them.
        """
        if not self._offsets:
            self._offsets.append(0)  # line numbers start at 1
            self._lengths.append(0)
        start = self._end
        self._end = start + len(data) + 1
        length = len(data) - 1 if data.endswith(b"\r") else len(data)
        self._add(array("q", [start + 1]), array("q", [length]))

    def remember_lines(
        self, lines: list[bytes], crlf: bool = True, cut: dict[int, int] | None = None
    ) -> None:
        """:meth:`remember_next` for each of ``lines``, the offsets summed in C.

        Args:
            lines: The next lines of the file, in order, as split on ``\n``.
            crlf: Whether any of them may end in ``\r`` (its length leaves it out);
                ``False`` lets the lengths go in as they are.
            cut: Lines the framer cut at the line limit (number -> size in the file):
                their place is counted at their real size, their length is what was kept.
        """
        if not self._offsets:
            self._offsets.append(0)  # line numbers start at 1
            self._lengths.append(0)
        sizes = array("q", map(len, lines))
        steps = sizes
        if cut:
            first = len(self._offsets)
            steps = array("q", sizes)
            for number, size in cut.items():
                if 0 <= number - first < len(steps):
                    steps[number - first] = size
        # Each start plus one (0 is "not known"), then where the next line starts.
        starts = array("q", accumulate(map(add, steps, repeat(1)), initial=self._end + 1))
        self._end = starts.pop() - 1
        if crlf:
            trimmed = (
                n - 1 if line[-1:] == b"\r" else n for n, line in zip(sizes, lines, strict=True)
            )
            sizes = array("q", trimmed)
        self._add(starts, sizes)

    def restart(self, first: int) -> None:
        """The file started over (truncated or replaced) at line ``first``: the lines
        before it are no longer in it, so they cannot be read again."""
        self._first = first
        self._end = 0

    def get(self, number: int) -> bytes | None:
        """Read line ``number`` from the file (``None`` if unknown or unreadable)."""
        if number >= len(self._offsets) or self._offsets[number] < 1 or number < self._first:
            return None
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self._offsets[number] - 1)
                return handle.read(self._lengths[number])
        except OSError:
            return None

    def read_lines(self, first: int, last: int) -> Iterator[tuple[int, bytes]]:
        """Lines ``first`` to ``last`` (numbers and bytes, without terminators), read
        from the file at once; lines it does not know, or cannot read, are left out."""
        offsets, lengths = self._offsets, self._lengths
        last = min(last, len(offsets) - 1)
        first = max(first, 1, self._first)
        if first > last:
            return
        start = offsets[first]  # plus one, as every offset here
        try:
            with open(self.path, "rb") as handle:
                handle.seek(start - 1)
                data = handle.read(offsets[last] + lengths[last] - start)
        except OSError:
            return
        for number in range(first, last + 1):
            offset = offsets[number] - start
            if offset >= 0:
                yield number, data[offset : offset + lengths[number]]
