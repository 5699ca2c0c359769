"""The sessions list: every run found, newest activity first, filtered as one types.

The runs come from an injected loader (``streamview sessions`` passes discovery; tests
pass a list), read in a thread so a large home does not hold up the first screen.
Enter ends the app with the chosen run; the caller opens it and starts a new list with
:attr:`SessionsApp.place`, so the list comes back filtered and on the same run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Input

from streamview.config.settings import Settings
from streamview.core.sanitize import one_line
from streamview.runs.session_discovery import RunEntry
from streamview.sources.base import InputError
from streamview.ui.text.safe_text import phrase, toast

DASH = "-"
"""What an unknown value is shown as."""
LIVE_MARK = "●"
"""The mark of a live run."""
COLUMNS = ("", "agent", "project", "last activity", "calls", "tokens", "size", "title")
PROJECT_WIDTH = 28
"""Characters of a project's folder shown."""
REFRESH_SECONDS = 3.0
"""How often the list finds the runs again (their live marks, new runs)."""
PLACEHOLDER = "type to filter (agent, project, title) · ↑↓ move · enter opens · esc clears"


@dataclass(frozen=True)
class Place:
    """Where the list was left: its filter and the run under the cursor."""

    filter: str = ""
    path: str | None = None


def matches(entry: RunEntry, text: str) -> bool:
    """Whether every word of ``text`` is in the run's agent, project, title or path."""
    haystack = " ".join(
        part or "" for part in (entry.agent, entry.project, entry.title, str(entry.path))
    ).lower()
    return all(word in haystack for word in text.lower().split())


def size_text(size: int) -> str:
    """``532 B``, ``12 KB``, ``3.4 MB``."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def activity_text(seconds: float, now: datetime | None = None) -> str:
    """When a run was last active, as short as is clear: ``14:05`` today, ``11-02 09:30``
    this year, ``2025-11-02`` before."""
    when = datetime.fromtimestamp(seconds)
    now = now or datetime.now()
    if when.date() == now.date():
        return when.strftime("%H:%M")
    if when.year == now.year:
        return when.strftime("%m-%d %H:%M")
    return when.strftime("%Y-%m-%d")


def tokens_text(tokens: int | None) -> str:
    """``950``, ``3.5k``, ``1.2M``; a dash when not known."""
    if tokens is None:
        return DASH
    if tokens < 1000:
        return str(tokens)
    if tokens < 1_000_000:
        return f"{tokens / 1000:.1f}k"
    return f"{tokens / 1_000_000:.1f}M"


def calls_text(entry: RunEntry) -> str:
    """``12``, ``12 ✗2`` with failed calls, a dash when not known."""
    if entry.calls is None:
        return DASH
    return f"{entry.calls} ✗{entry.errors}" if entry.errors else str(entry.calls)


def cells(entry: RunEntry) -> list[Text]:
    """A run's row, the title last (a narrow terminal cuts it, not the numbers); every
    string from a file is cleaned and never read as markup."""
    project = entry.project or DASH
    if len(project) > PROJECT_WIDTH:  # the end of a path says the most
        project = "…" + project[-(PROJECT_WIDTH - 1) :]
    values = [
        LIVE_MARK if entry.live else "",
        entry.agent,
        project,
        activity_text(entry.last_activity),
        calls_text(entry),
        tokens_text(entry.tokens),
        size_text(entry.size),
        entry.title or DASH,
    ]
    return [Text(one_line(value, 120), no_wrap=True) for value in values]


class SessionsApp(App[RunEntry | None]):
    """Every run, newest activity first; typing filters, Enter opens one.

    Raises:
        InputError: An unknown theme.

    Args:
        load: Finds the runs (called in a thread, again on ctrl+r).
        place: Where a previous list was left (its filter and run).
        theme: A Textual theme name (``None``: the one the viewer remembers).
        note: Why the run chosen last could not be opened (a toast says it).
        refresh_seconds: How often the runs are found again (``None``: only on ctrl+r).
    """

    TITLE = "streamview sessions"
    CSS = """
    #filter { dock: top; border: none; height: 1; padding: 0 1; }
    #runs { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "move(-10)", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("escape", "clear", "Clear filter"),
        Binding("ctrl+r", "reload", "Reload"),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(
        self,
        load: Callable[[], Sequence[RunEntry]],
        place: Place | None = None,
        theme: str | None = None,
        note: str | None = None,
        refresh_seconds: float | None = REFRESH_SECONDS,
    ) -> None:
        super().__init__()
        self._note = note
        self._refresh_seconds = refresh_seconds
        self._load = load
        self.place = place or Place()
        """Where the list is: kept up to date for the next list after the viewer."""
        self.entries: list[RunEntry] = []
        """Every run found."""
        self.shown: list[RunEntry] = []
        """The runs the filter lets through, in the table's order."""
        self.loaded = False
        if theme is not None:
            if theme not in self.available_themes:
                known = ", ".join(sorted(self.available_themes))
                raise InputError(f"unknown theme {theme!r} (known: {known})")
            self.theme = theme
        else:  # the viewer's remembered theme, so that the two look alike
            settings, _ = Settings.load()
            if settings.theme in self.available_themes:
                self.theme = settings.theme or self.theme

    def compose(self) -> ComposeResult:
        yield Input(
            value=self.place.filter,
            placeholder=PLACEHOLDER,
            id="filter",
        )
        table: DataTable[Text] = DataTable(id="runs", cursor_type="row", zebra_stripes=True)
        table.add_columns(*COLUMNS)
        table.can_focus = False  # keys go to the filter; up, down and enter move and open
        yield table
        yield Footer()

    def on_mount(self) -> None:
        """Focus the filter and start reading the runs."""
        self.query_one(Input).focus()
        self.action_reload()
        if self._refresh_seconds:
            self.set_interval(self._refresh_seconds, self.action_reload, name="find runs again")
        if self._note is not None:
            toast(self, phrase("cannot open it: {why}", why=self._note), severity="error")

    def action_reload(self) -> None:
        """Find the runs again."""
        self._find()

    @work(thread=True, exclusive=True, name="find runs")
    def _find(self) -> None:
        entries = list(self._load())
        self.call_from_thread(self._show_found, entries)

    def _show_found(self, entries: list[RunEntry]) -> None:
        if self.loaded and entries == self.entries:
            return  # nothing changed: the table is left as it is
        self.entries = entries
        self.loaded = True
        self._fill()
        if not entries:
            toast(self, phrase("no runs found (streamview sessions --help says where it looks)"))

    @property
    def table(self) -> DataTable[Text]:
        """The runs' table."""
        return self.query_one("#runs", DataTable)

    def _fill(self) -> None:
        """Show the runs the filter lets through, the cursor on the place's run."""
        table = self.table
        self.shown = [entry for entry in self.entries if matches(entry, self.place.filter)]
        rows = [cells(entry) for entry in self.shown]
        # Widths set here: measured on idle, a list opened again after the viewer kept
        # its columns as wide as their labels (seen in tmux).
        table.clear(columns=True)
        for column, label in enumerate(COLUMNS):
            width = max([len(label), *(row[column].cell_len for row in rows)])
            table.add_column(label, width=width)
        row = 0
        for index, (entry, row_cells) in enumerate(zip(self.shown, rows, strict=True)):
            table.add_row(*row_cells, key=str(entry.path))
            if str(entry.path) == self.place.path:
                row = index
        if self.shown:
            table.move_cursor(row=row)
            self._remember()

    def _remember(self) -> None:
        row = self.table.cursor_row
        path = str(self.shown[row].path) if 0 <= row < len(self.shown) else self.place.path
        self.place = Place(self.place.filter, path)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typing filters the list (the run under the cursor stays chosen if shown)."""
        self.place = Place(event.value, self.place.path)
        if self.loaded:
            self._fill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter opens the run under the cursor."""
        event.stop()
        self.action_open()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Keep the place on the run under the cursor (a click moves it too)."""
        self._remember()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """A clicked row opens."""
        self.action_open()

    def action_move(self, rows: int) -> None:
        """Move the cursor ``rows`` down (up when negative)."""
        table = self.table
        if self.shown:
            table.move_cursor(row=max(0, min(len(self.shown) - 1, table.cursor_row + rows)))
            self._remember()

    def action_clear(self) -> None:
        """Escape clears the filter."""
        self.query_one(Input).value = ""

    def action_open(self) -> None:
        """End the list with the run under the cursor (the caller opens it)."""
        row = self.table.cursor_row
        if 0 <= row < len(self.shown):
            self._remember()
            self.exit(self.shown[row])
