"""Codex's thread items in the shapes streamview's tool kinds already have (Cursor's).

A ``codex exec --json`` item is one flat object: ``id``, ``type`` and the fields of its
type (``codex-rs/exec/src/exec_events.rs``). The items that are tool calls are turned
into the arguments and result payloads the detail views know: ``command_execution``
is a ``shell`` call (``command``/``stdout``/``exitCode``), ``file_change`` an ``edit``
(one diff header per changed file, added, updated or deleted), ``mcp_tool_call`` an
``mcp`` call, ``web_search`` a ``webSearch``, ``todo_list`` an ``updateTodos``. An item
type nobody maps keeps its own name as its kind and its raw fields.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from streamview.core.events import JSONObject

KINDS: dict[str, str] = {
    "command_execution": "shell",
    "file_change": "edit",
    "mcp_tool_call": "mcp",
    "web_search": "webSearch",
    "todo_list": "updateTodos",
    "collab_tool_call": "task",
}
"""Codex item types that are tool calls, and the kinds they are shown as."""

NOT_CALLS = frozenset({"agent_message", "assistant_message", "reasoning", "plan", "error"})
"""Item types that are text, thinking or notices, not tool calls."""

_ITEM_KEYS = frozenset({"id", "type", "item_type", "status"})
_SHELLS = frozenset({"bash", "zsh", "sh", "dash", "fish", "pwsh", "powershell"})
_CHANGE_VERBS = {"add": "added", "update": "updated", "delete": "deleted"}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def item_type(item: JSONObject) -> str:
    """An item's type: ``type``, or ``item_type`` (builds of late September 2025)."""
    found = item.get("type")
    if not isinstance(found, str):
        found = item.get("item_type")
    return found if isinstance(found, str) else "unknown"


def kind_of(item_kind: str) -> str:
    """The kind an item type is shown as: a known kind, or the type itself."""
    return KINDS.get(item_kind, item_kind)


_WRAPPED = re.compile(
    r"\A(?:\S*/)?(?:bash|zsh|sh|dash|fish|pwsh|powershell) -l?c ('[^']*'|\"[^\"\\$`]*\")\Z"
)
"""``bash -lc '…'`` whose script needs no unquoting beyond its outer quotes."""


SCRIPTS: dict[str, str] = {}
""":func:`script_of` of the commands seen lately: a command is started and completed
with the same text (emptied at 256 commands: one can be a whole file written by a
here-document). ``fast_line`` reads it by subscript first (a call costs more)."""


def script_of(command: str) -> str:
    """What a ``bash -lc '…'`` wrapper runs (the script), else the command itself.

    Codex runs every command through the user's shell (``/bin/zsh -lc 'rg --files'``):
    the script is what a person reads in a narrow column. The common quoting is read by
    a regular expression; only a script with quotes of its own goes through ``shlex``
    (slow: a 100k-line stream spent most of its time there). Kept in :data:`SCRIPTS`.
    """
    script = SCRIPTS.get(command)
    if script is None:
        script = _script_of(command)
        if len(SCRIPTS) >= 256:
            SCRIPTS.clear()
        SCRIPTS[command] = script
    return script


def _script_of(command: str) -> str:
    """:func:`script_of`, not kept."""
    match = _WRAPPED.match(command)
    if match:
        script = match.group(1)[1:-1]
        return script if script.strip() else command
    if " -c " not in command and " -lc " not in command:
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if (
        len(words) == 3
        and words[0].rsplit("/", 1)[-1] in _SHELLS
        and words[1] in ("-lc", "-c")
        and words[2].strip()
    ):
        return words[2]
    return command


def change_kind(change: JSONObject) -> str | None:
    """``add``, ``update`` or ``delete``: a plain string, or ``{"type": ...}`` as the
    app-server protocol spells it."""
    kind = change.get("kind")
    if isinstance(kind, dict):
        kind = kind.get("type")
    return kind if isinstance(kind, str) else None


def _change_paths(item: JSONObject) -> list[JSONObject]:
    changes = item.get("changes")
    if not isinstance(changes, list):
        return []
    return [c for c in changes if isinstance(c, dict) and isinstance(c.get("path"), str)]


def args_of(item_kind: str, item: JSONObject) -> JSONObject:
    """An item's fields as the arguments of its kind."""
    if item_kind == "command_execution":
        command = _str(item.get("command")) or ""
        args: JSONObject = {"command": script_of(command)}
        if args["command"] != command:
            args["shellCommand"] = command
        if isinstance(item.get("cwd"), str):
            args["workingDirectory"] = item["cwd"]
        return args
    if item_kind == "file_change":
        changes = _change_paths(item)
        paths = [change["path"] for change in changes]
        if len(paths) == 1:
            path = paths[0]
        elif paths:
            path = f"{paths[0]} (+{len(paths) - 1} more)"
        else:
            path = "no files"
        return {
            "path": path,
            "changes": [{"path": c["path"], "kind": change_kind(c)} for c in changes],
        }
    if item_kind == "mcp_tool_call":
        arguments = item.get("arguments")
        return {
            "providerIdentifier": _str(item.get("server")) or "",
            "toolName": _str(item.get("tool")) or "",
            "args": arguments if arguments is not None else {},
        }
    if item_kind == "web_search":
        query = _str(item.get("query")) or ""
        args = {"searchTerm": query}
        if isinstance(item.get("action"), dict):
            args["action"] = item["action"]
        return args
    if item_kind == "todo_list":
        return {"todos": todos_of(item)}
    return {k: v for k, v in item.items() if k not in _ITEM_KEYS}


def todos_of(item: JSONObject) -> list[JSONObject]:
    """A ``todo_list``'s ``items`` (``text``, ``completed``) as Cursor's todos."""
    items = item.get("items")
    todos: list[JSONObject] = []
    for number, entry in enumerate(items if isinstance(items, list) else [], 1):
        if not isinstance(entry, dict):
            continue
        todos.append(
            {
                "id": str(number),
                "content": _str(entry.get("text")) or "",
                "status": "completed" if entry.get("completed") is True else "pending",
            }
        )
    return todos


def _diff_of(change: JSONObject) -> tuple[str, int, int]:
    """One changed file as a diff: its own ``diff`` if the item has one, else the
    unified-diff header that says whether it was added, updated or deleted."""
    path = change["path"].lstrip("/")
    kind = change_kind(change)
    old = "/dev/null" if kind == "add" else f"a/{path}"
    new = "/dev/null" if kind == "delete" else f"b/{path}"
    lines = [f"--- {old}", f"+++ {new}"]
    added = removed = 0
    body = _str(change.get("diff")) or _str(change.get("unified_diff"))
    if body:
        for line in body.splitlines():
            if line.startswith(("--- ", "+++ ")):
                continue
            lines.append(line)
            added += line.startswith("+")
            removed += line.startswith("-")
    return "\n".join(lines), added, removed


def _file_change_payload(item: JSONObject) -> JSONObject:
    """The changed files as one diff, each file's header saying what happened to it."""
    changes = _change_paths(item)
    diffs: list[str] = []
    added = removed = 0
    verbs: dict[str, int] = {}
    for change in changes:
        diff, plus, minus = _diff_of(change)
        diffs.append(diff)
        added += plus
        removed += minus
        kind = change_kind(change)
        verb = _CHANGE_VERBS.get(kind, kind) if kind is not None else "changed"
        verbs[verb] = verbs.get(verb, 0) + 1
    if len(changes) == 1:
        message = next(iter(verbs))
    else:
        message = ", ".join(f"{count} {verb}" for verb, count in verbs.items()) or "no files"
    payload: JSONObject = {
        "path": changes[0]["path"] if len(changes) == 1 else None,
        "message": message,
        "diffString": "\n".join(diffs),
    }
    if added or removed:
        payload["linesAdded"], payload["linesRemoved"] = added, removed
    return payload


def result_of(item_kind: str, item: JSONObject) -> tuple[str, Any]:
    """``(outcome, payload)`` of a completed item, in its kind's shape.

    ``declined`` commands are ``rejected``; a command that ran and exited non-zero is
    a ``success`` with that ``exitCode`` (shown as failed, as Cursor says it); any other
    ``failed`` item is a ``failure`` (an MCP call's error an ``error``, with its message).
    """
    status = _str(item.get("status"))
    if item_kind == "command_execution":
        output = _str(item.get("aggregated_output")) or ""
        code = _int(item.get("exit_code"))
        if status == "declined":
            return "rejected", {"reason": output or "command declined"}
        if status == "failed" and code is None:
            return "failure", {"message": output or "command failed", "stdout": output}
        payload: JSONObject = {"stdout": output}
        if code is not None:
            payload["exitCode"] = code
        if _int(item.get("duration_ms")) is not None:
            payload["executionTime"] = item["duration_ms"]
        return "success", payload
    if item_kind == "file_change":
        payload = _file_change_payload(item)
        if status == "failed":
            said = ", ".join(f"{change_kind(c)} {c['path']}" for c in _change_paths(item))
            return "failure", {"message": f"patch failed: {said}" if said else "patch failed"}
        return "success", payload
    if item_kind == "mcp_tool_call":
        error = item.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return "error", {"message": error["message"]}
        result = item.get("result")
        if status == "failed" and not isinstance(result, dict):
            return "error", {"message": "MCP tool call failed"}
        info = result if isinstance(result, dict) else {}
        content = info.get("content")
        payload = {"content": content if isinstance(content, list) else []}
        if info.get("structured_content") is not None:
            payload["structuredContent"] = info["structured_content"]
        return "success", payload
    if item_kind == "web_search":
        # Codex does not say what the search found: only what it did (its action).
        action = item.get("action")
        return "success", {"action": action} if isinstance(action, dict) else {}
    if item_kind == "todo_list":
        return "success", {"todos": todos_of(item)}
    if status == "failed":
        return "failure", {"message": f"{item_kind} failed", "item": item}
    return "success", {k: v for k, v in item.items() if k not in _ITEM_KEYS}
