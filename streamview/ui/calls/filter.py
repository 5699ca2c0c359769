"""Which tool calls the table shows, and in what order: by status, by kind, by text in
the target; as they ran, slowest first, or trouble first.

A plain model (no widget): :class:`streamview.ui.calls.table.ToolCallTable` keeps one and
shows the calls it lets through; the pane's title says how many of how many, and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

import msgspec
from msgspec.structs import replace

from streamview.core import tools
from streamview.core.state import ToolCall

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

    def arrange(self, calls: Sequence[ToolCall]) -> list[ToolCall]:
        """The calls shown, in the chosen order (a stable sort: ties keep their order)."""
        shown = [call for call in calls if self.admits(call)] if self.active else list(calls)
        if self.order == "slowest":
            shown.sort(key=lambda call: -(call.duration_ms or -1))
        elif self.order == "trouble":
            shown.sort(key=lambda call: TROUBLE_RANK.get(call.status, 3))
        return shown

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
    counts: dict[str, int] = {}
    for call in calls:
        counts[call.kind] = counts.get(call.kind, 0) + 1
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
        self._held: dict[int, tuple[list[ToolCall], int, int]] = {}

    def __call__(self, calls: list[ToolCall]) -> int:
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


def session_title(calls: list[ToolCall], shown: int, call_filter: CallFilter) -> str:
    """:func:`title` for a session's ``calls``, its subagents' counted apart."""
    return title(len(calls), shown, call_filter, nested_calls(calls))
