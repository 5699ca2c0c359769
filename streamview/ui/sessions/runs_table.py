"""The sessions list's table: only the rows on screen are drawn.

A Textual ``DataTable`` measured every cell of every row on its first idle (1.1 s for
2,000 runs) and threw its whole line cache away on each ``update_cell`` (a live run's
state every 0.5 s), so every refresh drew every visible cell again through Rich. This
one is drawn with the Line API, like the tool-call table: column widths are given
(computed once per fill from the rows), each drawn row is kept as a
:class:`~textual.strip.Strip` until that row changes, and a changed row repaints its
own line only when it is on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from streamview.ui.calls.columns import fit_end
from streamview.ui.text.row_cursor import RowCursorView

PADDING = 1
"""Cells of space either side of a cell (as ``DataTable``'s)."""
CACHED_ROWS = 512
"""Drawn rows kept (a few screens' worth)."""


class RunsTable(RowCursorView, can_focus=False):
    """Rows of cells (:class:`~rich.text.Text`, one style each) under a header.

    The last column takes what the others leave (a narrow terminal cuts the title,
    not the numbers). Keys go to the list's filter, which moves this cursor.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "runs-table--header",
        "runs-table--cursor",
        "runs-table--even-row",
        "runs-table--hover",
    }
    HOVER_CLASS = "runs-table--hover"
    DEFAULT_CSS = """
    RunsTable {
        background: $surface;
        color: $foreground;
        & > .runs-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .runs-table--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .runs-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .runs-table--hover {
            background: $block-hover-background;
        }
        &:dark > .runs-table--even-row {
            background: $surface-darken-1 40%;
        }
        &:light > .runs-table--even-row {
            background: $surface-lighten-1 50%;
        }
    }
    """

    class Highlighted(Message):
        """The cursor moved to row :attr:`row`."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    class Selected(Message):
        """Row :attr:`row` was clicked (it opens)."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, labels: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels = list(labels)
        self.widths = [len(label) for label in labels]
        """Each column's cells (the last one's is its least: it takes the rest)."""
        self.keys: list[str] = []
        """Each row's key (a run's path)."""
        self._rows: list[list[Text]] = []
        self._index: dict[str, int] = {}
        self._cache: LRUCache[int, Strip] = LRUCache(CACHED_ROWS)
        self._cache_width = -1
        self.rendered = 0
        """Rows drawn (not taken from the cache) since the table was made: what a test
        counts to see that an update draws only what changed."""

    # -- rows -------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """How many rows there are."""
        return len(self._rows)

    @property
    def cursor_row(self) -> int:
        """The row under the cursor (-1: none)."""
        return -1 if self.cursor is None else self.cursor

    def set_rows(
        self, keys: Sequence[str], rows: Sequence[list[Text]], widths: Sequence[int]
    ) -> None:
        """Show these rows (cursor and scroll are the caller's to set)."""
        self.keys = list(keys)
        self._rows = [list(row) for row in rows]
        self._index = {key: index for index, key in enumerate(self.keys)}
        self.widths = list(widths)
        self.cursor = (
            (min(self.cursor, len(self._rows) - 1) if self.cursor is not None else 0)
            if self._rows
            else None
        )
        self._cache.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._rows) + 1)
        self.refresh()

    def update_cells(self, key: str, cells: dict[int, Text]) -> bool:
        """Change some cells of row ``key``; only its line is drawn again, and only if
        a cell did change. Whether the row is shown."""
        index = self._index.get(key)
        if index is None:
            return False
        row = self._rows[index]
        changed = False
        for column, cell in cells.items():
            if row[column] != cell:
                row[column] = cell
                changed = True
        if changed:
            self._cache.discard(index)
            self.refresh_line(index + 1)
        return True

    def get_cell(self, key: str, column: int) -> Text:
        """The cell of row ``key`` in ``column``."""
        return self._rows[self._index[key]][column]

    def get_cell_at(self, row: int, column: int) -> Text:
        """The cell at ``row``, ``column``."""
        return self._rows[row][column]

    # -- cursor (RowCursorView) -------------------------------------------------------

    def open_row(self, index: int) -> None:
        """A click on a row: it opens."""
        self.post_message(self.Selected(index))

    def cursor_moved(self, index: int) -> None:
        """Say which row is under the cursor now."""
        self.post_message(self.Highlighted(index))

    def on_resize(self) -> None:
        """Widths changed: rows are drawn again, the cursor stays in view."""
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._rows) + 1)
        self.scroll_to_cursor()

    def notify_style_update(self) -> None:
        """The theme changed: every kept row is stale."""
        super().notify_style_update()
        self._cache.clear()

    # -- drawing ----------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Screen line ``y``: the header on line 0, rows below it."""
        width = self.scrollable_content_region.width
        if width != self._cache_width:
            self._cache.clear()
            self._cache_width = width
        base = self.rich_style
        if y == 0:
            header = base + self.get_component_rich_style("runs-table--header")
            return self._join([Text(label) for label in self.labels], width, header, header)
        index = round(self.scroll_offset.y) + y - 1
        if not 0 <= index < len(self._rows):
            return Strip.blank(width, base)
        if index == self.cursor:
            cursor = self.get_component_rich_style("runs-table--cursor")
            self.rendered += 1
            return self._join(self._rows[index], width, base + cursor, cursor)
        strip = self._cache.get(index)
        if strip is None:
            if index % 2 == 0:  # DataTable's zebra: the first row is striped
                base += self.get_component_rich_style("runs-table--even-row")
            self.rendered += 1
            strip = self._join(self._rows[index], width, base, None)
            self._cache.set(index, strip)
        return self.hovered(strip, index)

    def _join(self, row: Sequence[Text], width: int, base: Style, over: Style | None) -> Strip:
        """One line of cells at the columns' widths on ``base``; ``over`` (the cursor,
        the header) wins over a cell's own style."""
        segments: list[Segment] = []
        used = 0
        pad = " " * PADDING
        last = len(row) - 1
        console = self.app.console
        for column, cell in enumerate(row):
            size = self.widths[column] if column < len(self.widths) else cell.cell_len
            if column == last:
                size = max(size, width - used - 2 * PADDING)
            style = base
            if cell.style:
                own = console.get_style(cell.style) if isinstance(cell.style, str) else cell.style
                style = base + own
            if over is not None:
                style += over
            segments.append(Segment(pad + fit_end(cell.plain, size) + pad, style))
            used += size + 2 * PADDING
            if used >= width:
                break
        if used < width:
            segments.append(Segment(" " * (width - used), base))
        return Strip(segments).crop(0, width) if used > width else Strip(segments, width)
