"""opencode's tools in the shapes streamview's tool kinds already have (Cursor's).

A ``tool_use`` record holds one finished ``ToolPart``: the tool's name (``read``,
``bash``, ``edit``, ``github_get_issue``), its ``state.input``, and either the
``state.output`` text with a ``state.metadata`` object (``exit`` of a command, the
``diff`` and ``filediff`` of an edit, ``count`` of a glob) or, on failure,
``state.error``. Tool and parameter names: ``packages/opencode/src/tool/*.ts`` of
sst/opencode (``filePath``, ``oldString``/``newString``, ``command``/``description``,
``pattern``/``include``, ``url``, ``query``, ``subagent_type``, ``todos``). An MCP
tool is named ``{server}_{tool}``. A tool nobody maps keeps its own name and raw JSON.
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.shapes as shapes
from streamview.core.events import JSONObject
from streamview.core.fields import as_int, as_str

KINDS: dict[str, str] = {
    "read": "read",
    "write": "write",
    "edit": "edit",
    "multiedit": "edit",
    "patch": "edit",
    "apply_patch": "edit",
    "bash": "shell",
    "grep": "grep",
    "glob": "glob",
    "list": "ls",
    "webfetch": "webFetch",
    "websearch": "webSearch",
    "codesearch": "webSearch",
    "task": "task",
    "todowrite": "updateTodos",
}
"""opencode tool names and the kinds they are shown as."""

BUILTIN = frozenset({*KINDS, "todoread", "skill", "question", "lsp", "batch", "invalid"})
"""Tools of opencode itself: any other name with a ``_`` is an MCP server's tool."""
_REJECTIONS = ("rejected permission", "user rejected", "permission denied by", "was denied")


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, ``mcp``, or the name itself."""
    if name not in BUILTIN and "_" in name.strip("_"):
        return "mcp"
    return KINDS.get(name, name or "unknown")


def args_of(name: str, tool_input: Any) -> JSONObject:
    """A ``ToolPart``'s ``state.input`` in the argument shape of the tool's kind."""
    return args_for(name, kind_of(name), tool_input)


def args_for(name: str, kind: str, tool_input: Any) -> JSONObject:
    """:func:`args_of` for a tool whose kind is known already (``kind_of(name)``)."""
    given: JSONObject = tool_input if isinstance(tool_input, dict) else {}
    if kind == "mcp":
        server, _, tool = name.strip("_").partition("_")
        return shapes.mcp_args(server, tool or server, given)
    args = dict(given)
    if kind in ("read", "write", "edit", "ls"):
        shapes.rename(args, "path", "filePath", "path")
        if kind == "write":
            shapes.rename(args, "fileText", "content")
        if kind == "edit":
            shapes.rename(args, "old_string", "oldString")
            shapes.rename(args, "new_string", "newString")
    elif kind == "glob":
        shapes.rename(args, "globPattern", "pattern")
        shapes.rename(args, "targetDirectory", "path")
    elif kind == "grep":
        shapes.rename(args, "glob", "include")
    elif kind == "shell":
        shapes.rename(args, "workingDirectory", "workdir")
    elif kind == "webSearch":
        shapes.rename(args, "searchTerm", "query")
    return args


def description_of(name: str, tool_input: Any) -> str | None:
    """What the model said a command or subagent is for (``description``)."""
    if kind_of(name) in ("shell", "task") and isinstance(tool_input, dict):
        return as_str(tool_input.get("description"))
    return None


def error_outcome(error: Any) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a ``state.error``: refused permissions are ``rejected``."""
    message = as_str(error) or "error"
    if any(words in message.lower() for words in _REJECTIONS):
        return "rejected", {"reason": message}
    return "error", {"message": message}


def success_payload(kind: str, args: JSONObject, output: str, metadata: Any) -> JSONObject:
    """The ``success`` payload of a finished call, in its kind's shape.

    Args:
        kind: The call's kind (:func:`kind_of`).
        args: Its arguments (:func:`args_of`).
        output: ``state.output``: what the model read.
        metadata: ``state.metadata``: the tool's structured facts, if any.
    """
    meta: JSONObject = metadata if isinstance(metadata, dict) else {}
    if kind == "shell":
        return shapes.shell_payload(output, meta.get("exit"))
    if kind == "edit":
        filediff = meta.get("filediff")
        counts = None
        if isinstance(filediff, dict):
            added, removed = as_int(filediff.get("additions")), as_int(filediff.get("deletions"))
            if added is not None and removed is not None:
                counts = (added, removed)
        return shapes.edit_payload(args, output, as_str(meta.get("diff")), counts)
    if kind == "glob":
        payload: JSONObject = {"message": output} if output else {}
        count = as_int(meta.get("count"))
        if count is not None:
            payload["totalFiles"] = count
        return payload
    if kind == "updateTodos":
        todos = meta.get("todos") if isinstance(meta.get("todos"), list) else args.get("todos")
        return {"todos": todos if isinstance(todos, list) else []}
    if kind == "read":
        return shapes.read_payload(args.get("path"), output)
    return shapes.text_payload(kind, args, output)
