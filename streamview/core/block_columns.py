"""A session's closed transcript blocks packed in columns, for the viewer (issue 27.5).

A 2 GB Claude session has 1.15 million blocks, half of them tool markers. Each was a
:class:`~streamview.core.model.Block` (80 bytes as allocated), its place in the
session's list (8), its line as an int (32, a tool marker's shared with its call) and,
once the viewer moved its text to a file (:mod:`streamview.core.block_spill`), where
that text is (25): 88 to 145 bytes a block. Packed, a closed block is a row of
:class:`BlockColumns`: its kind (1 byte), its line (4), its call's index or its text's
place (4), and for a moved text where it is in the file (12).

:class:`PackedBlocks` then stands for ``session.blocks``: the packed rows first, the
blocks folded since after them as they are (its ``append`` is theirs), and a
:class:`Block` made each time one is asked for: the transcript asks for those near the
screen (it keeps its own heights and offsets), exports and search walk them one at a
time. A made block equals the one packed, but for its ``parts``: empty, an
:class:`InTheFile` that reads the text back (as a moved block's were already).

Only closed blocks are packed, never an open one nor any block after it, and the fold
never changes a closed block, so a row never changes. Copies (a playback checkpoint's,
a state restored from one) share the rows and keep their own blocks after them and
their own blocks in place of some rows (:meth:`PackedBlocks.__setitem__`); only the
packer's own sequence (:attr:`PackedBlocks.owns`) gets more rows.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, cast, overload

from streamview.core.fold_calls import NO_PARTS
from streamview.core.model import TEXT, THINKING, TOOL, Block
from streamview.core.paged_array import PagedArray, widened

TEXT_ROW, THINKING_ROW, TOOL_ROW, KEPT_ROW = 0, 1, 2, 3
"""A row's kind: a text or thinking block whose text is in the file, a tool marker, a
block kept as it is (a prompt, a notice, an empty or unmovable text: few)."""
_KIND_OF_ROW = (TEXT, THINKING, TOOL)
_WIDEST = 1 << 63
PLACES_AT_ONCE = 1 << 16
"""Rows :meth:`PackedBlocks.iter_places` looks through at a time."""


class TextReader(Protocol):
    """Where packed texts are read back from (the spill that wrote them)."""

    def text_at(self, columns: BlockColumns, place: int) -> str:
        """The text of ``columns``' moved block number ``place``."""
        ...


def _fits(value: object) -> bool:
    """Whether ``value`` is an int an ``array('q')`` holds."""
    return type(value) is int and -_WIDEST <= value < _WIDEST


class BlockColumns:
    """The packed rows of one session (see the module). Only appended to."""

    __slots__ = (
        "deltas",
        "kept",
        "kinds",
        "lengths",
        "lines",
        "reader",
        "refs",
        "revisions",
        "starts",
    )

    def __init__(self, reader: TextReader) -> None:
        self.reader = reader
        self.kinds = bytearray()
        """Per row: :data:`TEXT_ROW`, :data:`THINKING_ROW`, :data:`TOOL_ROW` or :data:`KEPT_ROW`."""
        self.lines: Any = PagedArray("I")
        """Per row: the block's line (8-byte once one does not fit in 4)."""
        self.refs: Any = PagedArray("i")
        """Per row: a tool marker's call index (-1: none), a moved text's place in
        :attr:`starts` (8-byte once one does not fit)."""
        self.deltas: Any = None
        """Per row, once a block has any: the deltas that built it (else all 0)."""
        self.revisions: dict[int, int] = {}
        """The rows whose block was revised (a recap): their revision."""
        self.kept: dict[int, Block] = {}
        """The :data:`KEPT_ROW` rows' blocks."""
        self.starts: Any = PagedArray("q")
        """Per moved text: where it starts in the file."""
        self.lengths: Any = PagedArray("I")
        """And its length in bytes (8-byte once one does not fit)."""

    def __len__(self) -> int:
        return len(self.kinds)

    @staticmethod
    def movable(block: Block) -> bool:
        """Whether ``block`` (closed) becomes a row whose text is in the file."""
        parts = block.parts
        return (
            block.kind in (TEXT, THINKING)
            and block.call_index is None
            and parts.__class__ is list
            and any(parts)
            and _fits(block.line)
            and _fits(block.deltas)
            and block.revision.__class__ is int
        )

    def add(self, block: Block, span: tuple[int, int] | None) -> None:
        """Pack ``block`` (closed) as the next row; ``span``: where the file holds its
        text, when it is a text or thinking block the spill wrote there."""
        kind, line, deltas, revision = block.kind, block.line, block.deltas, block.revision
        call, parts = block.call_index, block.parts
        if not (
            type(line) is int
            and type(deltas) is int
            and type(revision) is int
            and -_WIDEST <= line < _WIDEST
            and -_WIDEST <= deltas < _WIDEST
        ):
            code, line, ref = KEPT_ROW, 0, 0
            deltas = revision = 0
        elif kind == TOOL and parts.__class__ is list and not parts:
            if call is None:
                code, ref = TOOL_ROW, -1
            elif type(call) is int and 0 <= call < _WIDEST:
                code, ref = TOOL_ROW, call
            else:
                code, ref = KEPT_ROW, 0
        elif span is not None and call is None and kind in (TEXT, THINKING):
            code, ref = (TEXT_ROW if kind == TEXT else THINKING_ROW), len(self.starts)
            self.starts.append(span[0])
            try:
                self.lengths.append(span[1] - span[0])
            except OverflowError:
                self.lengths = widened(self.lengths, "q")
                self.lengths.append(span[1] - span[0])
        else:
            code, ref = KEPT_ROW, 0
        row = len(self.kinds)
        if code == KEPT_ROW:
            self.kept[row] = block
        self.kinds.append(code)
        try:
            self.lines.append(line)
        except OverflowError:
            self.lines = widened(self.lines, "q")
            self.lines.append(line)
        try:
            self.refs.append(ref)
        except OverflowError:
            self.refs = widened(self.refs, "q")
            self.refs.append(ref)
        column = self.deltas
        if deltas and column is None:
            column = self.deltas = PagedArray("I", array("I", bytes(4 * row)))
        if column is not None:
            try:
                column.append(deltas)
            except OverflowError:
                column = self.deltas = widened(column, "q")
                column.append(deltas)
        if revision:
            self.revisions[row] = revision

    def block(self, row: int) -> Block:
        """Row ``row`` as a block (a new one, but for a kept row)."""
        code = self.kinds[row]
        if code == KEPT_ROW:
            return self.kept[row]
        deltas = self.deltas[row] if self.deltas is not None else 0
        revision = self.revisions.get(row, 0) if self.revisions else 0
        ref = self.refs[row]
        if code == TOOL_ROW:
            call = None if ref < 0 else ref
            return Block(TOOL, self.lines[row], NO_PARTS, False, call, revision, deltas)
        parts = InTheFile(self, ref)
        return Block(_KIND_OF_ROW[code], self.lines[row], parts, False, None, revision, deltas)

    def kind(self, row: int) -> str:
        """Row ``row``'s block's kind."""
        code = self.kinds[row]
        return self.kept[row].kind if code == KEPT_ROW else _KIND_OF_ROW[code]

    def text(self, place: int) -> str:
        """The text of the moved block number ``place``."""
        return self.reader.text_at(self, place)


class InTheFile(list[str]):
    """The ``parts`` of a made block whose text is in the file: empty, never grown;
    :meth:`block_text` reads the text back."""

    __slots__ = ("_columns", "_place")

    def __init__(self, columns: BlockColumns, place: int) -> None:
        super().__init__()
        self._columns = columns
        self._place = place

    def block_text(self, block: Block | None = None) -> str:
        """The block's text, read back from the file."""
        return self._columns.text(self._place)


class PackedBlocks(Sequence[Block]):
    """A session's blocks with the closed ones before the last few packed (see the
    module): a sequence of :class:`Block`, appended to as the fold's list is.

    Args:
        columns: The packed rows (shared with copies).
        rows: How many of them are this sequence's first blocks.
        tail: The blocks after them (this sequence's own list).
        owns: The packer's own sequence: more rows may be added to ``columns``.
        over: Blocks that stand in place of some rows (a copy's own).
    """

    __slots__ = ("_columns", "_over", "_part", "append", "owns")

    def __init__(
        self,
        columns: BlockColumns,
        rows: int,
        tail: list[Block],
        owns: bool = False,
        over: dict[int, Block] | None = None,
    ) -> None:
        self._columns = columns
        self._part = (rows, tail)
        """The rows, and the blocks after them: swapped as one (:meth:`packed_more`),
        so another thread reading the sequence never sees half a sweep."""
        self.append: Callable[[Block], None] = tail.append
        self.owns = owns
        self._over = over

    @property
    def columns(self) -> BlockColumns:
        """The packed rows."""
        return self._columns

    @property
    def packed(self) -> int:
        """How many blocks are rows (every one closed)."""
        return self._part[0]

    @property
    def tail(self) -> list[Block]:
        """The blocks after the rows."""
        return self._part[1]

    def packed_more(self, rows: int, tail: list[Block]) -> None:
        """The packer added rows: ``rows`` of them now, ``tail`` the blocks after."""
        self._part = (rows, tail)
        self.append = tail.append

    def __len__(self) -> int:
        rows, tail = self._part
        return rows + len(tail)

    def _row(self, row: int) -> Block:
        over = self._over
        if over is not None:
            block = over.get(row)
            if block is not None:
                return block
        return self._columns.block(row)

    @overload
    def __getitem__(self, index: int) -> Block: ...

    @overload
    def __getitem__(self, index: slice) -> list[Block]: ...

    def __getitem__(self, index: int | slice) -> Block | list[Block]:
        rows, tail = self._part
        if type(index) is int:
            at = index
            if at < 0:
                at += rows + len(tail)
                if at < 0:
                    raise IndexError(index)
            if at >= rows:
                return tail[at - rows]
            return self._row(at)
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(rows + len(tail)))]
        raise TypeError(f"block indices must be integers or slices, not {type(index).__name__}")

    def __setitem__(self, index: int, block: Block) -> None:
        rows, tail = self._part
        if index < 0:
            index += rows + len(tail)
        if index >= rows:
            tail[index - rows] = block
            return
        if index < 0:
            raise IndexError(index)
        if self._over is None:
            self._over = {}
        self._over[index] = block

    def __iter__(self) -> Iterator[Block]:
        rows, tail = self._part
        row = self._row
        for at in range(rows):
            yield row(at)
        yield from tail

    def __reversed__(self) -> Iterator[Block]:
        rows, tail = self._part
        yield from reversed(tail)
        row = self._row
        for at in range(rows - 1, -1, -1):
            yield row(at)

    def __contains__(self, block: object) -> bool:
        return any(item == block for item in self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, list | PackedBlocks):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        rows, tail = self._part
        return f"PackedBlocks({rows} packed, {len(tail)} after)"

    def copy(self) -> PackedBlocks:
        """A copy: the same rows, its own list of the blocks after them."""
        rows, tail = self._part
        over = dict(self._over) if self._over else None
        return PackedBlocks(self._columns, rows, list(tail), False, over)

    def prefix(self, count: int) -> PackedBlocks:
        """A copy of the first ``count`` blocks."""
        rows, tail = self._part
        over = self._over
        if count >= rows:
            return PackedBlocks(self._columns, rows, tail[: count - rows], False, dict(over or {}))
        kept = {at: block for at, block in over.items() if at < count} if over else None
        return PackedBlocks(self._columns, max(count, 0), [], False, kept)

    def place_of(self, block: Block) -> int | None:
        """Where ``block`` itself is, if it is one of the blocks held as objects (after
        the rows, in place of a row, a row kept): never a made one."""
        rows, tail = self._part
        for at in range(len(tail) - 1, -1, -1):
            if tail[at] is block:
                return rows + at
        for held in (self._over or {}, self._columns.kept):
            for at, item in held.items():
                if item is block and at < rows:
                    return at
        return None

    def kind_at(self, index: int) -> str:
        """Block ``index``'s kind, without making it."""
        rows, tail = self._part
        if index < 0:
            index += rows + len(tail)
        if index >= rows:
            return tail[index - rows].kind
        over = self._over
        if over is not None and index in over:
            return over[index].kind
        return self._columns.kind(index)

    def places_of(self, kind: str, start: int = 0) -> list[int]:
        """The places of the ``kind`` blocks from block ``start`` on, in order."""
        return list(self.iter_places(kind, start))

    def iter_places(self, kind: str, start: int = 0) -> Iterator[int]:
        """:meth:`places_of`, found :data:`PLACES_AT_ONCE` rows at a time (a list of a
        2 GB session's 576,690 tool markers' places held 20 MB at once)."""
        rows, tail = self._part
        if start < rows:
            columns = self._columns
            odd = set(columns.kept) | set(self._over or ())
            code = _KIND_OF_ROW.index(kind) if kind in _KIND_OF_ROW else KEPT_ROW
            find, byte = columns.kinds.find, bytes([code])
            for first in range(start, rows, PLACES_AT_ONCE):
                stop = min(first + PLACES_AT_ONCE, rows)
                found = []
                if code != KEPT_ROW:
                    at = find(byte, first, stop)
                    while at >= 0:
                        if at not in odd:
                            found.append(at)
                        at = find(byte, at + 1, stop)
                if odd:
                    found += [at for at in odd if first <= at < stop and self._row(at).kind == kind]
                    found.sort()
                yield from found
        for at in range(max(start, rows), rows + len(tail)):
            if tail[at - rows].kind == kind:
                yield at

    def tools_from(self, start: int) -> Iterator[tuple[int, int]]:
        """``(place, call index)`` of each tool marker from block ``start`` on, in order."""
        rows = self._part[0]
        refs, odd = self._columns.refs, self._columns.kept.keys() | (self._over or {}).keys()
        for at in self.iter_places(TOOL, start):
            if at < rows and at not in odd:
                if refs[at] >= 0:
                    yield at, refs[at]
                continue
            call = self[at].call_index
            if call is not None:
                yield at, call


def packed_count(blocks: Sequence[Block]) -> int:
    """How many of ``blocks`` are packed, all closed (0 for a list)."""
    return blocks.packed if isinstance(blocks, PackedBlocks) else 0


def kind_at(blocks: Sequence[Block], index: int) -> str:
    """The kind of ``blocks[index]``, without making a packed block."""
    if isinstance(blocks, PackedBlocks):
        return blocks.kind_at(index)
    return blocks[index].kind


def tools_from(blocks: Sequence[Block], start: int) -> Iterator[tuple[int, int]]:
    """``(place, call index)`` of each tool marker of ``blocks`` from ``start`` on."""
    if isinstance(blocks, PackedBlocks):
        return blocks.tools_from(start)
    return (
        (at, block.call_index)
        for at, block in enumerate(blocks[start:], start)
        if block.kind == TOOL and block.call_index is not None
    )


def places_of(blocks: Sequence[Block], kind: str) -> list[int]:
    """The places of ``blocks``' ``kind`` blocks, in order, without making packed ones."""
    if isinstance(blocks, PackedBlocks):
        return blocks.places_of(kind)
    return [at for at, block in enumerate(blocks) if block.kind == kind]


def place_of(blocks: Sequence[Block], block: Block) -> int | None:
    """Where ``block`` itself is among ``blocks``, looking from the end (``None``: not
    there)."""
    if isinstance(blocks, PackedBlocks):
        return blocks.place_of(block)
    for at in range(len(blocks) - 1, -1, -1):
        if blocks[at] is block:
            return at
    return None


def copy_of(blocks: list[Block]) -> list[Block]:
    """A copy of a session's blocks (a list, or packed blocks sharing their rows)."""
    return blocks.copy()  # PackedBlocks.copy for packed ones


def first_blocks(blocks: Sequence[Block], count: int) -> list[Block]:
    """A copy of the first ``count`` of a session's blocks (packed ones share their rows)."""
    if isinstance(blocks, PackedBlocks):
        return cast(list[Block], blocks.prefix(count))
    return list(blocks[:count])
