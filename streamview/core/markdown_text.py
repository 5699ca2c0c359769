"""Plain text made safe in Markdown: code spans, table cells, escaped HTML.

Shared by the Markdown export and the run's summary; everything from the stream goes
through :func:`~streamview.core.sanitize.clean` first.
"""

from __future__ import annotations

from streamview.core.sanitize import clean

CELL_LIMIT = 160
"""Characters of a target or summary shown in the table."""


def code_span(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it holds (one line)."""
    text = one_line_text(text)
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def escape_html(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities, so a viewer that renders raw HTML shows it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def table_cell(text: str, limit: int = CELL_LIMIT) -> str:
    """One line of plain text safe in a table cell or heading: HTML, ``|`` and the
    brackets of a link (``[x](https://...)``, ``![img](...)``) escaped, so text from the
    stream makes no link of its own."""
    text = one_line_text(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    escaped = text.replace("\\", "\\\\").replace("|", "\\|")
    return escape_html(escaped.replace("[", "\\[").replace("]", "\\]"))


def one_line_text(text: str) -> str:
    """``text`` cleaned of controls, its lines and tabs joined by spaces."""
    return " ".join(clean(text).replace("\t", " ").splitlines()).strip()
