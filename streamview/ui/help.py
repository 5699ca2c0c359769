"""The help screen: every key of the viewer, in one place."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "Anywhere",
        [
            ("q  ctrl+q", "quit (the run's exit status becomes streamview's)"),
            ("?", "this help"),
            ("ctrl+p", "command palette: every action by name"),
            ("tab  shift+tab", "move between the transcript and the tool calls"),
            ("l  e", "event log: malformed lines, unknown records, connection notices"),
            ("[  ]", "previous / next session, when the stream holds several"),
        ],
    ),
    (
        "Transcript",
        [
            ("↑ ↓  pgup pgdn", "scroll (scrolling up pauses follow mode)"),
            ("home  end", "top / bottom (end resumes follow mode)"),
            ("f", "follow the newest content on / off"),
            ("t", "show / hide thinking"),
            ("/", "search the transcript (enter to search, escape to close)"),
            ("n  N", "next / previous match"),
            ("escape", "clear the search highlights"),
        ],
    ),
    (
        "Tool calls",
        [
            ("↑ ↓  j k", "move the cursor"),
            ("pgup pgdn  home end", "page, first, last"),
            ("enter  click", "open the call: arguments, result, diff, output"),
            ("escape", "close the call's details or the event log"),
        ],
    ),
    (
        "Playback (a file) and run mode",
        [
            ("space", "play / pause (at the end: play again from the start)"),
            (",  .", "one event back / forward (pauses)"),
            ("<  >", "previous / next tool call"),
            ("0-9", "jump to 0%, 10% … 90% of the run's time"),
            ("+  -", "faster / slower"),
            ("r", "restart from the beginning"),
            ("x", "export a Markdown transcript and an SVG screenshot here"),
            ("ctrl+c", "run mode: stop the agent (again: harder); the viewer stays open"),
        ],
    ),
]
"""What the help screen lists: sections of ``(keys, what they do)``."""


def sections() -> list[tuple[str, list[tuple[str, str]]]]:
    """The sections of :data:`KEYS` (the playback, run-mode and export keys included)."""
    return list(KEYS)


def keys_table() -> Table:
    """The key list as a Rich table (no colours of its own: the screen's CSS styles it)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for number, (title, rows) in enumerate(sections()):
        if number:
            table.add_row("", "")
        table.add_row(Text(title, style="bold underline"), "")
        for keys, meaning in rows:
            table.add_row(keys, meaning)
    return table


class HelpScreen(ModalScreen[None]):
    """A modal list of keys; escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        """The key table in a scrollable box."""
        with VerticalScroll(id="help-box") as box:
            box.border_title = "streamview keys"
            box.border_subtitle = "escape to close"
            yield Static(keys_table(), id="help-keys")
