"""The call table of a file whose calls the viewer packed into columns
(``core/call_columns.py``: a long file's) shows what it shows of the fold's objects:
the same rows, widths, title, orders, filters and cursor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from streamview.core import args_store
from streamview.core.call_columns import CallColumns
from streamview.sources.base import FileSource
from streamview.ui.calls.filter import CallFilter
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import settle
from .test_call_filter import rows

REPO = Path(__file__).resolve().parents[3]
FILES = [
    REPO / "recordings" / "success-multi-tool.ndjson",
    REPO / "recordings" / "denied-tools.ndjson",
]


async def seen(path: Path) -> list[Any]:
    """What the table shows of ``path``: plain, slowest first, trouble first, one kind,
    one status, a text; the cursor put on a call."""
    source = FileSource(path)  # opened as ``streamview FILE`` opens it (cli.view)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    shown: list[Any] = []
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        table = app.tool_table
        session = app.state.sessions[-1]
        shown.append(isinstance(session.tool_calls, CallColumns))
        shown.append((table.border_title, rows(table), table._kind_cells, table._timed))
        kinds = sorted({call.kind for call in session.tool_calls})
        for chosen in (
            CallFilter(order="slowest"),
            CallFilter(order="trouble"),
            CallFilter(kind=kinds[-1]),
            CallFilter(status="failed"),
            CallFilter(text="py"),
            CallFilter(),
        ):
            table.set_filter(chosen)
            await pilot.pause()
            shown.append((table.border_title, rows(table), table.cursor_call))
        table.select_call(len(session.tool_calls) - 1)
        await pilot.pause()
        shown.append((table.cursor_call, table.cursor, sorted(table._running_rows)))
    return shown


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
async def test_a_packed_table_shows_what_the_objects_show(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Packed (a sweep due at once) and not (no sweep): the same table."""
    kept = await seen(path)
    monkeypatch.setattr(args_store, "SWEEP_EVERY", 1)
    packed = await seen(path)
    assert kept[0] is False and packed[0] is True
    assert packed[1:] == kept[1:]
