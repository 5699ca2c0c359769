"""The view of a todo list update: a checklist."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from streamview.core.sanitize import one_line
from streamview.core.tools import todo_status
from streamview.ui.details.sections import Section, raw_json, scalar
from streamview.ui.details.views.base import ToolView, as_str

_CHECK = {"completed": "☑", "in_progress": "◐", "pending": "☐", "cancelled": "☒"}
_CHECK_STYLE = {
    "completed": "green",
    "in_progress": "bold yellow",
    "pending": "",
    "cancelled": "dim strike",
}


def todo_list(todos: list[Any]) -> RenderableType:
    """A checklist: ☑ done, ◐ in progress, ☐ pending, ☒ cancelled (each status spelled
    ``completed`` or ``TODO_STATUS_COMPLETED``); another status is shown after the text."""
    lines: list[Text] = []
    for todo in todos:
        if not isinstance(todo, dict):
            lines.append(Text("? " + scalar(todo, 300)))
            continue
        spelled = as_str(todo.get("status")) or "pending"
        status = todo_status(todo) or "pending"
        mark = _CHECK.get(status, "?")
        line = Text(f"{mark} ", style=_CHECK_STYLE.get(status, ""))
        line.append(
            one_line(as_str(todo.get("content")) or "", 500), style=_CHECK_STYLE.get(status, "")
        )
        if status not in _CHECK:
            line.append(f"  ({one_line(spelled, 40)})", style="dim")
        lines.append(line)
    return Text("\n", end="").join(lines) if lines else Text("no todos", style="dim italic")


def todos_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The todo list after the update (the one in the arguments if the result has none)."""
    todos = payload.get("todos")
    if not isinstance(todos, list):
        todos = args.get("todos")
    if not isinstance(todos, list):
        return [raw_json(payload, full)]
    return [Section("todos", todo_list(todos))]


TODOS = ToolView(todos_view, big_arg="todos")
