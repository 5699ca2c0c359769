"""The transcript pane: the session's prompt, answer, thinking and tool calls, in order.

A virtual view (Textual's Line API): each block of the session is rendered to lines
once, at the current width, and cached; only blocks that changed (the open, growing
one, a block a recap replaced, a tool marker whose call finished) are rendered again.
Blocks far from the viewport keep an estimated height until they are first shown, so
opening a huge recording renders only what is on screen.

All stream text is untrusted and goes through :func:`streamview.core.sanitize.clean`
before Rich sees it.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from markdown_it import MarkdownIt
from rich.cells import chop_cells
from rich.console import Console, ConsoleOptions, RenderableType
from rich.markdown import Markdown
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from rich.theme import Theme
from textual.binding import Binding, BindingType
from textual.events import Click, MouseScrollDown, MouseScrollUp, Resize
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from streamview.core import tools
from streamview.core.formatting import STATUS_MARK, format_duration
from streamview.core.sanitize import clean, one_line
from streamview.core.state import NOTICE, PROMPT, TEXT, THINKING, TOOL, Block, Session, ToolCall
from streamview.printer import describe_call
from streamview.ui.session_header import PROMPT_MARK

BLOCK_TEXT_LIMIT = 500_000
"""Characters of one finished answer or thinking block laid out in the transcript.

Laying out a 10 MB answer held the UI thread for seconds; the rest is counted in a
note that names where to read it whole (the Markdown export, ``--print``).
"""
MARKDOWN_LIMIT = 50_000
"""Characters of one block given to the Markdown renderer; the rest is plain text.

Rich lays out 200 KB of Markdown in seconds on the UI thread; answers are rarely over
a few tens of KB.
"""
SLOW_TAIL_FACTOR = 4
"""A growing block is rendered again only after this many times its last render time."""
FAST_WRAP_CHARS = 100_000
"""Plain text longer than this is cut at the width rather than word-wrapped."""
OPEN_MARKDOWN_LIMIT = 50_000
"""Above this, the growing tail of an open block is shown as plain text until it closes."""
_PIECE_CHARS = 100_000
_PIECE_LINES = 500
"""Plain text longer than ``_PIECE_CHARS`` is rendered ``_PIECE_LINES`` lines at a time."""

_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE)

_STATUS_CLASS = {
    tools.RUNNING: "transcript--tool-running",
    tools.SUCCEEDED: "transcript--tool-ok",
    tools.COMPLETED: "transcript--tool-ok",
    tools.FAILED: "transcript--tool-failed",
    tools.ERROR: "transcript--tool-failed",
    tools.REJECTED: "transcript--tool-rejected",
    tools.INTERRUPTED: "transcript--tool-rejected",
}


def stable_split(text: str, start: int) -> int:
    """Where the finished paragraphs of a growing Markdown text end.

    Args:
        text: The whole text so far.
        start: Where the part already frozen ends (never inside a code fence).

    Returns:
        An index ``>= start``: everything before it is whole paragraphs outside any
        code fence, safe to render once.
    """
    position = len(text)
    while True:
        cut = text.rfind("\n\n", start, position)
        if cut < 0:
            return start
        if len(_FENCE.findall(text, start, cut)) % 2 == 0:
            return cut + 2
        position = cut


def hard_breaks(text: str) -> str:
    """Keep the model's line breaks: a single newline outside code is a line break.

    Chat answers are written with GitHub's "breaks" convention (a poem, a list of
    steps without bullets); plain Markdown would join such lines into one paragraph.
    """
    if "\n" not in text:
        return text
    out: list[str] = []
    in_fence = False
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif (
            not in_fence
            and line.strip()
            and number + 1 < len(lines)
            and lines[number + 1].strip()
            and not line.startswith(("    ", "\t"))
        ):
            line = line.rstrip(" ") + "  "
        out.append(line)
    return "\n".join(out)


_DEEP_NESTING = re.compile(
    r"^(?:[ \t]*>){64}|^[ \t]{256}[-*+]|^(?:[ \t]*(?:[-*+]|\d+[.)])[ \t]+){64}", re.MULTILINE
)
"""Nesting deeper than the Markdown parser keeps: it would drop the rest silently."""


def _letters(texts: Iterable[str]) -> int:
    """Letters and digits in ``texts``: what any faithful rendering must keep."""
    return sum(sum(map(str.isalnum, text)) for text in texts)


class AnswerMarkdown(Markdown):
    """Rich Markdown that shows HTML as the text it is instead of dropping it.

    Rich's parser accepts raw HTML and then renders nothing for it, so an answer
    with ``<details>`` or ``<div>`` outside a code fence would lose text.
    """

    def __init__(self, markup: str, code_theme: str) -> None:
        super().__init__("", code_theme=code_theme, hyperlinks=False)
        parser = MarkdownIt("commonmark", {"html": False}).enable("strikethrough").enable("table")
        self.markup = markup
        self.parsed = parser.parse(markup)


@dataclass(slots=True)
class _Entry:
    """A block and its rendered lines."""

    block: Block
    signature: tuple[object, ...] | None = None
    """What the block looked like when ``lines`` were rendered."""
    lines: list[Strip] | None = None
    """Rendered lines at the current width; ``None`` when stale."""
    height: int = 0
    """Lines the block takes: rendered, else estimated."""
    frozen_upto: int = 0
    """Open text: characters already rendered into ``frozen``."""
    frozen: list[Strip] = field(default_factory=list)
    frozen_revision: int = -1
    gap: int = 0
    """Blank lines above the block (text after a tool marker or notice)."""
    cost: float = 0.0
    """Seconds the last rendering took."""
    rendered_at: float = 0.0
    """When it was rendered (monotonic seconds)."""
    estimate: tuple[tuple[object, ...], int] | None = None
    """``(signature and width, height)`` of the last estimate, so reflows stay cheap."""


@dataclass(slots=True)
class _Match:
    entry: int
    line: int
    start: int
    end: int


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
        self._entries: list[_Entry] = []
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
        self._matches: list[_Match] = []
        self._match_lines: dict[tuple[int, int], list[int]] = {}
        self._match_index = -1
        self.query_text = ""
        self._reflow_pending = False
        self._resync_timer: Timer | None = None
        self._marked: int | None = None
        """Entry of the tool call the table's cursor is on (drawn highlighted)."""

    # -- public API ---------------------------------------------------------------------

    @property
    def total_lines(self) -> int:
        """Lines of the whole transcript (some estimated)."""
        return self._offsets[-1]

    @property
    def match_count(self) -> int:
        """How many matches the last search found."""
        return len(self._matches)

    @property
    def match_position(self) -> int:
        """1-based index of the current match (0 when none)."""
        return self._match_index + 1 if self._matches else 0

    def show_session(self, session: Session | None) -> None:
        """Show another session (or none); follow mode stays as it was."""
        self.session = session
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
            entries.append(_Entry(block, gap=gap))
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
        """Every line of the transcript as plain text (renders all blocks; for tests)."""
        self._render_all()
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
        self.query_text = query
        matches = self._find()
        if matches:
            top = round(self.scroll_y)
            first = next(
                (i for i, m in enumerate(matches) if self._offsets[m.entry] + m.line >= top), 0
            )
            self._go_to_match(first)
        self.refresh()
        return len(matches)

    def _find(self) -> list[_Match]:
        """Every occurrence of :attr:`query_text` in the rendered lines (renders them all)."""
        self._clear_matches()
        needle = self.query_text.casefold()
        if not needle:
            self.refresh()
            return []
        self._render_all()
        matches = self._matches
        for number, entry in enumerate(self._entries):
            for line_number, strip in enumerate(entry.lines or ()):
                haystack = strip.text.casefold()
                start = haystack.find(needle)
                while start >= 0:
                    matches.append(_Match(number, line_number, start, start + len(needle)))
                    start = haystack.find(needle, start + max(1, len(needle)))
        for index, match in enumerate(matches):
            self._match_lines.setdefault((match.entry, match.line), []).append(index)
        return matches

    def _refind(self) -> None:
        """Lines were rendered again (width, theme, thinking): find the matches again, in place."""
        if not self.query_text:
            return
        current = self._match_index
        matches = self._find()
        self._match_index = min(max(current, 0), len(matches) - 1) if matches else -1
        self.refresh()

    def next_match(self, step: int = 1) -> bool:
        """Go to the next (``step=1``) or previous (``-1``) match; False when there is none."""
        if not self._matches:
            return False
        self._go_to_match((self._match_index + step) % len(self._matches))
        return True

    def clear_search(self) -> None:
        """Forget the search and its highlights."""
        self._clear_matches()
        self.query_text = ""
        self.refresh()

    def invalidate(self) -> None:
        """Render everything again (the theme changed)."""
        for entry in self._entries:
            entry.lines = None
            entry.signature = None
            entry.frozen = []
            entry.frozen_upto = 0
            entry.frozen_revision = -1
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
            for entry in self._entries:
                entry.lines = None
                entry.signature = None
                entry.frozen = []
                entry.frozen_upto = 0
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
                return Strip([Segment(" waiting for the answer…", empty)]).crop_extend(
                    0, width, style
                )
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
        hits = self._match_lines.get((index, line_number))
        if hits:
            strip = self._highlight(strip, hits)
        if index == self._marked:
            marked = self.get_component_rich_style("transcript--marked", partial=True)
            strip = strip.extend_cell_length(width).apply_style(marked)
        return strip.apply_style(style).crop_extend(0, width, style)

    # -- layout ---------------------------------------------------------------------------

    def _content_width(self) -> int:
        return max(10, self.scrollable_content_region.width - 1)

    def _visible(self, entry: _Entry) -> bool:
        return self.show_thinking or entry.block.kind != THINKING

    def _signature(self, index: int) -> tuple[object, ...]:
        return self._signature_of(self._entries[index].block)

    def _signature_of(self, block: Block) -> tuple[object, ...]:
        if block.kind == TOOL:
            session = self.session
            call = (
                session.tool_calls[block.call_index]
                if session is not None and block.call_index is not None
                else None
            )
            if call is None:
                return (TOOL,)
            return (TOOL, call.status, call.target, call.summary, call.kind, call.duration_ms)
        return (block.kind, block.revision, block.deltas, block.open, len(block.parts))

    def _estimate(self, entry: _Entry) -> int:
        block = entry.block
        if not self._visible(entry):
            return 0
        if block.kind in (TOOL, NOTICE):
            return 1
        width = max(1, self._width - 2)
        key = (*self._signature_of(block), width)
        if entry.estimate is not None and entry.estimate[0] == key:
            return entry.estimate[1]
        height = self._estimate_text(block, width) + entry.gap
        entry.estimate = (key, height)
        return height

    def _estimate_text(self, block: Block, width: int) -> int:
        text = block.text
        if len(text) > 1_000_000:
            return len(text) // width + 2
        lines = sum(len(line) // width + 1 for line in text.split("\n"))
        return lines + (2 if block.kind == THINKING else 1)

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
        self._programmatic += 1
        try:
            self.scroll_y = self.validate_scroll_y(y)
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

    def _render_all(self) -> None:
        for index, entry in enumerate(self._entries):
            if entry.lines is None and self._visible(entry):
                self._render_entry(index)
        self._reflow(0)

    # -- search ---------------------------------------------------------------------------

    def _clear_matches(self) -> None:
        self._matches = []
        self._match_lines = {}
        self._match_index = -1

    def _go_to_match(self, index: int) -> None:
        self._match_index = index
        match = self._matches[index]
        y = self._offsets[match.entry] + match.line
        if self.following:
            self.following = False
            self.post_message(self.FollowChanged(False, self.unseen))
        height = self.scrollable_content_region.height
        self._set_scroll(max(0, y - height // 3))
        self.refresh()

    def _highlight(self, strip: Strip, hits: list[int]) -> Strip:
        normal = self.get_component_rich_style("transcript--match")
        current = self.get_component_rich_style("transcript--match-current")
        text = strip.text
        for hit in hits:
            match = self._matches[hit]
            start = Segment.get_line_length([Segment(text[: match.start])])
            end = start + Segment.get_line_length([Segment(text[match.start : match.end])])
            before, middle, after = strip.divide([start, end, strip.cell_length])
            style = current if hit == self._match_index else normal
            marked = Strip(list(Segment.apply_style(iter(middle), post_style=style)))
            strip = Strip.join([before, marked, after])
        return strip

    # -- rendering ------------------------------------------------------------------------

    def _render_console(self) -> tuple[Console, ConsoleOptions]:
        console = self.app.console
        options = console.options.update(width=max(1, self._width), height=None, highlight=False)
        return console, options

    def _markdown_theme(self) -> Theme:
        code = self.get_component_rich_style("transcript--code")
        heading = self.get_component_rich_style("transcript--heading")
        link = self.get_component_rich_style("transcript--link")
        return Theme(
            {
                "markdown.code": code,
                "markdown.h1": heading + Style(bold=True),
                "markdown.h2": heading + Style(bold=True),
                "markdown.h3": heading,
                "markdown.h4": heading,
                "markdown.h5": heading,
                "markdown.h6": heading,
                "markdown.link": link,
                "markdown.link_url": link,
                "markdown.block_quote": Style(italic=True),
                "markdown.hr": Style(dim=True),
            }
        )

    def _code_theme(self) -> str:
        return "monokai" if self.app.current_theme.dark else "default"

    def _plain(self, text: str, width: int, style: Style | None = None) -> list[Strip]:
        """``text`` (already clean) as lines of ``width`` cells, no Markdown.

        Short text is word-wrapped by Rich. Long text (a model that pasted a whole
        file) is cut at the width instead: Rich's word wrap needs seconds per MB.
        """
        if len(text) <= FAST_WRAP_CHARS:
            return self._lines_of(Text(text, style=style or Style()), width)
        width = max(1, width)
        strips: list[Strip] = []
        for line in text.split("\n"):
            line = line.replace("\t", "    ")
            pieces = (
                [line[i : i + width] for i in range(0, len(line), width)]
                if line.isascii()
                else chop_cells(line, width)
            )
            strips.extend(Strip([Segment(piece, style)]) for piece in pieces or [""])
        return strips

    def _lines_of(self, renderable: RenderableType, width: int) -> list[Strip]:
        if isinstance(renderable, Text) and len(renderable) > _PIECE_CHARS:
            # Rich cuts one long segment into lines with str.partition, which is quadratic
            # (a 10 MB answer took minutes). Lines wrap alone, so render a few at a time.
            rows = renderable.split("\n", allow_blank=True)
            if len(rows) > _PIECE_LINES:
                return [
                    strip
                    for start in range(0, len(rows), _PIECE_LINES)
                    for strip in self._lines_of(
                        Text("\n").join(rows[start : start + _PIECE_LINES]), width
                    )
                ]
        console, options = self._render_console()
        with console.use_theme(self._markdown_theme()):
            lines = console.render_lines(renderable, options.update_width(max(1, width)), pad=False)
        return [Strip(line) for line in lines]

    def _markdown(self, text: str, width: int) -> list[Strip]:
        """Markdown lines for ``text`` (already clean), the part past the limit as plain."""
        tail = ""
        if len(text) > MARKDOWN_LIMIT:
            cut = text.rfind("\n", 0, MARKDOWN_LIMIT)
            cut = cut if cut > 0 else MARKDOWN_LIMIT
            text, tail = text[:cut], text[cut:]
        if _DEEP_NESTING.search(text):
            text, tail = "", text
        try:
            strips = self._lines_of(AnswerMarkdown(hard_breaks(text), self._code_theme()), width)
        except Exception:  # a Markdown the renderer chokes on is still shown, as text
            strips, tail = [], text + tail
        else:
            if _letters(strip.text for strip in strips) < _letters([text]) * 0.8:
                # The renderer lost text (a construct it does not show): show it plainly.
                strips, tail = [], text + tail
        if tail:
            strips += self._plain(tail, width)
        return strips

    def _indent(self, strips: list[Strip], prefix: list[Segment] | None = None) -> list[Strip]:
        margin = prefix or [Segment(" ")]
        return [Strip(margin + list(strip)) for strip in strips]

    def _render_entry(self, index: int) -> None:
        started = time.monotonic()
        self._render_entry_lines(index)
        entry = self._entries[index]
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
        if kind == TEXT:
            entry.lines = [*self._render_text(entry, width), Strip.blank(0)]
        elif kind == THINKING:
            entry.lines = [*self._render_thinking(block, width), Strip.blank(0)]
        elif kind == PROMPT:
            entry.lines = [*self._render_prompt(block, width), Strip.blank(0)]
        elif kind == TOOL:
            entry.lines = [self._render_tool(block, width)]
        else:
            style = self.get_component_rich_style("transcript--notice")
            text = Text("· " + clean(block.text).replace("\n", " "), style=style)
            text.truncate(width, overflow="ellipsis")
            entry.lines = self._indent(self._lines_of(text, width))
        if entry.gap:
            entry.lines[:0] = [Strip.blank(0)] * entry.gap

    def _render_text(self, entry: _Entry, width: int) -> list[Strip]:
        block = entry.block
        text = clean(block.text)
        if not block.open:
            entry.frozen = []
            entry.frozen_upto = 0
            text, more = self._capped(text)
            return self._indent(self._markdown(text, width)) + self._more_note(more, width)
        if entry.frozen_revision != block.revision or entry.frozen_upto > len(text):
            entry.frozen = []
            entry.frozen_upto = 0
            entry.frozen_revision = block.revision
        split = stable_split(text, entry.frozen_upto)
        if split > entry.frozen_upto:
            if entry.frozen:
                entry.frozen.append(Strip.blank(0))
            entry.frozen += self._indent(self._markdown(text[entry.frozen_upto : split], width))
            entry.frozen_upto = split
        tail = text[entry.frozen_upto :]
        if not tail.strip():
            return list(entry.frozen)
        if len(tail) > OPEN_MARKDOWN_LIMIT:
            rendered = self._plain(tail, width)
        else:
            rendered = self._markdown(tail, width)
        gap = [Strip.blank(0)] if entry.frozen else []
        return entry.frozen + gap + self._indent(rendered)

    def _render_thinking(self, block: Block, width: int) -> list[Strip]:
        style = self.get_component_rich_style("transcript--thinking")
        label_style = self.get_component_rich_style("transcript--thinking-label")
        label = "✻ thinking…" if block.open else "✻ thinking"
        lines = [Strip([Segment(" "), Segment(label, label_style)])]
        text, more = self._capped(clean(block.text).strip("\n"))
        body = self._plain(text, width - 2, style)
        bar = [Segment(" "), Segment("│ ", label_style)]
        lines += self._indent(body, bar)
        return lines + self._more_note(more, width)

    @staticmethod
    def _capped(text: str) -> tuple[str, int]:
        """``text`` cut to :data:`BLOCK_TEXT_LIMIT` at a line end, and how much was left out."""
        if len(text) <= BLOCK_TEXT_LIMIT:
            return text, 0
        cut = text.rfind("\n", 0, BLOCK_TEXT_LIMIT)
        cut = cut if cut > BLOCK_TEXT_LIMIT // 2 else BLOCK_TEXT_LIMIT
        return text[:cut], len(text) - cut

    def _more_note(self, more: int, width: int) -> list[Strip]:
        """A dim line saying how much of a block is not laid out, and where to read it."""
        if not more:
            return []
        style = self.get_component_rich_style("transcript--notice")
        note = Text(
            f"… {more:,} more characters not shown here: "
            "x exports the whole transcript as Markdown",
            style=style,
        )
        return self._indent(self._lines_of(note, width))

    def _render_prompt(self, block: Block, width: int) -> list[Strip]:
        style = self.get_component_rich_style("transcript--prompt")
        mark = self.get_component_rich_style("transcript--prompt-mark")
        strips = self._plain(clean(block.text).strip("\n"), width - 2, style)
        out = []
        for number, strip in enumerate(strips):
            prefix = [Segment(" "), Segment(PROMPT_MARK if number == 0 else "  ", mark)]
            out.append(Strip(prefix + list(strip)))
        return out

    @staticmethod
    def _describe(call: ToolCall, cwd: str | None) -> str:
        """``read src/app.py``: kind and target, paths relative to the session's cwd."""
        if call.kind in tools.PATH_KINDS and call.target:
            relative = tools.relative_path(call.target, cwd)
            return f"{one_line(call.kind, 60)} {one_line(relative, 300)}"
        return describe_call(call, 300)

    def _render_tool(self, block: Block, width: int) -> Strip:
        session = self.session
        base = self.get_component_rich_style("transcript--tool")
        detail = self.get_component_rich_style("transcript--tool-detail")
        if session is None or block.call_index is None:
            return Strip([Segment(" ⏺ tool call", base)])
        call = session.tool_calls[block.call_index]
        status_style = self.get_component_rich_style(
            _STATUS_CLASS.get(call.status, "transcript--tool-ok")
        )
        text = Text(" ")
        text.append("⏺ ", status_style)
        text.append(self._describe(call, session.cwd), base)
        text.append("  ")
        mark = STATUS_MARK.get(call.status, "•")
        text.append(f"{mark} {call.status}", status_style)
        extra = []
        if call.summary and call.summary != call.status:
            extra.append(clean(call.summary).replace("\n", " "))
        duration = format_duration(call.duration_ms) if not call.is_open else ""
        if duration:
            extra.append(duration)
        if extra:
            text.append(" · " + " · ".join(extra), detail)
        text.truncate(width + 1, overflow="ellipsis")
        return Strip(text.render(self.app.console))
