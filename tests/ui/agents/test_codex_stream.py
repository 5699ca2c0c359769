"""A Codex ``exec --json`` stream piped into the viewer, as a person watches one, and the
detail view of each tool kind Codex has.

Fixtures: tests/fixtures/dialects/codex (see its SOURCES.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader
from streamview.core.state import StreamState, ToolCall
from streamview.sources.base import FileSource, PipeSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.details.screen import SectionView, ToolCallDetailScreen
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.session_header import SessionHeader
from streamview.ui.transcript.transcript import Transcript

from ..conftest import FakeClock, settle, settle_sections, wait_for, write_pipe_slowly

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "codex"
STYLESHEET = Path(__file__).resolve().parents[3] / "streamview" / "ui" / "streamview.tcss"


def screen_text(widget: object) -> str:
    """What a line-API widget shows, top to bottom."""
    height = widget.size.height  # type: ignore[attr-defined]
    return "\n".join(widget.render_line(y).text.rstrip() for y in range(height))  # type: ignore[attr-defined]


async def test_a_piped_codex_run_shows_its_agent_answer_and_calls() -> None:
    read_fd, write_fd = os.pipe()
    lines = (FIXTURE / "every-kind.jsonl").read_bytes().splitlines(keepends=True)
    app = StreamviewApp(PipeSource(read_fd, label="pipe"), clock=FakeClock())
    async with app.run_test(size=(140, 40)) as pilot:
        write_pipe_slowly(write_fd, lines, 0.01)
        await settle(pilot)
        header = str(app.query_one(SessionHeader).render())
        assert header.startswith("Codex"), header
        transcript = "\n".join(app.query_one(Transcript).plain_lines())
        assert "I'll make it return []." in transcript  # Markdown: code spans unquoted
        assert "all 3 tests pass" in transcript
        assert "Locating the parser" in transcript  # the reasoning summary
        table = screen_text(app.query_one(ToolCallTable))
        for seen in ("updateTodos", "shell", "edit", "mcp", "webSearch"):
            assert seen in table, seen
        assert "3/3 done" in table and "1 updated, 1 added" in table
        assert "github: get_issue" in table and 'rg -n "def parse" src' in table
        bar = app.query_one("StatusBar").text  # type: ignore[attr-defined]
        assert "✓ success · 1 turn · 48,210 in · 1,203 out · 40,192 cache read" in bar
    os.close(read_fd)


async def test_failed_calls_show_their_statuses_and_a_failed_turn_its_message() -> None:
    app = StreamviewApp(FileSource(FIXTURE / "failing-command.jsonl"), clock=FakeClock())
    async with app.run_test(size=(140, 30)) as pilot:
        await settle(pilot)
        table = screen_text(app.query_one(ToolCallTable))
        assert "exit 1, 3 lines" in table
        assert "rejected: command declined" in table
        assert "tool call error: Not Found" in table
        statuses = [call.status for call in app.state.sessions[0].tool_calls]
        assert statuses == ["failed", "rejected", "failed", "error"]
    app = StreamviewApp(FileSource(FIXTURE / "reconnects-then-failed.jsonl"), clock=FakeClock())
    async with app.run_test(size=(140, 30)) as pilot:
        await settle(pilot)
        bar = app.query_one("StatusBar").text  # type: ignore[attr-defined]
        assert "✗ error · stream disconnected before completion" in bar
        transcript = "\n".join(app.query_one(Transcript).plain_lines())
        assert "retry/reconnecting (attempt 2): Reconnecting... 2/5" in transcript


async def test_the_shell_call_opens_on_its_output() -> None:
    """Tab to the table, pick the test run, Enter: exit code 0 and pytest's output."""
    app = StreamviewApp(FileSource(FIXTURE / "every-kind.jsonl"), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        session = app.state.sessions[-1]
        shell = session.calls_by_id["item_7"]
        table = app.query_one(ToolCallTable)
        await pilot.press("tab")
        table.select_call(shell.index)
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        shown = "\n".join(screen_text(view) for view in app.screen.query(SectionView))
        assert "3 passed in 0.02s" in shown
        assert "python -m pytest -q" in shown


# -- one detail view per kind ----------------------------------------------------------


class DetailApp(App[None]):
    """A host that opens the detail screen of one call."""

    CSS_PATH = STYLESHEET

    def __init__(self, call: ToolCall, store: LineStore) -> None:
        super().__init__()
        self.call = call
        self.store = store

    def on_mount(self) -> None:
        self.push_screen(ToolCallDetailScreen(self.call, self.store))


def load(name: str) -> tuple[StreamState, LineStore]:
    """Fold a Codex fixture, keeping its lines in a memory store."""
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    data = (FIXTURE / name).read_bytes()
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    state.finish()
    return state, store


KINDS = [
    ("every-kind.jsonl", "item_7", "shell", ["exit code", "3 passed in 0.02s"]),
    (
        "every-kind.jsonl",
        "item_4",
        "edit",
        ["+++ b/work/app/tests/test_empty.py", "1 updated, 1 added"],
    ),
    ("every-kind.jsonl", "item_5", "mcp", ["get_issue", "Issue #42"]),
    ("every-kind.jsonl", "item_6", "webSearch", ["python list empty string split"]),
    ("every-kind.jsonl", "item_1", "updateTodos", ["Find the parser", "Run the tests"]),
    ("older-shapes-and-noise.jsonl", "item_1", "plan_update", ["List files", "Count them"]),
]
"""``(fixture, item id, kind, what its detail must show)`` for each kind."""


async def detail_text(app: App[None], pilot: Any) -> str:
    await settle_sections(app, pilot)
    return "\n".join(screen_text(view) for view in app.screen.query(SectionView))


@pytest.mark.parametrize(("fixture", "item", "kind", "shown"), KINDS, ids=[k[2] for k in KINDS])
async def test_each_kinds_detail_shows_its_result(
    fixture: str, item: str, kind: str, shown: list[str]
) -> None:
    state, store = load(fixture)
    call = state.sessions[0].calls_by_id[item]
    assert call.kind == kind
    app = DetailApp(call, store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await detail_text(app, pilot)
        for fragment in shown:
            assert fragment in text, fragment
        assert "loading…" not in text


def snapshot(snap_compare: Any, fixture: str, item: str) -> bool:
    state, store = load(fixture)
    app = DetailApp(state.sessions[0].calls_by_id[item], store)

    async def loaded(pilot: Any) -> None:
        await settle_sections(app, pilot)

    return bool(snap_compare(app, terminal_size=(100, 30), run_before=loaded))


def test_snapshot_codex_shell(snap_compare: Any) -> None:
    """The script without its bash -lc wrapper (the full command among the arguments),
    exit code 0 in green, and pytest's two lines of output."""
    assert snapshot(snap_compare, "every-kind.jsonl", "item_7")


def test_snapshot_codex_file_change(snap_compare: Any) -> None:
    """Two files changed: '1 updated, 1 added', and a diff header per file, the added
    one coming from /dev/null."""
    assert snapshot(snap_compare, "every-kind.jsonl", "item_4")


def test_snapshot_codex_mcp(snap_compare: Any) -> None:
    """Server github, tool get_issue, its arguments, and the issue's text as the result."""
    assert snapshot(snap_compare, "every-kind.jsonl", "item_5")


def test_snapshot_codex_web_search(snap_compare: Any) -> None:
    """The query; Codex says nothing of the results."""
    assert snapshot(snap_compare, "every-kind.jsonl", "item_6")


def test_snapshot_codex_todo_list(snap_compare: Any) -> None:
    """Three todos, all checked off."""
    assert snapshot(snap_compare, "every-kind.jsonl", "item_1")


def test_snapshot_codex_failed_command(snap_compare: Any) -> None:
    """Exit code 1 in red, the failing test's output."""
    assert snapshot(snap_compare, "failing-command.jsonl", "item_0")


def test_snapshot_codex_unknown_item(snap_compare: Any) -> None:
    """An item type nobody maps (plan_update): its fields as they came."""
    assert snapshot(snap_compare, "older-shapes-and-noise.jsonl", "item_1")
