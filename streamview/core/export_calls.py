"""A tool call in full for the Markdown export: its arguments and its result, read back
from the line store (the fold keeps summaries only), each fenced and capped.

A diff is a ``diff`` block, shell output and file contents are ``text`` blocks, anything
else is JSON; each block is cut at :data:`BLOCK_LINES` lines with a note of how much was
left out.
"""

from __future__ import annotations

import re
from typing import Any

import streamview.core.dialects as dialects
from streamview.core.diff_paths import with_relative_diff
from streamview.core.linestore import LineStore
from streamview.core.nesting import cut_deep
from streamview.core.sanitize import clean, dumps_for_terminal
from streamview.core.state import ToolCall

BLOCK_LINES = 200
"""Lines of one argument or result block written; the rest is counted in a note."""
TEXT_KEYS = ("diffString", "interleavedOutput", "stdout", "stderr", "content", "markdown")
"""Result fields written as text blocks, in this order (the first found wins)."""
_HEADING = re.compile(r"^(#{1,6})(\s)")
_FENCE = re.compile(r"^\s*(```|~~~)")


def fenced(text: str, language: str = "") -> list[str]:
    """``text`` in a fence no line of it can close, cut at :data:`BLOCK_LINES` lines."""
    lines = clean(text).rstrip("\n").split("\n")
    cut = len(lines) - BLOCK_LINES
    lines = lines[:BLOCK_LINES]
    fence = "```"
    while any(line.lstrip().startswith(fence) for line in lines):
        fence += "`"
    out = [fence + language, *lines, fence]
    if cut > 0:
        out.append(f"*… {cut:,} more lines not exported here (the viewer's details show all)*")
    return out


def call_parts(call: ToolCall, store: LineStore | None) -> tuple[Any, str | None, Any]:
    """``(arguments, outcome, payload)`` of a call, from its lines when the store has them."""
    args: Any = call.args
    outcome: str | None = call.outcome
    payload: Any = None
    if store is None:
        return cut_deep(args), outcome, payload
    reparse = dialects.CallReparser(dialects.by_name(store.agent), call.call_id)
    for number in (call.started_line, call.completed_line):
        data = store.get(number) if number is not None else None
        event = reparse(data, number) if data is not None and number is not None else None
        if event is None:
            continue
        if event.args is not None:
            args = event.args
        if event.completed:
            outcome, payload = event.outcome, event.payload
    # Cut as the detail view cuts them: a record may nest 1,024 levels.
    return cut_deep(args), outcome, cut_deep(payload)


def call_details(call: ToolCall, store: LineStore | None, cwd: str | None = None) -> list[str]:
    """Markdown for a call's arguments and result (nothing when neither is known); an
    edit's diff is written with its file headers relative to ``cwd`` (``a/src/x.py``),
    so ``git apply`` takes it in a checkout of the project."""
    args, outcome, payload = call_parts(call, store)
    if call.kind == "edit":
        payload = with_relative_diff(payload, cwd, call.target)
    lines: list[str] = []
    if args:
        lines += ["<details><summary>Arguments</summary>", ""]
        lines += fenced(dumps_for_terminal(args, indent=True), "json")
        lines += ["", "</details>", ""]
    if payload is None:
        return lines
    shown = " ".join(clean(outcome).split()).replace("<", "&lt;")[:60] if outcome else ""
    label = f"Result ({shown})" if shown and shown != "success" else "Result"
    lines += [f"<details><summary>{label}</summary>", ""]
    text_key = next(
        (k for k in TEXT_KEYS if isinstance(payload, dict) and isinstance(payload.get(k), str)),
        None,
    )
    if text_key is not None and isinstance(payload, dict):
        language = "diff" if text_key == "diffString" else "text"
        lines += fenced(payload[text_key], language)
    elif isinstance(payload, str):
        lines += fenced(payload, "text")
    else:
        lines += fenced(dumps_for_terminal(payload, indent=True), "json")
    lines += ["", "</details>", ""]
    return lines


def demote_headings(text: str, levels: int) -> str:
    """The agent's own headings ``levels`` deeper (at most ``######``), code left alone."""
    out = []
    in_code = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code:
            found = _HEADING.match(line)
            if found:
                depth = min(len(found.group(1)) + levels, 6)
                line = "#" * depth + line[len(found.group(1)) :]
        out.append(line)
    return "\n".join(out)
