"""Which tool calls the table shows, and in what order: by status, by kind, by text in
the target; as they ran, slowest first, or trouble first.

A plain model (no widget): :class:`streamview.ui.calls.table.ToolCallTable` keeps one and
shows the calls it lets through; the pane's title says how many of how many, and why.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import compress, islice

import msgspec
from msgspec.structs import replace

from streamview.core import tools
from streamview.core.call_columns import CallColumns
from streamview.core.call_reading import (
    CallsView,
    is_packed,
    nested_count,
    row_durations,
    row_flags,
)
from streamview.core.call_reading import kind_counts as count_kinds
from streamview.core.state import ToolCall
from streamview.ui.calls.packed_order import slowest_places, trouble_places

STATUS_GROUPS: dict[str, frozenset[str]] = {
    "failed": frozenset({tools.FAILED, tools.ERROR}),
    "rejected": frozenset({tools.REJECTED, tools.INTERRUPTED}),
    "running": frozenset({tools.RUNNING}),
}
"""The status filters ``F`` steps through, and the call statuses each lets through."""
ORDERS: dict[str, str] = {
    "run": "as they ran",
    "slowest": "slowest first",
    "trouble": "trouble first",
}
"""The orders ``s`` steps through, and how the pane's title says them."""
TROUBLE_RANK = {
    tools.FAILED: 0,
    tools.ERROR: 0,
    tools.REJECTED: 1,
    tools.INTERRUPTED: 1,
    tools.RUNNING: 2,
}
"""Trouble first: failed, then rejected or stopped, then running, then the rest."""


class CallFilter(msgspec.Struct, frozen=True):
    """A filter on tool calls; the default lets every call through."""

    status: str | None = None
    """A key of :data:`STATUS_GROUPS`, or ``None``."""
    kind: str | None = None
    text: str = ""
    """Case-insensitive text the call's target (or kind) must contain."""
    order: str = "run"
    """A key of :data:`ORDERS`: the rows' order (it leaves no call out)."""

    @property
    def active(self) -> bool:
        """Whether any call can be left out."""
        return self.status is not None or self.kind is not None or bool(self.text)

    def admits(self, call: ToolCall) -> bool:
        """Whether ``call`` is shown."""
        if self.status is not None and call.status not in STATUS_GROUPS[self.status]:
            return False
        if self.kind is not None and call.kind != self.kind:
            return False
        if self.text:
            haystack = f"{call.kind} {call.target or ''} {call.summary or ''}".casefold()
            if self.text.casefold() not in haystack:
                return False
        return True

    @property
    def reordered(self) -> bool:
        """Whether the rows are in another order than the calls ran."""
        return self.order != "run"

    def arrange(self, calls: Sequence[ToolCall]) -> Sequence[ToolCall]:
        """The calls shown, in the chosen order (a stable sort: ties keep their order).

        Of a packed session (:mod:`~streamview.core.call_columns`), the places of the
        calls shown (:class:`~streamview.core.call_reading.CallsView`): each call is
        made as it is looked at, not held."""
        if is_packed(calls):
            return self._arrange_places(calls)
        shown = [call for call in calls if self.admits(call)] if self.active else list(calls)
        if self.order == "slowest":
            shown.sort(key=lambda call: -(call.duration_ms or -1))
        elif self.order == "trouble":
            shown.sort(key=lambda call: TROUBLE_RANK.get(call.status, 3))
        return shown

    def _arrange_places(self, calls: Sequence[ToolCall]) -> CallsView:
        """:meth:`arrange` of packed calls, as places."""
        if isinstance(calls, CallColumns):
            return CallsView(calls, self._column_places(calls))
        admits, active = self.admits, self.active
        if self.order == "slowest":
            keyed = [
                (-(call.duration_ms or -1), call.index)
                for call in calls
                if not active or admits(call)
            ]
        elif self.order == "trouble":
            keyed = [
                (TROUBLE_RANK.get(call.status, 3), call.index)
                for call in calls
                if not active or admits(call)
            ]
        elif active:
            return CallsView(calls, [call.index for call in calls if admits(call)])
        else:
            return CallsView(calls, range(len(calls)))
        keyed.sort()  # the place breaks ties: as stable as the sort of the calls
        return CallsView(calls, [place for _, place in keyed])

    def _column_places(self, calls: CallColumns) -> Sequence[int]:
        """:meth:`arrange` of a session's packed calls read from their columns (each
        distinct status, kind, target or summary looked at once, the rows by their
        codes); the calls that are objects (:meth:`CallColumns.live`) asked as they are.
        """
        count = len(calls)
        shown: bytearray | None = None
        if self.active:
            shown = self._packed_rows(calls)
            shown.extend(bytes(len(calls.tail)))
            for place, call in calls.overlay.items():
                shown[place] = self.admits(call)
            for place, call in enumerate(calls.tail, calls.packed):
                shown[place] = self.admits(call)
        if self.order == "slowest":
            slowest = slowest_places(calls, shown)
            return self._slowest_by_calls(calls, shown) if slowest is None else slowest
        if self.order == "trouble":
            return trouble_places(calls, shown, TROUBLE_RANK)
        return range(count) if shown is None else array("q", compress(range(count), shown))

    @staticmethod
    def _slowest_by_calls(calls: CallColumns, shown: bytearray | None) -> list[int]:
        """Slowest first with :func:`sorted` (~40 bytes a row while it sorts): for the
        durations :func:`~streamview.ui.calls.packed_order.slowest_places` cannot pack."""
        durations: list[int | None] = row_durations(calls)
        durations.extend([None] * len(calls.tail))
        for place, call in [*calls.overlay.items(), *enumerate(calls.tail, calls.packed)]:
            durations[place] = call.duration_ms
        keys = [-(duration or -1) for duration in durations]
        places = range(len(calls)) if shown is None else compress(range(len(calls)), shown)
        return sorted(places, key=keys.__getitem__)  # stable: ties as they ran

    def _packed_rows(self, calls: CallColumns) -> bytearray:
        """1 for each packed row :meth:`admits` (a row in the overlay: any)."""
        found: list[bytearray] = []
        if self.status is not None:
            group = STATUS_GROUPS[self.status]
            found.append(row_flags(calls, ("status",), lambda status: status in group))
        if self.kind is not None:
            kind = self.kind
            found.append(row_flags(calls, ("kind",), lambda value: value == kind))
        if self.text:
            found.append(self._text_rows(calls))
        if not found:
            return bytearray(b"\1") * calls.packed
        size = calls.packed
        both = int.from_bytes(found[0], "little")
        for flags in found[1:]:
            both &= int.from_bytes(flags, "little")
        return bytearray(both.to_bytes(size, "little"))

    def _text_rows(self, calls: CallColumns) -> bytearray:
        """1 for each packed row whose kind, target and summary hold :attr:`text`: the
        haystack of :meth:`admits`, ``kind target summary`` casefolded. Casefolding is
        done a character at a time and gives no space, so a text with no space is in
        the haystack when it is in one of the three."""
        needle = self.text.casefold()
        if " " in needle:
            return row_flags(
                calls,
                ("kind", "target", "summary"),
                lambda kind, target, summary: (
                    needle in f"{kind} {target or ''} {summary or ''}".casefold()
                ),
            )
        size = calls.packed
        either = int.from_bytes(
            row_flags(calls, ("kind",), lambda kind: needle in f"{kind}".casefold()), "little"
        )
        for name in ("target", "summary"):
            flags = row_flags(calls, (name,), lambda value: needle in f"{value or ''}".casefold())
            either |= int.from_bytes(flags, "little")
        return bytearray(either.to_bytes(size, "little"))

    def describe(self) -> str:
        """``failed · shell · “pytest”``: what the filter keeps, for the pane's title."""
        parts = [p for p in (self.status, self.kind) if p]
        if self.text:
            parts.append(f"“{self.text}”")
        return " · ".join(parts)

    def next_order(self) -> CallFilter:
        """The next order: as they ran, slowest first, trouble first, as they ran..."""
        order = list(ORDERS)
        at = order.index(self.order) if self.order in order else 0
        return replace(self, order=order[(at + 1) % len(order)])

    def next_status(self) -> CallFilter:
        """The next status filter: none, failed, rejected, running, none..."""
        order: list[str | None] = [None, *STATUS_GROUPS]
        return replace(self, status=order[(order.index(self.status) + 1) % len(order)])

    def next_kind(self, counts: dict[str, int]) -> CallFilter:
        """The next kind of a run whose kinds have ``counts`` calls (most calls first,
        as :func:`kind_counts` orders them), then none again."""
        kinds: list[str | None] = [None, *counts]
        at = kinds.index(self.kind) if self.kind in kinds else 0
        return replace(self, kind=kinds[(at + 1) % len(kinds)])

    def with_kind(self, kind: str | None) -> CallFilter:
        """This filter, showing only calls of ``kind`` (``None``: every kind)."""
        return replace(self, kind=kind)


def kind_counts(calls: Sequence[ToolCall]) -> dict[str, int]:
    """Calls of each kind in ``calls``, the most frequent kind first (ties by name)."""
    counts = count_kinds(calls)  # from the columns of a packed session
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def title(total: int, shown: int, call_filter: CallFilter, nested: int = 0) -> str:
    """The tool-call pane's title: ``Tool calls (75)``, ``Tool calls 3 of 75 · failed``;
    the calls subagents made (``nested`` of ``total``) counted apart:
    ``Tool calls (12 + 9 by subagents)``."""
    order = (
        f" · {ORDERS.get(call_filter.order, call_filter.order)}" if call_filter.reordered else ""
    )
    if not call_filter.active and nested:
        return f"Tool calls ({total - nested} + {nested} by subagents){order}"
    if not call_filter.active:
        return (f"Tool calls ({total})" if total else "Tool calls") + order
    return f"Tool calls {shown} of {total} · {call_filter.describe()}{order}"


class _NestedCount:
    """How many of a session's calls a subagent made (``parent_call_id``), counted as
    they arrive: a run's calls are only appended, so each is looked at once."""

    def __init__(self) -> None:
        self._held: dict[int, tuple[Sequence[ToolCall], int, int]] = {}

    def __call__(self, calls: Sequence[ToolCall]) -> int:
        if is_packed(calls):  # counted from its columns
            return nested_count(calls)
        held = self._held.get(id(calls))
        if held is None or held[0] is not calls or held[1] > len(calls):
            held = (calls, 0, 0)
        _, seen, nested = held
        nested += sum(1 for call in islice(calls, seen, None) if call.parent_call_id)
        if len(self._held) > 8:  # a few sessions at once, not every one ever shown
            self._held.clear()
        self._held[id(calls)] = (calls, len(calls), nested)
        return nested


nested_calls = _NestedCount()
"""The calls subagents made among a session's calls (see :class:`_NestedCount`)."""


def session_title(calls: Sequence[ToolCall], shown: int, call_filter: CallFilter) -> str:
    """:func:`title` for a session's ``calls``, its subagents' counted apart."""
    return title(len(calls), shown, call_filter, nested_calls(calls))
