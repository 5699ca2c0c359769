"""pi's tools in the shapes streamview's tool kinds have.

Names and parameters: ``packages/coding-agent/src/core/tools/`` of badlogic/pi-mono
(``read`` ``path``/``offset``/``limit``; ``bash`` ``command``/``timeout``; ``edit``
``path``/``oldText``/``newText``, in later builds also ``edits``; ``write``
``path``/``content``; ``grep`` ``pattern``/``path``/``glob``; ``find`` ``pattern``/
``path``; ``ls`` ``path``). A ``tool_execution_end``'s ``result`` is ``{content:
[{type: "text", text}], details}``; a command that exits non-zero ends with
``isError`` and "Command exited with code N".
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.tool_shapes as tool_shapes
from streamview.core.events import JSONObject
from streamview.core.tools import Said

KINDS: dict[str, str] = {
    "read": "read",
    "bash": "shell",
    "edit": "edit",
    "write": "write",
    "grep": "grep",
    "find": "glob",
    "ls": "ls",
}
"""pi tool names and the kinds they are shown as (extensions add their own names)."""


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, or the name itself."""
    return KINDS.get(name, name or "unknown")


def args_of(name: str, given: Any) -> JSONObject:
    """A call's ``args`` in the argument shape of the tool's kind."""
    raw: JSONObject = given if isinstance(given, dict) else {}
    kind = kind_of(name)
    args = dict(raw)
    if kind == "write" and isinstance(raw.get("content"), str):
        args["fileText"] = args.pop("content")
    elif kind == "glob":
        if isinstance(raw.get("pattern"), str):
            args["globPattern"] = raw["pattern"]
        if isinstance(raw.get("path"), str):
            args["targetDirectory"] = raw["path"]
    return args


def result_text(result: Any) -> str:
    """A ``tool_execution_end``'s ``result`` as text: its text parts, joined."""
    if isinstance(result, str):
        return result
    content = result.get("content") if isinstance(result, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def outcome_of(kind: str, args: JSONObject, result: Any, is_error: bool) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a finished call."""
    text = result_text(result)
    if is_error:
        outcome, payload = tool_shapes.error_outcome(kind, text)
        if outcome == "success":  # a command that ran and exited non-zero
            payload["stdout"] = text.rsplit("\n\nCommand exited", 1)[0]
        return outcome, payload
    return "success", tool_shapes.success_payload(kind, args, text)


def fast_outcome(
    kind: str, args: JSONObject, result: Any, is_error: bool
) -> tuple[str, JSONObject | Said]:
    """:func:`outcome_of` for the fast path: a successful read's or grep's result as
    the :class:`~streamview.core.tools.Said` summary of the payload it would build (the
    fold reads no more of it), any other result as :func:`outcome_of` gives it."""
    if is_error:
        return outcome_of(kind, args, result, True)
    text = result_text(result)
    return "success", tool_shapes.success_said(kind, args, text) or tool_shapes.success_payload(
        kind, args, text
    )
