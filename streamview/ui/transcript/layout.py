"""The transcript's blocks laid out: entries and their heights, follow mode's tail, and the
layout thread that lays long blocks out off the UI thread.

:class:`TranscriptLayout` is the lower half of :class:`.transcript.Transcript`: it keeps
each block's lines (or an estimate of their height), the offsets that place them, and
the scroll position follow mode keeps at the end. The widget on top of it adds keys,
search, clicks and drawing.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from streamview.core.sanitize import clean
from streamview.core.state import NOTICE, PROMPT, TEXT, THINKING, TOOL, Block, Session
from streamview.ui.transcript.block_layout import BlockLayout, LayoutStyles
from streamview.ui.transcript.blocks import (
    BACKGROUND_MARKDOWN_CHARS,
    BACKGROUND_PLAIN_CHARS,
    SLOW_TAIL_FACTOR,
    Entry,
    Owner,
    estimate_entry,
    layout_run,
    layout_styles,
    signature_of,
    tool_line,
)
from streamview.ui.transcript.layout_thread import LayoutJob, LayoutResult, LayoutThread
from streamview.ui.transcript.search import Matches


class TranscriptLayout(ScrollView):
    """Blocks, their lines and offsets, follow mode's scrolling, and the layout thread."""

    @dataclass
    class FollowChanged(Message):
        """Follow mode was paused or resumed, or new content arrived while paused."""

        following: bool
        """The view sticks to the newest line."""
        unseen: bool
        """New content arrived below the viewport while paused."""

    @dataclass
    class OpenCall(Message):
        """The user clicked a tool call's marker line."""

        call_index: int
        """Index of the call in the session's ``tool_calls``."""

    @dataclass
    class CallInView(Message):
        """The user scrolled the transcript to another tool call (the first on screen,
        else the last above it): the table's cursor can go there."""

        call_index: int
        """Index of the call in the session's ``tool_calls``."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.session: Session | None = None
        self._entries: list[Entry] = []
        self._offsets = array("q", [0])
        """``_offsets[i]``: first line of entry ``i``; the last item is the total."""
        self._by_call: dict[int, int] = {}
        self._call_entries = array("q")
        """Entries of the tool calls, in order (``_by_call``'s values, sorted)."""
        self._watch_from = 0
        """Entries before this are closed and need no signature check."""
        self._width = 0
        self.show_thinking = True
        self.following = True
        self.unseen = False
        self._programmatic = 0
        self._user_scroll = False
        """The user scrolled just now (keys, wheel, scrollbar)."""
        self._user_scroll_timer: Timer | None = None
        self._search = Matches()
        self._reflow_pending = False
        self._resync_timer: Timer | None = None
        self.tail_pacing = True
        """A growing block slow to render waits before it is rendered again (off for
        ``--export-cast``: each frame of a cast shows the text as it is at that time)."""
        self._marked: int | None = None
        self._call_in_view: int | None = None
        """The call last said to be in view (:class:`CallInView`)."""
        """Entry of the tool call the table's cursor is on (drawn highlighted)."""
        self._layouts = LayoutThread()
        self._styles: LayoutStyles | None = None
        self._ui_layout: BlockLayout | None = None
        self._requests = 0
        """Layout requests so far: numbers them, so the newest lines win."""

    @property
    def total_lines(self) -> int:
        """Lines of the whole transcript (some estimated)."""
        return self._offsets[-1]

    def show_session(self, session: Session | None) -> None:
        """Show another session (or none); follow mode stays as it was."""
        self.session = session
        self._cancel_layouts()
        self._entries = []
        self._offsets = array("q", [0])
        self._by_call = {}
        self._call_entries = array("q")
        self._watch_from = 0
        self._marked = None
        self._call_in_view = None
        self._clear_matches()
        self.sync()

    def sync(self, changed_calls: Iterable[int] = ()) -> None:
        """Take in what changed in the session: new blocks, grown ones, finished calls.

        Args:
            changed_calls: Indices of tool calls whose status or target changed.
        """
        session = self.session
        if session is None:
            self._set_virtual_height()
            self.refresh()
            return
        entries = self._entries
        first_dirty: int | None = None
        blocks = session.blocks
        for index in range(len(entries), len(blocks)):
            block = blocks[index]
            gap = int(
                block.kind not in (TOOL, NOTICE)
                and index > 0
                and blocks[index - 1].kind in (TOOL, NOTICE)
            )
            entries.append(Entry(block, gap=gap))
            if block.kind == TOOL and block.call_index is not None:
                self._by_call[block.call_index] = index
                self._call_entries.append(index)
            if first_dirty is None:
                first_dirty = index
        watch_from = self._watch_from
        dirty = [
            i for i in range(watch_from, len(entries)) if entries[i].signature != self._signature(i)
        ]
        for call_index in changed_calls:
            at = self._by_call.get(call_index)
            if at is not None and entries[at].signature != self._signature(at):
                dirty.append(at)
        now = time.monotonic()
        for index in dirty:
            entry = entries[index]
            if entry.lines is not None and self._visible(entry) and self._in_background(entry):
                # Keep showing the lines there are; the layout thread sends new ones.
                self._lay_out_later(index)
                continue
            if entry.block.open and entry.lines is not None and self.tail_pacing:
                # A growing block whose tail is slow to render (a long code fence) is
                # rendered again only after a pause several times its render time.
                wait = entry.cost * SLOW_TAIL_FACTOR - (now - entry.rendered_at)
                if wait > 0:
                    self._resync_later(wait)
                    continue
            entry.lines = None
            if first_dirty is None or index < first_dirty:
                first_dirty = index
        # Everything before the first open block is final (tool markers aside).
        while watch_from < len(entries) and not entries[watch_from].block.open:
            watch_from += 1
        self._watch_from = watch_from
        if first_dirty is None:
            return
        if self.following and self._width:
            self._render_tail()
        self._reflow(first_dirty)
        if self.following:
            self._scroll_to_end()
        elif not self.unseen:
            self.unseen = True
            self.post_message(self.FollowChanged(self.following, self.unseen))
        self.refresh()

    def plain_lines(self) -> list[str]:
        """Every line of the transcript as plain text (lays out all blocks now; for tests)."""
        self._render_all(wait=True)
        return [
            strip.text.rstrip()
            for entry in self._entries
            if self._visible(entry)
            for strip in entry.lines or ()
        ]

    def _resync_later(self, delay: float) -> None:
        if self._resync_timer is None:
            self._resync_timer = self.set_timer(delay, self._resync)

    def _resync(self) -> None:
        self._resync_timer = None
        self.sync()

    def set_follow(self, follow: bool) -> None:
        """Resume (scroll to the end) or pause follow mode."""
        self.following = follow
        if follow:
            self.unseen = False
            self._render_tail()
            self._reflow(0)
            self._scroll_to_end(take_over=True)
        self.post_message(self.FollowChanged(self.following, self.unseen))

    def _content_width(self) -> int:
        return max(10, self.scrollable_content_region.width - 1)

    def _visible(self, entry: Entry) -> bool:
        return self.show_thinking or entry.block.kind != THINKING

    def _signature(self, index: int) -> tuple[object, ...]:
        return self._signature_of(self._entries[index].block)

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

    def _reflow(self, start: int) -> None:
        """Recompute heights and offsets from entry ``start`` on."""
        entries = self._entries
        offsets = self._offsets
        del offsets[start + 1 :]
        if len(offsets) <= start:
            offsets.extend([offsets[-1]] * (start + 1 - len(offsets)))
        position = offsets[start]
        for entry in entries[start:]:
            if not self._visible(entry):
                entry.height = 0
            elif entry.lines is not None:
                entry.height = len(entry.lines)
            else:
                entry.height = self._estimate(entry)
            position += entry.height
            offsets.append(position)
        self._set_virtual_height()

    def _set_virtual_height(self) -> None:
        height = self._offsets[-1]
        # Text-like blocks end with a blank separator line: the last one needs none.
        last = next((e for e in reversed(self._entries) if e.height), None)
        if last is not None and last.block.kind in (TEXT, THINKING, PROMPT):
            height -= 1
        size = Size(self.scrollable_content_region.width, height)
        if size != self.virtual_size:
            # Only this widget's scroll range changed: no layout pass of the screen
            # (the reactive would ask for one on every new line of a growing answer).
            self.set_reactive(TranscriptLayout.virtual_size, size)
            self._scroll_update(size)
            self.refresh()

    def _relayout(self) -> None:
        """Heights changed everywhere: keep the line at the top of the view in place."""
        anchor = self._anchor()
        if self.following:
            self._render_tail()
        self._reflow(0)
        if self.following:
            self._scroll_to_end()
        else:
            self._restore(anchor)
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
        self._set_scroll(self._offsets[index] + min(within, self._entries[index].height))

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

    def _schedule_reflow(self) -> None:
        if not self._reflow_pending:
            self._reflow_pending = True
            self.call_after_refresh(self._deferred_reflow)

    def _deferred_reflow(self) -> None:
        self._reflow_pending = False
        anchor = self._anchor()
        self._reflow(0)
        if self.following:
            self._render_tail()
            self._reflow(0)
            self._scroll_to_end()
        else:
            self._restore(anchor)
        self.refresh()

    def _render_tail(self) -> None:
        """Render the last screenful of entries, so following lands exactly at the end."""
        if not self._width:
            return
        budget = self.scrollable_content_region.height + 2
        for index in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[index]
            if not self._visible(entry):
                continue
            if entry.lines is None:
                self._render_entry(index)
            budget -= len(entry.lines or ())
            if budget <= 0:
                break

    def _render_all(self, wait: bool = False) -> None:
        """Lay out every block; with ``wait``, long ones too, here and now."""
        for index, entry in enumerate(self._entries):
            if self._visible(entry) and (entry.lines is None or (wait and entry.job is not None)):
                self._render_entry(index, wait=wait)
        self._reflow(0)

    def _clear_matches(self) -> None:
        self._search.clear()

    def _layout_styles(self) -> LayoutStyles:
        """The styles a layout needs, read from the stylesheet (cached until the theme changes)."""
        if self._styles is None:
            self._styles = layout_styles(self.get_component_rich_style, self.app.current_theme.dark)
        return self._styles

    def _layout(self) -> BlockLayout:
        """The UI thread's layout (its own console, the current styles)."""
        styles = self._layout_styles()
        if self._ui_layout is None or self._ui_layout.styles is not styles:
            self._ui_layout = BlockLayout(styles)
        return self._ui_layout

    def _in_background(self, entry: Entry) -> bool:
        """Whether laying ``entry`` out would hold the UI thread too long."""
        block = entry.block
        if block.kind == TEXT:
            size = len(block.text)
            frozen = entry.frozen
            if block.open and frozen.revision == block.revision and frozen.width == self._width - 1:
                size -= frozen.upto
            return size > BACKGROUND_MARKDOWN_CHARS
        if block.kind in (THINKING, PROMPT):
            return len(block.text) > BACKGROUND_PLAIN_CHARS
        return False

    def _render_entry(self, index: int, wait: bool = False) -> None:
        """Lay entry ``index`` out now, or (a long block, unless ``wait``) on the layout thread."""
        entry = self._entries[index]
        if not wait and self._visible(entry) and self._in_background(entry):
            self._lay_out_later(index)
            return
        if entry.job is not None:
            entry.job.cancelled = True
            entry.job = None
        self._requests += 1
        entry.shown = self._requests
        started = time.monotonic()
        self._render_entry_lines(index)
        entry.rendered_at = time.monotonic()
        entry.cost = entry.rendered_at - started

    def _render_entry_lines(self, index: int) -> None:
        entry = self._entries[index]
        entry.signature = self._signature(index)
        block = entry.block
        kind = block.kind
        width = self._width - 1
        if not self._visible(entry):
            entry.lines = []
            return
        layout = self._layout()
        if kind == TEXT:
            lines, entry.frozen = layout.answer(
                block.text, block.open, block.revision, entry.frozen, width
            )
            entry.lines = [*lines, Strip.blank(0)]
        elif kind == THINKING:
            entry.lines = [*layout.thinking(block.text, block.open, width), Strip.blank(0)]
        elif kind == PROMPT:
            entry.lines = [*layout.prompt(block.text, width), Strip.blank(0)]
        elif kind == TOOL:
            entry.lines = [self._render_tool(block, width)]
        else:
            entry.lines = layout.note("· " + clean(block.text).replace("\n", " "), width)
        if entry.gap:
            entry.lines[:0] = [Strip.blank(0)] * entry.gap

    @dataclass
    class LaidOut(Message):
        """The layout thread finished a block (posted from that thread)."""

        job: LayoutJob
        """The request, with the entry it is for in ``owner``."""
        result: LayoutResult
        """The lines."""

    @property
    def laying_out(self) -> int:
        """How many blocks are waiting for the layout thread."""
        return sum(1 for entry in self._entries if entry.job is not None)

    def _cancel_layouts(self) -> None:
        """Forget every pending layout (another session, width or theme)."""
        for entry in self._entries:
            if entry.job is not None:
                entry.job.cancelled = True
                entry.job = None

    def _lay_out_later(self, index: int) -> None:
        """Have the layout thread lay entry ``index`` out; show what is there meanwhile.

        A growing block keeps its previous lines until the new ones come; a block not
        laid out at this width shows a one-line placeholder.
        """
        entry = self._entries[index]
        block = entry.block
        width = self._width - 1
        styles = self._layout_styles()
        signature = self._signature(index)
        key = (signature, width, id(styles))
        if entry.job is None or entry.job.key != key:
            if entry.job is not None:
                entry.job.cancelled = True
            run = layout_run(block, entry.frozen, width)
            self._requests += 1
            owner = Owner(entry, index, signature, width, self._requests)
            entry.job = LayoutJob(key, styles, run, self._job_done, owner=owner)
            self._layouts.submit(entry.job)
        if entry.lines is None:
            note = f"· laying out {len(block.text):,} characters…"
            placeholder = self._layout().note(note, width)
            entry.lines = [*[Strip.blank(0)] * entry.gap, *placeholder, Strip.blank(0)]

    def _job_done(self, job: LayoutJob, result: LayoutResult) -> None:
        """Called on the layout thread: hand the result to the UI thread."""
        self.post_message(self.LaidOut(job, result))

    def on_unmount(self) -> None:
        """Let the layout thread end."""
        self._layouts.close()

    def _render_tool(self, block: Block, width: int) -> Strip:
        session = self.session
        call = (
            session.tool_calls[block.call_index]
            if session is not None and block.call_index is not None
            else None
        )
        cwd = session.cwd if session is not None else None
        return tool_line(call, cwd, self.get_component_rich_style, self.app.console, width)
