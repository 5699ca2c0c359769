"""The text of closed transcript blocks, moved out of memory while a file is folded for
the viewer (issue 27.5: about 6 MB of decoded text per 60 MB of Claude session, a
quarter of what the fold keeps).

``--json``'s :class:`~streamview.core.text_store.TextSpill` puts one shared block in
place of every moved one: it writes the session's text in order and nothing else. The
viewer shows each block on its own (the transcript, search, copy, the exports), so
:class:`BlockSpill` keeps every block and replaces only its ``parts``, with its session's
:class:`InTheFile`: an empty list, one for all the blocks of the session it moved, that
finds where a block's text is in an anonymous temporary file (the spill's) by the block's
line and kind. :attr:`~streamview.core.model.Block.text` reads it back from there (a few
recently read are kept). The block stays the same object: a playback checkpoint that
shares it reads the same text. A moved block costs 25 bytes of arrays (an object of
its own and its place as an int took 104: 60 MB of a 2 GB session's 700).

What is moved: a text or thinking block that is closed and before the session's last
text, tool or prompt block (the one the fold may still read or replace, as
:class:`~streamview.core.text_store.TextSpill` decides), unless its line is before the
last moved one's or a block of its kind on that line was moved (it would not be found:
a message's two answers on one line, the second keeps its text).
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterable, Iterator

from streamview.core.model import PROMPT, TEXT, THINKING, TOOL, Block, Session
from streamview.core.sweeps import swept
from streamview.core.text_store import TextSpill

SWEEP_EVERY = 32 << 20
"""Bytes of the file folded between two sweeps (a shorter file keeps its text)."""
READ_KEPT = 64
"""Texts read back kept, the most recent (a screen lays out a block several times)."""
READ_AHEAD = READ_KEPT // 2
"""Blocks read from the file at once, at most: the one asked for and those after it."""
READ_AHEAD_BYTES = 64 << 10
"""And their bytes, at most (a block longer than that is read alone)."""
_TURN_KINDS = (TEXT, TOOL, PROMPT)
_MOVED_KINDS = (TEXT, THINKING)


class InTheFile(list[str]):
    """The ``parts`` of a session's moved blocks: empty, never grown, one for them all;
    :meth:`block_text` reads a block's text back. Per block moved, in order: its line
    and kind (which block it is) and where its text starts and ends in the file."""

    __slots__ = ("_ends", "_kinds", "_lines", "_session", "_spill", "_starts")

    def __init__(self, spill: BlockSpill, session: int) -> None:
        super().__init__()
        self._spill = spill
        self._session = session
        self._lines = array("q")
        self._kinds = bytearray()
        """1 for a thinking block, 0 for a text block."""
        self._starts = array("q")
        self._ends = array("q")

    def block_text(self, block: Block) -> str:
        """``block``'s text, read back from the file."""
        return self._spill.text(self, block)

    def _place(self, block: Block) -> int:
        """Where ``block`` is among the moved ones (its line, then its kind)."""
        lines, line = self._lines, block.line
        kind = block.kind == THINKING
        place = bisect_left(lines, line)
        while place < len(lines) and lines[place] == line:
            if self._kinds[place] == kind:
                return place
            place += 1
        raise LookupError(f"no moved {block.kind} block at line {line}")

    def _takes(self, block: Block) -> bool:
        """Whether ``block`` can be found once moved (see the module)."""
        lines, line = self._lines, block.line
        if not lines or lines[-1] < line:
            return True
        if lines[-1] > line:
            return False
        kind = block.kind == THINKING
        place = len(lines) - 1
        while place >= 0 and lines[place] == line:
            if self._kinds[place] == kind:
                return False
            place -= 1
        return True

    def _add(self, block: Block, span: tuple[int, int]) -> None:
        self._lines.append(block.line)
        self._kinds.append(block.kind == THINKING)
        self._starts.append(span[0])
        self._ends.append(span[1])


class BlockSpill:
    """Moves closed blocks' text to a temporary file, block by block (see the module)."""

    def __init__(self) -> None:
        self._file = TextSpill()
        """Writes and reads the file (only its writing and reading are used)."""
        self._stand_ins: dict[int, InTheFile] = {}
        """Per session: what its moved blocks' ``parts`` are."""
        self._seen: dict[int, int] = {}
        """Per session: how many of its blocks a sweep looked at."""
        self._read: OrderedDict[tuple[int, int], str] = OrderedDict()
        self._lock = threading.Lock()
        self.moved = 0
        """Blocks whose text was moved."""

    def sweep(self, sessions: list[Session]) -> None:
        """Move the text of the blocks closed since the last sweep."""
        seen = self._seen
        for session in sessions:
            blocks = session.blocks
            done = seen.get(session.index, 0)
            if len(blocks) < done:  # a front let its blocks go
                done = 0
            stop = len(blocks) - 1  # the last text, tool or prompt block stays
            while stop > done and blocks[stop].kind not in _TURN_KINDS:
                stop -= 1
            if stop <= done:
                continue
            stand_in = self._stand_ins.get(session.index)
            if stand_in is None:
                stand_in = self._stand_ins[session.index] = InTheFile(self, session.index)
            for position in range(done, stop):
                block = blocks[position]
                parts = block.parts
                if block.open or block.kind not in _MOVED_KINDS or parts.__class__ is not list:
                    continue
                if block is session.open_text or block is session.open_thinking:
                    continue
                if not any(parts) or not stand_in._takes(block):
                    continue
                self._move(block, stand_in)
            seen[session.index] = stop

    def _move(self, block: Block, stand_in: InTheFile) -> None:
        """Write ``block``'s text to the file and put ``stand_in`` in place of its parts
        (they stay where the file cannot be written)."""
        span = self._file.append("".join(block.parts))
        if span is None:
            return
        with self._lock:  # the UI's threads look blocks up in these arrays
            stand_in._add(block, span)
        block.parts = stand_in
        self.moved += 1

    def text(self, stand_in: InTheFile, block: Block) -> str:
        """The text of ``block``, moved with ``stand_in``'s session (the UI and the
        layout thread ask)."""
        with self._lock:
            return self._text(stand_in, stand_in._place(block))

    def _text(self, stand_in: InTheFile, at: int) -> str:
        read = self._read
        session = stand_in._session
        text = read.get((session, at))
        if text is not None:
            read.move_to_end((session, at))
            return text
        starts, ends = stand_in._starts, stand_in._ends
        start = starts[at]
        last = at  # the blocks after it, read with it (a transcript lays them out in order)
        stop = min(len(starts), at + READ_AHEAD)
        while last + 1 < stop and ends[last + 1] - start <= READ_AHEAD_BYTES:
            last += 1
        data = self._file.read_range(start, ends[last])
        for place in range(last, at - 1, -1):
            read[(session, place)] = data[starts[place] - start : ends[place] - start].decode(
                "utf-8", "surrogatepass"
            )
            read.move_to_end((session, place))
        while len(read) > READ_KEPT:
            read.popitem(last=False)
        return read[(session, at)]

    @property
    def held(self) -> int:
        """Texts read back and kept."""
        return len(self._read)


def spilling(
    chunks: Iterable[bytes], sessions: list[Session], every: int | None = None
) -> Iterator[bytes]:
    """``chunks``, with the text of the closed blocks in ``sessions`` moved to a file
    every ``every`` bytes and at the end of a longer file (``sessions``: the list the
    fold appends to); a shorter file's text all stays."""
    spill = BlockSpill()
    return swept(chunks, lambda: spill.sweep(sessions), every or SWEEP_EVERY)
