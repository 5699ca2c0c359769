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
ENDS_IN_NEWLINE = 1
"""A moved text's tail (:attr:`SpilledParts.tails`, low two bits) when it ends in one
``\\n`` only; :data:`ENDS_IN_BLANK_LINE` in two; 0 in anything else."""
ENDS_IN_BLANK_LINE = 2
NOT_UTF8 = 4
"""In a tail: the text holds a lone surrogate (kept as ``surrogatepass`` writes it),
which orjson cannot write."""
CARRIED = 8
"""In a tail: the separator the summary writes before this text (from the segment
before it) is in the file just before it, its length in bytes the tail's high bits."""
_FIRST = -1
"""Before a session's first segment of a kind: no separator."""
_UNKNOWN = -2
"""A segment the fold kept in memory came before: the summary writes the separator."""
_SEPARATORS = {TEXT: (b"\n\n", b"\n", b""), THINKING: (b"\n\n",) * 3}
"""The separators' JSON before a segment, by what the segment before it ends in
(:meth:`Session.text_pieces`, :meth:`Session.thinking_pieces`)."""


def tail_of(text: str) -> int:
    """What ``text`` ends in: :data:`ENDS_IN_BLANK_LINE`, :data:`ENDS_IN_NEWLINE` or 0."""
    if text.endswith("\n"):
        return ENDS_IN_BLANK_LINE if text.endswith("\n\n") else ENDS_IN_NEWLINE
    return 0


class SpilledParts(list[str]):
    """Stands for the ``parts`` of every moved block of one session and kind: empty,
    never grown. :meth:`texts` gives their texts back, block after block, in order.

    A text is kept in UTF-8, preceded in the file by the separator the summary writes
    before it when that is known as it is moved (:data:`CARRIED`): ``--json`` reads runs
    of them at once (:mod:`streamview.core.summary_text`)."""

    __slots__ = ("ends", "odd", "starts", "store", "tails")

    def __init__(self, store: TextSpill) -> None:
        super().__init__()
        self.store = store
        self.starts = array("q")
        """Where each moved block's text starts in the file."""
        self.ends = array("q")
        """And where it ends."""
        self.tails = bytearray()
        """What each ends in, and more (:data:`ENDS_IN_NEWLINE`, :data:`CARRIED`...)."""
        self.odd = False
        """One of them holds a lone surrogate (:data:`NOT_UTF8`)."""

    def texts(self) -> Iterator[str]:
        """Each moved block's text, in the order they were moved (as their blocks stand)."""
        return self.store.read(self)


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
        self._before: dict[tuple[int, str], int] = {}
        """Per session and kind: what the last segment looked at ends in (:func:`tail_of`),
        :data:`_FIRST` before the first, :data:`_UNKNOWN` when it stays in memory."""
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
                kind = block.kind
                if block.open:
                    if kind in _SPILLED_KINDS:  # may grow: the summary writes what follows
                        self._before[index, kind] = _UNKNOWN
                    continue
                if kind in _SPILLED_KINDS:
                    parts = block.parts
                    if parts.__class__ is list and any(parts):
                        blocks[position] = self._move(index, block)
                    elif parts.__class__ is not list or (kind == THINKING and parts):
                        self._before[index, kind] = _UNKNOWN  # a segment kept in memory
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
        parts = block.parts
        text = parts[0] if len(parts) == 1 else "".join(parts)
        if text.endswith("\n"):  # tail_of, inline: once a moved block
            tail = ENDS_IN_BLANK_LINE if text.endswith("\n\n") else ENDS_IN_NEWLINE
        else:
            tail = 0
        try:
            encoded = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate
            encoded = text.encode("utf-8", "surrogatepass")
            tail |= NOT_UTF8
            spilled.odd = True
        before = self._before.get(key, _FIRST)
        pending = self._pending
        if before != _UNKNOWN:
            if before != _FIRST:
                separator = _SEPARATORS[block.kind][before]
                pending += separator
                tail |= CARRIED | len(separator) << 4
            else:
                tail |= CARRIED
        self._before[key] = tail & 3
        start = self._written + len(pending)
        pending += encoded
        spilled.starts.append(start)
        spilled.ends.append(start + len(encoded))
        spilled.tails.append(tail)
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

    def stand_in(self, session: int, kind: str) -> SpilledParts | None:
        """The parts that stand for the moved ``kind`` blocks of a session, if any."""
        block = self._spilled.get((session, kind))
        return None if block is None else cast(SpilledParts, block.parts)

    def span(self, start: int, end: int) -> bytes:
        """The bytes moved from ``start`` to ``end`` (all moved bytes written first)."""
        self._flush()
        return self._range(start, end)

    def read(self, spilled: SpilledParts) -> Iterator[str]:
        """The texts of ``spilled``, read a MB or so at a time (what lies between two
        of them is read too: a separator, another kind's text)."""
        self._flush()
        starts, ends = spilled.starts, spilled.ends
        count = len(ends)
        index = 0
        while index < count:
            start = starts[index]
            last = index
            while last + 1 < count and ends[last + 1] - start < READ_PIECE:
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
