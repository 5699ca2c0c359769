"""The titled parts a detail view is made of, and the blocks they are built from.

Pure functions, no widget state: the detail screens call them in a worker thread and
mount what they return. Every string from the stream is sanitized here (colour in
shell output is parsed into styles, every other control sequence becomes an inert
picture), and every big text is capped (:mod:`streamview.ui.text.capping`) or made into rows
when shown (:mod:`streamview.ui.text.rows`, :mod:`streamview.ui.text.wrap`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from streamview.core.nesting import SHOWN_DEPTH, cut_deep
from streamview.core.sanitize import clean
from streamview.ui.text.capping import (
    ARG_VALUE_CHARS,
    RAW_KEY,
    Capped,
    cap_text,
    clean_big,
    clean_capped,
    with_note,
)
from streamview.ui.text.rows import code_lines, diff_lines, output_lines
from streamview.ui.text.style import diff_style, highlight, lexer_for
from streamview.ui.text.wrap import wrap_text


@dataclass(frozen=True, slots=True)
class Section:
    """One titled part of a call's detail: its arguments, its output, a diff..."""

    title: str
    """What the part is (``output``, ``diff``, ``content``...)."""
    body: RenderableType
    """What to show."""
    truncated: bool = False
    """The body was cut to the display limits; showing everything would show more."""
    wrap: bool = True
    """Long lines fold; ``False`` for code, diffs and output, which scroll sideways."""


def _clean_key(key: Any) -> str:
    return clean(str(key))


def sanitize_json(value: Any) -> Any:
    """A copy of a JSON value whose strings (keys included) are clean for display, made
    without recursion and cut at :data:`SHOWN_DEPTH` levels (``… nested N deep``)."""
    return cut_deep(value, SHOWN_DEPTH, text=clean_big, key=_clean_key)


def json_text(value: Any, full: bool = False) -> Capped:
    """``value`` as indented JSON, sanitized and capped."""
    text = json.dumps(sanitize_json(value), indent=2, ensure_ascii=False, default=str)
    return cap_text(text, full)


def raw_json(value: Any, full: bool = False) -> Section:
    """The raw JSON of a record or a payload, pretty-printed and highlighted.

    Shown in full, a text too long for the normal limits is highlighted in blocks when
    shown (:class:`CodeLines`), its long lines going on in rows.
    """
    if full:
        text = json.dumps(sanitize_json(value), indent=2, ensure_ascii=False, default=str)
        if cap_text(text).truncated:
            rows, cut = code_lines(text, "json", numbered=False)
            return Section("raw JSON", rows, cut, wrap=False)
    capped = json_text(value, full)
    body = highlight(capped.text, "json")
    body.rstrip()
    return Section("raw JSON", with_note(body, capped), capped.truncated, wrap=False)


def code(text: str, path: str | None, start_line: int = 1, full: bool = False) -> Section:
    """File content highlighted by the file's extension, with line numbers.

    Args:
        text: The content (untrusted).
        path: The file's path, to choose the highlighting.
        start_line: Number of the first line (a read with an offset starts later).
        full: Show every line, not just the first :data:`MAX_LINES`: a longer text
            is highlighted in blocks when shown (:class:`CodeLines`).
    """
    lexer = lexer_for(path)
    title = f"content ({lexer})" if lexer != "text" else "content"
    if full and cap_text(text).truncated:
        rows, cut = code_lines(text, lexer, start_line)
        return Section(title, rows, cut, wrap=False)
    capped = clean_capped(cap_text(text, full))
    highlighted = highlight(capped.text, lexer)
    lines = list(highlighted.split("\n", allow_blank=True))
    if lines and not lines[-1].plain and len(lines) > 1:
        lines = lines[:-1]
    width = len(str(start_line + len(lines) - 1))
    body = Text(no_wrap=True, overflow="ignore", end="")
    for number, line in enumerate(lines, start_line):
        if number > start_line:
            body.append("\n")
        body.append(f"{number:>{width}} │ ", style="dim")
        body.append_text(line)
    return Section(title, with_note(body, capped), capped.truncated, wrap=False)


def diff_text(diff: str, full: bool = False) -> Section:
    """A unified diff coloured line by line (:func:`diff_style`).

    Shown in full, a diff too long for the normal limits is styled when shown
    (:class:`DiffLines`).
    """
    if full and cap_text(diff).truncated:
        rows, cut = diff_lines(diff)
        return Section("diff", rows, cut, wrap=False)
    capped = clean_capped(cap_text(diff, full))
    body = Text(no_wrap=True, overflow="ignore", end="")
    for number, line in enumerate(capped.text.split("\n")):
        if number:
            body.append("\n")
        body.append(line, style=diff_style(line))
    return Section("diff", with_note(body, capped), capped.truncated, wrap=False)


def ansi_output(text: str, full: bool = False) -> tuple[RenderableType, bool]:
    """Shell output with its colours kept and every other control made inert."""
    return output_lines(text, full)


def plain(text: str, full: bool = False, style: str = "") -> tuple[RenderableType, bool]:
    """Untrusted text, sanitized and capped, shown as it is.

    Shown in full, a text too long for the normal limits is folded to the screen width
    when laid out and its rows are made when shown (:class:`WrapText`).
    """
    if full and cap_text(text).truncated:
        return wrap_text(text, style)
    capped = clean_capped(cap_text(text, full))
    body = Text(capped.text.rstrip("\n"), style=style, end="")
    return with_note(body, capped), capped.truncated


def fields(rows: Iterable[tuple[str, Any]]) -> Table:
    """A two-column table of labels and values (values sanitized, one line each)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in rows:
        if value is None or value == "":
            continue
        table.add_row(label, value if isinstance(value, Text) else Text(scalar(value)))
    return table


def scalar(value: Any, limit: int = ARG_VALUE_CHARS) -> str:
    """One argument value on at most a few lines: strings as they are, the rest as JSON."""
    if isinstance(value, str):
        text = clean(value)
    else:
        text = clean(json.dumps(value, ensure_ascii=False, default=str))
    if len(text) > limit:
        text = text[: limit - 1] + f"… ({len(text):,} characters; {RAW_KEY} for raw JSON)"
    return text
