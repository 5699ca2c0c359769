"""The table's keys as a person presses them on a long run: F cycled back to "all"
leaves the cursor on the call it was on; K starts at the selected call's kind and says
how many calls each kind has, then every other kind, most calls first; after s the
sorted table shows its top."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from streamview.sources.base import FileSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle, wait_for

REPO = Path(__file__).resolve().parents[3]
LONG_RUN = REPO / "recordings" / "long-run.ndjson"


def top_row(table: ToolCallTable) -> int:
    return round(table.scroll_y)


def in_view(table: ToolCallTable) -> bool:
    rows = table.scrollable_content_region.height - 1
    return table.cursor is not None and top_row(table) <= table.cursor < top_row(table) + rows


async def opened(app: StreamviewApp) -> None:
    app.tool_table.focus()


async def test_f_cycled_back_to_all_keeps_the_place() -> None:
    app = StreamviewApp(FileSource(LONG_RUN), clock=FakeClock())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        table = app.tool_table
        await pilot.press("tab", "pagedown", "pagedown", "down", "down")
        place = table.cursor_call
        assert place is not None and place > 10
        for _ in range(4):  # failed, rejected, running, all
            await pilot.press("F")
            await pilot.pause()
        assert table.border_title == f"Tool calls ({table.total_calls})"
        assert table.cursor_call == place and in_view(table)


async def test_k_starts_at_the_selected_calls_kind_and_counts_each_kind() -> None:
    app = StreamviewApp(FileSource(LONG_RUN), clock=FakeClock())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        table = app.tool_table
        calls = app.state.sessions[-1].tool_calls
        counts = Counter(call.kind for call in calls)
        by_count = sorted(counts, key=lambda k: (-counts[k], k))
        await pilot.press("tab", "home")
        # Down to a call of a middling kind: more frequent kinds and rarer ones both exist.
        middling = by_count[2 : len(by_count) - 2]
        while calls[table.cursor_call or 0].kind not in middling:
            await pilot.press("down")
        kind = calls[table.cursor_call or 0].kind
        # What each K says, as it is said: the app's own list of notifications drops
        # each once its time is up, which a loaded machine can reach before it is read.
        said: list[str] = []
        shown = app.notify

        def keep(message: str, *args: Any, **kwargs: Any) -> None:
            said.append(str(message))
            shown(message, *args, **kwargs)

        app.notify = keep  # type: ignore[method-assign]
        await pilot.press("K")
        await wait_for(pilot, lambda: len(said) == 1)
        assert table.call_filter.kind == kind
        assert table.border_title == f"Tool calls {counts[kind]} of {len(calls)} · {kind}"
        assert said[-1].startswith(f"{kind}: {counts[kind]} of {len(calls)} calls · K: ")
        # Again: the other kinds, the most frequent first, each once, then all.
        seen = [kind]
        while seen[-1] is not None and len(seen) <= len(counts):
            await pilot.press("K")
            await wait_for(pilot, lambda: len(said) == len(seen) + 1)
            seen.append(table.call_filter.kind)  # type: ignore[arg-type]
        assert seen[-1] is None
        # Every other kind, the more frequent ones too (K skipped those: a person on a
        # read row could never reach grep).
        assert seen[1:-1] == [other for other in by_count if other != kind]
        assert said[-2].endswith(" · K: all"), said  # the last kind's: all next
        await pilot.press("K")  # from all again: the selected call's kind first
        await pilot.pause()
        assert table.call_filter.kind == calls[table.cursor_call or 0].kind


async def test_after_s_the_top_of_the_sorted_table_is_in_view() -> None:
    app = StreamviewApp(FileSource(LONG_RUN), clock=FakeClock())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        table = app.tool_table
        await pilot.press("tab", "end")  # far down: the last call
        assert top_row(table) > 50
        await pilot.press("s")
        await pilot.pause()
        assert table.border_title.endswith("slowest first")
        assert top_row(table) == 0 and table.cursor == 0
        slowest = max(app.state.sessions[-1].tool_calls, key=lambda c: c.duration_ms or -1)
        assert table.cursor_call == slowest.index
