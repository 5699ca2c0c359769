"""Factory Droid's tools in the shapes streamview's tool kinds have.

A ``tool_call`` names a tool (``toolName``) and holds its ``parameters``; the
``tool_result`` that answers it holds ``value`` (the text the model reads, sometimes
an object) or an ``error`` (``type``, ``message``). Droid is closed source: tool names
and parameters are those harnesses that drive ``droid exec`` parse (BloopAI/vibe-kanban
``crates/executors/src/executors/droid/normalize_logs.rs``: ``Read`` ``file_path``,
``LS`` ``directory_path``, ``Glob`` ``folder``/``patterns``, ``Grep``, ``Execute``
``command``/``riskLevel``, ``Edit`` ``old_str``/``new_str``, ``MultiEdit``, ``Create``
``file_path``/``content``, ``ApplyPatch`` ``input``, ``TodoWrite``, ``WebSearch``,
``FetchUrl``; see tests/fixtures/dialects/droid/SOURCES.md).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

import streamview.core.dialects.tool_shapes as tool_shapes
from streamview.core.dialects import amp_tools
from streamview.core.dialects.edit_said import edit_said
from streamview.core.events import JSONObject
from streamview.core.fields import as_str
from streamview.core.tools import SUCCEEDED, Said

KINDS: dict[str, str] = {
    "Read": "read",
    "LS": "ls",
    "Glob": "glob",
    "Grep": "grep",
    "Execute": "shell",
    "Edit": "edit",
    "MultiEdit": "edit",
    "ApplyPatch": "edit",
    "Create": "write",
    "TodoWrite": "updateTodos",
    "WebSearch": "webSearch",
    "FetchUrl": "webFetch",
    "Task": "task",
}
"""Droid tool names and the kinds they are shown as."""

_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.MULTILINE)


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, ``mcp``, or the name itself."""
    kind = KINDS.get(name)  # no known name starts with the MCP prefix
    if kind is not None:
        return kind
    if name.startswith("mcp__"):
        return "mcp"
    return name or "unknown"


def args_of(name: str, parameters: Any) -> JSONObject:
    """A ``tool_call``'s ``parameters`` in the argument shape of the tool's kind."""
    return args_of_kind(name, kind_of(name), parameters)


def call_shape(
    name: str, parameters: Any, owned: bool = False
) -> tuple[str, JSONObject, str | None]:
    """A call's kind, :func:`args_of` and :func:`description_of`, its kind found once
    (the fold's fast path, once a call). ``owned``: ``parameters`` were decoded for this
    call alone, so the usual calls' arguments are they themselves, not a copy."""
    if parameters.__class__ is dict:  # a run's usual calls, each in one step
        if name == "Execute":
            reason = parameters.get("riskLevelReason")
            args = parameters if owned else dict(parameters)
            return "shell", args, reason if reason.__class__ is str else None
        if name == "Read" or name == "Edit" or name == "MultiEdit":
            path = parameters.get("file_path")
            if path.__class__ is not str or not path:  # ``as_str(...) or as_str(...)``
                path = parameters.get("path")
            args = parameters if owned else dict(parameters)
            if path.__class__ is str:
                args["path"] = path
            return KINDS[name], args, None
        if name == "Grep":
            return "grep", parameters if owned else dict(parameters), None
    kind = kind_of(name)
    return kind, args_of_kind(name, kind, parameters), _description(kind, parameters)


def args_of_kind(name: str, kind: str, parameters: Any) -> JSONObject:
    """:func:`args_of`, the tool's ``kind`` known."""
    given: JSONObject = parameters if isinstance(parameters, dict) else {}
    if kind == "mcp":
        server, _, tool = name[len("mcp__") :].partition("__")
        return {"providerIdentifier": server, "toolName": tool or server, "args": given}
    args = dict(given)
    path = as_str(given.get("file_path")) or as_str(given.get("path"))
    if kind == "ls":
        path = as_str(given.get("directory_path")) or path
    if kind in ("read", "write", "edit", "ls") and path is not None:
        args["path"] = path
    if name == "ApplyPatch" and isinstance(given.get("input"), str):
        found = _PATCH_FILE.search(given["input"])
        if found:
            args["path"] = found.group(1).strip()
    if kind == "write" and isinstance(given.get("content"), str):
        args["fileText"] = given["content"]
    elif kind == "glob":
        patterns = given.get("patterns")
        if isinstance(patterns, list):
            args["globPattern"] = ", ".join(str(p) for p in patterns)
        if isinstance(given.get("folder"), str):
            args["targetDirectory"] = given["folder"]
    elif kind == "webSearch" and isinstance(given.get("query"), str):
        args["searchTerm"] = given["query"]
    elif kind == "updateTodos" and isinstance(given.get("todos"), list):
        args["todos"] = [tool_shapes.todo(item) for item in given["todos"]]
    elif kind == "task" and isinstance(given.get("description"), str):
        args = {"description": given["description"], **args}  # what the call is shown by
    return args


def description_of(name: str, parameters: Any) -> str | None:
    """Why a command runs (``riskLevelReason``), or what a subagent is for."""
    return _description(kind_of(name), parameters)


def _description(kind: str, parameters: Any) -> str | None:
    """:func:`description_of`, the tool's ``kind`` known."""
    if not isinstance(parameters, dict):
        return None
    if kind == "shell":
        return as_str(parameters.get("riskLevelReason"))
    if kind == "task":
        return as_str(parameters.get("description"))
    return None


def value_text(value: Any) -> str:
    """A ``tool_result``'s ``value`` as text (an object is shown as its JSON)."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()


def success_payload(name: str, args: JSONObject, value: Any) -> JSONObject:
    """The ``success`` payload of a completed call, in its kind's shape."""
    kind = kind_of(name)
    if name == "ApplyPatch":
        diff = value.get("diff") if isinstance(value, dict) else None
        patch = diff if isinstance(diff, str) else as_str(args.get("input")) or ""
        body = [line for line in patch.splitlines() if not line.startswith(("+++", "---", "***"))]
        return {
            "path": args.get("path"),
            "diffString": patch,
            "linesAdded": sum(1 for line in body if line.startswith("+")),
            "linesRemoved": sum(1 for line in body if line.startswith("-")),
            "message": "patched",
        }
    return tool_shapes.success_payload(kind, args, value_text(value))


def success_said(name: str, args: JSONObject, value: Any) -> Said | None:
    """:func:`success_payload`'s summary counted from the result, without the payload,
    where :func:`~streamview.core.dialects.tool_shapes.success_said` counts one, and
    for a command (the fold's fast path); ``None`` otherwise."""
    kind = kind_of(name)
    if kind == "edit" and name != "ApplyPatch":
        return edit_said(args, lambda: success_payload(name, args, value))
    if name == "ApplyPatch":
        return None
    if kind == "shell":  # a third of a Droid run's results: summarised, not built
        return tool_shapes.shell_said(value_text(value), lambda: success_payload(name, args, value))
    if kind not in tool_shapes.SAID_KINDS:
        return None
    return tool_shapes.success_said(
        kind, args, value_text(value), lambda: success_payload(name, args, value)
    )


def ended(name: str, args: JSONObject, value: Any) -> tuple[str, Any]:
    """The kind of a plain result's call and ``success_said(...) or
    success_payload(...)`` of it (a text value's by :func:`plain_result`)."""
    kind = kind_of(name)
    if value.__class__ is str:
        return kind, plain_result(name, kind, args, value)
    return kind, success_said(name, args, value) or success_payload(name, args, value)


def plain_result(name: str, kind: str, args: JSONObject, value: str) -> Any:
    """``success_said(...) or success_payload(...)`` of a plain result's text ``value``,
    the call's ``kind`` (its name's) known: what the fold's fast path hands over once a
    result, the kinds of a tool-heavy run (a command, a read, an edit of one pair) told
    first, each in one step."""
    if kind == "shell":
        summary = amp_tools.shell_lines(value)
        return Said(kind, SUCCEEDED, summary, lambda: success_payload(name, args, value))
    if kind == "read":
        summary = amp_tools.read_lines(value)
        return Said(kind, SUCCEEDED, summary, lambda: success_payload(name, args, value))
    if kind == "edit" and name != "ApplyPatch":
        pair = amp_tools.one_pair(args)  # one replacement: counted without edit_counts
        if pair is not None:
            said = amp_tools.pair_said(*pair)
            if said is None:
                return success_payload(name, args, value)
            summary, numbers = said
            return Said(
                kind, SUCCEEDED, summary, lambda: success_payload(name, args, value), numbers
            )
    return success_said(name, args, value) or success_payload(name, args, value)


def error_outcome(name: str, error: Any, value: Any) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a ``tool_result`` with ``isError: true``."""
    info: JSONObject = error if isinstance(error, dict) else {}
    text = as_str(info.get("message")) or value_text(value)
    outcome, payload = tool_shapes.error_outcome(kind_of(name), text)
    if outcome == "error" and as_str(info.get("type")):
        payload["type"] = info["type"]
    return outcome, payload
