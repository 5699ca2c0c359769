"""The transcript pane: the session's prompt, answer, thinking and tool calls, in order.

A virtual view (Textual's Line API): each block of the session is rendered to lines
once, at the current width, and cached; only blocks that changed (the open, growing
one, a block a recap replaced, a tool marker whose call finished) are rendered again.
Blocks far from the viewport keep an estimated height until they are first shown, so
opening a huge recording renders only what is on screen. Blocks longer than a few KB
are laid out on a layout thread (:mod:`streamview.ui.layout_thread`) so that keys and
repaints never wait for Rich; the UI thread shows a placeholder, or the block's
previous lines, until they come back.

All stream text is untrusted and goes through :func:`streamview.core.sanitize.clean`
before Rich sees it.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from rich.segment import Segment
from textual.binding import Binding, BindingType
from textual.events import Click, MouseScrollDown, MouseScrollUp, Resize
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from streamview.core.sanitize import clean
from streamview.core.state import NOTICE, PROMPT, TEXT, THINKING, TOOL, Block, Session
from streamview.ui.block_layout import NOTHING_FROZEN, BlockLayout, LayoutStyles
from streamview.ui.layout_thread import LayoutJob, LayoutResult, LayoutThread
from streamview.ui.transcript_blocks import (
    BACKGROUND_MARKDOWN_CHARS,
    BACKGROUND_PLAIN_CHARS,
    SLOW_TAIL_FACTOR,
    Entry,
    Owner,
    answer_job,
    estimate_text,
    layout_styles,
    prompt_job,
    signature_of,
    thinking_job,
    tool_line,
)
from streamview.ui.transcript_search import Match, Matches

__all__ = ["BACKGROUND_MARKDOWN_CHARS", "BACKGROUND_PLAIN_CHARS", "Transcript"]


class Transcript(ScrollView, can_focus=True):
    """The answer as it grows, with thinking, tool markers and notices in place.

    Follow mode keeps the view at the newest line while the user is at the bottom;
    scrolling up pauses it (a :class:`FollowChanged` message says so) and scrolling to
    the end, or :meth:`set_follow`, resumes it.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "transcript--prompt",
        "transcript--prompt-mark",
        "transcript--thinking",
        "transcript--thinking-label",
        "transcript--notice",
        "transcript--tool",
        "transcript--tool-running",
        "transcript--tool-ok",
        "transcript--tool-failed",
        "transcript--tool-rejected",
        "transcript--tool-detail",
        "transcript--code",
        "transcript--heading",
        "transcript--link",
        "transcript--match",
        "transcript--match-current",
        "transcript--empty",
        "transcript--marked",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", "Up", show=False),
        Binding("down", "scroll_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "End", show=False),
    ]

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
        self._offsets: list[int] = [0]
        """``_offsets[i]``: first line of entry ``i``; the last item is the total."""
        self._by_call: dict[int, int] = {}
        self._watch_from = 0
        """Entries before this are closed and need no signature check."""
        self._width = 0
        self.show_thinking = True
        self.following = True
        self.unseen = False
        self._programmatic = 0
        self._user_scroll = False
        """The user scrolled just now (keys, wheel, scrollbar)."""
        self._search = Matches()
        self._reflow_pending = False
        self._resync_timer: Timer | None = None
        self._marked: int | None = None
        """Entry of the tool call the table's cursor is on (drawn highlighted)."""
        self._layouts = LayoutThread()
        self._styles: LayoutStyles | None = None
        self._ui_layout: BlockLayout | None = None
        self._requests = 0
        """Layout requests so far: numbers them, so the newest lines win."""

    # -- public API ---------------------------------------------------------------------

    @property
    def total_lines(self) -> int:
        """Lines of the whole transcript (some estimated)."""
        return self._offsets[-1]

    @property
    def query_text(self) -> str:
        """What the last search looked for (``""``: no search)."""
        return self._search.query

    @property
    def match_count(self) -> int:
        """How many matches the last search found."""
        return len(self._search.hits)

    @property
    def match_position(self) -> int:
        """1-based index of the current match (0 when none)."""
        return self._search.position

    def show_session(self, session: Session | None) -> None:
        """Show another session (or none); follow mode stays as it was."""
        self.session = session
        self._cancel_layouts()
        self._entries = []
        self._offsets = [0]
        self._by_call = {}
        self._watch_from = 0
        self._marked = None
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
            if entry.block.open and entry.lines is not None:
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

    def mark_call(self, call_index: int | None) -> None:
        """Highlight the marker of call ``call_index``; bring it into view unless following."""
        entry = self._by_call.get(call_index) if call_index is not None else None
        if entry == self._marked:
            return
        self._marked = entry
        self.refresh()
        if entry is None or self.following:
            return
        y = self._offsets[entry]
        top = round(self.scroll_y)
        height = self.scrollable_content_region.height
        if not top <= y < top + height:
            self._set_scroll(max(0, y - height // 3))

    def _resync_later(self, delay: float) -> None:
        if self._resync_timer is None:
            self._resync_timer = self.set_timer(delay, self._resync)

    def _resync(self) -> None:
        self._resync_timer = None
        self.sync()

    def set_show_thinking(self, show: bool) -> None:
        """Show or hide thinking blocks."""
        if show == self.show_thinking:
            return
        self.show_thinking = show
        for entry in self._entries:
            if entry.block.kind == THINKING:
                entry.lines = None
                entry.signature = None
        self._clear_matches()
        self._relayout()
        self._refind()

    def set_follow(self, follow: bool) -> None:
        """Resume (scroll to the end) or pause follow mode."""
        self.following = follow
        if follow:
            self.unseen = False
            self._render_tail()
            self._reflow(0)
            self._scroll_to_end()
        self.post_message(self.FollowChanged(self.following, self.unseen))

    def search(self, query: str) -> int:
        """Find ``query`` (case-insensitive) in the rendered transcript and go to the first hit.

        The first hit shown is the first one at or below the top of the viewport.

        Returns:
            How many matches there are.
        """
        self._search.query = query
        matches = self._find()
        self._search.waits = not matches and bool(self.laying_out)
        if matches:
            top = round(self.scroll_y)
            first = next(
                (i for i, m in enumerate(matches) if self._offsets[m.entry] + m.line >= top), 0
            )
            self._go_to_match(first)
        self.refresh()
        return len(matches)

    def _find(self) -> list[Match]:
        """Every occurrence of the query in the laid-out lines.

        Lays every block out; long ones go to the layout thread, and each one that
        comes back searches again (:meth:`_refind`).
        """
        if not self._search.query:
            self._search.clear()
            self.refresh()
            return []
        self._render_all()
        return self._search.find(
            (number, entry.lines or ()) for number, entry in enumerate(self._entries)
        )

    def _refind(self) -> None:
        """Lines were rendered again (width, theme, thinking): find the matches again, in place."""
        search = self._search
        if not search.query:
            return
        current = search.index
        matches = self._find()
        search.index = min(max(current, 0), len(matches) - 1) if matches else -1
        if matches and search.waits:
            search.waits = False
            self._go_to_match(0)
        self.refresh()

    def next_match(self, step: int = 1) -> bool:
        """Go to the next (``step=1``) or previous (``-1``) match; False when there is none."""
        hits = self._search.hits
        if not hits:
            return False
        self._go_to_match((self._search.index + step) % len(hits))
        return True

    def clear_search(self) -> None:
        """Forget the search and its highlights."""
        self._search = Matches()
        self.refresh()

    def invalidate(self) -> None:
        """Render everything again (the theme changed)."""
        self._styles = None
        self._cancel_layouts()
        for entry in self._entries:
            entry.lines = None
            entry.signature = None
            entry.frozen = NOTHING_FROZEN
        self._clear_matches()
        self._relayout()
        self._refind()

    # -- Textual hooks --------------------------------------------------------------------

    def on_mount(self) -> None:
        """Render at the initial width, and again whenever the theme changes."""
        self.watch(self.app, "theme", lambda _theme: self.invalidate(), init=False)

    def on_resize(self, event: Resize) -> None:
        """A new width means new line breaks: drop the rendered lines."""
        width = self._content_width()
        if width != self._width:
            self._width = width
            self._cancel_layouts()
            for entry in self._entries:
                entry.lines = None
                entry.signature = None
                entry.frozen = NOTHING_FROZEN
            self._clear_matches()
            self._relayout()
            self._refind()
            return
        self._relayout()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolling up pauses follow mode; scrolling down to the bottom resumes it.

        Only the user's own scrolling counts: layout changes (the search box
        opening, a resize) also move ``scroll_y`` and must not toggle follow mode.
        """
        super().watch_scroll_y(old_value, new_value)
        if self._programmatic:
            return
        at_end = round(new_value) >= self.max_scroll_y
        user = self._user_scroll or self.is_vertical_scrollbar_grabbed
        if self.following and new_value < old_value and not at_end and user:
            self.following = False
            self.post_message(self.FollowChanged(False, self.unseen))
        elif not self.following and at_end and new_value > old_value and user:
            self.set_follow(True)

    def _user_scrolls(self) -> None:
        """The next scroll movement comes from the user."""
        self._user_scroll = True
        self.set_timer(1.0, self._user_scroll_done, name="user-scroll")

    def _user_scroll_done(self) -> None:
        self._user_scroll = False

    def _resume_if_at_end(self) -> None:
        if not self.following and round(self.scroll_y) >= self.max_scroll_y:
            self.set_follow(True)

    def action_scroll_up(self) -> None:
        """Scroll up a line (pauses follow mode)."""
        self._user_scrolls()
        super().action_scroll_up()

    def action_page_up(self) -> None:
        """Scroll up a page (pauses follow mode)."""
        self._user_scrolls()
        super().action_page_up()

    def action_scroll_home(self) -> None:
        """Go to the top (pauses follow mode)."""
        self._user_scrolls()
        super().action_scroll_home()

    def action_scroll_down(self) -> None:
        """Scroll down a line (at the bottom, resumes follow mode)."""
        self._user_scrolls()
        self._resume_if_at_end()
        super().action_scroll_down()

    def action_page_down(self) -> None:
        """Scroll down a page (at the bottom, resumes follow mode)."""
        self._user_scrolls()
        self._resume_if_at_end()
        super().action_page_down()

    def action_scroll_end(self) -> None:
        """Go to the bottom and follow the newest content again."""
        self.set_follow(True)

    def _on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        self._user_scrolls()
        super()._on_mouse_scroll_up(event)

    def _on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        self._user_scrolls()
        self._resume_if_at_end()
        super()._on_mouse_scroll_down(event)

    def on_click(self, event: Click) -> None:
        """A click on a tool marker opens that call."""
        offset = event.get_content_offset(self)
        if offset is None or self.session is None or not self._entries:
            return
        absolute = round(self.scroll_y) + offset.y
        if absolute >= self._offsets[-1]:
            return
        entry = self._entries[bisect_right(self._offsets, absolute) - 1]
        if entry.block.kind == TOOL and entry.block.call_index is not None:
            event.stop()
            self.post_message(self.OpenCall(entry.block.call_index))

    def render_line(self, y: int) -> Strip:
        """One line of the viewport."""
        width = self.size.width
        style = self.rich_style
        absolute = round(self.scroll_y) + y
        offsets = self._offsets
        if absolute >= offsets[-1] or not self._entries:
            if not self._entries and y == 0:
                empty = self.get_component_rich_style("transcript--empty")
                done = self.session is not None and self.session.finished
                note = " no answer in this run" if done else " waiting for the answer…"
                return Strip([Segment(note, empty)]).crop_extend(0, width, style)
            return Strip.blank(width, style)
        index = bisect_right(offsets, absolute) - 1
        entry = self._entries[index]
        if entry.lines is None:
            self._render_entry(index)
            if entry.lines is not None and len(entry.lines) != entry.height:
                self._schedule_reflow()
        lines = entry.lines or []
        line_number = absolute - offsets[index]
        if line_number >= len(lines):
            return Strip.blank(width, style)
        strip = lines[line_number]
        hits = self._search.by_line.get((index, line_number))
        if hits:
            strip = self._search.highlight(
                strip,
                hits,
                self.get_component_rich_style("transcript--match"),
                self.get_component_rich_style("transcript--match-current"),
            )
        if index == self._marked:
            marked = self.get_component_rich_style("transcript--marked", partial=True)
            strip = strip.extend_cell_length(width).apply_style(marked)
        return strip.apply_style(style).crop_extend(0, width, style)

    # -- layout ---------------------------------------------------------------------------

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
        key = (*self._signature_of(block), width)
        if entry.estimate is not None and entry.estimate[0] == key:
            return entry.estimate[1]
        height = estimate_text(block, width) + entry.gap
        entry.estimate = (key, height)
        return height

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
            self.set_reactive(Transcript.virtual_size, size)
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
        if index < 0:
            return
        self._set_scroll(self._offsets[index] + min(within, self._entries[index].height))

    def _set_scroll(self, y: int) -> None:
        animator = self.app.animator
        if animator.is_being_animated(self, "scroll_y"):
            # A scroll the user started (Home, page keys) would carry on and undo this.
            animator.force_stop_animation(self, "scroll_y")
        self._programmatic += 1
        try:
            # Both: Textual's keys and wheel move from ``scroll_target_y``, so a target
            # left behind (0 after Home, while following the end) sent one ↑ there.
            self.scroll_target_y = self.scroll_y = self.validate_scroll_y(y)
        finally:
            self._programmatic -= 1

    def _scroll_to_end(self) -> None:
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

    # -- search ---------------------------------------------------------------------------

    def _clear_matches(self) -> None:
        self._search.clear()

    def _go_to_match(self, index: int) -> None:
        self._search.index = index
        match = self._search.hits[index]
        y = self._offsets[match.entry] + match.line
        if self.following:
            self.following = False
            self.post_message(self.FollowChanged(False, self.unseen))
        height = self.scrollable_content_region.height
        self._set_scroll(max(0, y - height // 3))
        self.refresh()

    # -- rendering ------------------------------------------------------------------------

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

    # -- the layout thread ----------------------------------------------------------------

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
            text = block.text  # read here: the state belongs to the UI thread
            run: Callable[[BlockLayout], LayoutResult]
            if block.kind == TEXT:
                run = partial(answer_job, text, block.open, block.revision, entry.frozen, width)
            elif block.kind == THINKING:
                run = partial(thinking_job, text, block.open, width)
            else:
                run = partial(prompt_job, text, width)
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

    def on_transcript_laid_out(self, message: LaidOut) -> None:
        """Show a block the layout thread finished, keeping the view where it was."""
        message.stop()
        job, result = message.job, message.result
        owner = job.owner
        assert isinstance(owner, Owner)
        entry, index = owner.entry, owner.index
        if entry.job is job:
            entry.job = None
        current = index < len(self._entries) and self._entries[index] is entry
        if (
            not current
            or owner.width != self._width - 1
            or job.styles is not self._styles
            or owner.request < entry.shown
        ):
            return  # another session, width or theme, or newer lines already shown
        anchor = self._anchor()
        keep_match = self._match_in_view()
        grew = len(result.lines) + entry.gap + 1 > entry.height
        entry.lines = [*[Strip.blank(0)] * entry.gap, *result.lines, Strip.blank(0)]
        entry.frozen = result.frozen
        entry.signature = owner.signature
        entry.shown = owner.request
        entry.rendered_at = time.monotonic()
        entry.cost = result.seconds
        self._reflow(index)
        if self.following:
            self._scroll_to_end()
        else:
            self._restore(anchor)
            if grew and index >= self._watch_from and not self.unseen:
                # The growing block got longer below a paused view.
                self.unseen = True
                self.post_message(self.FollowChanged(self.following, self.unseen))
        self._refind()
        if keep_match and self._search.hits and not self.following:
            self._go_to_match(self._search.index)  # the lines moved under the search hit
        self.refresh()

    def _match_in_view(self) -> bool:
        """Whether the current search match is on screen."""
        search = self._search
        if not 0 <= search.index < len(search.hits):
            return False
        match = search.hits[search.index]
        y = self._offsets[match.entry] + match.line
        top = round(self.scroll_y)
        return top <= y < top + self.scrollable_content_region.height

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
