"""The tool table's own keys: filter by status or kind, sort, the start-time clock,
escape to show every call again, and following the newest call (a move in the table
stops it, End resumes it). The table (:mod:`streamview.ui.calls.table`) declares these
bindings and takes these actions; the palette and help list them from here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import Binding, BindingType

from streamview.core.formatting import counted
from streamview.core.state import Session, ToolCall
from streamview.ui.calls.filter import CallFilter, kind_counts
from streamview.ui.text.row_cursor import RowCursorView, cursor_bindings
from streamview.ui.text.safe_text import phrase, toast

if TYPE_CHECKING:
    pass

TABLE_BINDINGS: list[BindingType] = [
    *cursor_bindings("call", "calls"),
    Binding(
        "enter",
        "open",
        "Details",
        tooltip="open the call (or click it): arguments, result, diff, output",
    ),
    Binding(
        "F",
        "filter_status",
        "Filter calls: failed, rejected, running",
        show=False,
        tooltip="show only failed, rejected or running calls (again: the next; then all)",
    ),
    Binding(
        "K",
        "filter_kind",
        "Filter calls by kind",
        show=False,
        tooltip="show only the calls of one kind (again: the next kind; then all)",
    ),
    Binding(
        "s",
        "sort",
        "Sort calls: slowest, trouble first",
        show=False,
        tooltip="order: as they ran, slowest first, trouble (failed, rejected) first",
    ),
    Binding(
        "w",
        "toggle_clock",
        "Start times: offset or clock",
        show=False,
        tooltip="start times as offsets from the session's start, or the wall clock",
    ),
    Binding(
        "escape",
        "clear_filter",
        "Show all calls",
        show=False,
        tooltip="show every call again (clear the filter)",
    ),
]
"""Enter opens a call; F, K, s and w change what the rows show; escape clears a filter."""


class TableKeys(RowCursorView):
    """What the keys do, on the table's cursor, filter and clock (the table's base)."""

    PALETTE_TITLES: ClassVar[dict[str, str]] = {"open": "Call details"}
    """The palette's name of Enter (the footer says "Details")."""

    call_filter: CallFilter
    wall_clock: bool
    following: bool
    kind_cycle: tuple[str, ...] = ()
    """The kinds K steps through, from the one it started at (the selected call's),
    then the run's other kinds, most calls first."""
    _session: Session | None
    _calls: Sequence[ToolCall]

    def set_filter(self, call_filter: CallFilter) -> None:
        """Show only the calls ``call_filter`` lets through (the table's)."""
        raise NotImplementedError

    def _clear_cache(self) -> None:
        raise NotImplementedError

    # -- following the newest call ----------------------------------------------------

    def _newest_row(self) -> int:
        """The row of the newest call shown (the last row, unless the rows are sorted)."""
        calls = self._calls
        if not self.call_filter.reordered:
            return len(calls) - 1
        return max(range(len(calls)), key=lambda row: calls[row].index)

    def follow_newest(self, follow: bool = True) -> None:
        """Follow the newest call (the cursor goes there now), or stop following."""
        self.following = follow
        if follow and self._calls:
            self.move_cursor(self._newest_row())

    def action_cursor_up(self) -> None:
        """One row up: the cursor stays where the person puts it."""
        self.following = False
        super().action_cursor_up()

    def action_cursor_down(self) -> None:
        """One row down: onto the newest call, it follows again (as the transcript
        does at its end); elsewhere it stays where the person puts it."""
        super().action_cursor_down()
        self._follow_if_newest()

    def action_page_up(self) -> None:
        """A page up: the cursor stays where the person puts it."""
        self.following = False
        super().action_page_up()

    def action_page_down(self) -> None:
        """A page down (onto the newest call, it follows again)."""
        super().action_page_down()
        self._follow_if_newest()

    def _follow_if_newest(self) -> None:
        self.following = bool(self._calls) and self.cursor == self._newest_row()

    def action_first(self) -> None:
        """The first row: the cursor stays there."""
        self.following = False
        super().action_first()

    def action_last(self) -> None:
        """The last row, and follow the newest call again as calls arrive."""
        super().action_last()
        self.following = True

    def on_click(self, event: events.Click) -> None:
        """A click puts the cursor on a row (the base's handler, run after this one,
        moves it there and opens it): it stays there."""
        self.following = False

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """Wheeling up looks back: the view is no longer pulled to the newest call
        (Textual runs the base classes' scrolling handler as well)."""
        self.following = False

    # -- filter, order, clock ---------------------------------------------------------

    def action_filter_status(self) -> None:
        """The next status filter (failed, rejected, running, all)."""
        self.set_filter(self.call_filter.next_status())

    def action_filter_kind(self) -> None:
        """The selected call's kind first, then the run's other kinds (most calls
        first), then all; says how many calls of each."""
        calls = self._session.tool_calls if self._session is not None else []
        counts = kind_counts(calls)
        current = self.call_filter.kind
        cursor = self.cursor
        if current is None:
            start = None
            if cursor is not None and cursor < len(self._calls):
                start = self._calls[cursor].kind
            others = [kind for kind in counts if kind != start]
            self.kind_cycle = (start, *others) if start is not None else tuple(others)
        elif current not in self.kind_cycle:  # set elsewhere (the settings)
            self.kind_cycle = tuple(counts)
        else:  # kinds first seen since (a live run): after the others
            self.kind_cycle += tuple(kind for kind in counts if kind not in self.kind_cycle)
        chosen = self.call_filter.with_kind(self._kind_after(current))
        self.set_filter(chosen)
        kind = chosen.kind
        if kind is None:
            toast(
                self.app,
                phrase("all kinds · {calls}", calls=counted(len(calls), "call")),
                timeout=2,
            )
            return
        upcoming = self._kind_after(kind)
        then = f"{upcoming} ({counts[upcoming]:,})" if upcoming is not None else "all"
        note = phrase(
            "{kind}: {n:,} of {total} · K: {then}",
            kind=kind,
            n=counts.get(kind, 0),
            total=counted(len(calls), "call"),
            then=then,
        )
        toast(self.app, note, timeout=2)

    def _kind_after(self, kind: str | None) -> str | None:
        """The kind K goes to after ``kind`` (``None``: all kinds) in :attr:`kind_cycle`."""
        cycle = self.kind_cycle
        if kind is None:
            return cycle[0] if cycle else None
        at = cycle.index(kind) + 1 if kind in cycle else len(cycle)
        return cycle[at] if at < len(cycle) else None

    def action_sort(self) -> None:
        """The next order: as they ran, slowest first, trouble first; a sorted table
        shows its top (the slowest, the worst)."""
        self.set_filter(self.call_filter.next_order())
        if self.call_filter.reordered and self._calls:
            self.following = False
            self.move_cursor(0)

    def action_toggle_clock(self) -> None:
        """Start times as offsets, or as the wall clock."""
        self.wall_clock = not self.wall_clock
        self._clear_cache()
        self.refresh()

    def action_clear_filter(self) -> None:
        """Show every call again (in the order chosen)."""
        self.set_filter(CallFilter(order=self.call_filter.order))
