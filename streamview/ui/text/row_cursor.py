"""A virtual list of rows under a one-line header, with a row cursor and its keys."""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.scroll_view import ScrollView
from textual.strip import Strip

MOVE = "move the cursor"
"""What the up and down keys of a list do (the help's words)."""
PAGE = "a page up / down"
"""What the page keys of a list do."""
ENDS = "first / last"
"""What home and end do in a list."""


def cursor_bindings(row: str, rows: str) -> list[BindingType]:
    """The cursor keys, named by what a row is (``"call"``, ``"calls"``): the palette
    offers them by these names ("First call"), which must say what they act on."""
    return [
        Binding("up,k", "cursor_up", f"{row.capitalize()} above", show=False, tooltip=MOVE),
        Binding("down,j", "cursor_down", f"{row.capitalize()} below", show=False, tooltip=MOVE),
        Binding("pageup", "page_up", f"Page of {rows} up", show=False, tooltip=PAGE),
        Binding("pagedown", "page_down", f"Page of {rows} down", show=False, tooltip=PAGE),
        Binding("home,g", "first", f"First {row}", show=False, tooltip=ENDS),
        Binding("end,G", "last", f"Last {row}", show=False, tooltip=ENDS),
    ]


class RowCursorView(ScrollView, can_focus=True):
    """Rows drawn by :meth:`render_line` below a header on line 0, and a cursor over them.

    Subclasses say how many rows there are (:attr:`row_count`), what opening a row
    means (:meth:`open_row`, on Enter or a click) and, if they care, what to do when
    the cursor moves (:meth:`cursor_moved`). Keys: up/down (k/j), page up/down,
    home/end (g/G); subclasses bind Enter to ``open`` with their own description.
    """

    BINDINGS: ClassVar[list[BindingType]] = cursor_bindings("row", "rows")

    cursor: int | None = None
    """The row under the cursor, ``None`` when there are no rows."""

    HOVER_CLASS: ClassVar[str] = ""
    """The component class that styles the row under the mouse pointer (its
    background only, so a row's colours stay); none: no hover."""

    _pointer_y: int | None = None
    """The pointer's line in the view (1: the first row under the header), kept as a
    line rather than a row so that a row scrolled under a still pointer is the one lit."""

    @property
    def row_count(self) -> int:
        """How many rows there are."""
        raise NotImplementedError

    def open_row(self, index: int) -> None:
        """The user asked to open row ``index`` (Enter, or a click)."""
        raise NotImplementedError

    def cursor_moved(self, index: int) -> None:
        """The cursor moved to row ``index`` (nothing by default)."""

    def move_cursor(self, index: int) -> None:
        """Put the cursor on row ``index`` (clamped), repaint both rows, scroll it into view."""
        count = self.row_count
        if not count:
            return
        index = max(0, min(index, count - 1))
        old, self.cursor = self.cursor, index
        if old != index:
            if old is not None and old < count:
                self.refresh_line(old + 1)
            self.refresh_line(index + 1)
            self.cursor_moved(index)
        self.scroll_to_cursor()

    def scroll_to_cursor(self) -> None:
        """Scroll just enough for the cursor's row to be visible under the header."""
        cursor = self.cursor
        rows = self.scrollable_content_region.height - 1
        if cursor is None or rows <= 0:
            return
        top = round(self.scroll_offset.y)
        if cursor < top:
            self.scroll_to(y=cursor, animate=False, force=True)
        elif cursor >= top + rows:
            self.scroll_to(y=cursor - rows + 1, animate=False, force=True)

    def page_rows(self) -> int:
        """Rows one page key moves."""
        return max(1, self.scrollable_content_region.height - 2)

    def _step(self, delta: int) -> None:
        if self.cursor is not None:
            self.move_cursor(self.cursor + delta)

    def action_cursor_up(self) -> None:
        """Move the cursor one row up."""
        self._step(-1)

    def action_cursor_down(self) -> None:
        """Move the cursor one row down."""
        self._step(1)

    def action_page_up(self) -> None:
        """Move the cursor one page up."""
        self._step(-self.page_rows())

    def action_page_down(self) -> None:
        """Move the cursor one page down."""
        self._step(self.page_rows())

    def action_first(self) -> None:
        """Move the cursor to the first row."""
        self.move_cursor(0)

    def action_last(self) -> None:
        """Move the cursor to the last row."""
        self.move_cursor(self.row_count - 1)

    def action_open(self) -> None:
        """Open the row under the cursor."""
        if self.cursor is not None and self.cursor < self.row_count:
            self.open_row(self.cursor)

    @property
    def hover_row(self) -> int | None:
        """The row under the mouse pointer, if any."""
        if self._pointer_y is None:
            return None
        index = round(self.scroll_offset.y) + self._pointer_y - 1
        return index if 0 <= index < self.row_count else None

    def hovered(self, strip: Strip, index: int) -> Strip:
        """``strip`` (row ``index``, drawn without a cursor) lit if the pointer is on it."""
        if not self.HOVER_CLASS or index != self.hover_row:
            return strip
        # The hover colour has alpha (``$block-hover-background``): blend it on this
        # view's own background, as DataTable does (a rich style of it is plain white).
        background = (
            self.background_colors[1] + self.get_component_styles(self.HOVER_CLASS).background
        )
        over = Style(bgcolor=background.rich_color)
        segments = [
            Segment(text, style + over if style is not None else over, control)
            for text, style, control in strip
        ]
        return Strip(segments, strip.cell_length)

    def _point(self, line: int | None) -> None:
        old_row = self.hover_row
        self._pointer_y = line
        new_row = self.hover_row
        if old_row != new_row:
            for row in (old_row, new_row):
                if row is not None:
                    self.refresh_line(row + 1)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The pointer moved: light the row under it."""
        offset = event.get_content_offset(self)
        self._point(offset.y if offset is not None and offset.y >= 1 else None)

    def on_leave(self, event: events.Leave) -> None:
        """The pointer left the view: no row is lit."""
        self._point(None)

    def on_click(self, event: events.Click) -> None:
        """A click on a row moves the cursor there and opens it."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        index = round(self.scroll_offset.y) + offset.y - 1
        if 0 <= index < self.row_count:
            event.stop()
            self.move_cursor(index)
            self.open_row(index)
