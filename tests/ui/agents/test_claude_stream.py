"""A Claude Code stream piped into the viewer, as a person watches one.

Fixture: tests/fixtures/dialects/claude/success-tools.jsonl (see its SOURCES.md).
"""

from __future__ import annotations

import os
from pathlib import Path

from streamview.sources.base import PipeSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.session_header import SessionHeader
from streamview.ui.transcript.transcript import Transcript

from ..conftest import FakeClock, settle, settle_sections, wait_for, write_pipe_slowly

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "claude"


def screen_text(widget: object) -> str:
    """What a line-API widget shows, top to bottom."""
    height = widget.size.height  # type: ignore[attr-defined]
    return "\n".join(widget.render_line(y).text.rstrip() for y in range(height))  # type: ignore[attr-defined]


async def test_a_piped_claude_run_shows_its_agent_answer_and_calls() -> None:
    read_fd, write_fd = os.pipe()
    lines = (FIXTURE / "success-tools.jsonl").read_bytes().splitlines(keepends=True)
    app = StreamviewApp(PipeSource(read_fd, label="pipe"), clock=FakeClock())
    async with app.run_test(size=(140, 40)) as pilot:
        write_pipe_slowly(write_fd, lines, 0.01)
        await settle(pilot)
        header = str(app.query_one(SessionHeader).render())
        assert header.startswith("Claude Code  claude-sonnet-4-5-20250929")
        assert "mode acceptEdits" in header
        transcript = "\n".join(app.query_one(Transcript).plain_lines())
        assert "I'll look at the failing test first." in transcript
        assert "both parser tests pass" in transcript
        table = screen_text(app.query_one(ToolCallTable))
        for seen in ("updateTodos", "shell", "grep", "read", "edit", "glob", "mcp"):
            assert seen in table, seen
        assert "exit 1" in table and "+1 -1" in table and "github: get_issue" in table
        assert "success" in app.query_one("StatusBar").text  # type: ignore[attr-defined]
    os.close(read_fd)


async def test_the_edit_call_opens_on_its_diff(tmp_path: Path) -> None:
    """Tab to the table, pick the edit, Enter: the diff made from Claude's patch."""
    from streamview.sources.base import FileSource

    app = StreamviewApp(FileSource(FIXTURE / "success-tools.jsonl"), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        session = app.state.sessions[-1]
        edit = next(call for call in session.tool_calls if call.kind == "edit")
        table = app.query_one(ToolCallTable)
        await pilot.press("tab")
        table.select_call(edit.index)
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        shown = "\n".join(screen_text(view) for view in app.screen.query(SectionView))
        assert "-        return None" in shown
        assert "+        return []" in shown


async def test_a_subagents_calls_nest_under_its_task_in_table_and_transcript() -> None:
    """Claude's parent_tool_use_id: the grep a subagent ran sits under the Task call."""
    from streamview.sources.base import FileSource

    app = StreamviewApp(FileSource(FIXTURE / "subagent.jsonl"), clock=FakeClock())
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        rows = screen_text(app.query_one(ToolCallTable)).splitlines()
        task = next(i for i, row in enumerate(rows) if "Find the parser" in row)
        assert "↳ grep" in rows[task + 1] and "if not text" in rows[task + 1]
        assert "↳" not in rows[task]
        lines = app.query_one(Transcript).plain_lines()
        marker = next(i for i, line in enumerate(lines) if "task Find the parser" in line)
        nested = next(i for i, line in enumerate(lines) if "grep if not text" in line)
        assert nested > marker
        assert lines[nested].startswith("   ↳ ● grep")
        assert lines[marker].startswith(" ● task")
        # The pane's title counts the subagent's calls apart from the session's own.
        calls = app.state.sessions[0].tool_calls
        by_subagents = sum(1 for call in calls if call.parent_call_id)
        assert by_subagents > 0
        own = len(calls) - by_subagents
        assert str(app.tool_table.border_title) == (
            f"Tool calls ({own} + {by_subagents} by subagents)"
        )
        # Opening the Task call shows the subagent's own calls.
        task_call = next(call for call in calls if call.kind == "task")
        table = app.query_one(ToolCallTable)
        await pilot.press("tab")
        table.select_call(task_call.index)
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        shown = "\n".join(screen_text(view) for view in app.screen.query(SectionView))
        assert f"subagent's calls ({by_subagents})" in shown
        assert "grep  if not text" in shown
