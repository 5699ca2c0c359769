"""Argument and result shapes several dialects build the same way.

The detail views know Cursor's shapes (``read``: ``path``/``content``; ``shell``:
``command``/``stdout``/``exitCode``; ``edit``: a ``diffString``...). opencode, Copilot
CLI, Goose and Cline each name their tools and fields their own way, but once a
dialect has said which kind a call is and where its path, command or output sit, the
payload is made here, once.
"""

from __future__ import annotations

import re
from typing import Any

from streamview.core.dialects.claude_tools import edit_diff
from streamview.core.events import JSONObject
from streamview.core.fields import as_int, as_str

_DIFF_COUNTS = re.compile(r"^([+-])(?![+-]{2} )", re.MULTILINE)
_CHECKBOX = re.compile(r"^\s*[-*]\s*\[([ xX~-])\]\s*(.+?)\s*$", re.MULTILINE)


def obj(value: Any) -> JSONObject:
    """``value`` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def take(given: JSONObject, *keys: str) -> str | None:
    """The first of ``keys`` holding a non-empty string, removed from ``given``."""
    for key in keys:
        value = given.get(key)
        if isinstance(value, str) and value:
            del given[key]
            return value
    return None


def rename(given: JSONObject, to: str, *keys: str) -> None:
    """Put the first of ``keys`` holding a string under ``to`` (the others stay)."""
    value = take(given, *keys)
    if value is not None:
        given[to] = value


def lines_in(text: str) -> int:
    """Lines a written file has (a last line without a newline counts)."""
    return text.count("\n") + (not text.endswith("\n")) if text else 0


def diff_counts(diff: str) -> tuple[int, int]:
    """Lines added and removed by a unified diff (its ``---``/``+++`` heads not counted)."""
    added = removed = 0
    for found in _DIFF_COUNTS.finditer(diff):
        if found.group(1) == "+":
            added += 1
        else:
            removed += 1
    return added, removed


def read_payload(path: Any, content: str | None, message: str | None = None) -> JSONObject:
    """A ``read`` result: the text read, when the stream has it."""
    payload: JSONObject = {"path": path}
    if content:
        payload["content"] = content
    if message:
        payload["message"] = message
    return payload


def write_payload(args: JSONObject, message: str | None) -> JSONObject:
    """A ``write`` result: lines written, from the arguments' ``fileText``."""
    text = as_str(args.get("fileText"))
    payload: JSONObject = {"path": args.get("path"), "linesCreated": lines_in(text or "")}
    if message:
        payload["message"] = message
    return payload


def edit_payload(
    args: JSONObject, message: str | None, diff: str | None = None, counts: Any = None
) -> JSONObject:
    """An ``edit`` result: the stream's own diff when it has one, else one made from
    the arguments' ``old_string``/``new_string``.

    Args:
        args: The call's arguments (``path``, maybe ``old_string``/``new_string``).
        message: The tool's own text, if any.
        diff: A unified diff the stream carries.
        counts: ``(added, removed)`` the stream states, if it does.
    """
    path = as_str(args.get("path")) or "file"
    payload: JSONObject = {"path": path}
    if message:
        payload["message"] = message.split("\n", 1)[0]
    if diff:
        added, removed = counts if counts is not None else diff_counts(diff)
        payload["diffString"], payload["linesAdded"], payload["linesRemoved"] = (
            diff,
            added,
            removed,
        )
        return payload
    old, new = args.get("old_string"), args.get("new_string")
    if isinstance(old, str) and isinstance(new, str):
        payload["diffString"], payload["linesAdded"], payload["linesRemoved"] = edit_diff(
            path, [(old, new)]
        )
    return payload


def shell_payload(
    output: str | None, exit_code: Any = None, stderr: str | None = None
) -> JSONObject:
    """A ``shell`` result: output and, when the stream says it, the exit code."""
    payload: JSONObject = {"stdout": output or ""}
    if stderr:
        payload["stderr"] = stderr
    code = as_int(exit_code)
    if code is not None:
        payload["exitCode"] = code
    return payload


def mcp_args(server: str, tool: str, arguments: Any) -> JSONObject:
    """An MCP call's arguments as the ``mcp`` views read them."""
    given = arguments if isinstance(arguments, dict) else {}
    return {"providerIdentifier": server, "toolName": tool, "args": given}


def mcp_payload(text: str | None) -> JSONObject:
    """An MCP call's result: its text as one content item."""
    return {"content": [{"text": text}] if text else []}


def todos_from_markdown(text: str) -> list[JSONObject]:
    """``- [x] item`` lines as todos (``completed``, ``in_progress``, ``pending``)."""
    states = {"x": "completed", "X": "completed", "~": "in_progress", "-": "in_progress"}
    return [
        {"content": found.group(2), "status": states.get(found.group(1), "pending")}
        for found in _CHECKBOX.finditer(text)
    ]


def text_payload(kind: str, args: JSONObject, text: str) -> JSONObject:
    """A result known only as the tool's text, in the shape of its kind."""
    if kind == "read":
        return read_payload(args.get("path"), text)
    if kind == "write":
        return write_payload(args, text)
    if kind == "edit":
        return edit_payload(args, text)
    if kind == "shell":
        return shell_payload(text)
    if kind == "mcp":
        return mcp_payload(text)
    if kind == "webFetch":
        return {"url": args.get("url"), "markdown": text}
    if kind == "updateTodos":
        todos = args.get("todos")
        return {"todos": todos if isinstance(todos, list) else []}
    if kind in ("grep", "glob", "ls", "webSearch"):
        return {"message": text} if text else {}
    return {"content": text}
