"""The sessions list: every run found, newest activity first, filtered as one types.

The runs come from an injected loader (``streamview sessions`` passes discovery; tests
pass a list), read in a thread so a large home does not hold up the first screen.
Enter ends the app with the chosen run; the caller opens it and starts a new list with
:attr:`SessionsApp.place`, so the list comes back filtered and on the same run.

Live runs say what they are doing now in the activity column (thinking, a tool on its
target and for how long, waiting for the person, idle, finished), from a
:class:`~streamview.runs.session_live.LiveTracker` polled every
:data:`LIVE_POLL_SECONDS`: only those rows are repainted. A run that finishes or starts
waiting for the person is marked (:data:`ATTENTION_MARK`, until the cursor is on it)
and rings the terminal bell once (``sessions_bell = false`` in the settings: none).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Footer, Input, Static

from streamview.config.settings import Settings
from streamview.core.sanitize import one_line
from streamview.runs.session_discovery import RunEntry
from streamview.runs.session_live import ATTENTION, Change, LiveState, LiveTracker, still_going
from streamview.sources.base import InputError
from streamview.ui.sessions.runs_table import RunsTable
from streamview.ui.text.safe_text import Safe, phrase, toast

DASH = "-"
"""What an unknown value is shown as."""
LIVE_MARK = "●"
"""The mark of a live run."""
ATTENTION_MARK = "◆"
"""The mark of a live run that finished or waits for the person since it was last
looked at (the cursor on its row clears it)."""
COLUMNS = ("", "agent", "project", "activity", "calls", "tokens", "size", "title")
MARK_COLUMN = 0
ACTIVITY_COLUMN = 3
"""Where a live run says what it is doing now (else when it last changed)."""
ACTIVITY_WIDTH = 30
"""Cells of the activity column at most (a longer state is cut)."""
ACTIVITY_SLACK = 4
"""Cells the activity column keeps beyond its widest state while a live run is shown
(a duration grows, another state is longer): the table is measured again at the next
reload, so a narrow terminal keeps room for the titles."""
LIVE_POLL_SECONDS = 0.5
"""How often the live runs' files are read for what they grew by."""
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
    live_only: bool = False
    """Only the live runs are shown."""


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


def activity_cell(
    entry: RunEntry, state: LiveState | None, now: float, marked: str = "bold"
) -> Text:
    """A live run's state (``shell: npm test 12s``, ``✓ finished``), else its last change;
    a state the person is told of (finished, waiting) in the ``marked`` style."""
    said = state.text(now, ACTIVITY_WIDTH) if entry.live and state is not None else ""
    if not said:
        return Text(activity_text(entry.last_activity), no_wrap=True)
    style = marked if state is not None and state.phase_at(now) in ATTENTION else ""
    return Text(one_line(said, ACTIVITY_WIDTH), style=style, no_wrap=True, overflow="ellipsis")


def mark_cell(entry: RunEntry, attention: bool, marked: str = "bold") -> Text:
    """``●`` live, ``◆`` live and finished or waiting since last looked at."""
    if not entry.live:
        return Text("")
    return Text(ATTENTION_MARK, style=marked) if attention else Text(LIVE_MARK)


def cells(
    entry: RunEntry,
    state: LiveState | None = None,
    now: float = 0.0,
    attention: bool = False,
    marked: str = "bold",
) -> list[Text]:
    """A run's row, the title last (a narrow terminal cuts it, not the numbers); every
    string from a file is cleaned and never read as markup."""
    project = entry.project or DASH
    if len(project) > PROJECT_WIDTH:  # the end of a path says the most
        project = "…" + project[-(PROJECT_WIDTH - 1) :]
    values = [
        "",
        entry.agent,
        project,
        activity_text(entry.last_activity),
        calls_text(entry),
        tokens_text(entry.tokens),
        size_text(entry.size),
        entry.title or DASH,
    ]
    row = [Text(one_line(value, 120), no_wrap=True) for value in values]
    row[MARK_COLUMN] = mark_cell(entry, attention, marked)
    row[ACTIVITY_COLUMN] = activity_cell(entry, state, now, marked)
    return row


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
        tracker: Keeps the live runs' states (one per list shown after another, so a
            run's past is not news again); ``None``: a new one.
        live_poll_seconds: How often the live runs' files are read (``None``: never).
        bell: Ring the bell when a run finishes or waits (``None``: as the settings say).
        attention: The runs marked (kept across the lists, like ``tracker``).
        places: Where the runs are looked for, one line each (``~/.claude/projects
            (Claude Code)``), named by the list when it finds none.
    """

    TITLE = "streamview sessions"
    CSS = """
    #filter { dock: top; border: none; height: 1; padding: 0 1; }
    #runs { height: 1fr; }
    #empty { height: auto; padding: 1 2; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "move(-10)", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("escape", "clear", "Clear filter"),
        Binding("ctrl+l", "live_only", "Live only"),
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
        tracker: LiveTracker | None = None,
        live_poll_seconds: float | None = LIVE_POLL_SECONDS,
        bell: bool | None = None,
        attention: set[Path] | None = None,
        places: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self._places = tuple(places)
        # Not ``tracker or ...``: a tracker with no run yet is falsy (``__len__``), and
        # the list after a viewer would start afresh and miss what happened meanwhile.
        self.tracker = tracker if tracker is not None else LiveTracker()
        self._live_poll_seconds = live_poll_seconds
        self.attention: set[Path] = attention if attention is not None else set()
        """Live runs that finished or wait since their row was last under the cursor."""
        self.rang = 0
        """Times the bell rang (once per run entering a state to be told of)."""
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
        self._rows: dict[RunEntry, tuple[list[Text], list[int]]] = {}
        """Each run's cells and their widths, kept while the run is unchanged."""
        if theme is not None:
            if theme not in self.available_themes:
                known = ", ".join(sorted(self.available_themes))
                raise InputError(f"unknown theme {theme!r} (known: {known})")
            self.theme = theme
        settings, _ = Settings.load()
        self.bell_on = settings.sessions_bell if bell is None else bell
        """A run that finishes or waits rings the bell."""
        if theme is None and settings.theme in self.available_themes:
            self.theme = settings.theme or self.theme  # the viewer's, so the two look alike

    def compose(self) -> ComposeResult:
        yield Input(
            value=self.place.filter,
            placeholder=PLACEHOLDER,
            id="filter",
        )
        yield Static("Finding runs…", id="empty", markup=False)  # why no run is shown
        yield RunsTable(COLUMNS, id="runs")  # keys go to the filter: up, down, enter
        yield Footer()

    def on_mount(self) -> None:
        """Focus the filter and start reading the runs."""
        self.query_one(Input).focus()
        self.action_reload()
        if self._refresh_seconds:
            self.set_interval(self._refresh_seconds, self.action_reload, name="find runs again")
        if self._live_poll_seconds:
            self.set_interval(self._live_poll_seconds, self._poll_live, name="read live runs")
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
        if not self._showing():
            return
        entries = [self._with_live(entry) for entry in entries]
        if self.loaded and entries == self.entries:
            return  # nothing changed: the table is left as it is
        self.entries = entries
        found = set(entries)
        self._rows = {entry: row for entry, row in self._rows.items() if entry in found}
        self.loaded = True
        self._fill()
        self._poll_live()

    def _showing(self) -> bool:
        """Whether the list is on screen: a reader thread's news that lands while the
        app closes (its table already gone) is dropped, not a ``NoMatches`` crash."""
        return self.is_running and bool(self.screen_stack) and bool(self.screen.query("#runs"))

    @property
    def table(self) -> RunsTable:
        """The runs' table."""
        return self.query_one("#runs", RunsTable)

    @property
    def marked(self) -> str:
        """The style of a run that needs the person: the theme's warning colour."""
        return self.current_theme.warning or "bold"

    def _with_live(self, entry: RunEntry) -> RunEntry:
        """A run followed that is still going (:func:`still_going`) stays live, though
        its file has been quiet longer than discovery's live window."""
        state = None if entry.live else self.tracker.state(entry.path)
        if state is not None and still_going(state, time.time()):
            return replace(entry, live=True)
        return entry

    def _fill(self) -> None:
        """Show the runs the filter lets through, the cursor on the place's run."""
        table = self.table
        self.shown = [
            entry
            for entry in self.entries
            if matches(entry, self.place.filter) and (entry.live or not self.place.live_only)
        ]
        now = time.time()
        made = [self._row(entry, now) for entry in self.shown]
        rows = [row for row, _ in made]
        # Widths from the rows, once per fill: the table never measures its cells.
        any_live = any(entry.live for entry in self.shown)
        widths = []
        for column, label in enumerate(COLUMNS):
            width = max([len(label), *(sizes[column] for _, sizes in made)])
            if column == ACTIVITY_COLUMN and any_live:  # room for a state as it changes
                width = min(ACTIVITY_WIDTH, width + ACTIVITY_SLACK)
            widths.append(width)
        keys = [str(entry.path) for entry in self.shown]
        table.set_rows(keys, rows, widths)
        row = keys.index(self.place.path) if self.place.path in keys else 0
        if self.shown:
            table.move_cursor(row)
            self._remember()
        self._say_why_empty()

    def why_empty(self) -> list[Safe]:
        """What the list says in place of its rows when it shows none (nothing when it
        shows some): no run found and where it looked, or the filter that hides them."""
        if self.shown:
            return []
        if not self.entries:
            lines = [phrase("No runs found. streamview sessions looked in:")]
            lines += [phrase("  {place}", place=place) for place in self._places]
            lines.append(phrase("A folder of NDJSON files, one per run: --dir DIR."))
            return lines
        if self.place.filter.strip():
            live = " live" if self.place.live_only else ""
            said = phrase(
                "No{live} run matches “{text}” (esc clears the filter).",
                live=live,
                text=self.place.filter.strip(),
            )
            return [said]
        return [phrase("No live run now (ctrl+l: every run).")]

    def _say_why_empty(self) -> None:
        lines = self.why_empty()
        empty = self.query_one("#empty", Static)
        empty.update(Content("\n").join(line.content for line in lines))
        empty.display = bool(lines)
        self.table.display = not lines  # a header over no rows says nothing

    def _row(self, entry: RunEntry, now: float) -> tuple[list[Text], list[int]]:
        """A run's cells and their widths: made once per run as found (typing in the
        filter over 2,000 runs made them all again, 100 ms a key); a live run's mark
        and activity afresh."""
        kept = self._rows.get(entry)
        if kept is None:
            row = cells(entry)
            kept = self._rows[entry] = (row, [cell.cell_len for cell in row])
        if not entry.live:
            return kept
        row, sizes = list(kept[0]), list(kept[1])
        state = self.tracker.state(entry.path)
        row[MARK_COLUMN] = mark_cell(entry, entry.path in self.attention, self.marked)
        row[ACTIVITY_COLUMN] = activity_cell(entry, state, now, self.marked)
        sizes[MARK_COLUMN] = row[MARK_COLUMN].cell_len
        sizes[ACTIVITY_COLUMN] = row[ACTIVITY_COLUMN].cell_len
        return row, sizes

    def _remember(self) -> None:
        row = self.table.cursor_row
        path = str(self.shown[row].path) if 0 <= row < len(self.shown) else self.place.path
        self.place = replace(self.place, path=path)

    def _looked_at(self) -> None:
        """The person moved onto a run: its mark of news is cleared."""
        row = self.table.cursor_row
        if 0 <= row < len(self.shown) and self.shown[row].path in self.attention:
            self.attention.discard(self.shown[row].path)
            self._paint(self.shown[row], time.time())

    def _poll_live(self) -> None:
        if self._live_poll_seconds is not None and self.loaded:
            paths = [entry.path for entry in self.entries if entry.live]
            if paths or len(self.tracker):  # nothing live, nothing followed: no thread
                self._read_live(paths)

    @work(thread=True, exclusive=True, group="live", name="read live runs")
    def _read_live(self, paths: list[Path]) -> None:
        changes = self.tracker.poll(paths)
        self.call_from_thread(self._show_live, changes)

    def _show_live(self, changes: list[Change]) -> None:
        """Repaint the live rows; mark (and ring for) the runs that finished or wait."""
        if not self._showing():
            return
        now = time.time()
        for change in changes:
            self.attention.add(change.path)
        if changes and self.bell_on:
            self.rang += 1
            self.bell()  # once per poll, however many runs changed at once
        widest = 0
        for entry in self.shown:
            if not entry.live:
                continue
            state = self.tracker.state(entry.path)
            if state is not None and state.phase_at(now) not in ATTENTION:
                self.attention.discard(entry.path)  # at work again
            widest = max(widest, self._paint(entry, now))
        if self.table.widths[ACTIVITY_COLUMN] < min(widest, ACTIVITY_WIDTH):
            self._fill()  # a longer state than the column has room for: measured again

    def _paint(self, entry: RunEntry, now: float) -> int:
        """Repaint a live run's mark and activity cells; the activity's width."""
        state = self.tracker.state(entry.path)
        attention = entry.path in self.attention
        activity = activity_cell(entry, state, now, self.marked)
        mark = mark_cell(entry, attention, self.marked)
        cells = {MARK_COLUMN: mark, ACTIVITY_COLUMN: activity}
        return activity.cell_len if self.table.update_cells(str(entry.path), cells) else 0

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typing filters the list (the run under the cursor stays chosen if shown)."""
        self.place = replace(self.place, filter=event.value)
        if self.loaded:
            self._fill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter opens the run under the cursor."""
        event.stop()
        self.action_open()

    def on_runs_table_highlighted(self, event: RunsTable.Highlighted) -> None:
        """Keep the place on the run under the cursor (a click moves it too)."""
        self._remember()

    def on_runs_table_selected(self, event: RunsTable.Selected) -> None:
        """A clicked row opens."""
        self.action_open()

    def action_move(self, rows: int) -> None:
        """Move the cursor ``rows`` down (up when negative)."""
        table = self.table
        if self.shown:
            table.move_cursor(max(0, min(len(self.shown) - 1, table.cursor_row + rows)))
            self._remember()
            self._looked_at()

    def action_live_only(self) -> None:
        """Show only the live runs, or every run again."""
        self.place = replace(self.place, live_only=not self.place.live_only)
        if self.loaded:
            self._fill()
        said = "only live runs" if self.place.live_only else "every run"
        toast(self, phrase("{what} (ctrl+l again: back)", what=said), timeout=2)

    def action_clear(self) -> None:
        """Escape clears the filter."""
        self.query_one(Input).value = ""

    def action_open(self) -> None:
        """End the list with the run under the cursor (the caller opens it)."""
        row = self.table.cursor_row
        if 0 <= row < len(self.shown):
            self._remember()
            self.attention.discard(self.shown[row].path)  # looked at
            self.exit(self.shown[row])
