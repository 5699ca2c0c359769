"""The text of closed transcript blocks, moved out of memory while a long input is folded.

``--json`` keeps a run's text only to write it at the end. Of a 2 GB Claude session that
is 220 MB of decoded strings (about 340 bytes a block: the string and its one-element
list). :class:`TextSpill` moves the text of closed text and thinking blocks, between two
chunks of input, to an anonymous temporary file (UTF-8; each session's and kind's texts
in order, in a stream of their own, written a piece at a time) and keeps 16 bytes a
block. The block itself becomes one shared stand-in per session and kind (its ``parts``
a :class:`SpilledParts`, empty) that
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
from itertools import compress, repeat
from operator import is_not
from typing import IO, cast

from streamview.core.fold_calls import settle
from streamview.core.model import (
    LEAN_TOOL_BLOCK,
    NOTICE,
    PROMPT,
    TEXT,
    THINKING,
    TOOL,
    Block,
    Session,
    ToolCall,
)

READ_PIECE = 1 << 20
"""Bytes read back from the file at once, about."""
WRITE_PIECE = 1 << 20
"""Bytes gathered before they are written to the file."""
MOVE_BATCH = 512
"""Texts moved at once, at most (their bytes are held twice meanwhile)."""
_TURN_KINDS = (TEXT, TOOL, PROMPT)
_SPILLED_KINDS = (TEXT, THINKING)
_SHARED = {TOOL: LEAN_TOOL_BLOCK, **{kind: Block(kind, 0) for kind in (PROMPT, NOTICE)}}
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

    A text is kept in UTF-8, preceded by the separator the summary writes before it when
    that is known as it is moved (:data:`CARRIED`), in a stream of this session and kind
    alone: its offsets (:attr:`starts`, :attr:`ends`) count the bytes of that stream,
    gathered in :attr:`pending` and written to the spill's file a piece at a time
    (:attr:`pieces`). So the moved texts of a kind follow one another whatever was moved
    between them (Codex's thinking and answers alternate), and ``--json`` reads runs of
    them at once (:mod:`streamview.core.summary_text`)."""

    __slots__ = (
        "ends",
        "odd",
        "pending",
        "pieces",
        "starts",
        "store",
        "tails",
        "whole",
        "written",
    )

    def __init__(self, store: TextSpill) -> None:
        super().__init__()
        self.store = store
        self.starts = array("q")
        """Where each moved block's text starts in the stream."""
        self.ends = array("q")
        """And where it ends."""
        self.tails = bytearray()
        """What each ends in, and more (:data:`ENDS_IN_NEWLINE`, :data:`CARRIED`...)."""
        self.odd = False
        """One of them holds a lone surrogate (:data:`NOT_UTF8`)."""
        self.pending = bytearray()
        """The stream's bytes after :attr:`written`, not in the file yet."""
        self.written = 0
        """Bytes of the stream in the file."""
        self.pieces = array("q")
        """Per piece written: where it starts in the stream, then where in the file."""
        self.whole = True
        """Each text carries its separator (:data:`CARRIED`): no text of the kind stayed
        in memory before or between them, and the stream is the kind's text up to the
        last moved one."""

    def texts(self) -> Iterator[str]:
        """Each moved block's text, in the order they were moved (as their blocks stand)."""
        return self.store.read(self)

    def span(self, start: int, end: int) -> bytes:
        """The stream's bytes from ``start`` to ``end`` (as far as it goes)."""
        written = self.written
        data = b""
        if start < written:
            pieces = self.pieces
            last = len(pieces) // 2 - 1
            at = last  # the piece ``start`` is in: most reads are of the last ones
            while pieces[2 * at] > start:
                at -= 1
            stop = min(end, written)
            while start < stop:
                begins = pieces[2 * at]
                ends = pieces[2 * at + 2] if at < last else written
                upto = min(stop, ends)
                data += self.store.pread(upto - start, pieces[2 * at + 1] + start - begins)
                start = upto
                at += 1
        if end > written:
            data += self.pending[max(start - written, 0) : end - written]
        return data


class TextSpill:
    """Moves closed blocks' text to an anonymous temporary file (see the module)."""

    def __init__(self) -> None:
        self._fd = -1
        """The file, once made."""
        self._file: IO[bytes] | None = None
        """The file when :mod:`tempfile` made it (no ``O_TMPFILE`` here)."""
        self._written = 0
        """Bytes written to the file."""
        self._pending = bytearray()
        """Bytes :meth:`append` gathered to write after them."""
        self._dirty: dict[tuple[int, str], SpilledParts] = {}
        """The moved texts' streams that may hold bytes to write, by session and kind."""
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
        :data:`~.fold_calls.SHARED_STRINGS` of them): the same file read again and
        again, ``exit 0``."""
        self._stuck = False
        """The file could not be written: no more text is moved."""
        self.failed: str | None = None
        """Why the file could not be made or written (``None``: it could)."""

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
            self._sweep(session, blocks, done, stop)
            swept[index] = (blocks, stop)
        if sum(len(spilled.pending) for spilled in self._dirty.values()) >= WRITE_PIECE:
            self._write_streams()

    def _sweep(self, session: Session, blocks: list[Block], done: int, stop: int) -> None:
        """Move the text of ``blocks[done:stop]`` (closed text and thinking blocks), settle
        their finished calls (:meth:`_settle`) and share their other closed blocks. The
        texts of a kind are gathered in one pass and moved together (:meth:`_move`):
        a few Python lines a block, the rest in C (a call and twenty lines a block were
        most of a sweep)."""
        index = session.index
        before = self._before
        shared = _SHARED
        calls = session.tool_calls
        settle = self._settle
        gathered: dict[str, tuple[array[int], list[str]]] = {
            TEXT: (array("q"), []),
            THINKING: (array("q"), []),
        }
        lasts = {kind: before.get((index, kind), _FIRST) for kind in _SPILLED_KINDS}
        # A lean fold's tool blocks are the shared one already: left out in C.
        for position in compress(
            range(done, stop), map(is_not, blocks[done:stop], repeat(LEAN_TOOL_BLOCK))
        ):
            block = blocks[position]
            kind = block.kind
            if kind != TEXT and kind != THINKING:
                if not block.open:
                    if block.call_index is not None:
                        settle(calls[block.call_index])
                    blocks[position] = shared.get(kind, block)
                continue
            parts = block.parts
            if block.open or parts.__class__ is not list or not any(parts):
                if block.open or parts.__class__ is not list or (kind == THINKING and parts):
                    # Open (it may grow), or a segment kept in memory: what came before
                    # it is moved first, and the next moved text carries no separator.
                    places, texts = gathered[kind]
                    if texts:
                        self._move(index, kind, lasts[kind], blocks, places, texts)
                        del places[:]
                        texts.clear()
                    lasts[kind] = _UNKNOWN
                continue
            places, texts = gathered[kind]
            places.append(position)
            texts.append(parts[0] if len(parts) == 1 else "".join(parts))
        for kind, (places, texts) in gathered.items():
            last = lasts[kind]
            if texts:
                last = self._move(index, kind, last, blocks, places, texts)
            if last != _FIRST:
                before[index, kind] = last

    def _move(
        self,
        session: int,
        kind: str,
        last: int,
        blocks: list[Block],
        places: array[int],
        texts: list[str],
    ) -> int:
        """Move ``texts``, those of the ``kind`` blocks at ``places`` in ``blocks`` (in
        order; what the text before them ends in: ``last``, :func:`tail_of`,
        :data:`_FIRST` or :data:`_UNKNOWN`), to the kind's stream, and put the stand-in
        in their place; what the last of them ends in. Each text is written after the
        separator the summary writes before it (:data:`CARRIED`), a batch at a time:
        their bytes encoded in one C loop, then one Python loop over the batch for each
        text's separator, place and tail."""
        stand_in = self._stand_in_block(session, kind)
        spilled = cast(SpilledParts, stand_in.parts)
        separators = (*_SEPARATORS[kind], b"", b"")  # [-2]: after _UNKNOWN, [-1]: _FIRST
        flags = (*(CARRIED | len(separator) << 4 for separator in _SEPARATORS[kind]), 0, CARRIED)
        if last == _UNKNOWN:  # a text stayed in memory just before: no separator carried
            spilled.whole = False
        for first in range(0, len(texts), MOVE_BATCH):
            batch = texts[first : first + MOVE_BATCH]
            odd: list[int] = []
            try:
                encoded = list(map(str.encode, batch))
            except UnicodeEncodeError:  # a lone surrogate: kept as surrogatepass writes it
                encoded = [text.encode("utf-8", "surrogatepass") for text in batch]
                for at, text in enumerate(batch):
                    try:
                        text.encode("utf-8")
                    except UnicodeEncodeError:
                        odd.append(at)
                spilled.odd = True
            pending = spilled.pending
            at = spilled.written + len(pending)
            begins: list[int] = []
            ends: list[int] = []
            tails = bytearray()
            pieces: list[bytes] = []
            # One loop a text: its separator, its place, its tail (tail_of, as it goes).
            # (A C loop a step, each calling a method per text, took half as long again.)
            for text, data in zip(batch, encoded, strict=True):
                separator = separators[last]
                if separator:
                    pieces.append(separator)
                    at += len(separator)
                begins.append(at)
                at += len(data)
                ends.append(at)
                pieces.append(data)
                if text[-1:] != "\n":
                    tail = 0
                elif text[-2:] == "\n\n":
                    tail = ENDS_IN_BLANK_LINE
                else:
                    tail = ENDS_IN_NEWLINE
                tails.append(tail | flags[last])
                last = tail
            for at in odd:
                tails[at] |= NOT_UTF8
            spilled.starts.extend(begins)
            spilled.ends.extend(ends)
            spilled.tails += tails
            pending += b"".join(pieces)
            for position in places[first : first + MOVE_BATCH]:
                blocks[position] = stand_in
            if len(pending) >= WRITE_PIECE:
                self._write_streams()
        self.moved += len(texts)
        return last

    def _stand_in_block(self, session: int, kind: str) -> Block:
        """The block that stands for the moved ``kind`` blocks of ``session`` (its stream
        noted as one that may hold bytes to write)."""
        key = (session, kind)
        stand_in = self._spilled.get(key)
        if stand_in is None:
            stand_in = self._spilled[key] = Block(kind, 0, SpilledParts(self))
        self._dirty[key] = cast(SpilledParts, stand_in.parts)
        return stand_in

    def _write_streams(self) -> None:
        """Write what the moved texts' streams gathered, each its own piece; where the
        file cannot be made or written (a full disk), what was not written stays
        gathered, and no more text is moved."""
        if self._stuck:
            return
        try:
            fd = self._open()
            for spilled in self._dirty.values():
                pending = spilled.pending
                while pending:
                    written = os.pwrite(fd, pending, self._written)
                    spilled.pieces.append(spilled.written)
                    spilled.pieces.append(self._written)
                    spilled.written += written
                    self._written += written
                    del pending[:written]
        except OSError as error:
            self._stuck = True
            self.failed = error.strerror or str(error)
            return
        self._dirty.clear()

    def _settle(self, call: ToolCall) -> None:
        """Make a finished call smaller, as ``--json`` writes it: its line numbers and
        index are written nowhere, and the fold asks only whether it has its result
        (:func:`~streamview.core.repeated_results.call_for`): ``completed_line`` 0 says
        so (small ints are shared: 90 bytes a call less). Its target and summary become
        the copy of an equal one already seen."""
        if call.completed_line is None:
            return
        call.index = 0
        settle(call, self._strings)

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
        written = self._written
        data = b""
        if start < written:
            data = self.pread(min(end, written) - start, start)
        if end > written:
            data += self._pending[max(start - written, 0) : end - written]
        return data

    def pread(self, size: int, at: int) -> bytes:
        """``size`` bytes of the file from ``at``."""
        return os.pread(self._fd, size, at)

    def _open(self) -> int:
        """The file, made the first time (:func:`anonymous_file`)."""
        if self._fd < 0:
            self._fd, self._file = anonymous_file()
        return self._fd

    def _flush(self) -> None:
        """Write what :meth:`append` gathered; where the file cannot be made or written
        (a full disk), what was not written stays gathered, and no more text is moved."""
        pending = self._pending
        try:
            while pending:
                written = os.pwrite(self._open(), pending, self._written)
                self._written += written
                del pending[:written]
        except OSError as error:
            self._stuck = True
            self.failed = error.strerror or str(error)

    def stand_in(self, session: int, kind: str) -> SpilledParts | None:
        """The parts that stand for the moved ``kind`` blocks of a session, if any."""
        block = self._spilled.get((session, kind))
        return None if block is None else cast(SpilledParts, block.parts)

    def read(self, spilled: SpilledParts) -> Iterator[str]:
        """The texts of ``spilled``, read a MB or so at a time (what lies between two
        of them is read too: a separator)."""
        starts, ends = spilled.starts, spilled.ends
        count = len(ends)
        index = 0
        while index < count:
            start = starts[index]
            last = index
            while last + 1 < count and ends[last + 1] - start < READ_PIECE:
                last += 1
            data = spilled.span(start, ends[last])
            for at in range(index, last + 1):
                yield data[starts[at] - start : ends[at] - start].decode("utf-8", "surrogatepass")
            index = last + 1

    def close(self) -> None:
        """Let the file go (it is deleted: it never had a name)."""
        if self._file is not None:
            self._file.close()
        elif self._fd >= 0:
            os.close(self._fd)
        self._fd, self._file = -1, None


def anonymous_file() -> tuple[int, IO[bytes] | None]:
    """A new file with no name, read and written by its descriptor: Linux's
    ``O_TMPFILE`` in ``$TMPDIR`` (or ``/tmp``), else :func:`tempfile.TemporaryFile`
    (and the file object, to close). ``tempfile`` is imported only then: with what it
    imports (``random``, ``shutil``) it took 4-9 ms, a run's whole sweep of Codex's
    bench file."""
    flags = getattr(os, "O_TMPFILE", 0)
    if flags:
        for name in ("TMPDIR", "TEMP", "TMP"):  # as tempfile.gettempdir() looks
            folder = os.environ.get(name)
            if folder:
                break
        else:
            folder = "/tmp"
        try:
            return os.open(folder, flags | os.O_RDWR | os.O_CLOEXEC, 0o600), None
        except OSError:
            pass  # no O_TMPFILE on its file system, no such folder: tempfile finds one
    import tempfile

    made = tempfile.TemporaryFile(prefix="streamview-text-")  # noqa: SIM115 (closed by close())
    return made.fileno(), made
