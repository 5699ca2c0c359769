"""The registry of tool views: every kind finds its view, and a subagent's task shows
its prompt and answer."""

from __future__ import annotations

from typing import Any

from streamview.ui.views import VIEWS, args_section, result_sections, view_for
from streamview.ui.views.raw import RAW

from .test_detail import text_of

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
    assert "1 lines, 36 characters" in arguments  # the prompt itself is shown below


def test_a_task_answer_in_content_blocks_is_shown_and_an_unknown_one_is_raw() -> None:
    blocks = {"content": [{"type": "text", "text": "found 3 files"}]}
    assert "found 3 files" in text_of(result_sections("task", {}, "success", blocks))
    odd = result_sections("task", {"prompt": "look"}, "success", {"steps": 3})
    assert [section.title for section in odd] == ["prompt", "raw JSON"]
