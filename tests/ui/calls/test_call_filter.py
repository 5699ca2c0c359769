"""Filter the tool calls as a person does: F for a status, K for a kind, \\ for text,
escape for all of them again; the pane's title says how many of how many, and why."""

from __future__ import annotations

from pathlib import Path

from streamview.core import tools
from streamview.sources.base import FileSource
from streamview.ui.calls.filter import CallFilter, kind_counts, title
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "denied-tools.ndjson"
CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def rows(table: ToolCallTable) -> list[str]:
    return [table.render_line(y).text for y in range(1, table.row_count + 1)]


async def test_f_k_backslash_and_escape_filter_the_table_and_say_so() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.tool_table
        assert table.border_title == "Tool calls (8)"
        await pilot.press("tab", "F")  # failed
        await pilot.pause()
        assert table.border_title == "Tool calls 1 of 8 · failed"
        assert len(rows(table)) == 1 and "exit 1" in rows(table)[0]
        assert rows(table)[0].lstrip().startswith("2 ")  # the session's own number
        await pilot.press("F", "F", "F")  # rejected, running, all
        await pilot.pause()
        assert table.border_title == "Tool calls (8)"
        assert table.cursor_call == 0  # back on the call it was on, not the failed one
        await pilot.press("down", "down", "down")
        kind = table.session.tool_calls[3].kind  # type: ignore[union-attr]
        of_kind = [c for c in table.session.tool_calls if c.kind == kind]  # type: ignore[union-attr]
        await pilot.press("K")  # the selected call's kind first
        await pilot.pause()
        assert table.border_title == f"Tool calls {len(of_kind)} of 8 · {kind}"
        assert table.cursor_call == 3
        await pilot.press("escape")
        await pilot.pause()
        assert table.row_count == 8
        await pilot.press("backslash")
        await pilot.pause()
        for char in "pytest":
            await pilot.press(char)
        await pilot.press("enter")
        await pilot.pause()
        assert table.border_title == "Tool calls 2 of 8 · “pytest”"
        assert all("pytest" in row for row in rows(table))
        assert table.has_focus
        await pilot.press("enter")  # opens the call under the cursor: the session's call 2
        await pilot.pause()
        assert app.screen.call.index == 1  # type: ignore[attr-defined]


async def test_escape_with_no_filter_is_the_apps() -> None:
    """No filter set: escape on the table does not eat the key (it closes searches)."""
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        assert app.tool_table.check_action("clear_filter", ()) is False


def test_the_filter_model() -> None:
    from streamview.core.state import ToolCall

    calls = [
        ToolCall(0, "a", "shell", target="pytest -q", status=tools.FAILED),
        ToolCall(1, "b", "read", target="src/x.py", status=tools.SUCCEEDED),
        ToolCall(2, "c", "shell", target="ls", status=tools.REJECTED),
        ToolCall(3, "d", "grep", target="TODO", status=tools.ERROR),
    ]
    failed = CallFilter(status="failed")
    assert [c.index for c in calls if failed.admits(c)] == [0, 3]
    assert [c.index for c in calls if CallFilter(kind="shell").admits(c)] == [0, 2]
    assert [c.index for c in calls if CallFilter(text="SRC").admits(c)] == [1]
    counts = kind_counts(calls)
    assert list(counts.items()) == [("shell", 2), ("grep", 1), ("read", 1)]  # most first
    assert CallFilter().next_kind(counts).kind == "shell"
    assert CallFilter(kind="shell").next_kind(counts).kind == "grep"
    assert CallFilter(kind="read").next_kind(counts).kind is None
    assert title(4, 2, failed) == "Tool calls 2 of 4 · failed"
    assert title(4, 4, CallFilter()) == "Tool calls (4)"
    assert title(21, 21, CallFilter(), nested=9) == "Tool calls (12 + 9 by subagents)"


async def test_f_k_and_backslash_filter_the_table_while_the_transcript_has_the_focus() -> None:
    """Issue 30.5: with the focus on the transcript (where the viewer opens), F and K
    did nothing, silently; they filter the table, and the focus stays where it was."""
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.tool_table
        assert app.focused is app.transcript
        await pilot.press("F")  # failed
        await pilot.pause()
        assert table.border_title == "Tool calls 1 of 8 · failed"
        assert len(rows(table)) == 1 and "exit 1" in rows(table)[0]
        assert app.focused is app.transcript
        await pilot.press("F", "F", "F")  # rejected, running, all
        await pilot.pause()
        assert table.border_title == "Tool calls (8)"
        kind = table.session.tool_calls[0].kind  # type: ignore[union-attr]
        of_kind = [c for c in table.session.tool_calls if c.kind == kind]  # type: ignore[union-attr]
        await pilot.press("K")  # the selected call's kind first
        await pilot.pause()
        assert table.border_title == f"Tool calls {len(of_kind)} of 8 · {kind}"
        assert app.focused is app.transcript
        for _ in range(len(kind_counts(table.session.tool_calls))):  # type: ignore[union-attr]
            await pilot.press("K")  # the other kinds, then all
        await pilot.pause()
        assert table.border_title == "Tool calls (8)"
        assert app.focused is app.transcript
        await pilot.press("backslash", *"pytest", "enter")
        await pilot.pause()
        assert table.border_title == "Tool calls 2 of 8 · “pytest”"
