"""The help screen: every key of the viewer, in one place, made from its bindings
(:func:`streamview.ui.frame.commands.viewer_help` makes the sections)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from streamview.ui.frame.keys import QUIT_MEANING
from streamview.ui.text.safe_text import phrase, set_border_subtitle, set_border_title


@dataclass(frozen=True)
class HelpSection:
    """One group of the help screen: where the keys work, and ``(keys, meaning)`` rows."""

    title: str
    rows: list[tuple[str, str]]


def keys_table(sections: Sequence[HelpSection]) -> Group:
    """The key list as Rich renderables (no colours of its own: the screen's CSS styles
    it): each section's title on a line of its own, then its keys, the key column as wide
    as the widest keys of all sections so the meanings line up."""
    key_width = max((cell_len(keys) for s in sections for keys, _ in s.rows), default=1)
    parts: list[RenderableType] = []
    for number, section in enumerate(sections):
        if number:
            parts.append(Text(""))
        parts.append(Text(section.title, style="bold underline"))
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True, style="bold", width=key_width)
        table.add_column()
        for keys, meaning in section.rows:
            table.add_row(keys, meaning)
        parts.append(table)
    return Group(*parts)


class HelpBox(VerticalScroll):
    """The help's scrolling box: PgUp and PgDn jump a page at once, as everywhere in
    the viewer (Textual's box glides)."""

    def action_page_up(self) -> None:
        """Up a page at once."""
        self.scroll_page_up(animate=False)

    def action_page_down(self) -> None:
        """Down a page at once."""
        self.scroll_page_down(animate=False)


class HelpScreen(ModalScreen[None]):
    """A modal list of keys; escape or ? closes it, q quits as it does everywhere."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark", "dismiss", "Close help", tooltip="close this help"),
        # A modal screen hides the app's keys: q is bound here to quit as it does anywhere.
        Binding("q", "app.quit", "Quit", tooltip=QUIT_MEANING),
    ]

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        super().__init__()
        self.sections = list(sections)
        """What the screen lists (the viewer's, from its bindings)."""

    def compose(self) -> ComposeResult:
        """The key table in a scrollable box."""
        with HelpBox(id="help-box") as box:
            set_border_title(box, phrase("streamview keys"))
            set_border_subtitle(box, phrase("escape to close"))
            yield Static(keys_table(self.sections), id="help-keys", markup=False)
