"""The run's summary screen (S): outcome and duration, files changed with their +/- lines,
commands with their exit status, calls failed or refused, tokens and cost.

The model is :func:`streamview.core.run_summary.run_summary`; every text from the stream
reaches the screen through :func:`~streamview.ui.text.safe_text.safe` (one line,
sanitized, never markup).
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from streamview.core.formatting import STATUS_MARK, counted
from streamview.core.run_summary import CallRef, RunSummary
from streamview.ui.frame.help import HelpBox
from streamview.ui.frame.keys import QUIT_MEANING
from streamview.ui.text.safe_text import phrase, safe, set_border_subtitle, set_border_title

LISTED = 12
"""Files, commands and failures listed on screen; the rest are counted."""
MARK_WIDTH = 24
"""Cells a call's mark and status or kind may take before it is cut."""


def _cell(text: str | None, limit: int = 200) -> Text:
    """Stream text as a table cell: sanitized, one line, never markup."""
    return Text(safe(text or "", limit).plain)


def _count(value: int | None, sign: str) -> Text:
    if value is None:
        return Text("?", style="dim")
    return Text(f"{sign}{value:,}", style="bold" if value else "dim")


def _heading(title: str, count: int) -> Text:
    return Text(f"{title} ({count:,})", style="bold underline")


def _more(total: int, word: str) -> list[RenderableType]:
    if total <= LISTED:
        return []
    return [Text(f"… and {counted(total - LISTED, word)} more (the tool table lists all)", "dim")]


def _status(call: CallRef) -> Text:
    mark = STATUS_MARK.get(call.status, "•")
    said = f"exit {call.exit_code}" if call.exit_code is not None else call.status
    return Text(f"{mark} {said}", style="bold" if call.status != "succeeded" else "")


def _marks_and_text(marks: list[Text], texts: list[Text]) -> Table:
    """A two-column grid: the marks (``⊘ rejected``, ``✓ exit 0``, ``✗ shell``) kept
    whole, up to :data:`MARK_WIDTH` cells, and the text filling the rest, cut with an
    ellipsis. A grid left to share the width itself gives the text column everything
    and cuts the marks to ``⊘ r…``."""
    table = Table.grid(padding=(0, 2))
    widest = max((mark.cell_len for mark in marks), default=1)
    table.add_column(no_wrap=True, min_width=min(widest, MARK_WIDTH), overflow="ellipsis")
    table.add_column(ratio=1, overflow="ellipsis", no_wrap=True)
    for mark, text in zip(marks, texts, strict=True):
        table.add_row(mark, text)
    return table


def summary_renderable(summary: RunSummary) -> Group:
    """The summary as Rich renderables: the headline, then a section per list."""
    parts: list[RenderableType] = [Text(safe(summary.headline(), 300).plain, style="bold")]
    if summary.message:
        parts.append(_cell(summary.message, 300))
    usage = summary.usage_text()
    parts.append(Text(f"tokens: {usage}" if usage else "tokens: not reported", style="dim"))
    if summary.files:
        parts += [Text(""), _heading("Files changed", len(summary.files))]
        table = Table.grid(padding=(0, 2))
        table.add_column(ratio=1, overflow="ellipsis", no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        for change in summary.files[:LISTED]:
            how = "" if "edit" in change.kinds else " (" + ", ".join(change.kinds) + ")"
            table.add_row(
                _cell(change.path + how), _count(change.added, "+"), _count(change.removed, "-")
            )
        parts += [table, *_more(len(summary.files), "file")]
    if summary.commands:
        parts += [Text(""), _heading("Commands run", len(summary.commands))]
        listed = summary.commands[:LISTED]
        table = _marks_and_text(
            [_status(call) for call in listed], [_cell(call.target) for call in listed]
        )
        parts += [table, *_more(len(summary.commands), "command")]
    if summary.failed:
        parts += [Text(""), _heading("Failed or refused", len(summary.failed))]
        listed = summary.failed[:LISTED]
        marks = [Text(f"{STATUS_MARK.get(c.status, '•')} {safe(c.kind, 40).plain}") for c in listed]
        said = [_cell(f"{c.target or ''} — {c.summary or c.status}") for c in listed]
        parts += [_marks_and_text(marks, said), *_more(len(summary.failed), "call")]
    return Group(*parts)


class SummaryScreen(ModalScreen[None]):
    """The run summed up, over the viewer; escape or S closes it, q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,S", "dismiss", "Close summary", tooltip="close the summary"),
        # A modal screen hides the app's keys: q is bound here to quit as it does anywhere.
        Binding("q", "app.quit", "Quit", tooltip=QUIT_MEANING),
    ]

    def __init__(self, summary: RunSummary) -> None:
        super().__init__()
        self.summary = summary
        """What the screen shows."""

    def compose(self) -> ComposeResult:
        """The summary in a scrollable box."""
        with HelpBox(id="summary-box") as box:
            set_border_title(box, phrase("run summary"))
            set_border_subtitle(box, phrase("escape to close"))
            yield Static(summary_renderable(self.summary), id="summary-body", markup=False)
