"""The transcript's blocks laid out: their lines, follow mode's tail, the layout thread
that lays long blocks out off the UI thread, and the text a selection copies.

:class:`TranscriptLayout` is the middle of :class:`.transcript.Transcript`: it lays out
the blocks :class:`.placing.BlockPlacing` places (lines are kept only for the blocks
near the screen), and keeps the scroll position follow mode keeps at the end. The widget
on top of it adds keys, search, clicks and drawing.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from textual.geometry import Offset
from textual.message import Message
from textual.selection import Selection
from textual.strip import Strip
from textual.timer import Timer

from streamview.core.block_columns import packed_count
from streamview.core.sanitize import clean
from streamview.core.state import PROMPT, TEXT, THINKING, TOOL, Block, Session
from streamview.ui.text.selection import selected_text
from streamview.ui.transcript.block_layout import BlockLayout, LayoutStyles
from streamview.ui.transcript.blocks import (
    BACKGROUND_MARKDOWN_CHARS,
    BACKGROUND_PLAIN_CHARS,
    SLOW_TAIL_FACTOR,
    Entry,
    Owner,
    layout_run,
    layout_styles,
    tool_line,
)
from streamview.ui.transcript.entries import LAID_OUT, Entries
from streamview.ui.transcript.layout_thread import LayoutJob, LayoutResult, LayoutThread
from streamview.ui.transcript.line_texts import LineTexts
from streamview.ui.transcript.placing import BlockPlacing, new_offsets
from streamview.ui.transcript.search import Matches


class TranscriptLayout(BlockPlacing):
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
        self._watch_from = 0
        """Entries before this are closed and need no signature check."""
        self.following = True
        self.unseen = False
        self._user_scroll = False
        """The user scrolled just now (keys, wheel, scrollbar)."""
        self._user_scroll_timer: Timer | None = None
        self._search = Matches()
        self._texts = LineTexts()
        """The line texts of closed blocks searched, so the next search lays none out."""
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

    def show_session(self, session: Session | None) -> None:
        """Show another session (or none); follow mode stays as it was."""
        self.session = session
        self._cancel_layouts()
        self._entries = Entries()
        self._texts.clear()
        self._offsets = new_offsets()
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
        first_dirty = entries.take(session.blocks)
        blocks = entries.blocks
        known = entries.known
        watch_from = self._watch_from
        # Everything before the first open block is final (tool markers aside); packed
        # blocks are all closed.
        final = max(watch_from, packed_count(blocks))
        while final < len(entries) and not blocks[final].open:
            final += 1
        watched = entries.watched
        dirty: list[int] = []
        for index in range(watch_from, len(entries)):
            held = entries.get(index)
            if held is not None:
                if held.signature != self._signature(index):
                    dirty.append(index)
                continue
            # Not held: estimated again if it changed since (once more if final now).
            if index >= final:
                signature = self._signature(index)
                if watched.get(index) == signature:
                    continue
                watched[index] = signature
            known[index] = 0
            if first_dirty is None or index < first_dirty:
                first_dirty = index
        if watched and final > watch_from:
            for index in [index for index in watched if index < final]:
                del watched[index]
        for call_index in changed_calls:
            at = entries.of_call(call_index)
            held = entries.get(at) if at is not None else None
            if at is not None and held is not None and held.signature != self._signature(at):
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
            known[index] = 0
            if first_dirty is None or index < first_dirty:
                first_dirty = index
        self._watch_from = entries.watch_from = final
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
        """Lay out every block; with ``wait``, long ones too, here and now (every entry
        is held after: for tests)."""
        for index in range(len(self._entries)):
            entry = self._entries[index]
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
        self._note_held()

    def _lines_at(self, index: int, copy: bool = False) -> list[Strip]:
        """Block ``index``'s lines as laid out now, without holding its entry: those held,
        else laid out here, its height theirs from the next reflow on (a long block goes
        to the layout thread). ``copy``: laid out here however long, and the heights
        left as they are (copying moves nothing)."""
        entries = self._entries
        held = entries.get(index)
        if held is not None and held.lines is not None:
            return held.lines
        entry = Entry(entries.blocks[index], gap=entries.gap(index))
        if not self._visible(entry):
            return []
        if copy or (held is None and not self._in_background(entry)):
            self._render_entry_lines(index, entry)
            lines = entry.lines or []
            if not copy:
                entries.heights[index], entries.known[index] = len(lines), LAID_OUT
            return lines
        self._render_entry(index)
        return self._entries[index].lines or []

    def _texts_at(self, index: int) -> Sequence[str]:
        """Block ``index``'s line texts, for search: those kept (a closed block searched
        before, unchanged since), else its lines' (:meth:`_lines_at`), kept if the block
        is closed and they are not a placeholder for the layout thread's."""
        signature = self._signature(index)
        kept = self._texts.get(index, signature)
        if kept is not None:
            return kept
        texts = [strip.text for strip in self._lines_at(index)]
        held = self._entries.get(index)
        if index < self._watch_from and (
            held is None or (held.job is None and held.signature == signature)
        ):
            self._texts.put(index, texts, signature)
        return texts

    def _sent_texts(
        self, index: int, lines: list[Strip], signature: tuple[object, ...]
    ) -> list[str]:
        """The texts of the ``lines`` the layout thread sent for block ``index``, kept if
        a search is on and the block is closed."""
        texts = [strip.text for strip in lines]
        if self._search.query and index < self._watch_from:
            self._texts.put(index, texts, signature)
        return texts

    def _render_entry_lines(self, index: int, entry: Entry | None = None) -> None:
        """Lay entry ``index`` out on this thread (``entry``: one not held, for search
        and copy)."""
        entry = entry or self._entries[index]
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

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The selected text: the transcript's lines as laid out (what is on screen),
        of the blocks the selection spans (and one more: a blank line ending it stays)."""
        entries, offsets = self._entries, self._offsets
        start, end = selection
        first = max(0, bisect_right(offsets, start.y) - 1) if start is not None else 0
        last = len(entries) if end is None else bisect_right(offsets, end.y) + 1
        texts: list[str] = []
        for index in range(first, min(last, len(entries))):
            height = entries.heights[index]
            lines = self._lines_at(index, copy=True)
            texts.extend(strip.text for strip in lines[:height])
            texts.extend([""] * (height - len(lines)))
        shift = offsets[first]
        if shift:
            selection = Selection(
                None if start is None else Offset(start.x, start.y - shift),
                None if end is None else Offset(end.x, end.y - shift),
            )
        return selected_text(texts, selection)

    def selection_updated(self, selection: Selection | None) -> None:
        """Draw the selection as it changes."""
        self.refresh()

    @dataclass
    class LaidOut(Message):
        """The layout thread finished a block (posted from that thread)."""

        job: LayoutJob
        """The request, with the entry it is for in ``owner``."""
        result: LayoutResult
        """The lines."""

    @property
    def block_count(self) -> int:
        """How many blocks the transcript shows (laid out or not)."""
        return len(self._entries)

    @property
    def laying_out(self) -> int:
        """How many blocks are waiting for the layout thread."""
        return sum(1 for entry in self._entries.held.values() if entry.job is not None)

    def _cancel_layouts(self) -> None:
        """Forget every pending layout (another session, width or theme)."""
        for entry in self._entries.held.values():
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
            lines = [*[Strip.blank(0)] * entry.gap, *placeholder, Strip.blank(0)]
            entries = self._entries
            if entries.known[index] == LAID_OUT:  # laid out before: keep its place
                lines.extend([Strip.blank(0)] * (entries.heights[index] - len(lines)))
            entry.lines = lines

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
