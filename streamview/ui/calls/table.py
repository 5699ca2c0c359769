"""The tool-call table: one row per call of a session, for any number of calls.

A virtual table on Textual's Line API. Only the rows on screen are rendered, and each
rendered row is cached as a :class:`~textual.strip.Strip` until that call changes, the
width changes or the theme changes, so a session with 100,000 calls opens at once and
a completed call repaints in about a millisecond. ``DataTable`` cannot do this: it
took 16 s to add 100,000 rows and ~340 ms per later update.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

import streamview.core.call_reading as reading
from streamview.core import formatting, tools
from streamview.core.formatting import STATUS_MARK, format_clock, format_duration, format_offset
from streamview.core.sanitize import one_line
from streamview.core.state import Session, ToolCall
from streamview.ui.calls.columns import GAP, Columns, fit_end, fit_middle
from streamview.ui.calls.filter import CallFilter
from streamview.ui.calls.keys import TABLE_BINDINGS, TableKeys

CACHED_ROWS = 2_000
"""Rendered rows kept; enough for any screen, bounded however far the user scrolls."""


class ToolCallTable(TableKeys):
    """A session's tool calls: number, kind, target, status, duration, result.

    The header row stays on top while the rows scroll under it. Feed it with
    :meth:`show_session`, then :meth:`refresh_calls` as calls start and complete,
    and :meth:`tick` once a second so running calls show how long they have run.
    """

    input_ended = False
    """The input ended before any session began: nothing is coming (set by the app)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *(f"tool-table--{part}" for part in ("header", "cursor", "index", "kind", "target")),
        *(f"tool-table--{part}" for part in ("duration", "summary", "empty", "hover")),
        *(f"tool-table--{status}" for status in tools.STATUSES),  # a row's status mark
    }
    """Component classes: styled in ``streamview.tcss`` so colours follow the theme."""
    HOVER_CLASS = "tool-table--hover"

    BINDINGS: ClassVar[list[BindingType]] = TABLE_BINDINGS

    class FilterChanged(Message):
        """The filter changed: the pane's title says what is shown."""

    @dataclass
    class OpenDetail(Message):
        """The user asked to see a call in full (Enter, or a click on its row)."""

        call_index: int
        """Index of the call in the session's ``tool_calls``."""

    @dataclass
    class Highlighted(Message):
        """The cursor moved to another call."""

        call_index: int
        """Index of the call under the cursor in the session's ``tool_calls``."""

    def __init__(
        self,
        session: Session | None = None,
        *,
        now_ms: int | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """Create the table.

        Args:
            session: The session to show first, if any.
            now_ms: The time (epoch ms) running calls measure their elapsed time to.
            name: The widget's name.
            id: The widget's id.
            classes: Space-separated CSS classes.
        """
        super().__init__(name=name, id=id, classes=classes)
        self._session: Session | None = None
        self._calls: Sequence[ToolCall] = []
        """The calls shown, in order (all of the session's when no filter is set)."""
        self._rows_taken = 0
        """Rows taken in: ``_calls`` may be the session's own list, which the fold grows
        before :meth:`refresh_calls` is told (a resize in between must not hide them)."""
        self.call_filter = CallFilter()
        self.wall_clock = False
        """Start times as the wall clock (``14:03:22``), not offsets (``+1:23``)."""
        self.cursor: int | None = None
        self.following = True
        """The cursor rides on the newest call as calls arrive: until the person moves
        it in the table (End there, or the transcript following again, resumes it).
        The app sets it as it shows a session: off for a finished file."""
        self._place: int | None = None
        """The call the cursor was put on (a call index): a filter that hides it and is
        cleared again brings the cursor back to it."""
        self._now_ms = now_ms
        self._running_rows: set[int] = set()
        self._cache: LRUCache[int, Strip] = LRUCache(CACHED_ROWS)
        self._cache_width = -1
        self._columns: Columns | None = None
        self._kind_cells = 4
        """Cells the longest kind shown so far needs (the column only grows)."""
        self._timed = False
        """Some call shown so far has a start time (else no start and time columns)."""
        if session is not None:
            self.show_session(session)

    # -- public API -----------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """The session on show."""
        return self._session

    @property
    def cursor_call(self) -> int | None:
        """Index (in the session) of the call under the cursor; ``None`` when none."""
        if self.cursor is None or not 0 <= self.cursor < len(self._calls):
            return None
        return reading.place_of(self._calls, self.cursor)

    @property
    def total_calls(self) -> int:
        """Calls in the session, shown or filtered out."""
        return len(self._session.tool_calls) if self._session is not None else 0

    def set_filter(self, call_filter: CallFilter) -> None:
        """Show only the calls ``call_filter`` lets through; the cursor stays on its call."""
        self.call_filter = call_filter
        self._apply_filter()
        self.post_message(self.FilterChanged())

    def _apply_filter(self) -> None:
        if self._place is None:
            self._place = self.cursor_call
        place = self._place
        live = self._session is not None and not self._session.finished
        calls: Sequence[ToolCall] = self._session.tool_calls if self._session is not None else []
        if self.call_filter.active or self.call_filter.reordered:
            calls = self.call_filter.arrange(calls)
        self._calls = calls
        self._rows_taken = len(calls)
        self._running_rows = reading.running_rows(calls)
        if not calls:
            self.cursor = None
        elif self.following and live:
            self.cursor = self._newest_row()
        elif place is None:
            self.cursor = 0
        else:
            # The call it was on, else the nearest one shown (the place is kept).
            self.cursor = reading.nearest_row(calls, place)
        self._clear_cache()
        self._update_virtual_size()
        if self.is_mounted:
            self.scroll_to_cursor()
            self.refresh()
        self._post_highlighted()

    @property
    def row_count(self) -> int:
        """How many calls the table shows."""
        return len(self._calls)

    def show_session(self, session: Session | None) -> None:
        """Show another session's calls (or none), with the cursor on its first call
        (the app then says whether it follows the newest call: :meth:`follow_newest`).

        Showing the session already on show keeps the cursor, like :meth:`refresh_calls`.
        """
        if session is self._session and session is not None:
            self.refresh_calls(range(len(session.tool_calls)))
            return
        self._session = session
        self._calls = session.tool_calls if session is not None else []
        if self.call_filter.active or self.call_filter.reordered:
            self._calls = self.call_filter.arrange(self._calls)
        self._rows_taken = len(self._calls)
        self._running_rows = reading.running_rows(self._calls)
        self._kind_cells = 4
        self._timed = False
        self._measure(self._calls)
        self._clear_cache()
        self.cursor = 0 if self._calls else None
        self._place = None
        self.following = True
        self._update_virtual_size()
        if self.is_mounted:
            self.scroll_to(y=0, animate=False, force=True)
            self.refresh()
        self._post_highlighted()

    def refresh_calls(self, indices: Sequence[int]) -> None:
        """Repaint calls that were added or changed.

        New calls extend the table. A cursor on the last row follows new rows.

        Args:
            indices: Indices of the changed calls in the session's ``tool_calls``.
        """
        if self.call_filter.active or self.call_filter.reordered:
            # A call may enter or leave the filter, or move, as it runs and completes.
            self._measure(self._session.tool_calls if self._session is not None else [])
            self._apply_filter()
            return
        count = len(self._calls)
        shown = self._rows_taken
        if reading.is_packed(self._calls) and len(indices) > CACHED_ROWS:  # a whole session
            self._cache.clear()
            self._running_rows = reading.running_rows(self._calls)
            if self._measure(self._calls):
                self._columns = None
            indices = [index for index in indices if index >= shown]
            self.refresh()
        running = self._running_rows
        changed: list[ToolCall] = []
        for index in indices:
            if not 0 <= index < count:
                continue
            changed.append(self._calls[index])
            self._cache.discard(index)
            if self._calls[index].status == tools.RUNNING:
                running.add(index)
            else:
                running.discard(index)
            if index < shown:
                self.refresh_line(index + 1)
        if self._measure(changed):
            self._clear_cache()
            self.refresh()
        if count != shown:
            self._rows_taken = count
            self._update_virtual_size()
            if self.following and count:
                self.move_cursor(count - 1)
            elif self.cursor is None and count:
                self.cursor = 0
                self._post_highlighted()
            if len(str(count)) != len(str(max(shown, 1))):
                self._clear_cache()
                self.refresh()

    def tick(self, now_ms: int) -> None:
        """Move the clock: repaint the elapsed time of running calls on screen.

        Args:
            now_ms: The current time (epoch ms).
        """
        self._now_ms = now_ms
        if not self._running_rows:
            return
        first = round(self.scroll_offset.y)
        last = min(first + max(self.size.height - 1, 0), len(self._calls))
        calls = self._calls
        for index in range(first, last):
            if calls[index].status == tools.RUNNING:
                self.refresh_line(index + 1)

    def select_call(self, index: int) -> None:
        """Put the cursor on call ``index`` (of the session) and scroll it into view (the
        person went there: the newest call is no longer followed)."""
        self.following = False
        row = reading.row_of(self._calls, index)
        if row is not None:
            self.move_cursor(row)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Escape clears a filter only when there is one (else it is the app's)."""
        if action == "clear_filter":
            return self.call_filter.active
        return True

    # -- rows and cursor (RowCursorView) ----------------------------------------------

    def open_row(self, index: int) -> None:
        """Ask for the details of the call on row ``index``."""
        self.post_message(self.OpenDetail(self._calls[index].index))

    def cursor_moved(self, index: int) -> None:
        """Say which call is under the cursor now (the place a filter keeps)."""
        self._place = self._calls[index].index
        self.post_message(self.Highlighted(self._place))

    # -- events -----------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        """Widths changed: rows are rendered again, the cursor stays in view."""
        self._update_virtual_size()
        self.scroll_to_cursor()

    def notify_style_update(self) -> None:
        """The theme or the stylesheet changed: every cached row is stale."""
        super().notify_style_update()
        self._clear_cache()

    # -- rendering --------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Render screen line ``y``: the header on line 0, calls below it."""
        width = self.scrollable_content_region.width
        if width != self._cache_width:
            self._clear_cache()
            self._cache_width = width
        if y == 0:
            return self._render_header(width)
        index = round(self.scroll_offset.y) + y - 1
        base = self.rich_style
        if not 0 <= index < len(self._calls):
            if index == 0 and not self._calls:
                text = fit_end(self._empty_text(), width)
                style = base + self.get_component_rich_style("tool-table--empty", partial=True)
                return Strip([Segment(text, style)], width)
            return Strip.blank(width, base)
        if index == self.cursor:
            cursor = self.get_component_rich_style("tool-table--cursor", partial=True)
            return self._render_row(index, width, base + cursor, cursor)
        strip = self._cache.get(index)
        if strip is None:
            strip = self._render_row(index, width, base, None)
            if self._calls[index].status != tools.RUNNING:
                # A running row's timer moves every tick: it is drawn afresh each time.
                self._cache.set(index, strip)
        return self.hovered(strip, index)

    def _empty_text(self) -> str:
        """No calls (yet), or none the filter (kind and text from the stream) lets through."""
        total = self.total_calls
        if total and self.call_filter.active:
            kept = one_line(self.call_filter.describe(), 120)
            return f" no {kept} calls · esc shows all {total:,}"
        done = self.input_ended or (self._session is not None and self._session.finished)
        return " no tool calls" if done else " no tool calls yet"

    def _render_header(self, width: int) -> Strip:
        columns = self._layout(width)
        style = self.rich_style + self.get_component_rich_style("tool-table--header", partial=True)
        cells = [
            ("#".rjust(columns.index), columns.index),
            ("kind", columns.kind),
            ("start".rjust(columns.start), columns.start),
            ("target", columns.target),
            ("status" if columns.status > 1 else "", columns.status),
            ("time".rjust(columns.duration), columns.duration),
            ("result", columns.summary),
        ]
        return self._join([(text, size, None) for text, size in cells], width, style)

    def _render_row(self, index: int, width: int, base: Style, cursor: Style | None) -> Strip:
        """Render call ``index`` on ``base``; ``cursor`` (if any) wins over cell colours."""
        call = self._calls[index]
        columns = self._layout(width)
        status = call.status
        mark = STATUS_MARK.get(status, "•")
        status_text = mark if columns.status == 1 else f"{mark} {status}"
        if status == tools.RUNNING:
            start = call.start_ms
            elapsed = (
                self._now_ms - start if self._now_ms is not None and start is not None else None
            )
            duration = formatting.format_elapsed(elapsed) if elapsed is not None else ""
        else:
            duration = format_duration(call.duration_ms)
        target = call.target or ""
        is_path = call.kind in tools.PATH_KINDS
        if is_path and self._session is not None:
            target = tools.relative_path(target, self._session.cwd)
        target = one_line(target, 1000) if target else ""
        cut = fit_middle if is_path else fit_end
        summary = one_line(call.summary, 400) if call.summary else ""
        if summary == status:
            summary = "no reason given" if status == tools.REJECTED else ""
        status_class = f"tool-table--{status}"
        if status_class.removeprefix("tool-table--") not in tools.STATUSES:
            status_class = "tool-table--completed"

        def style(name: str) -> Style:
            cell = self.get_component_rich_style(name, partial=True)
            return base + cell + cursor if cursor is not None else base + cell

        cells: list[tuple[str, int, Style | None]] = [
            (str(call.index + 1).rjust(columns.index), columns.index, style("tool-table--index")),
            (
                # A subagent's call sits under the task call that started it.
                fit_end(
                    ("↳ " if call.parent_call_id else "") + one_line(call.kind, 100), columns.kind
                ),
                columns.kind,
                style("tool-table--kind"),
            ),
            (
                self._start_of(call).rjust(columns.start),
                columns.start,
                style("tool-table--duration"),
            ),
            (cut(target, columns.target), columns.target, style("tool-table--target")),
            (status_text, columns.status, style(status_class)),
            (duration.rjust(columns.duration), columns.duration, style("tool-table--duration")),
            (summary, columns.summary, style("tool-table--summary")),
        ]
        return self._join(cells, width, base)

    def _start_of(self, call: ToolCall) -> str:
        """``+1:23`` after the session's start, or the wall-clock time (``w`` toggles)."""
        start = call.start_ms
        if self.wall_clock:
            return format_clock(start)
        first = self._session.first_time_ms if self._session is not None else None
        return format_offset(start - first) if start is not None and first is not None else ""

    def _join(self, cells: list[tuple[str, int, Style | None]], width: int, base: Style) -> Strip:
        """Lay cells out left to right with a gap between shown columns."""
        segments: list[Segment] = [Segment(" ", base)]
        used = 1
        for text, size, cell_style in cells:
            if size <= 0:
                continue
            if used > 1:
                segments.append(Segment(" " * GAP, base))
                used += GAP
            size = min(size, width - used)
            if size <= 0:
                break
            segments.append(Segment(fit_end(text, size), cell_style or base))
            used += size
        if used < width:
            segments.append(Segment(" " * (width - used), base))
        elif used > width:
            return Strip(segments).crop(0, width)
        return Strip(segments, width)

    def _layout(self, width: int) -> Columns:
        columns = self._columns
        if columns is None:
            rows = max(len(self._calls), self.total_calls)  # numbers are the session's
            columns = Columns.for_width(width - 2, rows, self._kind_cells, self._timed)
            self._columns = columns
        return columns

    # -- helpers ----------------------------------------------------------------------

    def _measure(self, calls: Iterable[ToolCall]) -> bool:
        """Widen the kind column for ``calls``, show the times once one has a start;
        say if the columns changed."""
        kind_cells = self._kind_cells
        timed = self._timed
        measured = reading.measure(calls) if isinstance(calls, Sequence) else None
        if measured is not None:  # a packed session's: from its columns
            kind_cells = max(kind_cells, measured[0])
            timed = timed or measured[1]
            calls = ()
        for call in calls:
            kind_cells = max(kind_cells, len(call.kind) + (2 if call.parent_call_id else 0))
            timed = timed or call.start_ms is not None
        grew = kind_cells > self._kind_cells or timed != self._timed
        self._kind_cells = kind_cells
        self._timed = timed
        return grew

    def _clear_cache(self) -> None:
        self._cache.clear()
        self._columns = None

    def _update_virtual_size(self) -> None:
        size = Size(self.scrollable_content_region.width, len(self._calls) + 1)
        old = self.virtual_size
        if (
            size.width == old.width
            and size.height > old.height > self.scrollable_content_region.height
        ):
            # Already taller than the pane (its height is capped or a share of the
            # screen): a new row changes the scroll range only, not the pane's size.
            # Setting the reactive would lay the whole screen out again, 20-30 ms.
            self.set_reactive(ToolCallTable.virtual_size, size)
            self._scroll_update(size)
            return
        self.virtual_size = size

    def _post_highlighted(self) -> None:
        """The cursor was set without moving through :meth:`move_cursor`: say so (the
        place stays: a filter moved the cursor, not the person)."""
        if self.cursor is not None:
            self.post_message(self.Highlighted(self._calls[self.cursor].index))
