"""The view of a subagent's task: the prompt it was given and the text it answered.

Cursor's ``taskToolCall`` carries ``description``, ``prompt``, ``subagentType``,
``model`` and ``agentId`` in its arguments, and its ``success`` holds the subagent's
``conversationSteps`` (each with an ``assistantMessage.text``), ``agentId`` and
``durationMs`` (shape seen in agent-dance/agent-adaptor,
``cursor/testdata/task-tool-call.jsonl``). Other agents' tasks, normalised to the
``task`` kind, may answer with ``result``, ``text``, ``content`` or ``output``
instead: any of them is shown, and a result with none is shown as raw JSON.
"""

from __future__ import annotations

from typing import Any

from streamview.core.formatting import format_duration
from streamview.ui.details.sections import Section, fields, plain, raw_json
from streamview.ui.details.views.base import ToolView, as_int, as_str

_TEXT_KEYS = ("result", "text", "content", "output", "message")
"""Where an agent's task result may keep its text, when there are no steps."""


def answer_text(payload: dict[str, Any]) -> str | None:
    """The subagent's answer: its steps' assistant texts, or the first text found."""
    steps = payload.get("conversationSteps")
    if isinstance(steps, list):
        texts = [
            step["assistantMessage"]["text"]
            for step in steps
            if isinstance(step, dict)
            and isinstance(step.get("assistantMessage"), dict)
            and isinstance(step["assistantMessage"].get("text"), str)
        ]
        if texts:
            return "\n\n".join(texts)
    for key in _TEXT_KEYS:
        text = _text_of(payload.get(key))
        if text:
            return text
    return None


def _text_of(value: Any) -> str | None:
    """A string, or the texts of a list of content blocks (``{"type": "text", ...}``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = [
            item["text"]
            for item in value
            if isinstance(item, dict) and isinstance(item.get("text"), str)
        ]
        return "\n\n".join(texts) or None
    return None


def task_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """How long the subagent took, the prompt it was given (in full: the arguments
    table only gives its size) and its answer."""
    sections: list[Section] = []
    duration = as_int(payload.get("durationMs"))
    if duration is not None:
        sections.append(Section("task", fields([("time", format_duration(duration))])))
    prompt = as_str(args.get("prompt"))
    if prompt:
        body, cut = plain(prompt, full)
        sections.append(Section("prompt", body, cut))
    answer = answer_text(payload)
    if answer is None:
        return [*sections, raw_json(payload, full)]
    body, cut = plain(answer, full)
    return [*sections, Section("answer", body, cut)]


TASK = ToolView(task_view, big_arg="prompt")
