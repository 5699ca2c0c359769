"""The transcript's blocks as the layout keeps them: a full :class:`Entry` (rendered
lines, signature, the layout thread's job) only for the blocks near the screen, and
for every block a height in an array.

A 2 GB session has about two million blocks; an entry each, with its lines, held
hundreds of bytes a block (issue 27.5). Far from the screen a block now costs its
height (4 bytes), a flag (1 byte) and its offset (4 bytes, kept by the layout): its
lines are laid out again when it comes back into view, at the height it had. Heights,
offsets and the tool calls' blocks are paged (:mod:`~streamview.core.paged_array`):
what stays in memory is the flag, a byte a block.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping

from streamview.core.block_columns import kind_at, places_of, tools_from
from streamview.core.paged_array import PagedArray
from streamview.core.state import NOTICE, TOOL, Block
from streamview.ui.transcript.blocks import Entry

RESIDENT_ENTRIES = 160
"""Entries kept before the ones far from the screen are let go (a screenful of one-line
tool markers is 50, and a screen or two around it is kept)."""


ESTIMATED = 1
"""The block's height is estimated."""
LAID_OUT = 2
"""The block's height is that of its lines, laid out at this width."""
_ZEROS = bytes(1 << 16)
_RUN = 1 << 14
"""Tool markers taken in at a time."""


class CallBlocks(Mapping[int, int]):
    """The block of each tool call that has one, by call index (a view of
    :attr:`Entries.call_at`: 4 bytes a call, not a dictionary's hundred)."""

    def __init__(self, call_at: PagedArray) -> None:
        self._call_at = call_at

    def __getitem__(self, call_index: int) -> int:
        at = self._call_at[call_index] if 0 <= call_index < len(self._call_at) else -1
        if at < 0:
            raise KeyError(call_index)
        return at

    def __iter__(self) -> Iterator[int]:
        return (index for index, at in enumerate(self._call_at) if at >= 0)

    def __len__(self) -> int:
        return sum(1 for at in self._call_at if at >= 0)


class Entries:
    """Per block a height; an :class:`Entry` only for those laid out near the screen.

    Indexing (``entries[i]``) gives block ``i``'s entry, making it if it was let go.
    Iterating gives the entries held, in block order.
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        """The session's blocks (its own sequence, not a copy; packed ones are made
        when asked for: :mod:`streamview.core.block_columns`)."""
        self.count = 0
        """Blocks taken in so far."""
        self.heights = PagedArray("I")
        """Lines each block takes (rendered, else estimated); see :attr:`known` (paged)."""
        self.known = bytearray()
        """Per block: :data:`LAID_OUT` or :data:`ESTIMATED` where :attr:`heights` holds
        for the current width and look, 0 where it must be estimated again."""
        self.held: dict[int, Entry] = {}
        """The entries near the screen (and those the layout thread works on)."""
        self.call_at = PagedArray("i")
        """Per tool call index, its block (``-1``: none yet; 4 bytes: a session of two
        billion blocks is not held anyway; paged: :mod:`~streamview.core.paged_array`)."""
        self.calls = PagedArray("i")
        """Blocks of the tool calls, in order (paged)."""
        self.watch_from = 0
        """The first open block: those before it are final (the layout's ``_watch_from``)."""
        self.watched: dict[int, tuple[object, ...]] = {}
        """From :attr:`watch_from` on, what each block not held looked like when its
        height was taken (its signature): it is estimated again when that changes."""

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __iter__(self) -> Iterator[Entry]:
        held = self.held
        return iter([held[index] for index in sorted(held)])

    def __getitem__(self, index: int) -> Entry:
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(index)
        entry = self.held.get(index)
        if entry is None:
            entry = self.held[index] = Entry(self.blocks[index], gap=self.gap(index))
            entry.height = self.heights[index]
        return entry

    def get(self, index: int) -> Entry | None:
        """Block ``index``'s entry if it is held."""
        return self.held.get(index)

    def gap(self, index: int) -> int:
        """Blank lines above block ``index`` (text after a tool marker or notice)."""
        blocks = self.blocks
        return int(
            index > 0
            and kind_at(blocks, index) not in (TOOL, NOTICE)
            and kind_at(blocks, index - 1) in (TOOL, NOTICE)
        )

    def take(self, blocks: list[Block]) -> int | None:
        """Take in the blocks added to ``blocks`` since; the first new one, if any."""
        self.blocks = blocks
        start = self.count
        if len(blocks) <= start:
            return None
        added = len(blocks) - start
        heights, known = self.heights, self.known
        for done in range(0, added, len(_ZEROS)):  # no zeros as long as all of them at once
            zeros = _ZEROS[: min(len(_ZEROS), added - done)]
            known += zeros
            heights.frombytes(zeros * heights.itemsize)
        call_at, calls = self.call_at, self.calls
        # Calls come in order: their blocks gathered in runs, added a run at a time.
        run, places = array("i"), array("i")
        for index, call_index in tools_from(blocks, start):
            places.append(index)
            if call_index == len(call_at) + len(run):
                run.append(index)
            else:
                call_at.extend(run)
                del run[:]
                if call_index >= len(call_at):
                    call_at.extend(array("i", [-1]) * (call_index + 1 - len(call_at)))
                call_at[call_index] = index
            if len(places) >= _RUN:
                call_at.extend(run)
                calls.extend(places)
                del run[:], places[:]
        call_at.extend(run)
        calls.extend(places)
        self.count = len(blocks)
        return start

    def of_call(self, call_index: int) -> int | None:
        """The block of tool call ``call_index``, if it has one."""
        return self.by_call.get(call_index)

    @property
    def by_call(self) -> CallBlocks:
        """The block of each tool call, by call index."""
        return CallBlocks(self.call_at)

    def forget_heights(self, kind: str | None = None) -> None:
        """Heights no longer hold (a new width; or only ``kind``'s, thinking shown or
        hidden): estimate them again."""
        known = self.known
        if kind is None:
            known[:] = bytes(len(known))
            return
        for index in places_of(self.blocks, kind):
            if index >= self.count:
                break
            known[index] = 0

    def let_go(self, keep: range) -> int:
        """Let go of the entries outside ``keep`` that no job is laying out; how many
        are held after."""
        held = self.held
        for index in [i for i, entry in held.items() if i not in keep and entry.job is None]:
            signature = held.pop(index).signature
            if index >= self.watch_from and signature is not None:
                self.watched[index] = signature  # its height is that of these lines
        return len(held)
