"""Amp's tools in the shapes streamview's tool kinds have.

Names from the ``tools`` list of Amp's real ``system/init`` records (``Bash``,
``Read``, ``create_file``, ``edit_file``, ``undo_edit``, ``Grep``, ``glob``,
``web_search``, ``read_web_page``, ``Task``, ``finder``, ``oracle``, ``librarian``,
``mermaid``...; older builds also ``list_directory``, ``todo_write``, ``todo_read``);
see tests/fixtures/dialects/amp/SOURCES.md. Amp is closed source: the argument names
(``cmd``, ``path``, ``old_str``/``new_str``, ``filePattern``, ``read_range``) are those
of its published tool descriptions, and each is also read under Claude Code's name. A
result may be plain text or a JSON object (``output``/``exitCode``, ``content``,
``diff``): both are read.
"""

from __future__ import annotations

from typing import Any

import orjson

import streamview.core.dialects.tool_shapes as tool_shapes
from streamview.core.dialects.claude_like import ToolMap
from streamview.core.events import JSONObject
from streamview.core.fields import as_int, as_str
from streamview.core.newline_count import newlines
from streamview.core.tools import SUCCEEDED, Said, output_lines, plural

KINDS: dict[str, str] = {
    "Read": "read",
    "read_file": "read",
    "create_file": "write",
    "edit_file": "edit",
    "undo_edit": "edit",
    "Bash": "shell",
    "Grep": "grep",
    "glob": "glob",
    "list_directory": "ls",
    "read_web_page": "webFetch",
    "web_search": "webSearch",
    "todo_write": "updateTodos",
    "todo_read": "updateTodos",
    "Task": "task",
    "finder": "task",
    "oracle": "task",
    "librarian": "task",
}
"""Amp tool names and the kinds they are shown as (its subagents are ``task``)."""

OWN_NAMES = frozenset(
    {
        "create_file",
        "edit_file",
        "undo_edit",
        "finder",
        "oracle",
        "librarian",
        "read_web_page",
        "mermaid",
        "look_at",
        "painter",
        "handoff",
        "find_thread",
        "read_thread",
    }
)
"""Tool names only Amp has: a ``tool_use`` of one is Amp's."""

MCP_PREFIX = "mcp__"


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, ``mcp``, or the name itself."""
    kind = KINDS.get(name)  # no known name starts with the MCP prefix
    if kind is not None:
        return kind
    if name.startswith(MCP_PREFIX):
        return "mcp"
    return name or "unknown"


def args_of(name: str, tool_input: Any) -> JSONObject:
    """A ``tool_use`` block's ``input`` in the argument shape of the tool's kind."""
    return _args(name, kind_of(name), tool_input)


def call_shape(name: str, tool_input: Any) -> tuple[str, JSONObject, str | None]:
    """A call's kind, :func:`args_of` and :func:`description_of`, its kind found once
    (each of them looked it up again: three lookups a call on the fold's fast path).
    A run's usual calls are each shaped in one step."""
    if tool_input.__class__ is dict:
        if name == "Bash":
            args = dict(tool_input)
            command = tool_input.get("cmd")
            if command.__class__ is not str or not command:  # ``as_str(...) or as_str(...)``
                command = tool_input.get("command")
            if command.__class__ is str:
                args["command"] = command
            cwd = tool_input.get("cwd")
            if cwd.__class__ is str:
                args["workingDirectory"] = cwd
            return "shell", args, None
        if (name == "Read" and "read_range" not in tool_input) or name == "edit_file":
            args = dict(tool_input)
            path = tool_input.get("path")
            if path.__class__ is not str or not path:
                path = tool_input.get("file_path")
            if path.__class__ is str:
                args["path"] = path
            return KINDS[name], args, None
        if name == "Grep":
            return "grep", dict(tool_input), None
    kind = kind_of(name)
    description = (
        as_str(tool_input.get("description"))
        if kind == "task" and isinstance(tool_input, dict)
        else None
    )
    return kind, _args(name, kind, tool_input), description


def _args(name: str, kind: str, tool_input: Any) -> JSONObject:
    """:func:`args_of` of a tool whose kind is known."""
    given: JSONObject = tool_input if isinstance(tool_input, dict) else {}
    if kind == "mcp":
        server, _, tool = name[len(MCP_PREFIX) :].partition("__")
        return {"providerIdentifier": server, "toolName": tool or server, "args": given}
    args = dict(given)
    if kind in ("read", "write", "edit", "ls"):
        path = as_str(given.get("path")) or as_str(given.get("file_path"))
        if path is not None:
            args["path"] = path
        if kind == "write" and isinstance(given.get("content"), str):
            args["fileText"] = args.pop("content")
        read_range = given.get("read_range")
        if kind == "read" and isinstance(read_range, list) and read_range:
            start = as_int(read_range[0])
            if start is not None:
                args["offset"] = start
    elif kind == "shell":
        command = as_str(given.get("cmd")) or as_str(given.get("command"))
        if command is not None:
            args["command"] = command
        if isinstance(given.get("cwd"), str):
            args["workingDirectory"] = given["cwd"]
    elif kind == "glob":
        pattern = as_str(given.get("filePattern")) or as_str(given.get("pattern"))
        if pattern is not None:
            args["globPattern"] = pattern
    elif kind == "webSearch" and isinstance(given.get("query"), str):
        args["searchTerm"] = given["query"]
    elif kind == "updateTodos" and isinstance(given.get("todos"), list):
        args["todos"] = [tool_shapes.todo(item) for item in given["todos"]]
    elif kind == "task" and name != "Task":
        text = as_str(given.get("query")) or as_str(given.get("task"))
        if text is not None:
            args.setdefault("description", f"{name}: {text}")
    return args


def description_of(name: str, tool_input: Any) -> str | None:
    """A subagent's ``description``, if its input says it."""
    if kind_of(name) == "task" and isinstance(tool_input, dict):
        return as_str(tool_input.get("description"))
    return None


def _json_object(text: str) -> JSONObject | None:
    if not text.startswith("{"):
        return None
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def success_payload(kind: str, args: JSONObject, text: str) -> JSONObject:
    """A completed call's payload, from plain text or Amp's JSON result objects."""
    found = _json_object(text) if kind in ("shell", "read", "edit") else None
    if found is not None:
        if kind == "shell":
            output = as_str(found.get("output")) or ""
            return tool_shapes.shell_payload(output, as_int(found.get("exitCode")))
        if kind == "read" and isinstance(found.get("content"), str):
            text = found["content"]
        if kind == "edit" and isinstance(found.get("diff"), str):
            payload = tool_shapes.success_payload(kind, args, "")
            payload["message"] = "edited"
            return payload
    return tool_shapes.success_payload(kind, args, text)


def success_said(kind: str, args: JSONObject, text: str) -> Said | None:
    """:func:`success_payload`'s summary counted from the text, for a read of plain
    text and a grep (:func:`~streamview.core.dialects.tool_shapes.success_said`), a
    command's plain output, and an edit's lines added and removed where
    :func:`edit_counts` knows them."""
    if text.startswith("{") and kind in ("read", "edit", "shell"):
        return None  # perhaps Amp's JSON result, its content, diff or exit code inside
    if kind == "shell":  # plain output: the payload's stdout, summarised, not built
        return tool_shapes.shell_said(text, lambda: success_payload(kind, args, text))
    if kind == "edit":
        counts = edit_counts(tool_shapes.edit_pairs(args))
        if counts is None:
            return None
        added, removed = counts
        build = lambda: success_payload(kind, args, text)  # noqa: E731
        return Said(kind, SUCCEEDED, f"+{added} -{removed}", build, (added, removed, None))
    return tool_shapes.success_said(kind, args, text)


def ended(kind: str, args: JSONObject, text: str) -> Said | JSONObject:
    """``success_said(kind, args, text) or success_payload(kind, args, text)``: what the
    fold's fast path hands over once a result, the kinds of a tool-heavy run told
    first, each in one step (an edit of one ``old_str``/``new_str`` pair counted
    without :func:`~.tool_shapes.edit_pairs`)."""
    if kind == "shell":
        if text.startswith("{"):
            return success_payload(kind, args, text)
        return Said(kind, SUCCEEDED, shell_lines(text), lambda: success_payload(kind, args, text))
    if kind == "read":
        if text.startswith("{"):
            return success_payload(kind, args, text)
        summary = read_lines(text)
        return Said(kind, SUCCEEDED, summary, lambda: tool_shapes.success_payload(kind, args, text))
    if kind == "grep":  # no JSON result to read: a grep's text as Claude Code's
        return tool_shapes.success_said(kind, args, text) or success_payload(kind, args, text)
    if kind == "edit" and not text.startswith("{"):
        pair = one_pair(args)
        if pair is not None:
            said = pair_said(*pair)
            if said is None:
                return success_payload(kind, args, text)
            summary, numbers = said
            build = lambda: success_payload(kind, args, text)  # noqa: E731
            return Said(kind, SUCCEEDED, summary, build, numbers)
    return success_said(kind, args, text) or success_payload(kind, args, text)


def read_lines(text: str) -> str:
    """A read's summary: ``plural(tool_shapes.line_count(text), "line")``."""
    return plural(tool_shapes.line_count(text), "line")


def shell_lines(output: str) -> str | None:
    """:func:`~streamview.core.tools.output_lines` of a command's output (its lines,
    trailing newlines and a ``\\r`` before each aside; ``None`` for a blank one), an
    ASCII output's newlines counted by :func:`~streamview.core.newline_count.newlines`."""
    if not output.isascii():
        return output_lines(output)
    if not output or output.isspace():
        return None
    end = len(output)
    trailing = 0
    while end and output[end - 1] == "\n":
        end -= 1
        trailing += 1
        if end and output[end - 1] == "\r":
            end -= 1
    return plural(newlines(output) - trailing + 1, "line")


def one_pair(args: JSONObject) -> tuple[str, str] | None:
    """An edit's ``old_str`` and ``new_str`` where they are the only replacement
    :func:`~.tool_shapes.edit_pairs` finds (no ``edits`` or ``edit`` list, no Claude
    Code names, which it reads first), found without it; ``None`` otherwise (then ask
    it: there may be others, or none)."""
    if "edits" in args or "edit" in args or "old_string" in args:
        return None
    old, new = args.get("old_str"), args.get("new_str")
    if old.__class__ is str and new.__class__ is str:
        return old, new
    return None


def edit_counts(pairs: list[tuple[str, str]]) -> tuple[int, int] | None:
    """The ``linesAdded``/``linesRemoved`` :func:`success_payload` writes for these
    replacements, without their diff: where each one's old and new lines have none in
    common (``edit_diff``'s one hunk); ``None`` for any other (difflib's, the payload is
    built) and for an edit with none."""
    if not pairs:
        return None
    added = removed = 0
    for old, new in pairs:
        before, after = old.splitlines(), new.splitlines()
        if not (before and after and set(before).isdisjoint(after)):
            return None
        added += len(after)
        removed += len(before)
    return added, removed


_PAIRS_SAID: dict[tuple[int, int], tuple[str, tuple[int, int, None]]] = {}
"""An edit's summary and numbers by its lines added and removed, once written (a run
repeats them: ``+1 -1``)."""


def pair_said(old: str, new: str) -> tuple[str, tuple[int, int, None]] | None:
    """An edit of one replacement's summary and numbers, as :func:`edit_counts` counts
    them (``None`` where it gives none: the payload is built), without its list, and
    remembered by count (once an edit result, in Amp's and Droid's fast paths)."""
    before, after = old.splitlines(), new.splitlines()
    if not before or not after:
        return None
    if len(before) == 1 and len(after) == 1:  # most: one line for another
        if before[0] == after[0]:
            return None
    elif not set(before).isdisjoint(after):
        return None
    counts = len(after), len(before)
    said = _PAIRS_SAID.get(counts)
    if said is None:
        added, removed = counts
        said = (f"+{added} -{removed}", (added, removed, None))
        if len(_PAIRS_SAID) < 1024:
            _PAIRS_SAID[counts] = said
    return said


def error_outcome(kind: str, text: str) -> tuple[str, JSONObject]:
    """A failed call; a shell's JSON result with a non-zero ``exitCode`` ran and failed."""
    found = _json_object(text) if kind == "shell" else None
    if found is not None and as_int(found.get("exitCode")) is not None:
        output = as_str(found.get("output")) or ""
        return "success", tool_shapes.shell_payload(output, as_int(found.get("exitCode")))
    return tool_shapes.error_outcome(kind, text)


TOOLS = ToolMap(
    kind_of=kind_of,
    args_of=args_of,
    description_of=description_of,
    error_outcome=error_outcome,
    success_payload=success_payload,
    success_said=success_said,
)
"""Amp's tools, for :class:`~streamview.core.dialects.claude_like.ClaudeLikeTranslator`."""
