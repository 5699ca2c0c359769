"""Every tool call's detail, by kind: the registry of views and what they share.

Each kind of :mod:`streamview.core.tools` (``read``, ``shell``, ``updateTodos``...) has
a :class:`~streamview.ui.details.views.base.ToolView` in :data:`VIEWS`; a kind with none is
shown as raw JSON (:data:`~streamview.ui.details.views.raw.RAW`). Adding a kind is one module
holding its view and one line here. Rejections, errors and missing results look the
same for every kind and are laid out here.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from streamview.core.diff_paths import with_relative_diff
from streamview.core.formatting import counted
from streamview.core.sanitize import clean, one_line
from streamview.ui.details.sections import Section, fields, plain, raw_json
from streamview.ui.details.views import edit, files, mcp, search, shell, task, todos, web
from streamview.ui.details.views.base import ToolView, as_str
from streamview.ui.details.views.raw import RAW
from streamview.ui.text.capping import RAW_KEY

VIEWS: dict[str, ToolView] = {
    "read": files.READ,
    "write": files.WRITE,
    "delete": files.DELETE,
    "edit": edit.EDIT,
    "shell": shell.SHELL,
    "grep": search.GREP,
    "glob": search.GLOB,
    "ls": search.LS,
    "webSearch": web.WEB_SEARCH,
    "webFetch": web.WEB_FETCH,
    "mcp": mcp.MCP,
    "updateTodos": todos.TODOS,
    "task": task.TASK,
}
"""The view of each tool kind; any other kind is shown as raw JSON."""

_HIDDEN_ARGS = frozenset({"toolCallId"})
"""Arguments that only repeat what the screen already says."""


def view_for(kind: str) -> ToolView:
    """The view of ``kind``: its own, or the raw JSON one."""
    return VIEWS.get(kind, RAW)


def args_section(kind: str, args: dict[str, Any] | None, description: str | None = None) -> Section:
    """The call's arguments as a table (big file texts are shown with the result)."""
    if not args and not description:
        return Section("arguments", Text("none recorded", style="dim italic"))
    rows: list[tuple[str, Any]] = []
    if description:
        rows.append(("description", description))
    view = view_for(kind)
    big, main = view.big_arg, view.main_args
    others: list[str] = []
    for key, value in (args or {}).items():
        if key in _HIDDEN_ARGS or (key == "description" and value == description):
            continue
        if main is not None and key not in main:
            others.append(clean(str(key)))
            continue
        if key == "isBackground" and value is False:
            continue
        if key == big and isinstance(value, str):
            lines = value.count("\n") + 1
            rows.append(
                (
                    key,
                    Text(
                        f"{counted(lines, 'line')}, {counted(len(value), 'character')}", style="dim"
                    ),
                )
            )
            continue
        if key == big and isinstance(value, list):
            rows.append(
                (key, Text(f"{len(value):,} item{'s' if len(value) != 1 else ''}", style="dim"))
            )
            continue
        rows.append((clean(str(key)), value))
    if others:
        note = Text(", ".join(others) + f" ({RAW_KEY} for raw JSON)", style="dim")
        rows.append((f"{len(others)} more", note))
    return Section("arguments", fields(rows))


def error_message(payload: Any) -> str | None:
    """The message of an ``error`` result, whichever field holds it."""
    if isinstance(payload, str):
        return payload
    if isinstance(payload, dict):
        for key in ("message", "error", "errorMessage"):
            value = payload.get(key)
            if isinstance(value, str) and value:
                return value
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                return str(value["message"])
    return None


def result_sections(
    kind: str,
    args: dict[str, Any] | None,
    outcome: str | None,
    payload: Any,
    *,
    approval: str | None = None,
    full: bool = False,
    cwd: str | None = None,
) -> list[Section]:
    """Everything worth showing about a call's result, as titled sections.

    Args:
        kind: The tool kind (``read``, ``shell``...).
        args: The call's arguments, if known.
        outcome: The key of the result union (``success``, ``rejected``...), ``None``
            when the call has no result.
        payload: The value under that key.
        approval: What the approval traffic said about the call, if anything.
        full: Render every line of big texts instead of the first :data:`MAX_LINES`.
        cwd: The session's working directory: an edit's diff headers are shown
            relative to it (``a/src/x.py``), as ``git diff`` writes them.

    Returns:
        Sections to show in order. Never raises on odd input: an unexpected shape
        falls back to the raw JSON.
    """
    args = args if isinstance(args, dict) else {}
    if kind == "edit":
        payload = with_relative_diff(payload, cwd, as_str(args.get("path")))
    try:
        return _result_sections(kind, args, outcome, payload, approval, full)
    except Exception as error:  # odd input must show up, not crash the screen
        note = Text(f"could not lay this result out ({one_line(repr(error), 200)})", style="yellow")
        return [Section("result", note), raw_json(payload, full)]


def _result_sections(
    kind: str,
    args: dict[str, Any],
    outcome: str | None,
    payload: Any,
    approval: str | None,
    full: bool,
) -> list[Section]:
    if outcome is None:
        return [Section("result", Text("no result (yet)", style="dim italic"))]
    if outcome == "rejected":
        reason = payload.get("reason") if isinstance(payload, dict) else None
        rows: list[tuple[str, Any]] = [
            (
                "reason",
                Text(clean(reason)) if reason else Text("no reason given", style="dim italic"),
            ),
            ("approval", None if approval in (f"rejected: {reason}", "rejected") else approval),
        ]
        if isinstance(payload, dict):
            rows += [
                (clean(str(key)), value)
                for key, value in payload.items()
                if key not in ("reason",) and value not in (None, "")
            ]
        return [Section("rejected", fields(rows))]
    if outcome == "error":
        message = error_message(payload)
        if message is None:
            return [
                Section("error", Text("no message", style="dim italic")),
                raw_json(payload, full),
            ]
        body, cut = plain(message, full, style="red")
        sections = [Section("error", body, cut)]
        if isinstance(payload, dict) and as_str(payload.get("path")):
            sections.insert(0, Section("file", fields([("path", payload["path"])])))
        return sections
    if outcome in ("success", "failure") and isinstance(payload, dict):
        view = VIEWS.get(kind)
        if view is None:
            return RAW.result(args, payload, full)
        sections = view.result(args, payload, full)
        if approval:
            sections.append(Section("approval", Text(clean(approval))))
        return sections
    return [
        Section("result", Text(f"result key {one_line(outcome, 80)!r}", style="yellow")),
        raw_json(payload, full),
    ]
