"""The viewer on a live source: rows updated in place, quitting, --follow, folding soon."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from streamview.core import tools
from streamview.sources.base import FileSource, PipeSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame import app as app_module
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.transcript.transcript import Transcript

from ..conftest import (
    FakeClock,
    ScriptedSource,
    capture,
    lines_of,
    settle,
    wait_for,
    write_pipe_slowly,
)
from .pilot_helpers import (
    DENIALS,
    PROBE_43,
    file_app,
    header_text,
    screen_lines,
    status_text,
)


async def test_tool_rows_update_in_place_from_a_slow_pipe() -> None:
    lines = lines_of(PROBE_43)
    read_fd, write_fd = os.pipe()
    clock = FakeClock()
    app = StreamviewApp(PipeSource(read_fd), clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        os.write(write_fd, b"".join(lines[:3]))  # init, prompt, tool started
        await wait_for(pilot, lambda: app.state.counts.total == 3)
        table = app.query_one(ToolCallTable)
        assert table.row_count == 1
        session = app.state.sessions[0]
        assert session.tool_calls[0].status == tools.RUNNING
        rows = screen_lines(table)
        assert "running" in rows[1]
        markers = [line for line in app.query_one(Transcript).plain_lines() if "●" in line]
        assert len(markers) == 1 and "running" in markers[0]
        clock.advance(15_000)
        app.tick()
        assert "idle 15s since last event · 1 call open: read" in status_text(app)
        write_pipe_slowly(write_fd, lines[3:], delay=0.01)
        await settle(pilot)
        assert table.row_count == 1
        assert "succeeded" in screen_lines(table)[1]
        markers = [line for line in app.query_one(Transcript).plain_lines() if "●" in line]
        assert len(markers) == 1 and "succeeded" in markers[0]
        assert "✓ success" in status_text(app)
    os.close(read_fd)


async def test_quitting_while_the_producer_is_silent_returns_promptly() -> None:
    read_fd, write_fd = os.pipe()
    app = StreamviewApp(PipeSource(read_fd), clock=FakeClock())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            os.write(write_fd, lines_of(PROBE_43)[0])
            await wait_for(pilot, lambda: app.state.counts.total == 1)
            await pilot.press("q")
        thread = app.feed._thread
        assert thread is not None
        thread.join(5)
        assert not thread.is_alive()
        assert app.return_value == 1  # the run had not finished
    finally:
        os.close(write_fd)
        os.close(read_fd)


async def test_wide_terminal_puts_panes_side_by_side() -> None:
    app = file_app(capture(DENIALS))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        table = app.query_one(ToolCallTable)
        assert transcript.region.y == table.region.y
        assert transcript.region.right <= table.region.x
        assert table.row_count == 4


async def test_follow_file_mode_shows_lines_appended_later(tmp_path: Path) -> None:
    path = tmp_path / "growing.ndjson"
    lines = lines_of(PROBE_43)
    path.write_bytes(b"".join(lines[:3]))
    app = StreamviewApp(FileSource(path, follow=True), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 3)
        assert "running" in screen_lines(app.query_one(ToolCallTable))[1]
        with path.open("ab") as handle:
            handle.write(b"".join(lines[3:]))
        await wait_for(pilot, lambda: app.state.counts.total == len(lines))
        await pilot.pause(0.1)
        assert "✓ success in 9.9s" in status_text(app)
        assert "succeeded" in screen_lines(app.query_one(ToolCallTable))[1]
        assert not app.state.ended  # still following the file


async def test_the_app_keeps_updating_under_a_pushed_screen() -> None:
    """Events and clock ticks while the detail screen is open reach the main panes."""
    from streamview.ui.details.screen import ToolCallDetailScreen

    lines = lines_of(PROBE_43)
    source = ScriptedSource(lines[:4])  # the read call has completed
    clock = FakeClock()
    app = StreamviewApp(source, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 4)
        app.tool_table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        source.push(b"".join(lines[4:]))
        await wait_for(pilot, lambda: app.state.counts.total == len(lines))
        clock.advance(5_000)
        app.tick()
        await pilot.pause(0.1)
        assert isinstance(app.screen, ToolCallDetailScreen)
        assert "✓ success" in status_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "READ-OK" in [line.strip() for line in app.transcript.plain_lines()]


async def test_resizing_under_a_pushed_screen_lays_out_the_main_screen() -> None:
    app = file_app(capture(DENIALS))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.resize_terminal(200, 50)
        await pilot.press("escape")
        await pilot.pause()
        assert app.transcript.region.y == app.tool_table.region.y  # side by side


async def test_events_after_a_quiet_spell_are_folded_without_waiting_for_a_frame() -> None:
    source = ScriptedSource(lines_of(PROBE_43)[:1])
    app = StreamviewApp(source, clock=FakeClock(), frame_seconds=60)  # frame timer all but off
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 1)
        source.push(lines_of(PROBE_43)[1])
        await wait_for(pilot, lambda: app.state.counts.total == 2)
        assert "Read the file notes.txt" in header_text(app)


async def test_events_right_after_a_fold_are_folded_soon_not_at_the_next_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lines that arrive just after a fold wait for the earliest next fold, not a frame."""
    monkeypatch.setattr(app_module, "EARLIEST_PUMP_SECONDS", 0.3)
    source = ScriptedSource(lines_of(PROBE_43)[:1])
    app = StreamviewApp(source, clock=FakeClock(), frame_seconds=60)  # frame timer all but off
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 1)
        app.pump()  # a fold just ran: what comes next is too soon to fold at once
        source.push(lines_of(PROBE_43)[1])
        await wait_for(pilot, lambda: app.state.counts.total == 2)
        assert "Read the file notes.txt" in header_text(app)
