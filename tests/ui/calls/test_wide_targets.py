"""Side by side (from 150 columns), the tool table shows what a call did: a shell
command that fits the table is shown whole, not cut at ``tests/tes…`` while the
transcript beside it has columns to spare.

The transcript keeps what it needs to stay readable (its code lines whole: the longest
in the bundled recordings and real captures is 80 columns; prose wraps at the pane)
and the table takes the rest; in a narrow side-by-side table the status keeps its
symbol and the target takes the cells of the word."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from streamview.sources.base import FileSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.app import WIDE_LAYOUT_COLUMNS, StreamviewApp

from ..conftest import RECORDINGS, FakeClock, settle

LONGEST_CODE_LINE = 80
"""The longest line of a code block in the recordings' and captures' answers."""
READABLE = 100
"""Widest the transcript gets beside the table (prose wider than this is hard to read)."""
RUN = RECORDINGS / "long-run.ndjson"
FITS = "uv run ruff check src tests"
"""A command of the long run that fits a side-by-side table (it read ``… src te…``)."""
LONG = "uv run pytest -q tests/test_metrics_regression_50.py"
"""The start of the long run's longest commands (111 characters: they fit nowhere)."""


def table_rows(table: ToolCallTable) -> list[str]:
    """The table's lines as a person reads them (header first)."""
    return [table.render_line(y).text for y in range(table.size.height)]


@pytest.mark.parametrize("size", [(200, 50), (150, 40)])
async def test_a_shell_command_that_fits_the_side_by_side_table_is_shown_whole(
    size: tuple[int, int],
) -> None:
    app = StreamviewApp(FileSource(RUN), clock=FakeClock())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("tab", "home")
        await pilot.pause()
        table, transcript = app.tool_table, app.transcript
        assert size[0] >= WIDE_LAYOUT_COLUMNS
        assert table.region.y == transcript.region.y  # side by side
        # The transcript keeps its code lines whole and its prose readable ...
        assert LONGEST_CODE_LINE + 6 <= transcript.outer_size.width <= READABLE
        # ... and the table takes every column left.
        assert transcript.outer_size.width + table.outer_size.width == size[0]
        lines = table_rows(table)
        ruff = [line for line in lines if " shell " in line and "ruff" in line]
        assert ruff and all(FITS in line for line in ruff), lines
        assert all("✓" in line or "✗" in line for line in ruff)  # the status stays
        pytest_rows = [line for line in lines if LONG[:24] in line]
        assert pytest_rows and all("…" in line for line in pytest_rows)  # cut, not over
        width = table.scrollable_content_region.width
        assert all(cell_len(line) == width for line in lines)
