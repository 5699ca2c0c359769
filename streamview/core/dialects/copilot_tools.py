"""GitHub Copilot CLI's tools in the shapes streamview's tool kinds already have.

A ``tool.execution_start`` record names a tool (``view``, ``bash``, ``edit``; an MCP
server's tool carries ``mcpServerName`` and ``mcpToolName``) and its ``arguments``; the
``tool.execution_complete`` that answers it (same ``toolCallId``) says ``success`` and
holds ``result.content`` (what the model reads), ``result.detailedContent`` (what a
person is shown: an edit's diff) or, on failure, ``error`` (``message``, ``code``).
Tool names and arguments: the Copilot CLI's built-in tools as its session logs show
them (``view`` ``path``/``view_range``, ``create`` ``path``/``file_text``, ``edit``
``path``/``old_str``/``new_str``, ``bash`` ``command``/``description``, ``glob``,
``grep``, ``web_fetch`` ``url``, ``task``, ``update_todo`` ``todos`` as a Markdown
checklist). A tool nobody maps keeps its own name and raw JSON.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import streamview.core.dialects.shapes as shapes
from streamview.core.events import JSONObject
from streamview.core.fields import as_int, as_str
from streamview.core.tools import SUCCEEDED, Said

KINDS: dict[str, str] = {
    "view": "read",
    "read_file": "read",
    "create": "write",
    "edit": "edit",
    "str_replace": "edit",
    "bash": "shell",
    "powershell": "shell",
    "shell": "shell",
    "grep": "grep",
    "rg": "grep",
    "glob": "glob",
    "web_fetch": "webFetch",
    "fetch": "webFetch",
    "web_search": "webSearch",
    "task": "task",
    "update_todo": "updateTodos",
}
"""Copilot CLI tool names and the kinds they are shown as."""

_EDITOR_COMMANDS = {"view": "read", "create": "write", "str_replace": "edit", "insert": "edit"}
"""``str_replace_editor``'s ``command`` (older builds had one editor tool)."""
_EXITED = re.compile(r"<(?:exited|shellId: \S+ completed) with exit code (-?\d+)>\s*\Z")
_REJECTIONS = ("denied", "rejected", "declined", "not permitted")


def kind_of(name: str, mcp_server: str | None = None, arguments: Any = None) -> str:
    """The kind a call is shown as: a known kind, ``mcp``, or the tool's own name."""
    if mcp_server:
        return "mcp"
    if name == "str_replace_editor" and isinstance(arguments, dict):
        return _EDITOR_COMMANDS.get(as_str(arguments.get("command")) or "", name)
    return KINDS.get(name, name or "unknown")


def args_of(kind: str, data: JSONObject) -> JSONObject:
    """A ``tool.execution_start``'s ``arguments`` in the argument shape of its kind."""
    return shaped_args(
        kind,
        data.get("arguments"),
        as_str(data.get("mcpServerName")),
        as_str(data.get("mcpToolName")),
        as_str(data.get("toolName")),
    )


def shaped_args(
    kind: str, arguments: Any, server: str | None, tool: str | None, name: str | None
) -> JSONObject:
    """:func:`args_of` from a start's fields: its ``arguments``, ``mcpServerName``,
    ``mcpToolName`` and ``toolName`` (each string ``None`` when it is not one)."""
    given = shapes.obj(arguments)
    if kind == "mcp":
        return shapes.mcp_args(server or "mcp", tool or name or "tool", given)
    args = dict(given)
    if kind in ("read", "write", "edit", "ls"):
        shapes.rename(args, "path", "path", "file_path", "filePath")
        if kind == "write":
            shapes.rename(args, "fileText", "file_text", "content")
        if kind == "edit":
            shapes.rename(args, "old_string", "old_str")
            shapes.rename(args, "new_string", "new_str")
    elif kind == "glob":
        shapes.rename(args, "globPattern", "pattern")
        shapes.rename(args, "targetDirectory", "path")
    elif kind == "webSearch":
        shapes.rename(args, "searchTerm", "query")
    elif kind == "updateTodos":
        todos = given.get("todos")
        if isinstance(todos, str):
            args["todos"] = shapes.todos_from_markdown(todos)
    return args


def description_of(kind: str, data: JSONObject) -> str | None:
    """What the model said a command or subagent is for (``description``)."""
    return described(kind, data.get("arguments"))


def described(kind: str, given: Any) -> str | None:
    """:func:`description_of` from a start's ``arguments``."""
    if kind in ("shell", "task") and isinstance(given, dict):
        return as_str(given.get("description"))
    return None


def error_outcome(error: Any) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a failed call: a refusal is ``rejected``."""
    info = shapes.obj(error)
    message = as_str(info.get("message")) or as_str(error) or "error"
    code = as_str(info.get("code"))
    lowered = f"{code or ''} {message}".lower()
    if any(word in lowered for word in _REJECTIONS):
        return "rejected", {"reason": message}
    payload: JSONObject = {"message": message}
    if code:
        payload["type"] = code
    return "error", payload


def _shell(contents: Any, content: str) -> JSONObject:
    """A command's output, its exit code from the ``terminal`` item of ``contents`` (the
    result's content items) or the last line."""
    code: int | None = None
    for item in contents or ():
        if isinstance(item, dict) and item.get("type") == "terminal":
            code = as_int(item.get("exitCode"))
    found = _EXITED.search(content)
    if found:
        content = content[: found.start()].rstrip("\n")
        code = int(found.group(1)) if code is None else code
    return shapes.shell_payload(content, code)


def success_payload(kind: str, args: JSONObject, result: Any) -> JSONObject:
    """The ``success`` payload of a completed call, in its kind's shape.

    Args:
        kind: The call's kind (:func:`kind_of`).
        args: Its arguments (:func:`args_of`).
        result: The ``tool.execution_complete``'s ``result``.
    """
    info = shapes.obj(result)
    return result_payload(
        kind,
        args,
        as_str(info.get("content")),
        as_str(info.get("detailedContent")),
        lambda: info.get("contents"),
    )


def result_payload(
    kind: str,
    args: JSONObject,
    text: str | None,
    detailed: str | None,
    contents: Callable[[], Any],
) -> JSONObject:
    """:func:`success_payload` from a result's fields: its ``content`` and
    ``detailedContent`` (``None`` when not a string), and a function giving its
    ``contents`` (read only for a command)."""
    content = text or ""
    if kind == "shell":
        return _shell(contents(), content)
    if kind == "edit":
        return shapes.edit_payload(args, content, detailed if _is_diff(detailed) else None)
    if kind == "read":
        return shapes.read_payload(args.get("path"), detailed or content)
    return shapes.text_payload(kind, args, content)


def _is_diff(detailed: str | None) -> bool:
    """Whether a result's ``detailedContent`` is a diff (an edit's payload holds it)."""
    return detailed is not None and ("\n@@" in detailed or detailed.startswith("diff"))


def success_said(
    kind: str, args: JSONObject, detailed: str | None, build: Callable[[], Any]
) -> Said | None:
    """What :func:`result_payload` says of an edit's success (``+a -r``), counted from its
    arguments' one replacement without the diff, where the result carries no diff of
    its own and the replacement's old and new lines share none (``edit_diff``'s one
    hunk); ``None`` otherwise (``build`` gives the payload: for a view, or a call of
    another kind). A run's edits, each a difflib diff otherwise."""
    if kind != "edit" or _is_diff(detailed):
        return None
    old, new = args.get("old_string"), args.get("new_string")
    if old.__class__ is not str or new.__class__ is not str:
        return None
    # amp_tools.edit_counts of one pair (importing it would import Claude's dialect)
    before, after = old.splitlines(), new.splitlines()
    if not (before and after and set(before).isdisjoint(after)):
        return None
    added, removed = len(after), len(before)
    return Said(kind, SUCCEEDED, f"+{added} -{removed}", build, (added, removed, None))
