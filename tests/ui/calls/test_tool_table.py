"""The tool-call table: rows, live updates, cursor, messages, 100,000 calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Static

from streamview.core import tools
from streamview.core.state import Session, ToolCall
from streamview.ui.calls.columns import Columns, fit_middle
from streamview.ui.calls.table import ToolCallTable

STYLESHEET = Path(__file__).resolve().parents[3] / "streamview" / "ui" / "streamview.tcss"
NOW_MS = 1_700_000_060_000
START_MS = 1_700_000_000_000


def make_call(
    index: int, kind: str = "read", target: str | None = "src/app.py", **fields: Any
) -> ToolCall:
    """A call as the fold would leave it; running unless told otherwise."""
    fields.setdefault("call_id", f"call_{index}")
    return ToolCall(index=index, kind=kind, target=target, **fields)


def make_session(calls: list[ToolCall]) -> Session:
    """A session holding ``calls``."""
    session = Session(index=0)
    for call in calls:
        session.tool_calls.append(call)
        session.calls_by_id[call.call_id] = call
    return session


def complete(call: ToolCall, status: str, summary: str | None, duration_ms: int) -> None:
    """Finish ``call`` the way the fold would."""
    call.status = status
    call.summary = summary
    call.started_at_ms = call.started_at_ms or START_MS
    call.completed_at_ms = call.started_at_ms + duration_ms


class TableApp(App[None]):
    """A host that shows one table and records the messages it posts."""

    CSS_PATH = STYLESHEET

    def __init__(self, session: Session, now_ms: int | None = NOW_MS) -> None:
        super().__init__()
        self.session = session
        self.now_ms = now_ms
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield ToolCallTable(self.session, now_ms=self.now_ms)

    def on_tool_call_table_open_detail(self, message: ToolCallTable.OpenDetail) -> None:
        self.messages.append(message)

    def on_tool_call_table_highlighted(self, message: ToolCallTable.Highlighted) -> None:
        self.messages.append(message)


def rows(table: ToolCallTable) -> list[str]:
    """The table's screen lines as text."""
    return [table.render_line(y).text for y in range(table.size.height)]


def every_status_session() -> Session:
    """One call per status, with realistic kinds, targets and summaries."""
    calls = [
        make_call(0, "read", "/home/user/projects/streamview/src/streamview/core/state.py"),
        make_call(1, "shell", "pytest -x -q tests/ui/test_tool_table.py"),
        make_call(2, "edit", "src/streamview/ui/app.py"),
        make_call(3, "webFetch", "https://example.com/docs/output-format"),
        make_call(4, "grep", "def render_line"),
        make_call(5, "mystery", "something new"),
        make_call(6, "shell", "sleep 600"),
        make_call(7, "updateTodos", "3 todos"),
    ]
    complete(calls[0], tools.SUCCEEDED, "1,204 lines", 42)
    complete(calls[1], tools.FAILED, "exit 1, 37 lines", 12_400)
    complete(calls[2], tools.SUCCEEDED, "+12 -3", 850)
    complete(calls[3], tools.REJECTED, "rejected: not allowed", 3)
    complete(calls[4], tools.ERROR, "ripgrep exited with an error", 95)
    complete(calls[5], tools.COMPLETED, "surprise", 1_000)
    complete(calls[6], tools.INTERRUPTED, "no completion before the stream ended", 185_000)
    calls[6].completed_at_ms = None
    calls[7].started_at_ms = NOW_MS - 7_300
    return make_session(calls)


async def test_completion_changes_the_row_in_place() -> None:
    calls = [make_call(i, "shell", f"echo {i}", started_at_ms=START_MS) for i in range(3)]
    app = TableApp(make_session(calls))
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(ToolCallTable)
        await pilot.pause()
        before = rows(table)
        assert "# kind" in before[0] and "status" in before[0]
        assert all("… running" in before[y] and "1.0m" not in before[y] for y in (1, 2, 3))
        assert "1m00s" in before[2]  # NOW_MS - START_MS, the live elapsed time
        complete(calls[1], tools.SUCCEEDED, "exit 0, 1 line", 1_500)
        table.refresh_calls([1])
        await pilot.pause()
        after = rows(table)
        assert after[1] == before[1] and after[3] == before[3]
        assert "✓ succeeded" in after[2] and "1.5s" in after[2] and "exit 0, 1 line" in after[2]
        assert after[2].split()[:3] == ["2", "shell", "echo"]
        assert table.cursor_call == 0


async def test_new_rows_extend_the_table_and_a_cursor_on_the_last_row_follows() -> None:
    session = make_session([make_call(i) for i in range(3)])
    app = TableApp(session)
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(ToolCallTable)
        table.focus()
        await pilot.press("down", "up", "down", "down")  # up stops following, down resumes
        await pilot.pause()
        for index in range(3, 30):
            session.tool_calls.append(make_call(index, "glob", f"**/*.{index}"))
        table.refresh_calls(range(3, 30))
        await pilot.pause()
        assert table.row_count == 30
        assert table.cursor_call == 29
        assert rows(table)[-1].split()[:3] == ["30", "glob", "**/*.29"]
        # Not following when the cursor is elsewhere.
        table.select_call(5)
        session.tool_calls.append(make_call(30))
        table.refresh_calls([30])
        await pilot.pause()
        assert table.cursor_call == 5


async def test_show_session_switches_rows_and_resets_the_cursor() -> None:
    first = make_session([make_call(i, "read", f"a{i}.py") for i in range(5)])
    second = make_session([make_call(0, "shell", "make test")])
    app = TableApp(first)
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(ToolCallTable)
        table.select_call(4)
        table.show_session(second)
        await pilot.pause()
        assert table.cursor_call == 0
        lines = rows(table)
        assert "make test" in lines[1] and lines[2].strip() == ""
        table.show_session(None)
        await pilot.pause()
        assert table.cursor_call is None
        assert "no tool calls yet" in rows(table)[1]


async def test_a_hundred_thousand_calls_open_and_scroll_to_the_end() -> None:
    calls = [
        make_call(i, "edit", f"src/mod_{i}.py", status=tools.SUCCEEDED, summary="+1 -0")
        for i in range(100_000)
    ]
    app = TableApp(make_session(calls))
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(ToolCallTable)
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_call == 99_999
        lines = rows(table)
        assert lines[-1].split()[:3] == ["100000", "edit", "src/mod_99999.py"]
        assert lines[1].split()[0] == str(100_000 - 22)
        await pilot.press("pageup", "up", "k")
        assert table.cursor_call == 99_999 - 22 - 2  # a page is the 23 visible rows less one
        await pilot.press("home")
        await pilot.pause()
        assert table.cursor_call == 0 and rows(table)[1].split()[0] == "1"
        assert len(table._cache) < 100  # only rows that were on screen were rendered


async def test_enter_and_click_post_open_detail_for_the_cursor_row() -> None:
    app = TableApp(make_session([make_call(i) for i in range(6)]))
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(ToolCallTable)
        table.focus()
        await pilot.press("down", "j", "down", "up", "enter")
        await pilot.pause()
        opened = [m.call_index for m in app.messages if isinstance(m, ToolCallTable.OpenDetail)]
        moved = [m.call_index for m in app.messages if isinstance(m, ToolCallTable.Highlighted)]
        assert opened == [2]
        assert moved == [0, 1, 2, 3, 2]
        await pilot.click(ToolCallTable, offset=(10, 5))  # screen row 5 = call index 4
        await pilot.pause()
        opened = [m.call_index for m in app.messages if isinstance(m, ToolCallTable.OpenDetail)]
        assert opened == [2, 4] and table.cursor_call == 4
        await pilot.click(ToolCallTable, offset=(10, 0))  # the header opens nothing
        await pilot.pause()
        assert len([m for m in app.messages if isinstance(m, ToolCallTable.OpenDetail)]) == 2


async def test_tick_repaints_only_running_rows() -> None:
    session = every_status_session()
    app = TableApp(session)
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(ToolCallTable)
        table.select_call(0)
        await pilot.pause()
        before = rows(table)
        cached = {index: table._cache.get(index) for index in range(1, 8)}
        assert "7.3s" in before[8]
        table.tick(NOW_MS + 60_000)
        await pilot.pause()
        after = rows(table)
        assert "1m07s" in after[8]
        assert before[:8] == after[:8]
        for index in range(1, 7):
            assert table._cache.get(index) is cached[index], f"row {index} was rendered again"


async def test_strings_from_the_stream_are_inert() -> None:
    call = make_call(
        0,
        "shell",
        "echo \x1b[2J\x1b]52;c;aGk=\x07hi\nrm -rf /\r",
        call_id="call_abc\nfc_123",
        status=tools.FAILED,
        summary="exit 1\x1b[31m red\nline two",
    )
    odd_kind = make_call(1, "new\x1bKind\n", "x")
    wide = make_call(
        2, "read", "/srv/项目/数据/报告📊/第三季度的最终版本.md", summary="日本語の要約"
    )
    app = TableApp(make_session([call, odd_kind, wide]))
    async with app.run_test(size=(120, 6)) as pilot:
        table = app.query_one(ToolCallTable)
        await pilot.pause()
        for y in range(table.size.height):
            strip = table.render_line(y)
            text = "".join(segment.text for segment in strip)
            assert (
                "\x1b" not in text and "\n" not in text and "\r" not in text and "\x07" not in text
            )
            assert strip.cell_length == table.scrollable_content_region.width
        line = rows(table)[1]
        assert "echo ␛[2J␛]52;c;aGk=␇hi↵rm -rf /␍" in line
        assert "␛" in rows(table)[2]
        assert "最终版本.md" in rows(table)[3]


async def test_narrow_widths_drop_columns_and_keep_the_row_width() -> None:
    app = TableApp(every_status_session())
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(ToolCallTable)
        await pilot.pause()
        lines = rows(table)
        assert "result" not in lines[0]
        width = table.scrollable_content_region.width
        assert width >= 39
        assert all(table.render_line(y).cell_length == width for y in range(12))
        assert "state.py" in lines[1]


def test_columns_share_the_width() -> None:
    wide = Columns.for_width(200, 10)
    assert wide.summary == 48 and wide.target > 80
    eighty = Columns.for_width(78, 10)
    assert eighty.summary > 0 and eighty.target >= 20 and eighty.status == 13
    narrow = Columns.for_width(40, 10)
    assert narrow.summary == 0 and narrow.duration == 0 and narrow.status == 1
    assert Columns.for_width(78, 100_000).index == 6


def test_paths_are_cut_in_the_middle_keeping_the_file_name() -> None:
    text = fit_middle("/home/user/projects/streamview/src/streamview/core/state.py", 24)
    assert len(text) == 24 and text.startswith("/home") and text.endswith("core/state.py")
    assert "…" in text
    assert fit_middle("short.py", 12) == "short.py    "
    for width in range(1, 30):
        cut = fit_middle("/srv/项目/数据/报告📊/第三季度的最终版本.md", width)
        assert cell_len(cut) == width


def test_table_at_80_columns_with_every_status(snap_compare: Any) -> None:
    """Header row, one row per status with its symbol and colour, live elapsed on the
    running row, the cursor on row 1, paths cut in the middle, nothing overlapping."""
    assert snap_compare(TableApp(every_status_session()), terminal_size=(80, 12))


async def test_a_rejection_without_reason_says_so() -> None:
    call = make_call(0, "shell", "curl -sI https://example.com")
    complete(call, tools.REJECTED, "rejected", 52)
    unbuilt = ToolCallTable(make_session([call]))  # built before any app runs
    assert unbuilt.cursor_call == 0
    app = TableApp(make_session([call]))
    async with app.run_test(size=(80, 6)) as pilot:
        await pilot.pause()
        line = rows(app.query_one(ToolCallTable))[1]
        assert "⊘ rejected" in line and "no reason given" in line


async def test_the_kind_column_fits_the_kinds_and_grows_for_a_new_one() -> None:
    session = make_session([make_call(0, "ls", "/srv"), make_call(1, "read", "a.py")])
    app = TableApp(session)
    async with app.run_test(size=(80, 6)) as pilot:
        table = app.query_one(ToolCallTable)
        await pilot.pause()
        assert rows(table)[2].startswith("  2 read a.py")
        session.tool_calls.append(make_call(2, "updateTodos", "2 todos"))
        table.refresh_calls([2])
        await pilot.pause()
        lines = rows(table)
        assert lines[2].startswith("  2 read        a.py")
        assert lines[3].startswith("  3 updateTodos 2 todos")
        assert lines[0].index("target") == lines[3].index("2 todos")


class PaneApp(App[None]):
    """The table as the viewer stacks it: below a filler, ``height: auto`` up to 45%."""

    CSS_PATH = STYLESHEET

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        yield Static("filler", id="transcript")
        yield ToolCallTable(self.session, now_ms=NOW_MS, id="tool-calls")


async def test_a_full_table_takes_new_rows_without_changing_size_and_shows_them() -> None:
    """Rows added to a table already taller than its pane only scroll it (no new layout);
    the cursor follows them (it follows the newest call until moved) and the scrollbar
    takes the new range."""
    session = make_session([make_call(0)])
    app = PaneApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one(ToolCallTable)
        await pilot.pause()
        heights = [table.outer_size.height]
        for index in range(1, 40):
            session.tool_calls.append(make_call(index, "glob", f"**/*.{index}"))
            table.refresh_calls([index])
            await pilot.pause()
            heights.append(table.outer_size.height)
        # The pane grew with its first rows, then stayed at its cap (45% of 24 lines).
        assert heights[0] < heights[-1] == 10
        assert heights.index(10) < 10 and set(heights[heights.index(10) :]) == {10}
        assert table.virtual_size.height == 41
        assert table.show_vertical_scrollbar
        assert table.vertical_scrollbar.window_virtual_size == 41
        assert table.max_scroll_y == 41 - table.scrollable_content_region.height
        assert table.cursor_call == 39
        assert rows(table)[-1].split()[:3] == ["40", "glob", "**/*.39"]
        # Laid out from scratch, the same rows look the same.
        fresh = PaneApp(make_session(list(session.tool_calls)))
        async with fresh.run_test(size=(80, 24)) as fresh_pilot:
            other = fresh.query_one(ToolCallTable)
            other.select_call(39)
            await fresh_pilot.pause()
            assert other.outer_size == table.outer_size
            assert other.virtual_size == table.virtual_size
            assert rows(other) == rows(table)
