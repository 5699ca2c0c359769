"""The tool table's own keys: filter by status or kind, sort, the start-time clock,
escape to show every call again. The table (:mod:`streamview.ui.calls.table`) declares
these bindings and takes these actions; the palette and help list them from here."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType

from streamview.core.state import Session
from streamview.ui.calls.filter import CallFilter
from streamview.ui.text.row_cursor import cursor_bindings

if TYPE_CHECKING:
    from typing import Self

    from textual.geometry import Region

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


class TableKeys:
    """What the keys do, on the table's filter and clock (a mixin of the table)."""

    PALETTE_TITLES: ClassVar[dict[str, str]] = {"open": "Call details"}
    """The palette's name of Enter (the footer says "Details")."""

    call_filter: CallFilter
    wall_clock: bool
    _session: Session | None

    if TYPE_CHECKING:  # the table's and the widget's, which this mixin comes after

        def set_filter(self, call_filter: CallFilter) -> None: ...

        def _clear_cache(self) -> None: ...

        def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False) -> Self: ...

    def action_filter_status(self) -> None:
        """The next status filter (failed, rejected, running, all)."""
        self.set_filter(self.call_filter.next_status())

    def action_filter_kind(self) -> None:
        """The next kind filter among the session's kinds, then all."""
        calls = self._session.tool_calls if self._session is not None else []
        self.set_filter(self.call_filter.next_kind(calls))

    def action_sort(self) -> None:
        """The next order: as they ran, slowest first, trouble first."""
        self.set_filter(self.call_filter.next_order())

    def action_toggle_clock(self) -> None:
        """Start times as offsets, or as the wall clock."""
        self.wall_clock = not self.wall_clock
        self._clear_cache()
        self.refresh()

    def action_clear_filter(self) -> None:
        """Show every call again (in the order chosen)."""
        self.set_filter(CallFilter(order=self.call_filter.order))
