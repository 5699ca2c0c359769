"""Qwen Code's tools in the shapes streamview's tool kinds have.

Qwen Code is a fork of Gemini CLI: its tools keep Gemini's runtime names
(``read_file``, ``run_shell_command``, ``grep_search``...; ``todo_write``, ``task``
and ``agent`` are its own), while its ``stream-json`` wraps them in Claude Code's
``tool_use`` blocks. MCP tools are ``mcp__{server}__{tool}``. Names and parameters:
``packages/core/src/tools/tool-names.ts`` and the tools' schemas in QwenLM/qwen-code,
and the ``tools`` lists of real ``system/init`` records (see
tests/fixtures/dialects/qwen/SOURCES.md). A ``tool_result`` holds the tool's display
text (a command's output, a file's lines) or its error message.
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.tool_shapes as tool_shapes
from streamview.core.dialects.claude_like import ToolMap
from streamview.core.events import JSONObject
from streamview.core.fields import as_str
from streamview.core.tools import Said

KINDS: dict[str, str] = {
    "read_file": "read",
    "read_many_files": "read",
    "write_file": "write",
    "edit": "edit",
    "replace": "edit",
    "run_shell_command": "shell",
    "grep_search": "grep",
    "search_file_content": "grep",
    "glob": "glob",
    "list_directory": "ls",
    "web_fetch": "webFetch",
    "web_search": "webSearch",
    "todo_write": "updateTodos",
    "task": "task",
    "agent": "task",
}
"""Qwen Code tool names and the kinds they are shown as."""

OWN_NAMES = frozenset(
    {
        "run_shell_command",
        "read_file",
        "write_file",
        "grep_search",
        "list_directory",
        "read_many_files",
        "save_memory",
        "exit_plan_mode",
        "ask_user_question",
        "structured_output",
    }
)
"""Tool names no other Claude-like agent uses: a ``tool_use`` of one is Qwen's."""

MCP_PREFIX = "mcp__"


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, ``mcp``, or the name itself."""
    kind = KINDS.get(name)  # no known name starts with the MCP prefix
    if kind is not None:
        return kind
    return "mcp" if name.startswith(MCP_PREFIX) else name or "unknown"


def _take(args: JSONObject, *keys: str) -> str | None:
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value:
            del args[key]
            return value
    return None


def args_of(name: str, tool_input: Any) -> JSONObject:
    """A ``tool_use`` block's ``input`` in the argument shape of the tool's kind."""
    given: JSONObject = tool_input if isinstance(tool_input, dict) else {}
    kind = kind_of(name)
    if kind == "mcp":
        server, _, tool = name[len(MCP_PREFIX) :].partition("__")
        return {"providerIdentifier": server, "toolName": tool or server, "args": given}
    args = dict(given)
    if kind in ("read", "write", "edit", "ls"):
        path = _take(args, "file_path", "absolute_path", "path", "dir_path")
        if path is not None:
            args["path"] = path
        if kind == "write" and isinstance(args.get("content"), str):
            args["fileText"] = args.pop("content")
    elif kind == "glob":
        if isinstance(given.get("pattern"), str):
            args["globPattern"] = args.pop("pattern")
        directory = _take(args, "path", "dir_path")
        if directory is not None:
            args["targetDirectory"] = directory
    elif kind == "shell":
        directory = _take(args, "directory", "dir_path")
        if directory is not None:
            args["workingDirectory"] = directory
    elif kind == "webSearch" and isinstance(given.get("query"), str):
        args["searchTerm"] = args.pop("query")
    elif kind == "updateTodos" and isinstance(given.get("todos"), list):
        args["todos"] = [tool_shapes.todo(item) for item in given["todos"]]
    return args


def description_of(name: str, tool_input: Any) -> str | None:
    """A shell call's or a subagent's ``description`` (what the model said it is for)."""
    if kind_of(name) in ("shell", "task") and isinstance(tool_input, dict):
        return as_str(tool_input.get("description"))
    return None


def success_payload(kind: str, args: JSONObject, text: str) -> JSONObject:
    """A completed call's payload; a shell's debug-mode display keeps its exit code."""
    if kind == "shell" and "\nExit Code: " in text:
        # Gemini CLI's reading of a debug-mode display, imported by the first one: a
        # Qwen run rarely has one, and the module's import (its patterns) costs ~1 ms.
        import streamview.core.dialects.gemini_tools as gemini_tools

        parts = gemini_tools.shell_parts(text)
        if parts is not None:
            payload = tool_shapes.shell_payload(parts[0], gemini_tools.exit_code(text))
            if parts[1] not in ("(none)", ""):
                payload["stderr"] = parts[1]
            return payload
    return tool_shapes.success_payload(kind, args, text)


def success_said(kind: str, args: JSONObject, text: str) -> Said | None:
    """:func:`success_payload`'s summary counted without building it, for the fold's
    fast path: an edit's ``+a -r`` from its replacements where their lines share none
    (:func:`~streamview.core.dialects.edit_said.edit_said`, as Droid's and Kimi's: the
    same payload), a read's lines, a grep's matches (the shared ones), a command's
    plain output (no debug-mode ``Exit Code:`` line: its payload is the ``stdout``)."""
    if kind == "shell":
        if "\nExit Code: " in text:
            return None  # debug mode: the payload has the exit code and stderr
        return tool_shapes.shell_said(text, lambda: success_payload(kind, args, text))
    if kind == "edit":
        # Imported by the first edit: it brings Amp's count, which a Qwen stream's
        # start needs not (tests/core/dialects/test_recognise_types.py).
        from streamview.core.dialects.edit_said import edit_said

        return edit_said(args, lambda: success_payload(kind, args, text))
    return tool_shapes.success_said(kind, args, text)


TOOLS = ToolMap(
    kind_of=kind_of,
    args_of=args_of,
    description_of=description_of,
    error_outcome=tool_shapes.error_outcome,
    success_payload=success_payload,
    success_said=success_said,
)
"""Qwen Code's tools, for :class:`~streamview.core.dialects.claude_like.ClaudeLikeTranslator`."""
