"""The help screen: every key of the viewer, in one place, made from its bindings
(:func:`streamview.ui.commands.viewer_help` makes the sections)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


@dataclass(frozen=True)
class HelpSection:
    """One group of the help screen: where the keys work, and ``(keys, meaning)`` rows."""

    title: str
    rows: list[tuple[str, str]]


def keys_table(sections: Sequence[HelpSection]) -> Table:
    """The key list as a Rich table (no colours of its own: the screen's CSS styles it)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for number, section in enumerate(sections):
        if number:
            table.add_row("", "")
        table.add_row(Text(section.title, style="bold underline"), "")
        for keys, meaning in section.rows:
            table.add_row(keys, meaning)
    return table


class HelpScreen(ModalScreen[None]):
    """A modal list of keys; escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        super().__init__()
        self.sections = list(sections)
        """What the screen lists (the viewer's, from its bindings)."""

    def compose(self) -> ComposeResult:
        """The key table in a scrollable box."""
        with VerticalScroll(id="help-box") as box:
            box.border_title = "streamview keys"
            box.border_subtitle = "escape to close"
            yield Static(keys_table(self.sections), id="help-keys")
