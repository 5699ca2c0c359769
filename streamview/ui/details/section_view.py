"""Sections on screen: laid out off the UI thread, shown a line at a time (Line API),
selectable with the mouse.

The detail view and the event log's entry screen show their :class:`Section` s in a
:class:`SectionView`; :func:`render_sections` lays them out at a width.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import ClassVar, overload

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip

from streamview.core.sanitize import one_line
from streamview.ui.details.sections import Section
from streamview.ui.text.rows import LazyRows
from streamview.ui.text.selection import draw_selection, selected_text
from streamview.ui.text.wrap import WrapText
from streamview.ui.transcript.block_layout import offscreen_console

MAX_RENDER_WIDTH = 20_000
"""Widest line laid out for sideways scrolling; wider texts are folded instead."""
LINE = "scroll a line up / down"
"""What the up and down keys of a section view do (the help's words)."""
PAGE = "a page up / down"
"""What the page keys do."""
ENDS = "to the top / bottom, at once"
"""What home, g, end and G do."""


class LaidOutLines(Sequence[Strip]):
    """A view's lines: runs of strips laid out in advance, and rows of big texts (shell
    output; file content, diffs, raw JSON, long lists and folded texts shown in full)
    that become strips when first shown (then are kept for a while).

    A million rows cost their text only; the strips on screen are made on the UI
    thread, a few dozen at a time.
    """

    CACHED_ROWS: ClassVar[int] = 4_096
    """Rows kept as strips (scrolling back is then free)."""

    def __init__(self, console: Console, options: ConsoleOptions) -> None:
        """Start empty.

        Args:
            console: Renders the rows (used from the UI thread once handed over).
            options: How: no wrapping, wide enough for the widest row.
        """
        self._console = console
        self._options = options
        self._parts: list[list[Strip] | LazyRows] = []
        self._starts: list[int] = []
        self._length = 0
        self._cache: LRUCache[tuple[int, int], Strip] = LRUCache(self.CACHED_ROWS)

    def append(self, strip: Strip) -> None:
        """Add one laid-out line."""
        if not self._parts or not isinstance(self._parts[-1], list):
            self._starts.append(self._length)
            self._parts.append([])
        last = self._parts[-1]
        assert isinstance(last, list)
        last.append(strip)
        self._length += 1

    def add_rows(self, rows: LazyRows) -> None:
        """Add rows of a big text, to be made strips when shown."""
        self._starts.append(self._length)
        self._parts.append(rows)
        self._length += len(rows)

    def __len__(self) -> int:
        """Lines in all."""
        return self._length

    @overload
    def __getitem__(self, index: int) -> Strip: ...

    @overload
    def __getitem__(self, index: slice) -> list[Strip]: ...

    def __getitem__(self, index: int | slice) -> Strip | list[Strip]:
        """Line ``index`` (made now if it is a row of a big text not shown lately)."""
        if isinstance(index, slice):
            return [self[number] for number in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        part_number = bisect_right(self._starts, index) - 1
        part = self._parts[part_number]
        offset = index - self._starts[part_number]
        if isinstance(part, list):
            return part[offset]
        key = (part_number, offset)
        strip = self._cache.get(key)
        if strip is None:
            lines = self._console.render_lines(part.row(offset), self._options, pad=False)
            strip = Strip(lines[0]) if lines else Strip.blank(0)
            self._cache.set(key, strip)
        return strip

    def __iter__(self) -> Iterator[Strip]:
        """Every line, in order."""
        for index in range(self._length):
            yield self[index]


def render_sections(
    sections: Sequence[Section], width: int, title_style: Style
) -> tuple[LaidOutLines, int]:
    """Lay sections out as lines of a given width (safe to call from a thread).

    Sections that fold are wrapped to ``width``; code, diffs and output keep their
    lines whole, for sideways scrolling. Big texts (:class:`~streamview.ui.text.rows.LazyRows`)
    are not laid out here at all: their rows become strips when they are shown; a big
    text that folds (:class:`~streamview.ui.text.wrap.WrapText`) is only cut into rows here.

    Returns:
        The lines, and the width of the widest one.
    """
    width = max(width, 10)
    console = offscreen_console(width)
    options = console.options.update_width(width)
    widest = width
    big = [s.body for s in sections if isinstance(s.body, LazyRows)]
    rows_width = max([width, *(rows.widest for rows in big)])
    strips = LaidOutLines(
        console, options.update(width=rows_width, no_wrap=True, overflow="ignore")
    )
    for section in sections:
        if section.title:
            if strips:
                strips.append(Strip.blank(0))
            strips.append(Strip([Segment(section.title, title_style)]))
        if isinstance(section.body, LazyRows):
            strips.add_rows(section.body)
            widest = max(widest, section.body.widest)
            continue
        if isinstance(section.body, WrapText):
            strips.add_rows(section.body.rows(width))
            continue
        section_options = options
        if not section.wrap:
            measured = Measurement.get(
                console, options.update_width(MAX_RENDER_WIDTH), section.body
            )
            if measured.maximum < MAX_RENDER_WIDTH:
                line_width = max(width, measured.maximum)
                section_options = options.update(width=line_width, no_wrap=True, overflow="ignore")
        lines = console.render_lines(section.body, section_options, pad=False)
        for line in lines:
            strip = Strip(line)
            widest = max(widest, strip.cell_length)
            strips.append(strip)
    return strips, widest


class SectionView(ScrollView, can_focus=True):
    """Sections laid out off the UI thread and shown line by line (Line API).

    A payload of 100,000 lines costs the UI thread nothing but the lines on screen;
    the layout is redone in a worker when the width changes.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"section-view--title"}
    """Component classes: styled in ``streamview.tcss``."""

    # Textual binds the arrows, pgup/pgdn and home/end already; bound here as well, with
    # less's letters, so the help and the palette list them by what they scroll.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "scroll_up", "Scroll up", show=False, tooltip=LINE),
        Binding("down,j", "scroll_down", "Scroll down", show=False, tooltip=LINE),
        Binding("pageup", "page_up", "Page up", show=False, tooltip=PAGE),
        Binding("pagedown", "page_down", "Page down", show=False, tooltip=PAGE),
        Binding("home,g", "scroll_home", "Top", show=False, tooltip=ENDS),
        Binding("end", "scroll_end", "Bottom", show=False, tooltip=ENDS),
        # G keeps what it means everywhere (a playback goes to 100 %) and scrolls here
        # too; no name of its own: the palette's entry is end's ("Bottom of details").
        Binding("G", "scroll_end(True)", "", show=False, tooltip=ENDS),
    ]

    class Ready(Message):
        """The sections are laid out and on screen."""

    def __init__(self, *, id: str | None = None, named: str = "the view") -> None:
        """Create an empty view; :meth:`show` gives it sections.

        Args:
            id: The widget's id.
            named: What the view shows, as the palette names its keys ("Top of details").
        """
        super().__init__(id=id)
        self.PALETTE_TITLES = {
            "scroll_up": f"Scroll {named} up",
            "scroll_down": f"Scroll {named} down",
            "page_up": f"Page {named} up",
            "page_down": f"Page {named} down",
            "scroll_home": f"Top of {named}",
            "scroll_end": f"Bottom of {named}",
        }
        """The palette's names of the scrolling keys, saying what they scroll."""
        self.sections: Sequence[Section] | None = None
        self._strips: Sequence[Strip] = []
        self._laid_out_width = -1
        self._title_style: Style | None = None

    def action_scroll_up(self) -> None:
        """Up, k: a line up at once (a held key glides in Textual, and lags behind)."""
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_up(animate=False)

    def action_scroll_down(self) -> None:
        """Down, j: a line down at once."""
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_down(animate=False)

    def action_page_up(self) -> None:
        """Page up at once."""
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_page_up(animate=False)

    def action_page_down(self) -> None:
        """Page down at once."""
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_page_down(animate=False)

    def action_scroll_home(self) -> None:
        """Home: to the top at once, as less does (Textual glides, up to a second)."""
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_home(animate=False, x_axis=self.scroll_y == 0)

    def action_scroll_end(self, pass_on: bool = False) -> None:
        """End: to the bottom at once.

        Args:
            pass_on: The key goes on to the app's binding too (``G`` takes a playback
                to its end wherever it is pressed).
        """
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_end(animate=False, x_axis=self.scroll_y == self.max_scroll_y)
        if pass_on:
            raise SkipAction()

    @property
    def lines(self) -> Sequence[Strip]:
        """The laid-out lines (empty while loading)."""
        return self._strips

    @property
    def text(self) -> str:
        """Everything laid out, as plain text."""
        return "\n".join(strip.text.rstrip() for strip in self._strips)

    def show(self, sections: Sequence[Section] | None) -> None:
        """Show ``sections`` (``None``: loading), laid out in a worker."""
        self.sections = sections
        self._laid_out_width = -1
        if sections is None:
            self._set_strips([], 0, -1)
            return
        self._layout()

    def on_resize(self, event: events.Resize) -> None:
        """Lay the sections out again when the width changed."""
        if self.sections is not None and self._content_width() != self._laid_out_width:
            self._layout()

    def notify_style_update(self) -> None:
        """The theme changed: lay out again if section titles change colour."""
        super().notify_style_update()
        if self.sections is not None and self.is_mounted:
            title = self.get_component_rich_style("section-view--title", partial=True)
            if title != self._title_style:
                self._layout()

    def _content_width(self) -> int:
        return self.scrollable_content_region.width or self.size.width or 80

    def _layout(self) -> None:
        if self.sections is None:
            return
        width = self._content_width()
        title = self.get_component_rich_style("section-view--title", partial=True)
        self._title_style = title
        self._layout_worker(self.sections, width, title)

    # A description of its own: by default Textual puts the repr of the arguments in
    # it, and the repr of a million-line payload stalls the UI thread for 0.2 s.
    @work(
        thread=True,
        exclusive=True,
        name="lay out sections",
        description="lay out sections",
    )
    def _layout_worker(self, sections: Sequence[Section], width: int, title: Style) -> None:
        try:
            strips, widest = render_sections(sections, width, title)
        except Exception as error:  # shown in place of the body, never spun on
            what = one_line(f"{type(error).__name__}: {error}", 300)
            note = Section("could not lay this out", Text(what, style="yellow"))
            strips, widest = render_sections([note], width, title)
        self.app.call_from_thread(self._set_strips, strips, widest, width)

    def _set_strips(self, strips: Sequence[Strip], widest: int, width: int) -> None:
        self._strips = strips
        self._laid_out_width = width
        self.virtual_size = Size(widest if widest > width else 1, len(strips))
        self.refresh()
        if self.sections is not None:
            self.post_message(self.Ready())

    def render_line(self, y: int) -> Strip:
        """One screen line: a laid-out line cropped to the scroll position."""
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.rich_style
        index = scroll_y + y
        if self.sections is None or not 0 <= index < len(self._strips):
            return Strip.blank(width, base)
        strip = self._strips[index]
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(index)) is not None:
            style = self.screen.get_component_rich_style("screen--selection")
            strip = draw_selection(strip, span, style)
        strip = strip.crop_extend(scroll_x, scroll_x + width, base).apply_style(base)
        return strip.apply_offsets(scroll_x, index)  # a mouse drag selects

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The selected text of the laid-out lines."""
        return selected_text((strip.text for strip in self._strips), selection)

    def selection_updated(self, selection: Selection | None) -> None:
        """Draw the selection as it changes."""
        self.refresh()
