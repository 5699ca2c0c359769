"""Long lists (matches, files, a directory tree) as rows made when shown."""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field
from itertools import accumulate

from rich.text import Text

from streamview.ui.text.rows import LazyRows, widest_cells

LIST_BATCH_ROWS = 20_000
"""Rows of a long list joined into one string at a time (the UI thread runs between)."""


@dataclass(frozen=True, slots=True, eq=False)
class ListRows(LazyRows):
    """The entries of a long list (matches, files, a directory tree) as rows of clean
    text, each split into its styled parts only when shown.

    A row is a plain lead (indent, tree guides), a dim mark (a line number) and the
    entry in the style of its kind. A million entries cost one string and four arrays:
    no laid-out lines, and nothing for the garbage collector to walk.
    """

    text: str = field(repr=False)
    """Every row, one after the other (no line breaks)."""
    starts: array[int] = field(repr=False)
    """Where each row starts in :attr:`text`, then where the last one ends."""
    leads: array[int] = field(repr=False)
    """Characters of each row's plain lead."""
    marks: array[int] = field(repr=False)
    """Characters of each row's dim mark, after the lead."""
    kinds: array[int] = field(repr=False)
    """Each row's style, as an index into :attr:`styles`."""
    styles: tuple[str, ...] = ("",)
    """The styles of the entries."""
    widest: int = 0
    """Cells of the widest row."""
    note: Text | None = None
    """What was cut and how to see it, shown after the rows."""

    def text_row(self, index: int) -> Text:
        """Row ``index``: its lead, its mark (dim) and its entry (in its kind's style)."""
        line = self.line(index)
        lead, mark = self.leads[index], self.marks[index]
        row = Text(line[:lead], no_wrap=True, overflow="ignore", end="")
        if mark:
            row.append(line[lead : lead + mark], style="dim")
        row.append(line[lead + mark :], style=self.styles[self.kinds[index]])
        return row

    def joined(self, count: int | None = None) -> Text:
        """The first ``count`` rows (all if ``None``) as one text, a line each."""
        count = self.line_count if count is None else min(count, self.line_count)
        return Text("\n", end="").join(self.text_row(index) for index in range(count))


class ListBuilder:
    """Collects the rows of a :class:`ListRows` off the UI thread, joining them into
    one string a batch at a time (strings are not walked by the garbage collector, a
    million :class:`~rich.text.Text` would be)."""

    def __init__(self, styles: tuple[str, ...] = ("",), limit: int | None = None) -> None:
        """Start empty.

        Args:
            styles: The styles of the entries; :meth:`add` takes an index into them.
            limit: Rows kept; the rows added after that are only counted.
        """
        self.styles = styles
        self.limit = limit
        self.skipped = 0
        """Rows not kept (past :attr:`limit`)."""
        self._rows: list[str] = []
        self._texts: list[str] = []
        self._starts = array("q")
        self._end = 0
        self._leads = array("q")
        self._marks = array("q")
        self._kinds = array("B")
        self._widest = 0

    def __len__(self) -> int:
        """Rows added."""
        return len(self._kinds)

    @property
    def full_up(self) -> bool:
        """No more rows are kept: the caller may count them (:meth:`skip`) instead."""
        return self.limit is not None and len(self._kinds) >= self.limit

    def skip(self, count: int = 1) -> None:
        """Count ``count`` rows not kept."""
        self.skipped += count

    def add(self, lead: str, entry: str, kind: int = 0, mark: str = "") -> None:
        """Add a row: ``lead``, then ``mark`` (dim), then ``entry`` (all clean, one line)."""
        if self.full_up:
            self.skipped += 1
            return
        self._rows.append(lead + mark + entry)
        self._leads.append(len(lead))
        self._marks.append(len(mark))
        self._kinds.append(kind)
        if len(self._rows) >= LIST_BATCH_ROWS:
            self._flush()

    def _flush(self) -> None:
        rows = self._rows
        if not rows:
            return
        self._widest = max(self._widest, widest_cells("\n".join(rows)))
        self._starts.extend(accumulate(map(len, rows), initial=self._end))
        self._end = self._starts.pop()
        self._texts.append("".join(rows))
        rows.clear()
        time.sleep(0)

    def rows(self, note: Text | None = None) -> ListRows:
        """The rows added, and ``note`` after them."""
        self._flush()
        starts = array("q", self._starts)
        starts.append(self._end)
        text = "".join(self._texts)
        return ListRows(
            text,
            starts,
            self._leads,
            self._marks,
            self._kinds,
            self.styles,
            self._widest,
            note,
        )
