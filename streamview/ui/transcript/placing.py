"""Where the transcript's blocks go: their heights and offsets, the scroll position
kept when they change, and which blocks keep a full entry (those near the screen).

:class:`BlockPlacing` is the ground floor of :class:`.transcript.Transcript`:
:class:`.layout.TranscriptLayout` lays blocks out on top of it, and the widget adds
keys, search, clicks and drawing.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate, islice

from textual.geometry import Size
from textual.scroll_view import ScrollView

from streamview.core.block_columns import kind_at
from streamview.core.paged_array import PagedArray, widened
from streamview.core.state import NOTICE, PROMPT, TEXT, THINKING, TOOL, Block, Session
from streamview.ui.transcript.blocks import Entry, estimate_entry, estimate_text, signature_of
from streamview.ui.transcript.entries import ESTIMATED, LAID_OUT, RESIDENT_ENTRIES, Entries

_RUN_AT_ONCE = 1 << 16
"""Known heights summed at a time (their copy and their offsets: 256 KiB each)."""


def new_offsets() -> PagedArray:
    """The offsets of no blocks yet: ``[0]``, in pages (a 2 GB session's 1.15 million
    blocks' took 4.6 MB in memory; bisected, a screen's lines read a few pages)."""
    return PagedArray("I", [0])


class BlockPlacing(ScrollView):
    """Blocks' heights and offsets, the entries held near the screen, and setting the
    scroll position without it counting as the user's."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.session: Session | None = None
        self._entries = Entries()
        self._offsets = new_offsets()
        """``_offsets[i]``: first line of entry ``i``; the last item is the total (4 bytes
        each, 8 once a transcript passes four billion lines; paged:
        :mod:`~streamview.core.paged_array`)."""
        self._let_go_above = RESIDENT_ENTRIES
        """Entries held past which those far from the screen are let go."""
        self._let_go_pending = False
        self._width = 0
        self.show_thinking = True
        self._programmatic = 0
        """Scrolling now is the widget's own (follow mode, a jump), not the user's."""

    @property
    def total_lines(self) -> int:
        """Lines of the whole transcript (some estimated)."""
        return self._offsets[-1]

    def _content_width(self) -> int:
        return max(10, self.scrollable_content_region.width - 1)

    def _visible(self, entry: Entry) -> bool:
        return self.show_thinking or entry.block.kind != THINKING

    def _signature(self, index: int) -> tuple[object, ...]:
        return self._signature_of(self._entries.blocks[index])

    def _signature_of(self, block: Block) -> tuple[object, ...]:
        return signature_of(block, self.session)

    def _estimate(self, entry: Entry) -> int:
        block = entry.block
        if not self._visible(entry):
            return 0
        if block.kind in (TOOL, NOTICE):
            return 1
        width = max(1, self._width - 2)
        return estimate_entry(entry, (*self._signature_of(block), width), width)

    def _estimate_block(self, index: int) -> int:
        """:meth:`_estimate` for a block whose entry is not held (nothing kept of it)."""
        blocks = self._entries.blocks
        kind = kind_at(blocks, index)  # a packed tool marker is not made
        if not self.show_thinking and kind == THINKING:
            return 0
        if kind in (TOOL, NOTICE):
            return 1
        return estimate_text(blocks[index], max(1, self._width - 2)) + self._entries.gap(index)

    def _reflow(self, start: int) -> None:
        """Recompute heights and offsets from entry ``start`` on.

        Runs of blocks whose height is known and whose entry is not held are summed
        at once (a 2 GB session has two million blocks, nearly all of them such).
        """
        entries = self._entries
        heights, known, held = entries.heights, entries.known, entries.held
        offsets = self._offsets
        del offsets[start + 1 :]
        if len(offsets) <= start:
            offsets.extend([offsets[-1]] * (start + 1 - len(offsets)))
        position = offsets[start]
        count = len(entries)
        special = sorted(index for index in held if index >= start)
        special.append(count)
        next_held = 0
        index = start
        # Heights and offsets found one block at a time go in a run at a time (paged).
        found, found_at = array(heights.typecode), start
        ends, limit = array(offsets.typecode), start + _RUN_AT_ONCE
        while index < count:
            stop = special[next_held]
            if index < stop:
                end = known.find(0, index, stop)
                if end < 0:
                    end = stop
                if end > index:
                    if end - index > _RUN_AT_ONCE:
                        end = index + _RUN_AT_ONCE
                    if found:
                        heights.set_range(found_at, found)
                        offsets.extend(ends)
                        found, ends = array(heights.typecode), array(offsets.typecode)
                    found_at, limit = end, end + _RUN_AT_ONCE
                    run = accumulate(heights[index:end], initial=position)
                    try:
                        offsets.extend(islice(run, 1, None))
                    except OverflowError:  # past four billion lines
                        del offsets[index + 1 :]
                        offsets = self._offsets = widened(offsets, "q")
                        run = accumulate(heights[index:end], initial=position)
                        offsets.extend(islice(run, 1, None))
                    position = offsets[-1]
                    index = end
                    continue
            else:
                next_held += 1
            entry = held.get(index)
            if entry is None:
                height, how = self._estimate_block(index), ESTIMATED
            elif not self._visible(entry):
                height, how = 0, LAID_OUT
            elif entry.lines is not None:
                height, how = len(entry.lines), LAID_OUT
            elif known[index]:
                height, how = heights[index], known[index]
            else:
                height, how = self._estimate(entry), ESTIMATED
            if entry is not None:
                entry.height = height
            if index >= limit:
                heights.set_range(found_at, found)
                offsets.extend(ends)
                found, ends = array(heights.typecode), array(offsets.typecode)
                found_at, limit = index, index + _RUN_AT_ONCE
            found.append(height)
            known[index] = how
            position += height
            try:
                ends.append(position)
            except OverflowError:  # past four billion lines
                offsets.extend(ends)
                offsets = self._offsets = widened(offsets, "q")
                ends = array("q", [position])
            index += 1
        heights.set_range(found_at, found)
        offsets.extend(ends)
        self._set_virtual_height()

    def _set_virtual_height(self) -> None:
        height = self._offsets[-1]
        # Text-like blocks end with a blank separator line: the last one needs none.
        entries = self._entries
        heights = entries.heights
        last = next((i for i in range(len(entries) - 1, -1, -1) if heights[i]), None)
        if last is not None and kind_at(entries.blocks, last) in (TEXT, THINKING, PROMPT):
            height -= 1
        size = Size(self.scrollable_content_region.width, height)
        if size != self.virtual_size:
            # Only this widget's scroll range changed: no layout pass of the screen
            # (the reactive would ask for one on every new line of a growing answer).
            self.set_reactive(BlockPlacing.virtual_size, size)
            self._scroll_update(size)
            self.refresh()

    def _anchor(self) -> tuple[int, int]:
        top = round(self.scroll_y)
        if not self._entries or top >= self._offsets[-1]:
            return (-1, 0)
        index = bisect_right(self._offsets, top) - 1
        return (index, top - self._offsets[index])

    def _restore(self, anchor: tuple[int, int]) -> None:
        index, within = anchor
        if index < 0 or self.app.animator.is_being_animated(self, "scroll_y"):
            return  # a scroll the person started is under way: the view is theirs
        self._set_scroll(self._offsets[index] + min(within, self._entries.heights[index]))

    def _set_scroll(self, y: int) -> None:
        animator = self.app.animator
        if animator.is_being_animated(self, "scroll_y"):
            # A scroll the user started before (Home, page keys) would undo this one.
            animator.force_stop_animation(self, "scroll_y")
        self._programmatic += 1
        try:
            # Both: Textual's keys and wheel move from ``scroll_target_y``, so a target
            # left behind (0 after Home, while following the end) sent one ↑ there.
            self.scroll_target_y = self.scroll_y = self.validate_scroll_y(y)
        finally:
            self._programmatic -= 1

    def _scroll_to_end(self, take_over: bool = False) -> None:
        """Follow the end, unless a scroll the person started (Home while following) is
        under way: stopping it would lose their key. Resuming follow mode takes over."""
        if take_over or not self.app.animator.is_being_animated(self, "scroll_y"):
            self._set_scroll(self.max_scroll_y)

    def _note_held(self) -> None:
        """Let go of the entries far from the screen once many are held."""
        if len(self._entries.held) > self._let_go_above and not self._let_go_pending:
            self._let_go_pending = True
            self.call_after_refresh(self._let_go)

    def _let_go(self) -> None:
        """Keep the entries of the blocks within two screens of the view, and those the
        layout thread works on; the others keep only their height."""
        self._let_go_pending = False
        entries, offsets = self._entries, self._offsets
        top = round(self.scroll_y)
        screen = max(1, self.scrollable_content_region.height)
        first = max(0, bisect_right(offsets, top - 2 * screen) - 1)
        last = bisect_right(offsets, top + 3 * screen)
        keep = range(first, last + 1)
        heights, known = entries.heights, entries.known
        for index, entry in entries.held.items():
            if index not in keep and entry.lines is not None and entry.job is None:
                # Its height stays that of its lines: it comes back at the same place
                # (a reflow its lines asked for, pending, reads it from there).
                heights[index], known[index] = len(entry.lines), LAID_OUT
        held = entries.let_go(keep)
        self._let_go_above = max(RESIDENT_ENTRIES, 2 * held)
