"""Cline's tools in the shapes streamview's tool kinds already have.

Cline prints a file or search tool as one message (``say``/``ask`` ``tool``) whose
``text`` is a JSON ``ClineSayTool`` (``src/shared/ExtensionMessage.ts`` of
cline/cline): ``tool`` (``readFile``, ``editedExistingFile``, ``newFileCreated``,
``fileDeleted``, ``listFilesTopLevel``, ``listFilesRecursive``,
``listCodeDefinitionNames``, ``searchFiles``, ``webFetch``, ``webSearch``...), ``path``,
``content``, ``diff`` (SEARCH/REPLACE blocks), ``regex``, ``filePattern``. What the
tool returned to the model is not printed. An MCP call is a ``use_mcp_server``
message (``serverName``, ``toolName``, ``arguments`` as a JSON string) answered by
``mcp_server_response``.
"""

from __future__ import annotations

from typing import Any

import orjson

import streamview.core.dialects.shapes as shapes
from streamview.core.events import JSONObject
from streamview.core.fields import as_str

KINDS: dict[str, str] = {
    "readFile": "read",
    "editedExistingFile": "edit",
    "newFileCreated": "write",
    "fileDeleted": "delete",
    "listFilesTopLevel": "ls",
    "listFilesRecursive": "ls",
    "listCodeDefinitionNames": "ls",
    "searchFiles": "grep",
    "webFetch": "webFetch",
    "webSearch": "webSearch",
}
"""``ClineSayTool.tool`` values and the kinds they are shown as."""


def decode(text: Any) -> JSONObject:
    """A message's ``text`` decoded as a JSON object, or an empty one."""
    if not isinstance(text, str) or not text.startswith("{"):
        return {}
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def search_replace_diff(path: str, diff: str) -> tuple[str, int, int] | None:
    """The unified diff of Cline's ``------- SEARCH`` / ``=======`` / ``+++++++ REPLACE``
    blocks (older builds: ``<<<<<<< SEARCH`` / ``>>>>>>> REPLACE``), if ``diff`` is one."""
    from streamview.core.dialects.claude_tools import edit_diff

    edits: list[tuple[str, str]] = []
    old: list[str] = []
    new: list[str] = []
    where = None
    for line in diff.split("\n"):
        if line.endswith("SEARCH") and line.lstrip("-<").strip() == "SEARCH":
            where, old, new = "old", [], []
        elif line.strip() == "=======" and where == "old":
            where = "new"
        elif line.endswith("REPLACE") and line.lstrip("+>").strip() == "REPLACE":
            edits.append(("\n".join(old), "\n".join(new)))
            where = None
        elif where == "old":
            old.append(line)
        elif where == "new":
            new.append(line)
    return edit_diff(path, edits) if edits else None


def call_of(info: JSONObject) -> tuple[str, JSONObject, JSONObject]:
    """``(kind, args, payload)`` of a ``ClineSayTool``: a finished file or search call."""
    name = as_str(info.get("tool")) or "tool"
    kind = KINDS.get(name, name)
    path = as_str(info.get("path"))
    content = as_str(info.get("content")) or ""
    args: JSONObject = {k: v for k, v in info.items() if k not in ("tool", "content", "diff")}
    if kind == "webFetch":
        args["url"] = args.pop("path", None) or path
        return kind, args, {"url": args["url"], "markdown": content} if content else {}
    if kind == "webSearch":
        args["searchTerm"] = args.pop("path", None) or path
        return kind, args, {"message": content} if content else {}
    if kind == "grep":
        shapes.rename(args, "pattern", "regex")
        shapes.rename(args, "glob", "filePattern")
        return kind, args, {"message": content} if content else {}
    if kind == "write":
        args["fileText"] = content
        return kind, args, shapes.write_payload(args, None)
    if kind == "edit":
        diff = as_str(info.get("diff")) or content
        made = search_replace_diff(path or "file", diff) if diff else None
        if made is not None:
            text, added, removed = made
            return kind, args, shapes.edit_payload(args, None, text, (added, removed))
        return kind, args, shapes.edit_payload(args, None, diff or None)
    if kind == "read":
        # ``content`` is what was asked for (the path), not what was read.
        return kind, args, shapes.read_payload(path, None)
    return kind, args, shapes.text_payload(kind, args, content)


def mcp_call(info: JSONObject) -> tuple[str, JSONObject]:
    """``(kind, args)`` of a ``use_mcp_server`` message (a tool use or a resource read)."""
    server = as_str(info.get("serverName")) or "mcp"
    tool = as_str(info.get("toolName")) or as_str(info.get("uri")) or "tool"
    arguments = info.get("arguments")
    given = decode(arguments) if isinstance(arguments, str) else shapes.obj(arguments)
    return "mcp", shapes.mcp_args(server, tool, given)
