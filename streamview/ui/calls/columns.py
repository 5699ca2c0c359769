"""The tool-call table's columns: how wide each is at a terminal width, and how a cell's
text is cut to fit (a path in the middle, keeping its file name; anything else at the end).
"""

from __future__ import annotations

import msgspec
from rich.cells import cell_len, set_cell_size

GAP = 1
"""Blank cells between two columns."""
KIND_WIDTH = 12
"""Widest the kind column gets (``updateTodos`` is 11)."""
STATUS_WIDTH = 13
"""Widest the status column gets: ``⚠ interrupted``."""
START_WIDTH = 8
"""``+1:23``, ``+1:02:03``, ``14:03:22``."""
DURATION_WIDTH = 6
"""``850ms``, ``12.3s``, ``3m05s``, ``1h02m``."""
"""Kinds whose target is a path: cut in the middle, keeping the file name."""
SUMMARY_MIN = 12
"""Fewest cells of the result column when it is shown (``exit 1, 26 l…``)."""
SUMMARY_MAX = 48
"""Most cells of the result column."""


def fit_end(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` cells with a trailing ``…``, then pad it to ``width``."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    return set_cell_size(text, width - 1) + "…"


def fit_middle(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` cells with a ``…`` in the middle, then pad it.

    Keeps the end of a path (the file name) and its start (where it is).
    """
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    if width < 5:
        return fit_end(text, width)
    tail_cells = (width - 1) * 2 // 3
    head_cells = width - 1 - tail_cells
    head = set_cell_size(text, head_cells)
    tail = text[-tail_cells:]
    while cell_len(tail) > tail_cells:
        tail = tail[1:]
    return set_cell_size(head + "…" + tail, width)


class Columns(msgspec.Struct, frozen=True):
    """Cell widths of the columns for one table width; 0 means the column is hidden."""

    index: int
    kind: int
    target: int
    status: int
    duration: int
    summary: int
    start: int = 0
    """When the call started (``+1:23``, or the wall clock); shown on wide tables."""

    @classmethod
    def for_width(
        cls, width: int, rows: int, kind: int = KIND_WIDTH, timed: bool = True
    ) -> Columns:
        """Share ``width`` cells between the columns, dropping the least useful first.

        Args:
            width: Cells available for a row.
            rows: How many rows the table has (the ``#`` column fits the largest).
            kind: Cells the longest kind needs.
            timed: Some call has a start time (a stream without timestamps has none:
                its start and duration columns would stay empty, so they go).

        The status column keeps one width whatever the statuses, so that rows do not
        jump sideways each time a call completes. Where the result column would not
        fit, the status keeps its symbol only (its colour says the rest) and the target
        takes the cells of the word.
        """
        index = max(2, len(str(max(rows, 1))))
        kind = max(4, min(kind, KIND_WIDTH))
        status = STATUS_WIDTH
        duration = DURATION_WIDTH if timed else 0
        fixed = index + kind + status + duration + 4 * GAP
        flexible = width - fixed
        if flexible < 30:
            # Narrow: no result column; the status keeps its symbol, and below 16 cells
            # the duration goes too.
            status = 1
            if flexible < 16:
                duration = 0
            fixed = index + kind + status + duration + (4 if duration else 3) * GAP
            return cls(index, kind, max(width - fixed, 0), status, duration, 0)
        start = 0
        if flexible >= 60 and timed:
            start = START_WIDTH
            flexible -= start + GAP
        summary = min(max(flexible // 3, SUMMARY_MIN), SUMMARY_MAX)
        return cls(index, kind, flexible - summary - GAP, status, duration, summary, start)
