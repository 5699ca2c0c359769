"""Select and copy: the selection drawn on a Line-API widget's lines, and copying with
a note that says what was copied.

Textual selects text with a mouse drag on any widget whose lines carry offsets
(:meth:`textual.strip.Strip.apply_offsets`) and that says what a selection holds
(``get_selection``); these helpers give the transcript and the detail views both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.style import Style
from textual.app import App
from textual.selection import Selection
from textual.strip import Strip

from streamview.core.formatting import counted
from streamview.core.state import ToolCall
from streamview.ui.text.safe_text import copy_text, phrase

TARGET_NOUNS = {
    "shell": "command",
    "read": "path",
    "write": "path",
    "edit": "path",
    "ls": "path",
    "delete": "path",
    "grep": "pattern",
    "glob": "pattern",
    "webFetch": "URL",
    "webSearch": "query",
}
"""What a call's target is, said in the note after copying it."""


def draw_selection(strip: Strip, span: tuple[int, int], style: Style) -> Strip:
    """``strip`` with cells ``span`` (end ``-1``: to the end) in the selection style."""
    start, end = span
    length = strip.cell_length
    end = length if end == -1 else min(end, length)
    if start >= end:
        return strip
    before, middle, after = strip.divide([start, end, length])
    return Strip.join([before, middle.apply_style(style), after])


def selected_text(lines: Iterable[str], selection: Selection) -> tuple[str, str]:
    """What ``selection`` covers of ``lines`` (a widget's lines, top to bottom)."""
    return selection.extract("\n".join(line.rstrip() for line in lines)), "\n"


def amount(text: str) -> str:
    """``3 lines``, ``1 line``, ``42 characters``: how much was copied."""
    count = text.count("\n") + 1
    if count > 1:
        return counted(count, "line")
    return counted(len(text), "character")


def copy_target(app: App[Any], call: ToolCall) -> bool:
    """Copy a call's target (command, path, pattern, URL, query); False if it has none."""
    if not call.target:
        return False
    noun = TARGET_NOUNS.get(call.kind, "target")
    what = phrase("{noun} {target}", noun=noun, target=call.target, limit=60)
    copy_text(app, call.target, what, command=call.kind == "shell")
    return True
