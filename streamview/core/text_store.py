"""The text of closed transcript blocks, moved out of memory while a long input is folded.

``--json`` keeps a run's text only to write it at the end. Of a 2 GB Claude session that
is 220 MB of decoded strings (about 340 bytes a block: the string and its one-element
list). :class:`TextSpill` moves the text of closed text and thinking blocks, between two
chunks of input, to an anonymous temporary file (UTF-8, in the order of the blocks) and
keeps 16 bytes a block. The block itself becomes one shared stand-in per session and
kind (its ``parts`` a :class:`SpilledParts`, empty) that
:meth:`~streamview.core.model.Session.text_pieces` and
:meth:`~streamview.core.model.Session.thinking_pieces` read back, a MB at a time; a
closed tool, prompt or notice block becomes one shared block of its kind (``--json``
reads only their kind). A block and its numbers were 190 bytes: 100 MB in 2 GB.

What may be moved is what nothing changes or reads again while folding: a block neither
open nor followed only by thinking and notices (the block
:attr:`~streamview.core.model.Session.turn_complete` reads), in a session whose blocks
were only ever appended to (a stream front that lets blocks go is left alone).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator
from typing import IO, cast

from streamview.core.model import NOTICE, PROMPT, TEXT, THINKING, TOOL, Block, Session, ToolCall

READ_PIECE = 1 << 20
"""Bytes read back from the file at once, about."""
WRITE_PIECE = 1 << 20
"""Bytes gathered before they are written to the file."""
SHARED_STRINGS = 1 << 16
"""Targets and summaries kept to share (a dict entry costs about 40 bytes: 3 MB at most)."""
_TURN_KINDS = (TEXT, TOOL, PROMPT)
_SPILLED_KINDS = (TEXT, THINKING)
_SHARED = {kind: Block(kind, 0) for kind in (TOOL, PROMPT, NOTICE)}
"""The one closed block of each kind that stands for every moved one (never changed)."""


class SpilledParts(list[str]):
    """Stands for the ``parts`` of every moved block of one session and kind: empty,
    never grown. :meth:`texts` gives their texts back, block after block, in order."""

    __slots__ = ("_ends", "_starts", "_store")

    def __init__(self, store: TextSpill) -> None:
        super().__init__()
        self._store = store
        self._starts = array("q")
        """Where each moved block's text starts in the file."""
        self._ends = array("q")
        """And where it ends."""

    def texts(self) -> Iterator[str]:
        """Each moved block's text, in the order they were moved (as their blocks stand)."""
        return self._store.read(self._starts, self._ends)


class TextSpill:
    """Moves closed blocks' text to an anonymous temporary file (see the module)."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._written = 0
        """Bytes written to the file."""
        self._pending = bytearray()
        """Bytes gathered to write after them."""
        self._swept: dict[int, tuple[list[Block], int]] = {}
        """Per session: its blocks list as first seen, and how many blocks were looked at."""
        self._left: set[int] = set()
        """Sessions whose blocks were replaced since (a front let them go): left alone."""
        self._spilled: dict[tuple[int, str], Block] = {}
        """Per session and kind: the block that stands for every moved one."""
        self.moved = 0
        """Blocks whose text was moved."""
        self._strings: dict[str, str] = {}
        """One copy of each finished call's target and summary seen (up to
        :data:`SHARED_STRINGS` of them): the same file read again and again, ``exit 0``."""
        self._stuck = False
        """The file could not be written: no more text is moved."""

    def sweep(self, sessions: list[Session]) -> None:
        """Move the text of the blocks closed since the last sweep."""
        if self._stuck:
            return
        swept, left = self._swept, self._left
        for session in sessions:
            index = session.index
            if index in left:
                continue
            blocks = session.blocks
            seen, done = swept.get(index, (blocks, 0))
            if seen is not blocks or len(blocks) < done:
                left.add(index)
                continue
            stop = len(blocks) - 1  # the last text, tool or prompt block stays
            while stop > done and blocks[stop].kind not in _TURN_KINDS:
                stop -= 1
            if stop <= done:
                continue
            shared = _SHARED
            for position in range(done, stop):
                block = blocks[position]
                if block.open:
                    continue
                kind = block.kind
                if kind in _SPILLED_KINDS:
                    if block.parts.__class__ is list and any(block.parts):
                        blocks[position] = self._move(index, block)
                else:
                    if block.call_index is not None:
                        self._settle(session.tool_calls[block.call_index])
                    blocks[position] = shared.get(kind, block)
            swept[index] = (blocks, stop)

    def _settle(self, call: ToolCall) -> None:
        """Make a finished call smaller, as ``--json`` writes it: its line numbers and
        index are written nowhere, and the fold asks only whether it has its result
        (:func:`~streamview.core.repeated_results.call_for`): ``completed_line`` 0 says
        so (small ints are shared: 90 bytes a call less). Its target and summary become
        the copy of an equal one already seen."""
        if call.completed_line is None:
            return
        call.completed_line = 0
        call.started_line = None
        call.index = 0
        strings = self._strings
        for text in (call.target, call.summary):
            if text is not None and text not in strings and len(strings) < SHARED_STRINGS:
                strings[text] = text
        if call.target is not None:
            call.target = strings.get(call.target, call.target)
        if call.summary is not None:
            call.summary = strings.get(call.summary, call.summary)

    def _move(self, session: int, block: Block) -> Block:
        """Move ``block``'s text to the file; the block that stands for it now."""
        key = (session, block.kind)
        stand_in = self._spilled.get(key)
        if stand_in is None:
            stand_in = self._spilled[key] = Block(block.kind, 0, SpilledParts(self))
        spilled = cast(SpilledParts, stand_in.parts)
        pending = self._pending
        spilled._starts.append(self._written + len(pending))
        for part in block.parts:
            pending += part.encode("utf-8", "surrogatepass")
        spilled._ends.append(self._written + len(pending))
        self.moved += 1
        if len(pending) >= WRITE_PIECE:
            self._flush()
        return stand_in

    def append(self, text: str) -> tuple[int, int] | None:
        """Write ``text`` after what was moved: where it starts and ends in the file
        (``None``: the file cannot be written, and ``text`` is not kept)."""
        if self._stuck:
            return None
        pending = self._pending
        start = self._written + len(pending)
        pending += text.encode("utf-8", "surrogatepass")
        end = self._written + len(pending)
        if len(pending) >= WRITE_PIECE:
            self._flush()
        return start, end

    def read_range(self, start: int, end: int) -> bytes:
        """The bytes written from ``start`` to ``end`` (:meth:`append`'s, UTF-8)."""
        return self._range(start, end)

    def _flush(self) -> None:
        """Write what was gathered; where the file cannot be made or written (a full
        disk), what was not written stays gathered, and no more text is moved."""
        pending = self._pending
        try:
            if self._file is None and pending:
                import tempfile  # only a long input gets here: a short one never imports it

                self._file = tempfile.TemporaryFile(prefix="streamview-text-")  # noqa: SIM115 (closed by close())
            while pending:
                assert self._file is not None
                written = os.pwrite(self._file.fileno(), pending, self._written)
                self._written += written
                del pending[:written]
        except OSError:
            self._stuck = True

    def _range(self, start: int, end: int) -> bytes:
        """The bytes moved from ``start`` to ``end``: from the file, then those gathered."""
        written = self._written
        data = b""
        if start < written:
            assert self._file is not None
            data = os.pread(self._file.fileno(), min(end, written) - start, start)
        if end > written:
            data += self._pending[max(start - written, 0) : end - written]
        return data

    def read(self, starts: array[int], ends: array[int]) -> Iterator[str]:
        """The texts at ``starts`` to ``ends``, read a MB or so at a time (texts moved
        one after another are read together)."""
        self._flush()
        count = len(ends)
        index = 0
        while index < count:
            start = starts[index]
            last = index
            while (
                last + 1 < count
                and starts[last + 1] == ends[last]
                and ends[last] - start < READ_PIECE
            ):
                last += 1
            data = self._range(start, ends[last])
            for at in range(index, last + 1):
                yield data[starts[at] - start : ends[at] - start].decode("utf-8", "surrogatepass")
            index = last + 1

    def close(self) -> None:
        """Let the file go (it is deleted: it never had a name)."""
        if self._file is not None:
            self._file.close()
            self._file = None
