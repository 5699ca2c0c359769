"""Kimi CLI's tools in the shapes streamview's tool kinds have.

Names and parameters: the ``Params`` models of ``src/kimi_cli/tools/`` in
MoonshotAI/kimi-cli (``Shell`` ``command``; ``ReadFile`` ``path``/``line_offset``/
``n_lines``; ``WriteFile`` ``path``/``content``/``mode``; ``StrReplaceFile`` ``path``/
``edit`` (``old``, ``new``, ``replace_all``, or a list of them); ``Glob`` ``pattern``/
``directory``; ``Grep``; ``SearchWeb`` ``query``; ``FetchURL`` ``url``; ``Agent``
``description``/``prompt``/``subagent_type``; ``SetTodoList`` ``todos`` (``title``,
``status`` ``pending``/``in_progress``/``done``); ``Think`` ``thought``). An MCP
server's tools keep their own bare names: nothing tells them apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamview.core.dialects.tool_shapes as tool_shapes
from streamview.core.dialects.edit_said import edit_said
from streamview.core.events import JSONObject
from streamview.core.fields import as_str
from streamview.core.tools import SUCCEEDED, Said, output_lines, plural

KINDS: dict[str, str] = {
    "Shell": "shell",
    "ReadFile": "read",
    "ReadMediaFile": "read",
    "WriteFile": "write",
    "StrReplaceFile": "edit",
    "Glob": "glob",
    "Grep": "grep",
    "SearchWeb": "webSearch",
    "FetchURL": "webFetch",
    "Agent": "task",
    "Task": "task",
    "SetTodoList": "updateTodos",
}
"""Kimi CLI tool names and the kinds they are shown as."""


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, or the name itself."""
    return KINDS.get(name, name or "unknown")


def args_of(name: str, arguments: Any) -> JSONObject:
    """A tool call's decoded ``arguments`` in the argument shape of the tool's kind."""
    return _args_of_kind(kind_of(name), arguments)


def call_shape(name: str, arguments: Any) -> tuple[str, JSONObject, str | None]:
    """A call's kind, :func:`args_of` and :func:`description_of`, its kind found once
    (once a call: half of a Kimi run's lines start one)."""
    kind = kind_of(name)
    return kind, _args_of_kind(kind, arguments), _description(kind, arguments)


_RENAMES = frozenset({"write", "glob", "webSearch", "updateTodos"})
"""The kinds whose arguments :func:`_args_of_kind` renames or reshapes."""


def fresh_call_shape(name: str, arguments: Any) -> tuple[str, JSONObject, str | None]:
    """:func:`call_shape` of ``arguments`` decoded just now, that nothing else holds:
    an object whose kind renames none of its keys is the call's args itself, not a
    copy (once a call, from its line's bytes)."""
    kind = KINDS.get(name, name)
    if arguments.__class__ is not dict or kind in _RENAMES:
        return kind, _args_of_kind(kind, arguments), _description(kind, arguments)
    if kind == "shell" or kind == "task":
        return kind, arguments, as_str(arguments.get("description"))
    return kind, arguments, None


def _args_of_kind(kind: str, arguments: Any) -> JSONObject:
    """:func:`args_of`, the tool's ``kind`` known."""
    given: JSONObject = arguments if isinstance(arguments, dict) else {}
    args = dict(given)
    if kind == "write" and isinstance(given.get("content"), str):
        args["fileText"] = args.pop("content")
    elif kind == "glob":
        if isinstance(given.get("pattern"), str):
            args["globPattern"] = given["pattern"]
        if isinstance(given.get("directory"), str):
            args["targetDirectory"] = given["directory"]
    elif kind == "webSearch" and isinstance(given.get("query"), str):
        args["searchTerm"] = given["query"]
    elif kind == "updateTodos" and isinstance(given.get("todos"), list):
        args["todos"] = [tool_shapes.todo(item) for item in given["todos"]]
    return args


def description_of(name: str, arguments: Any) -> str | None:
    """What a command or a subagent is for, if its arguments say it."""
    return _description(kind_of(name), arguments)


def _description(kind: str, arguments: Any) -> str | None:
    """:func:`description_of`, the tool's ``kind`` known."""
    if kind in ("shell", "task") and isinstance(arguments, dict):
        return as_str(arguments.get("description"))
    return None


def outcome_of(
    kind: str, args: JSONObject, note: str, output: str, lean: bool = False
) -> tuple[str, Any]:
    """``(outcome, payload)`` of a tool message: ``note`` is its ``<system>`` text (an
    ``ERROR: ...`` one says the call failed), ``output`` the rest of it.

    ``lean`` (the fold's fast path): a read's, grep's, edit's or command's payload is a
    :class:`~streamview.core.tools.Said`, its summary counted from the text."""
    if note.startswith("ERROR:"):
        message = note[len("ERROR:") :].strip()
        outcome, payload = tool_shapes.error_outcome(kind, message)
        if outcome == "success":  # a command that ran and failed: its own output
            payload["stdout"] = output
        elif output:
            payload["output"] = output
        return outcome, payload
    if kind == "shell":
        if lean:  # a quarter of a Kimi run's results: summarised, not built
            return "success", tool_shapes.shell_said(
                output, lambda: tool_shapes.shell_payload(output)
            )
        return "success", tool_shapes.shell_payload(output)
    if lean and kind == "edit":
        said = edit_said(args, lambda: outcome_of(kind, args, note, output)[1])
        if said is not None:
            return "success", said
    elif lean:
        said = tool_shapes.success_said(
            kind, args, output or note, lambda: outcome_of(kind, args, note, output)[1]
        )
        if said is not None:
            return "success", said
    payload = tool_shapes.success_payload(kind, args, output or note)
    if note and kind in ("read", "write", "edit"):
        payload["message"] = note
    return "success", payload


def lean_said(kind: str, args: JSONObject, note: str, output: str) -> Said | None:
    """:func:`outcome_of`'s ``lean`` payload of a successful read, grep, edit or command
    (most of a Kimi run's results), in one call: ``None`` where it gives something
    else (an ``ERROR:`` note, another kind, a grep with ``File:`` sections, an edit
    counted by its diff), which :func:`outcome_of` then says."""
    said = LEAN.get(kind)
    if said is None or note.startswith("ERROR:"):
        return None
    return said(args, note, output)


def _shell_said(args: JSONObject, note: str, output: str) -> Said | None:
    """:func:`lean_said` of a command's output (a quarter of a Kimi run's results)."""
    return Said("shell", SUCCEEDED, output_lines(output), lambda: tool_shapes.shell_payload(output))


def _read_said(args: JSONObject, note: str, output: str) -> Said | None:
    """:func:`lean_said` of a read: a read tool's line numbers are not line breaks, its
    lines are counted as they are."""
    text = output or note
    summary = plural(tool_shapes.line_count(text), "line")
    return Said("read", SUCCEEDED, summary, lambda: outcome_of("read", args, note, output)[1])


def _grep_said(args: JSONObject, note: str, output: str) -> Said | None:
    """:func:`lean_said` of a grep (``None`` for one with ``File:`` sections)."""
    build = lambda: outcome_of("grep", args, note, output)[1]  # noqa: E731
    return tool_shapes.success_said("grep", args, output or note, build)


def _edit_lean(args: JSONObject, note: str, output: str) -> Said | None:
    """:func:`lean_said` of an edit (:func:`_edit_said`)."""
    return _edit_said(args, lambda: outcome_of("edit", args, note, output)[1])


LEAN: dict[str, Callable[[JSONObject, str, str], Said | None]] = {
    "shell": _shell_said,
    "read": _read_said,
    "grep": _grep_said,
    "edit": _edit_lean,
}
""":func:`lean_said` of each kind it says, given a note that says no error: the
fold's fast path looks the kind up once and calls it, its note already checked."""


_OLD_KEYS = frozenset({"old_string", "old_str", "oldText", "old"})
"""The names :func:`~.tool_shapes.edit_pairs` knows an edit's old text by."""
_OTHER_OLD_KEYS = _OLD_KEYS - {"old"}
"""Those it tries before Kimi's own ``old``."""


def _edit_said(args: JSONObject, build: Callable[[], Any]) -> Said | None:
    """:func:`~.edit_said.edit_said` of Kimi's usual edit, one replacement (``edit``:
    an object with ``old`` and ``new``), counted in place; any other shape is asked
    of :func:`~.edit_said.edit_said`."""
    edit = args.get("edit")
    if (
        edit.__class__ is dict
        and "edits" not in args
        and _OLD_KEYS.isdisjoint(args)
        and _OTHER_OLD_KEYS.isdisjoint(edit)
    ):
        old, new = edit.get("old"), edit.get("new")
        if old.__class__ is str and new.__class__ is str:
            before, after = old.splitlines(), new.splitlines()
            if not (before and after and set(before).isdisjoint(after)):
                return None  # counted by its diff: the payload is built
            added, removed = len(after), len(before)
            return Said("edit", SUCCEEDED, f"+{added} -{removed}", build, (added, removed, None))
    return edit_said(args, build)
