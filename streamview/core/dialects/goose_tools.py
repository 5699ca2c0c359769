"""Goose's tools in the shapes streamview's tool kinds already have.

Goose's tools are its extensions' tools, named ``{extension}__{tool}``
(``developer__shell``, ``developer__text_editor``, ``github__get_issue``). A
``toolRequest`` holds ``toolCall.value`` (``name``, ``arguments``); the
``toolResponse`` that answers it (same ``id``) holds ``toolResult.value``: MCP content
items (``{"type": "text", "text"}``), newer builds a ``structuredContent`` (a shell's
``stdout``/``stderr``/``exit_code``) and ``isError``; or ``status: "error"`` with an
``error`` string. Tool names: ``crates/goose-mcp`` and the developer extension of
block/goose (``shell`` ``command``; ``text_editor`` ``command`` ``view``/``write``/
``str_replace``, ``path``, ``file_text``, ``old_str``/``new_str``; newer ``write``,
``edit``, ``tree``). Any other ``extension__tool`` is an MCP server's tool.
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.shapes as shapes
from streamview.core.events import JSONObject
from streamview.core.fields import as_str

KINDS: dict[str, str] = {
    "shell": "shell",
    "write": "write",
    "edit": "edit",
    "tree": "ls",
    "list_directory": "ls",
    "read_file": "read",
    "glob": "glob",
    "grep": "grep",
    "web_scrape": "webFetch",
    "fetch": "webFetch",
    "web_search": "webSearch",
    "todo_write": "updateTodos",
    "create_task": "task",
    "execute_task": "task",
    "delegate": "task",
}
"""Tool names (after the extension's ``__``) and the kinds they are shown as."""

BUILTIN = frozenset(
    {"developer", "computercontroller", "todo", "platform", "dynamic_task", "subagent", ""}
)
"""Goose's own extensions: their unmapped tools keep their names, not ``mcp``."""
_EDITOR = {"view": "read", "write": "write", "str_replace": "edit", "insert": "edit"}
_REJECTIONS = ("denied", "declined", "rejected", "not allowed")


def split(name: str) -> tuple[str, str]:
    """``(extension, tool)`` of a tool name (``developer__shell``)."""
    extension, _, tool = name.partition("__")
    return (extension, tool) if tool else ("", name)


def kind_of(name: str, arguments: Any = None) -> str:
    """The kind a call is shown as: a known kind, ``mcp``, or the tool's own name."""
    extension, tool = split(name)
    if tool == "text_editor" and isinstance(arguments, dict):
        return _EDITOR.get(as_str(arguments.get("command")) or "", "edit")
    if tool in KINDS and (extension in BUILTIN or tool in ("shell", "text_editor")):
        return KINDS[tool]
    if extension not in BUILTIN:
        return "mcp"
    return tool or "unknown"


def args_of(name: str, kind: str, arguments: Any) -> JSONObject:
    """A ``toolCall``'s ``arguments`` in the argument shape of the call's kind."""
    given = shapes.obj(arguments)
    if kind == "mcp":
        extension, tool = split(name)
        return shapes.mcp_args(extension, tool, given)
    args = dict(given)
    if kind in ("read", "write", "edit", "ls"):
        shapes.rename(args, "path", "path", "file_path")
        if kind == "write":
            shapes.rename(args, "fileText", "file_text", "content")
        if kind == "edit":
            shapes.rename(args, "old_string", "old_str", "before")
            shapes.rename(args, "new_string", "new_str", "after")
    elif kind == "glob":
        shapes.rename(args, "globPattern", "pattern")
    elif kind == "webSearch":
        shapes.rename(args, "searchTerm", "query")
    return args


def text_of(value: Any) -> str:
    """The text items of a tool result's content, joined."""
    items = value.get("content") if isinstance(value, dict) else value
    if not isinstance(items, list):
        return ""
    texts = [
        item["text"]
        for item in items
        if isinstance(item, dict) and isinstance(item.get("text"), str)
    ]
    return "\n".join(texts)


def error_outcome(message: str) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a failed call: a refusal is ``rejected``."""
    if any(word in message.lower() for word in _REJECTIONS):
        return "rejected", {"reason": message}
    return "error", {"message": message}


def success_payload(kind: str, args: JSONObject, value: Any) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a ``toolResult`` whose status is ``success``."""
    text = text_of(value)
    info = shapes.obj(value)
    if info.get("isError") is True and kind != "shell":
        return error_outcome(text or "error")
    if kind == "shell":
        structured = shapes.obj(info.get("structuredContent"))
        if structured:
            out = as_str(structured.get("stdout")) or ""
            err = as_str(structured.get("stderr"))
            return "success", shapes.shell_payload(out, structured.get("exit_code"), err)
        payload = shapes.shell_payload(text)
        if info.get("isError") is True:
            payload["isError"] = True
        return "success", payload
    return "success", shapes.text_payload(kind, args, text)
