"""The transcript pane: the session's prompt, answer, thinking and tool calls, in order.

A virtual view (Textual's Line API): each block of the session is rendered to lines
once, at the current width, and cached; only blocks that changed (the open, growing
one, a block a recap replaced, a tool marker whose call finished) are rendered again.
Blocks far from the viewport keep an estimated height until they are first shown, so
opening a huge recording renders only what is on screen. Blocks longer than a few KB
are laid out on a layout thread (:mod:`streamview.ui.transcript.layout_thread`) so that keys and
repaints never wait for Rich; the UI thread shows a placeholder, or the block's
previous lines, until they come back.

All stream text is untrusted and goes through :func:`streamview.core.sanitize.clean`
before Rich sees it.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from textual.binding import BindingType
from textual.events import Click, MouseScrollDown, MouseScrollUp, Resize
from textual.message import Message
from textual.strip import Strip

from streamview.core.block_columns import kind_at
from streamview.core.state import THINKING, TOOL
from streamview.ui.text.highlight import on_ready
from streamview.ui.text.safe_text import phrase, set_border_title
from streamview.ui.text.selection import draw_selection
from streamview.ui.transcript.block_layout import NOTHING_FROZEN
from streamview.ui.transcript.blocks import (
    BACKGROUND_MARKDOWN_CHARS,
    BACKGROUND_PLAIN_CHARS,
    Owner,
)
from streamview.ui.transcript.fences import FenceFree, find_fence
from streamview.ui.transcript.keys import TRANSCRIPT_BINDINGS
from streamview.ui.transcript.layout import TranscriptLayout
from streamview.ui.transcript.searching import TranscriptSearch

__all__ = ["BACKGROUND_MARKDOWN_CHARS", "BACKGROUND_PLAIN_CHARS", "Transcript"]


class Transcript(TranscriptSearch, can_focus=True):
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

    BINDINGS: ClassVar[list[BindingType]] = TRANSCRIPT_BINDINGS

    @dataclass
    class EndPressed(Message):
        """The user asked for the end: of the view, and of a paused playback too."""

        to_run_end: bool = False
        """``G``: to the end of a playback even while it plays (End follows the playhead)."""

    # -- public API ---------------------------------------------------------------------

    def mark_call(self, call_index: int | None) -> None:
        """Highlight the marker of call ``call_index``; bring it into view unless following."""
        entry = self._entries.of_call(call_index) if call_index is not None else None
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

    def set_show_thinking(self, show: bool) -> None:
        """Show or hide thinking blocks."""
        if show == self.show_thinking:
            return
        self.show_thinking = show
        # A quiet marker: hidden thinking is still there, and t brings it back.
        title = phrase("Transcript") if show else phrase("Transcript · thinking hidden (t)")
        set_border_title(self, title)
        for entry in self._entries:
            if entry.block.kind == THINKING:
                entry.lines = None
                entry.signature = None
        self._entries.forget_heights(THINKING)
        blocks = self._entries.blocks
        self._texts.drop_where(lambda index: kind_at(blocks, index) == THINKING)
        self._clear_matches()
        self._relayout()
        self._refind()

    def invalidate(self) -> None:
        """Render everything again (the theme changed)."""
        self._styles = None
        self._cancel_layouts()
        for entry in self._entries:
            entry.lines = None
            entry.signature = None
            entry.frozen = NOTHING_FROZEN
        # Heights are kept: a theme changes no line break, and the blocks let go keep theirs.
        self._texts.clear()
        self._clear_matches()
        self._relayout()
        self._refind()

    # -- Textual hooks --------------------------------------------------------------------

    _stop_lexer_news: Callable[[], None] | None = None
    """Stops the news of built lexers (set on mount)."""
    input_ended = False
    """The input ended before any session began: nothing is coming (set by the app)."""

    _fence_free: FenceFree = (None, 0)
    """The blocks known closed and with no code fence (:func:`find_fence`)."""

    class LexerReady(Message):
        """A lexer was built (on its thread): code shown plain can be coloured now."""

    def on_mount(self) -> None:
        """Render at the initial width, and again whenever the theme changes or a
        lexer code waited for is built."""
        self.watch(self.app, "theme", lambda _theme: self.invalidate(), init=False)
        post = self.post_message  # thread-safe
        self._stop_lexer_news = on_ready(lambda _language: post(self.LexerReady()))

    def on_transcript_lexer_ready(self, _message: LexerReady) -> None:
        """Lay everything out again if a block has a code fence: as after a change of
        theme, so a fenced block on the layout thread, laid out plain, is dropped too."""
        blocks, closed = self._entries.blocks, self._watch_from
        self._fence_free, fenced = find_fence(blocks, len(self._entries), closed, self._fence_free)
        if fenced:
            self.invalidate()

    def _on_unmount(self) -> None:
        if self._stop_lexer_news is not None:
            self._stop_lexer_news()

    def on_resize(self, event: Resize | None) -> None:
        """A new width means new line breaks: drop the rendered lines."""
        width = self._content_width()
        if width != self._width:
            self._width = width
            self._cancel_layouts()
            for entry in self._entries:
                entry.lines = None
                entry.signature = None
                entry.frozen = NOTHING_FROZEN
            self._entries.forget_heights()
            self._texts.clear()
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
        user = self._user_scroll or self.is_vertical_scrollbar_grabbed
        if user:  # also when the user's scroll to the end resumed follow mode
            self._say_call_in_view(round(new_value))
        if self._programmatic:
            return
        at_end = round(new_value) >= self.max_scroll_y
        if self.following and new_value < old_value and not at_end and user:
            self.following = False
            self.post_message(self.FollowChanged(False, self.unseen))
        elif not self.following and at_end and new_value > old_value and user:
            # Not now: this may be the last step of a scroll animation, and scrolling
            # to the end stops the animation Textual is finishing (its animator then
            # fails on the missing key, and the app with it).
            self.call_later(self._follow_if_at_end)

    def _follow_if_at_end(self) -> None:
        """Resume following, if the view is still at the end."""
        if not self.following and round(self.scroll_y) >= self.max_scroll_y:
            self.set_follow(True)

    def call_in_view(self, top: int) -> int | None:
        """The tool call a view starting at line ``top`` is at: the first one on screen,
        else the last one above it (``None`` before the first call)."""
        calls = self._entries.calls
        if not calls:
            return None
        offsets = self._offsets
        first = bisect_left(calls, bisect_right(offsets, top) - 1)
        bottom = top + self.scrollable_content_region.height
        if first < len(calls) and offsets[calls[first]] < bottom:
            entry = calls[first]
        elif first > 0:
            entry = calls[first - 1]
        else:
            return None
        return self._entries.blocks[entry].call_index

    def _say_call_in_view(self, top: int) -> None:
        call_index = self.call_in_view(top)
        if call_index is not None and call_index != self._call_in_view:
            self._call_in_view = call_index
            self.post_message(self.CallInView(call_index))

    def _user_scrolls(self) -> None:
        """The next scroll movement comes from the user."""
        self._user_scroll = True
        if self._user_scroll_timer is not None:
            self._user_scroll_timer.stop()  # an earlier key's timer must not end this one's
        self._user_scroll_timer = self.set_timer(1.0, self._user_scroll_done, name="user-scroll")

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
        """Up a page at once, as Home and less do (pauses follow mode): Textual's glide
        showed the pages between, and a second press went from where it had got to."""
        self._user_scrolls()
        self.scroll_page_up(animate=False)

    def action_scroll_home(self) -> None:
        """Go to the top at once, as less and lnav do (pauses follow mode); Textual's
        glide took up to a second on a long transcript."""
        self._user_scrolls()
        self.scroll_home(animate=False, x_axis=False)

    def action_scroll_down(self) -> None:
        """Scroll down a line (at the bottom, resumes follow mode)."""
        self._user_scrolls()
        self._resume_if_at_end()
        super().action_scroll_down()

    def action_page_down(self) -> None:
        """Down a page at once (at the bottom, resumes follow mode)."""
        self._user_scrolls()
        self._resume_if_at_end()
        self.scroll_page_down(animate=False)

    def action_scroll_end(self, to_run_end: bool = False) -> None:
        """Go to the bottom and follow the newest content again (End: a playing playback
        is followed; ``G``, or End while paused, goes to its end)."""
        self.set_follow(True)
        self.post_message(self.EndPressed(to_run_end))

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
        block = self._entries.blocks[bisect_right(self._offsets, absolute) - 1]
        if block.kind == TOOL and block.call_index is not None:
            event.stop()
            self.post_message(self.OpenCall(block.call_index))

    def render_line(self, y: int) -> Strip:
        """One line of the viewport."""
        width = self.size.width
        style = self.rich_style
        if not self._width and self._entries:  # painted before its first Resize (a file
            self.on_resize(None)  # folded before the first frame): lay out at this width
        absolute = round(self.scroll_y) + y
        offsets = self._offsets
        if absolute >= offsets[-1] or not self._entries:
            if not self._entries and y == 0:
                empty = self.get_component_rich_style("transcript--empty")
                done = self.input_ended or (self.session is not None and self.session.finished)
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
        hits = self._hits_on(index, line_number)
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
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(absolute)) is not None:
            strip = draw_selection(
                strip, span, self.screen.get_component_rich_style("screen--selection")
            )
        # The offsets tell Textual which line and column the mouse is on: drag selects.
        return strip.apply_style(style).crop_extend(0, width, style).apply_offsets(0, absolute)

    def on_transcript_layout_laid_out(self, message: TranscriptLayout.LaidOut) -> None:
        """Show a block the layout thread finished, keeping the view where it was."""
        message.stop()
        job, result = message.job, message.result
        owner = job.owner
        assert isinstance(owner, Owner)
        entry, index = owner.entry, owner.index
        if entry.job is job:
            entry.job = None
        current = self._entries.get(index) is entry
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
        lines = [*[Strip.blank(0)] * entry.gap, *result.lines, Strip.blank(0)]
        entry.lines = lines
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
        self._refind((index, self._sent_texts(index, lines, owner.signature)))
        if keep_match and self._search.hits and not self.following:
            self._go_to_match(self._search.index)  # the lines moved under the search hit
        self.refresh()
