"""A Gemini CLI stream piped into the viewer, as a person watches one.

Fixtures: tests/fixtures/dialects/gemini (see its SOURCES.md; ``real-*`` are real runs).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from streamview.sources.base import FileSource, PipeSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.details.screen import SectionView, ToolCallDetailScreen
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.session_header import SessionHeader
from streamview.ui.transcript.transcript import Transcript

from ..conftest import FakeClock, settle, settle_sections, wait_for, write_pipe_slowly

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "gemini"


def screen_text(widget: object) -> str:
    """What a line-API widget shows, top to bottom."""
    height = widget.size.height  # type: ignore[attr-defined]
    return "\n".join(widget.render_line(y).text.rstrip() for y in range(height))  # type: ignore[attr-defined]


async def open_call(app: StreamviewApp, pilot: Pilot[Any], kind: str, tab: bool = True) -> None:
    """Tab to the table, pick the first call of ``kind``, Enter: its detail screen."""
    session = app.state.sessions[-1]
    call = next(c for c in session.tool_calls if c.kind == kind)
    table = app.query_one(ToolCallTable)
    if tab:
        await pilot.press("tab")
    assert table.has_focus
    table.select_call(call.index)
    await pilot.pause()
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
    await settle_sections(app, pilot)


def detail_text(app: StreamviewApp) -> str:
    return "\n".join(screen_text(view) for view in app.screen.query(SectionView))


async def test_a_piped_gemini_run_shows_its_agent_answer_calls_and_outcome() -> None:
    read_fd, write_fd = os.pipe()
    lines = (FIXTURE / "tool-error-and-policy-denial.jsonl").read_bytes().splitlines(keepends=True)
    app = StreamviewApp(PipeSource(read_fd, label="pipe"), clock=FakeClock())
    async with app.run_test(size=(140, 40)) as pilot:
        write_pipe_slowly(write_fd, lines, 0.01)
        await settle(pilot)
        header = str(app.query_one(SessionHeader).render())
        assert header.startswith("Gemini CLI  auto"), header
        transcript = "\n".join(app.query_one(Transcript).plain_lines())
        assert "Read /etc/hosts, then delete the build folder." in transcript
        assert "deleting build was refused." in transcript  # Markdown: `build` as code
        table = screen_text(app.query_one(ToolCallTable))
        for seen in ("read", "edit", "shell", "rm -rf build", "/etc/hosts"):
            assert seen in table, seen
        for status in ("error", "rejected", "failed", "exit 1"):
            assert status in table, status
        assert "rejected: Tool execution" in table
        status_bar = app.query_one("StatusBar").text  # type: ignore[attr-defined]
        assert "success" in status_bar
    os.close(read_fd)


async def test_a_run_cut_mid_way_shows_the_call_interrupted_and_no_success() -> None:
    app = StreamviewApp(FileSource(FIXTURE / "stops-mid-answer.jsonl"), clock=FakeClock())
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        table = screen_text(app.query_one(ToolCallTable))
        assert "go test ./repo-agent/..." in table and "interrupted" in table
        status_bar = app.query_one("StatusBar").text  # type: ignore[attr-defined]
        assert "stream ended without a result" in status_bar and "success" not in status_bar


async def test_an_error_result_shows_its_message() -> None:
    app = StreamviewApp(FileSource(FIXTURE / "error-result.jsonl"), clock=FakeClock())
    async with app.run_test(size=(140, 30)) as pilot:
        await settle(pilot)
        shown = "\n".join(app.query_one(Transcript).plain_lines())
        assert "error/error: Maximum session turns exceeded" in shown
        status_bar = app.query_one("StatusBar").text  # type: ignore[attr-defined]
        assert "Reached max session turns for this session." in status_bar, status_bar


async def test_the_edit_opens_on_the_diff_made_from_old_and_new_string() -> None:
    app = StreamviewApp(FileSource(FIXTURE / "success-every-tool.jsonl"), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_call(app, pilot, "edit")
        shown = detail_text(app)
        assert "-        return None" in shown
        assert "+        return []" in shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ToolCallDetailScreen))
        await open_call(app, pilot, "save_memory", tab=False)  # back on the table
        assert "remembered that" in detail_text(app)


def test_snapshot_gemini_run(snap_compare: Any) -> None:
    """Header "Gemini CLI  gemini-2.5-pro", the answer in three stretches, every call
    with its kind, target, status and summary, and the usage in the status bar."""
    app = StreamviewApp(FileSource(FIXTURE / "success-every-tool.jsonl"), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_snapshot_gemini_edit_detail(snap_compare: Any) -> None:
    """The replace call: path, instruction, old/new strings, and the diff in colour."""
    app = StreamviewApp(FileSource(FIXTURE / "success-every-tool.jsonl"), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await open_call(app, pilot, "edit")

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_snapshot_gemini_shell_detail(snap_compare: Any) -> None:
    """The shell call: the command and its description, then its output."""
    app = StreamviewApp(FileSource(FIXTURE / "success-every-tool.jsonl"), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await open_call(app, pilot, "shell")

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_snapshot_gemini_rejected_shell_detail(snap_compare: Any) -> None:
    """The shell call the policy refused: its command and the reason."""
    path = FIXTURE / "tool-error-and-policy-denial.jsonl"
    app = StreamviewApp(FileSource(path), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await open_call(app, pilot, "shell")

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)
