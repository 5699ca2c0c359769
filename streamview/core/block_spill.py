"""The closed transcript blocks of a file folded for the viewer, their text moved out of
memory and the blocks packed in columns (issue 27.5: about 6 MB of decoded text per
60 MB of Claude session, a quarter of what the fold keeps; then 80-112 bytes a block).

``--json``'s :class:`~streamview.core.text_store.TextSpill` puts one shared block in
place of every moved one: it writes the session's text in order and nothing else. The
viewer shows each block on its own (the transcript, search, copy, the exports), so
:class:`BlockSpill` writes each closed text and thinking block's text to an anonymous
temporary file (the spill's) and packs the closed blocks into a row each
(:class:`~streamview.core.block_columns.BlockColumns`): ``session.blocks`` becomes a
:class:`~streamview.core.block_columns.PackedBlocks` that makes a block when one is
asked for, whose :attr:`~streamview.core.model.Block.text` is read back from the file
(a few recently read are kept). A packed tool marker takes 9 bytes, a moved text 21.

What is packed: the closed blocks before the session's last text, tool or prompt block
(the one the fold may still read or replace, as
:class:`~streamview.core.text_store.TextSpill` decides), up to the first open one. A
prompt, a notice or an empty text stays a block, kept by its row.

:func:`spilling` sweeps every 32 MB of a file being folded (a shorter file keeps its
blocks); :class:`LiveSweep` sweeps a live input's state as its blocks pile up.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import cast

from streamview.core.block_columns import BlockColumns, InTheFile, PackedBlocks, packed_count
from streamview.core.events import AgentNotice
from streamview.core.model import PROMPT, TEXT, TOOL, Block, Session
from streamview.core.sweeps import swept
from streamview.core.text_store import TextSpill

__all__ = [
    "READ_KEPT",
    "SWEEP_EVERY",
    "BlockSpill",
    "InTheFile",
    "LiveSweep",
    "spill_notices",
    "spilling",
]

SWEEP_EVERY = 8 << 20
"""Bytes of the file folded between two sweeps (a shorter file keeps its text)."""
SWEEP_BLOCKS = 4096
"""Blocks of a live session left as they are before :class:`LiveSweep` packs them."""
READ_KEPT = 64
"""Texts read back kept, the most recent (a screen lays out a block several times)."""
READ_AHEAD = READ_KEPT // 2
"""Blocks read from the file at once, at most: the one asked for and those after it."""
READ_AHEAD_BYTES = 64 << 10
"""And their bytes, at most (a block longer than that is read alone)."""
_TURN_KINDS = (TEXT, TOOL, PROMPT)


class BlockSpill:
    """Moves closed blocks' text to a temporary file and packs them (see the module)."""

    def __init__(self) -> None:
        self._file = TextSpill()
        """Writes and reads the file (only its writing and reading are used)."""
        self._read: OrderedDict[int, str] = OrderedDict()
        """Texts read back, by where they start in the file."""
        self._lock = threading.Lock()
        self.moved = 0
        """Blocks whose text was moved."""
        self.packed = 0
        """Blocks packed."""

    @property
    def failed(self) -> str | None:
        """Why the file of moved texts could not be made or written (``None``: it
        could, or nothing was moved yet): the texts since stay in memory."""
        return self._file.failed

    def sweep(self, sessions: Iterable[Session]) -> None:
        """Pack the blocks closed since the last sweep, moving their text."""
        for session in sessions:
            self.pack(session)

    def pack(self, session: Session) -> int:
        """Pack ``session``'s blocks closed since the last sweep; how many."""
        blocks: object = session.blocks
        if type(blocks) is list:
            columns, rows, items = None, 0, blocks
        elif type(blocks) is PackedBlocks:
            packed = blocks
            columns = packed.columns
            if not packed.owns or columns.reader is not self:
                return 0  # a copy's (a checkpoint's): its rows are shared
            rows, items = packed.packed, packed.tail
        else:
            return 0
        stop = len(items) - 1  # the last text, tool or prompt block stays
        while stop > 0 and items[stop].kind not in _TURN_KINDS:
            stop -= 1
        if stop <= 0:
            return 0
        open_text, open_thinking = session.open_text, session.open_thinking
        count = 0
        with self._lock:  # the UI's threads read texts back meanwhile
            if columns is None:
                columns = BlockColumns(self)
            for block in islice(items, stop):
                if block.open or block is open_text or block is open_thinking:
                    break
                self._add(columns, block)
                count += 1
        if count:
            self.packed += count
            if type(blocks) is list:
                session.blocks = cast(
                    list[Block], PackedBlocks(columns, count, items[count:], True)
                )
            else:
                packed.packed_more(rows + count, items[count:])
        return count

    def _add(self, columns: BlockColumns, block: Block) -> None:
        """Pack ``block``, its text written to the file if it has one to move."""
        span = None
        if columns.movable(block):
            parts = block.parts
            span = self._file.append(parts[0] if len(parts) == 1 else "".join(parts))
            if span is not None:
                self.moved += 1
        columns.add(block, span)

    def text_at(self, columns: BlockColumns, place: int) -> str:
        """The text of ``columns``' moved block number ``place`` (the UI and the layout
        thread ask)."""
        with self._lock:
            read = self._read
            starts, lengths = columns.starts, columns.lengths
            start = starts[place]
            text = read.get(start)
            if text is not None:
                read.move_to_end(start)
                return text
            # those after it, read with it (a transcript lays them out in order); the
            # places read at once (the rows' columns are paged: an item costs a call)
            ahead = starts[place : place + READ_AHEAD]
            sizes = lengths[place : place + READ_AHEAD]
            last = 0
            while last + 1 < len(sizes) and ahead[last + 1] + sizes[last + 1] - start <= (
                READ_AHEAD_BYTES
            ):
                last += 1
            data = self._file.read_range(start, ahead[last] + sizes[last])
            for at in range(last, -1, -1):
                begin = ahead[at] - start
                read[ahead[at]] = data[begin : begin + sizes[at]].decode("utf-8", "surrogatepass")
                read.move_to_end(ahead[at])
            while len(read) > READ_KEPT:
                read.popitem(last=False)
            return read[start]

    @property
    def held(self) -> int:
        """Texts read back and kept."""
        return len(self._read)


class LiveSweep:
    """Packs a live input's closed blocks as they pile up: called with the state's
    sessions after each fold (the viewer's frame), it sweeps once the newest session
    has :data:`SWEEP_BLOCKS` blocks not packed, or a session closed since."""

    def __init__(self, every: int | None = None) -> None:
        self.every = every or SWEEP_BLOCKS
        self._spill: BlockSpill | None = None
        self._of: list[Session] | None = None
        """The state's list of sessions swept (a state started over has another)."""
        self._sessions = 0
        """Sessions seen at the last sweep (those before the last one are closed)."""

    def __call__(self, sessions: list[Session]) -> None:
        if not sessions:
            return
        if sessions is not self._of:
            self._of, self._sessions = sessions, 0
        blocks = sessions[-1].blocks
        if len(sessions) == self._sessions and len(blocks) - packed_count(blocks) < self.every:
            return
        if self._spill is None:
            self._spill = BlockSpill()
        self._spill.sweep(sessions[max(self._sessions - 1, 0) :])
        self._sessions = len(sessions)

    @property
    def spill(self) -> BlockSpill | None:
        """Where the swept blocks' text went (``None``: nothing swept yet), to ask
        whether its file could be written."""
        return self._spill


def spilling(
    chunks: Iterable[bytes],
    sessions: list[Session],
    every: int | None = None,
    spills: list[BlockSpill] | None = None,
) -> Iterator[bytes]:
    """``chunks``, with the closed blocks in ``sessions`` packed and their text moved to
    a file every ``every`` bytes and at the end of a longer file (``sessions``: the list
    the fold appends to); a shorter file's blocks all stay. The spill is appended to
    ``spills``, if given (to ask it afterwards whether its file could be written)."""
    spill = BlockSpill()
    if spills is not None:
        spills.append(spill)
    return swept(chunks, lambda: spill.sweep(sessions), every or SWEEP_EVERY)


def spill_notices(spills: Iterable[BlockSpill]) -> list[AgentNotice]:
    """A notice for the event log for each spill whose file could not be made or
    written (a full disk, no temporary folder): the texts it did not move stay in
    memory, nothing is lost, and the person is told why the viewer grew."""
    return [
        AgentNotice(
            line=0,
            type="streamview",
            subtype="spill",
            topic="status",
            text=(
                "Closed blocks' text kept in memory: the spill file could not be "
                f"written ({spill.failed})."
            ),
        )
        for spill in spills
        if spill.failed is not None
    ]
