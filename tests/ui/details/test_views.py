"""The registry of tool views: every kind finds its view, a subagent's task shows its
prompt and answer, and todos spelled as Cursor spells them get their marks."""

from __future__ import annotations

from typing import Any

from streamview.core import tools
from streamview.sources.base import FileSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.details.screen import SectionView, ToolCallDetailScreen
from streamview.ui.details.views import VIEWS, args_section, result_sections, view_for
from streamview.ui.details.views.raw import RAW
from streamview.ui.frame.app import StreamviewApp

from ..conftest import RECORDINGS, FakeClock, settle, settle_sections, wait_for
from .helpers import styled, text_of

TASK_ARGS: dict[str, Any] = {
    "description": "Probe README summary",
    "prompt": "Summarize the README file concisely.",
    "subagentType": {"unspecified": {}},
    "model": "composer-2.5-fast",
    "agentId": "req-7a8b9c0d",
    "mode": "TASK_MODE_UNSPECIFIED",
}
"""A Cursor ``taskToolCall``'s arguments, as in agent-dance/agent-adaptor's
``cursor/testdata/task-tool-call.jsonl``."""
TASK_RESULT: dict[str, Any] = {
    "conversationSteps": [
        {"assistantMessage": {"text": "- The README covers installation steps."}},
        {"assistantMessage": {"text": "- It documents the API surface."}},
    ],
    "agentId": "req-7a8b9c0d",
    "isBackground": False,
    "durationMs": "5857",
}


def test_a_kind_without_a_view_is_shown_as_raw_json() -> None:
    assert view_for("someToolInventedNextWeek") is RAW
    sections = result_sections("someToolInventedNextWeek", {}, "success", {"answer": 42})
    assert [section.title for section in sections] == ["raw JSON"]
    assert '"answer": 42' in text_of(sections)


def test_every_view_lays_out_an_empty_result_without_crashing() -> None:
    for kind in VIEWS:
        sections = result_sections(kind, {}, "success", {})
        assert sections and "could not lay this result out" not in text_of(sections), kind


def test_a_cursor_task_shows_its_prompt_and_the_subagents_answer() -> None:
    sections = result_sections("task", TASK_ARGS, "success", TASK_RESULT)
    assert [section.title for section in sections] == ["task", "prompt", "answer"]
    text = text_of(sections)
    assert "time  5.9s" in text
    assert "Summarize the README file concisely." in text
    assert "installation steps.\n\n- It documents the API surface." in text
    arguments = text_of([args_section("task", TASK_ARGS, None)])
    assert "Probe README summary" in arguments and "composer-2.5-fast" in arguments
    assert "1 line, 36 characters" in arguments  # the prompt itself is shown below


def test_a_task_answer_in_content_blocks_is_shown_and_an_unknown_one_is_raw() -> None:
    blocks = {"content": [{"type": "text", "text": "found 3 files"}]}
    assert "found 3 files" in text_of(result_sections("task", {}, "success", blocks))
    odd = result_sections("task", {"prompt": "look"}, "success", {"steps": 3})
    assert [section.title for section in odd] == ["prompt", "raw JSON"]


CURSOR_TODOS = [
    {"id": "1", "content": "Reproduce the flaky failure", "status": "TODO_STATUS_COMPLETED"},
    {"id": "2", "content": "Find the root cause", "status": "TODO_STATUS_IN_PROGRESS"},
    {"id": "3", "content": "Fix it", "status": "TODO_STATUS_PENDING"},
    {"id": "4", "content": "Give up", "status": "TODO_STATUS_CANCELLED"},
    {"id": "5", "content": "Wait", "status": "TODO_STATUS_BLOCKED"},
]
"""Statuses as Cursor's builds spell them (``recordings/success-multi-tool.ndjson``),
and one nobody knows."""


def test_cursor_todo_statuses_get_their_marks_and_an_unknown_one_is_named() -> None:
    sections = result_sections("updateTodos", {}, "success", {"todos": CURSOR_TODOS})
    assert text_of(sections).splitlines()[1:] == [
        "☑ Reproduce the flaky failure",
        "◐ Find the root cause",
        "☐ Fix it",
        "☒ Give up",
        "? Wait  (TODO_STATUS_BLOCKED)",
    ]
    assert styled(sections, "Reproduce")[0].color.name == "green"
    assert styled(sections, "Give up")[0].strike


def test_the_summary_counts_cursor_spelled_todos_done() -> None:
    assert tools.summary_of("updateTodos", "success", {"todos": CURSOR_TODOS}) == "1/5 done"
    assert tools.todo_status(CURSOR_TODOS[1]) == "in_progress"
    assert tools.todo_status({"status": "completed"}) == "completed"
    assert tools.todo_status({"content": "no status"}) is None


async def test_opening_a_todo_call_from_the_table_shows_its_checklist() -> None:
    """The recording's second todo update: three done, one in progress, spelled
    ``TODO_STATUS_...``; the row says 3/4 done and the detail shows the same."""
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        calls = app.state.sessions[-1].tool_calls
        todo = [call for call in calls if call.kind == "updateTodos"][1]
        table = app.query_one(ToolCallTable)
        await pilot.press("tab", "home")
        while table.cursor_call != todo.index:
            before = table.cursor
            await pilot.press("down")
            assert table.cursor != before, "the cursor never reached the todo call"
        assert todo.summary == "3/4 done"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        shown = "\n".join(view.text for view in app.screen.query(SectionView))
        arguments, checklist_text = shown.split("\ntodos\n", 1)
        assert "4 items" in arguments and "TODO_STATUS" not in arguments  # listed below
        checklist = checklist_text.splitlines()
        assert checklist == [
            "☑ Reproduce the flaky failure",
            "☑ Find the root cause in Backoff",
            "☑ Fix it and make the test deterministic",
            "◐ Run the whole suite",
        ]
