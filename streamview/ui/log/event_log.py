"""Everything in the stream that was not a normal event: bad lines, unknown records,
connection and retry notices, and what the agent says about its own work (hooks, rate
limits, compaction, tasks: each with what it means), in line order.

The list is a virtual Line-API widget (a broken producer can emit thousands of bad
lines); each row shows a one-line, sanitized preview, and Enter opens the whole line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson
from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Footer, Static

from streamview.core.events import (
    AgentNotice,
    ConnectionNotice,
    Event,
    MalformedLine,
    UnknownRecord,
)
from streamview.core.linestore import LineStore
from streamview.core.notices import record_name
from streamview.core.sanitize import one_line
from streamview.core.state import StreamState, describe_notice
from streamview.ui.calls.columns import fit_end
from streamview.ui.details.screen import SectionScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.details.sections import Section, fields, plain, raw_json
from streamview.ui.text.capping import SHOW_ALL_KEY
from streamview.ui.text.row_cursor import RowCursorView, cursor_bindings

MALFORMED = "malformed"
UNKNOWN = "unknown"
NOTICE = "notice"
PREVIEW_BYTES = 4_000
"""Bytes of a line decoded for its one-line preview (the rest is shown on Enter)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the event log."""

    line: int
    """Line number in the input."""
    kind: str
    """``malformed``, ``unknown`` or ``notice``."""
    label: str
    """Why the line is here: the parse error, the record's type, the notice."""
    event: Event
    """The event itself, for the preview and the full view."""

    @property
    def preview(self) -> str:
        """The line's start, sanitized, on one line.

        Computed when a row is drawn (only rows on screen are), not for every entry:
        100,000 bad lines of 3 KB took 1.7 s to preview up front.
        """
        event = self.event
        if isinstance(event, MalformedLine):
            return one_line(event.raw[:PREVIEW_BYTES].decode("utf-8", "replace"), 1_000)
        if isinstance(event, UnknownRecord):
            try:
                data = orjson.dumps(event.record)[:PREVIEW_BYTES]
            except TypeError:
                return ""
            return one_line(data.decode("utf-8", "replace"), 1_000)
        if isinstance(event, ConnectionNotice):
            return one_line(event.detail or "", 1_000)
        if isinstance(event, AgentNotice):
            return one_line(record_name(event), 200)
        return ""


def entry_for(event: Event) -> LogEntry:
    """The log entry of a malformed line, an unknown record or a notice."""
    if isinstance(event, MalformedLine):
        return LogEntry(event.line, MALFORMED, one_line(event.reason, 200), event)
    if isinstance(event, UnknownRecord):
        name = event.type + (f"/{event.subtype}" if event.subtype else "")
        return LogEntry(event.line, UNKNOWN, one_line(name, 200), event)
    label = describe_notice(event)
    if isinstance(event, ConnectionNotice):
        label = f"{event.type}/{event.subtype}" + (
            f" (attempt {event.attempt})" if event.attempt is not None else ""
        )
    return LogEntry(event.line, NOTICE, one_line(label, 200), event)


def _by_line(event: Event) -> int:
    return event.line


def log_entries(state: StreamState) -> list[LogEntry]:
    """Every malformed line, unknown record and notice of ``state``, in line order."""
    events: list[Event] = [*state.malformed, *state.unknown, *state.notices]
    events.sort(key=_by_line)
    return [entry_for(event) for event in events]


class EntryFollower:
    """Keeps a log's entries up to date with a growing state, adding only what is new."""

    def __init__(self, state: StreamState) -> None:
        """Start with every entry ``state`` has now."""
        self.state = state
        self.entries: list[LogEntry] = log_entries(state)
        self._taken = self._sizes()

    def _sizes(self) -> tuple[int, int, int]:
        state = self.state
        return (len(state.malformed), len(state.unknown), len(state.notices))

    def update(self) -> bool:
        """Take in entries added since the last call; say whether there were any.

        New entries usually come after the old ones (appended); if not, or if the
        state was rebuilt with fewer entries, the list is built again.
        """
        sizes = self._sizes()
        if sizes == self._taken:
            return False
        state = self.state
        malformed, unknown, notices = self._taken
        if any(now < before for now, before in zip(sizes, self._taken, strict=True)):
            self.entries = log_entries(state)
        else:
            events: list[Event] = [
                *state.malformed[malformed:],
                *state.unknown[unknown:],
                *state.notices[notices:],
            ]
            events.sort(key=_by_line)
            fresh = [entry_for(event) for event in events]
            if self.entries and fresh and fresh[0].line < self.entries[-1].line:
                self.entries = sorted([*self.entries, *fresh], key=lambda entry: entry.line)
            else:
                self.entries.extend(fresh)
        self._taken = sizes
        return True


def describe_counts(state: StreamState) -> str:
    """``3 malformed lines · 1 unknown record · 2 notices (of 1,204 lines)``."""

    def plural(count: int, word: str) -> str:
        return f"{count:,} {word}{'' if count == 1 else 's'}"

    return (
        f"{plural(len(state.malformed), 'malformed line')} · "
        f"{plural(len(state.unknown), 'unknown record')} · "
        f"{plural(len(state.notices), 'notice')}"
        f"  (of {plural(state.counts.total, 'line')})"
    )


class EventLogList(RowCursorView):
    """A virtual list of log entries: line, kind, reason and a preview of the line."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "event-log--header",
        "event-log--cursor",
        "event-log--line",
        "event-log--malformed",
        "event-log--unknown",
        "event-log--notice",
        "event-log--preview",
        "event-log--empty",
        "event-log--hover",
    }
    """Component classes: styled in ``streamview.tcss``."""
    HOVER_CLASS = "event-log--hover"

    BINDINGS: ClassVar[list[BindingType]] = [
        *cursor_bindings("entry", "entries"),
        Binding("enter", "open", "Show line", tooltip="open the line: its raw text in full"),
    ]

    @dataclass
    class Open(Message):
        """The user asked to see an entry's whole line."""

        entry: LogEntry
        """The entry to show."""

    def __init__(self, entries: Sequence[LogEntry] = (), *, id: str | None = None) -> None:
        """Create the list.

        Args:
            entries: The entries, in line order.
            id: The widget's id.
        """
        super().__init__(id=id)
        self.entries: Sequence[LogEntry] = entries
        self.cursor = 0 if entries else None
        self._strips: LRUCache[int, Strip] = LRUCache(2_000)
        self._strip_width = -1

    def set_entries(self, entries: Sequence[LogEntry]) -> None:
        """Show ``entries`` (the cursor stays where it was when it can)."""
        self.entries = entries
        self.cursor = min(self.cursor or 0, len(entries) - 1) if entries else None
        self._strips.clear()
        self._update_virtual_size()
        self.refresh()

    def on_mount(self) -> None:
        """Size the scroll area for the entries."""
        self._update_virtual_size()

    def on_resize(self, event: events.Resize) -> None:
        """Re-render for the new width."""
        self._update_virtual_size()

    def notify_style_update(self) -> None:
        """The theme changed: rendered rows are stale."""
        super().notify_style_update()
        self._strips.clear()

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.entries) + 1)

    def _style(self, name: str) -> Any:
        return self.get_component_rich_style(name, partial=True)

    def render_line(self, y: int) -> Strip:
        """Line 0 is the header; rows follow."""
        width = self.scrollable_content_region.width
        if width != self._strip_width:
            self._strips.clear()
            self._strip_width = width
        base = self.rich_style
        digits = max(4, len(str(self.entries[-1].line)) if self.entries else 4)
        label_width = min(36, max(12, width // 3))
        if y == 0:
            text = f" {'line':>{digits}}  {'kind':<9}  {'what':<{label_width}}  the line"
            return Strip([Segment(fit_end(text, width), base + self._style("event-log--header"))])
        index = round(self.scroll_offset.y) + y - 1
        if not 0 <= index < len(self.entries):
            if index == 0:
                text = fit_end(" nothing unusual in this stream", width)
                return Strip([Segment(text, base + self._style("event-log--empty"))])
            return Strip.blank(width, base)
        is_cursor = index == self.cursor
        cached = None if is_cursor else self._strips.get(index)
        if cached is not None:
            return self.hovered(cached, index)
        entry = self.entries[index]
        over = self._style("event-log--cursor") if is_cursor else None

        def style(name: str) -> Any:
            cell = base + self._style(name)
            return cell + over if over is not None else cell

        cells = [
            (f" {entry.line:>{digits}}  ", style("event-log--line")),
            (f"{entry.kind:<9}  ", style(f"event-log--{entry.kind}")),
            (fit_end(entry.label, label_width) + "  ", style(f"event-log--{entry.kind}")),
        ]
        used = sum(cell_len(text) for text, _ in cells)
        cells.append((fit_end(entry.preview, max(width - used, 0)), style("event-log--preview")))
        segments = [Segment(text, cell_style) for text, cell_style in cells]
        strip = Strip(segments).crop_extend(0, width, base + over if over is not None else base)
        if not is_cursor:
            self._strips.set(index, strip)
            return self.hovered(strip, index)
        return strip

    @property
    def row_count(self) -> int:
        """One row per entry."""
        return len(self.entries)

    def open_row(self, index: int) -> None:
        """Ask to see entry ``index`` whole."""
        self.post_message(self.Open(self.entries[index]))


class EventLogScreen(Screen[None]):
    """Malformed lines, unknown records and notices, with counts on top."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", tooltip="back to the viewer"),
    ]
    PALETTE_TITLES: ClassVar[dict[str, str]] = {"close": "Close event log"}
    """The palette's name of escape here (the footer says "Close")."""

    def __init__(self, state: StreamState, store: LineStore | None) -> None:
        """Create the screen.

        Args:
            state: The stream's state (its ``malformed``, ``unknown`` and ``notices``).
            store: Where whole lines can be read back, if anywhere.
        """
        super().__init__()
        self.state = state
        self.store = store
        self._follower = EntryFollower(state)
        self._total = state.counts.total

    def compose(self) -> ComposeResult:
        """Counts, the list, the footer."""
        yield Static(describe_counts(self.state), id="event-log-counts", markup=False)
        yield EventLogList(self._follower.entries, id="event-log-list")
        yield Footer()

    def on_mount(self) -> None:
        """Keep up with a live stream: look for new entries twice a second."""
        self.set_interval(0.5, self.refresh_entries, name="watch event log")

    def refresh_entries(self) -> None:
        """The stream went on: show the entries and counts as they are now."""
        total = self.state.counts.total
        if total != self._total:
            self._total = total
            self.query_one("#event-log-counts", Static).update(describe_counts(self.state))
        if self._follower.update():
            self.query_one(EventLogList).set_entries(self._follower.entries)

    def on_event_log_list_open(self, message: EventLogList.Open) -> None:
        """Show one entry's whole line."""
        self.app.push_screen(EventEntryScreen(message.entry, self.store))

    def action_close(self) -> None:
        """Back to the viewer."""
        self.dismiss()


def entry_sections(entry: LogEntry, store: LineStore | None, full: bool = False) -> list[Section]:
    """Everything about one log entry: what it is, and the whole line."""
    event = entry.event
    facts = fields([("line", entry.line), ("kind", entry.kind), ("what", Text(entry.label))])
    sections = [Section("entry", facts)]
    data = store.get(entry.line) if store is not None else None
    if isinstance(event, MalformedLine):
        raw = data if data is not None else event.raw
        size = f"{event.raw_size:,} bytes"
        if data is None and event.raw_size > len(event.raw):
            size += f" (the first {len(event.raw):,} kept)"
        sections.append(Section("size", Text(size)))
        body, cut = plain(raw.decode("utf-8", "replace"), full)
        sections.append(Section("the line (control characters shown as symbols)", body, cut))
        return sections
    if isinstance(event, UnknownRecord):
        sections.append(raw_json(event.record, full))
        return sections
    record: Any = None
    if data is not None:
        try:
            record = orjson.loads(data)
        except orjson.JSONDecodeError:
            record = None
    if record is None and isinstance(event, ConnectionNotice):
        record = {
            "type": event.type,
            "subtype": event.subtype,
            "attempt": event.attempt,
            "detail": event.detail,
        }
    if record is not None:
        sections.append(raw_json(record, full))
    return sections


class EventEntryScreen(SectionScreen):
    """One event-log entry in full: the whole malformed line, or the whole record."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", tooltip="back to the event log"),
        Binding(SHOW_ALL_KEY, "show_all", "Show all", tooltip="show a long line in full (not cut)"),
    ]
    LOADING_ID = "event-entry-loading"
    PALETTE_TITLES: ClassVar[dict[str, str]] = {
        "close": "Close the line",
        "show_all": "Show the whole line",
        "copy": "Copy from the line",
    }
    """The palette's names of the keys whose footer word is short."""

    def __init__(self, entry: LogEntry, store: LineStore | None) -> None:
        """Create the screen for ``entry``, reading its whole line from ``store``."""
        super().__init__(store)
        self.entry = entry

    def compose(self) -> ComposeResult:
        """Title, body (loading at first), footer."""
        title = f"line {self.entry.line} · {self.entry.kind} · {self.entry.label}"
        yield Static(title, id="event-entry-title", markup=False)
        yield self.loading_line()
        yield SectionView(id="event-entry-body", named="the line")
        yield Footer()

    def on_mount(self) -> None:
        """Load the entry."""
        self.load()

    def build_sections(self) -> list[Section]:
        """The whole line, laid out (capped unless "show all")."""
        return entry_sections(self.entry, self.store, self.full)
