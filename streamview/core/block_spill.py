"""The text of closed transcript blocks, moved out of memory while a file is folded for
the viewer (issue 27.5: about 6 MB of decoded text per 60 MB of Claude session, a
quarter of what the fold keeps).

``--json``'s :class:`~streamview.core.text_store.TextSpill` puts one shared block in
place of every moved one: it writes the session's text in order and nothing else. The
viewer shows each block on its own (the transcript, search, copy, the exports), so
:class:`BlockSpill` keeps every block and replaces only its ``parts``, with an
:class:`InTheFile`: an empty list that knows where its text is in an anonymous temporary
file (the spill's). :attr:`~streamview.core.model.Block.text` reads it back from there
(a few recently read are kept). The block stays the same object: a playback checkpoint
that shares it reads the same text.

What is moved: a text or thinking block that is closed and before the session's last
text, tool or prompt block (the one the fold may still read or replace, as
:class:`~streamview.core.text_store.TextSpill` decides).
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator

from streamview.core.model import PROMPT, TEXT, THINKING, TOOL, Session
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
    """A moved block's ``parts``: empty, never grown; :meth:`block_text` reads its text."""

    __slots__ = ("_at", "_spill")

    def __init__(self, spill: BlockSpill, at: int) -> None:
        super().__init__()
        self._spill = spill
        self._at = at

    def block_text(self) -> str:
        """The block's text, read back from the file."""
        return self._spill.text(self._at)


class BlockSpill:
    """Moves closed blocks' text to a temporary file, block by block (see the module)."""

    def __init__(self) -> None:
        self._file = TextSpill()
        """Writes and reads the file (only its writing and reading are used)."""
        self._starts = array("q")
        self._ends = array("q")
        self._seen: dict[int, int] = {}
        """Per session: how many of its blocks a sweep looked at."""
        self._read: OrderedDict[int, str] = OrderedDict()
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
            for position in range(done, stop):
                block = blocks[position]
                parts = block.parts
                if block.open or block.kind not in _MOVED_KINDS or parts.__class__ is not list:
                    continue
                if block is session.open_text or block is session.open_thinking:
                    continue
                if not any(parts):
                    continue
                block.parts = self._move(parts)
            seen[session.index] = stop

    def _move(self, parts: list[str]) -> list[str]:
        """Write ``parts`` to the file; what stands for them now (they stay where the
        file cannot be written)."""
        span = self._file.append("".join(parts))
        if span is None:
            return parts
        at = len(self._starts)
        self._starts.append(span[0])
        self._ends.append(span[1])
        self.moved += 1
        return InTheFile(self, at)

    def text(self, at: int) -> str:
        """The text of the ``at``-th block moved (the UI and the layout thread ask)."""
        with self._lock:
            return self._text(at)

    def _text(self, at: int) -> str:
        read = self._read
        text = read.get(at)
        if text is not None:
            read.move_to_end(at)
            return text
        starts, ends = self._starts, self._ends
        start = starts[at]
        last = at  # the blocks after it, read with it (a transcript lays them out in order)
        stop = min(len(starts), at + READ_AHEAD)
        while last + 1 < stop and ends[last + 1] - start <= READ_AHEAD_BYTES:
            last += 1
        data = self._file.read_range(start, ends[last])
        for place in range(last, at - 1, -1):
            read[place] = data[starts[place] - start : ends[place] - start].decode(
                "utf-8", "surrogatepass"
            )
            read.move_to_end(place)
        while len(read) > READ_KEPT:
            read.popitem(last=False)
        return read[at]

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
