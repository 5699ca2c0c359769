"""What readers ask of every call of a session (the status bar's counts, the call
table's running rows and widths, a filter's rows), answered from the columns when its
calls are packed (:mod:`~streamview.core.call_columns`), where reading each call would
make each one: a 2 GB session has half a million.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

import streamview.core.tools as tools
from streamview.core.call_columns import CallColumns
from streamview.core.model import ToolCall, running_calls

__all__ = [
    "CallsView",
    "is_packed",
    "kind_counts",
    "measure",
    "nearest_row",
    "nested_count",
    "place_of",
    "row_of",
    "running_calls",
    "running_places",
    "running_rows",
    "status_counts",
    "with_parent",
]


def running_places(calls: Sequence[ToolCall]) -> set[int]:
    """Places in ``calls`` of the calls still running."""
    if isinstance(calls, CallColumns):
        return {call.index for call in calls.running()}
    return {place for place, call in enumerate(calls) if call.status == tools.RUNNING}


def status_counts(calls: Sequence[ToolCall]) -> dict[str, int]:
    """Calls of each status."""
    if isinstance(calls, CallColumns):
        return calls.status_counts()
    counts: dict[str, int] = {}
    for call in calls:
        counts[call.status] = counts.get(call.status, 0) + 1
    return counts


def kind_counts(calls: Sequence[ToolCall]) -> dict[str, int]:
    """Calls of each kind (in no particular order)."""
    if isinstance(calls, CallColumns):
        return calls.kind_counts()
    counts: dict[str, int] = {}
    for call in calls:
        counts[call.kind] = counts.get(call.kind, 0) + 1
    return counts


def nested_count(calls: Sequence[ToolCall]) -> int:
    """Calls a subagent made."""
    if isinstance(calls, CallColumns):
        return calls.nested_count()
    return sum(1 for call in calls if call.parent_call_id)


def with_parent(calls: Sequence[ToolCall]) -> Sequence[ToolCall]:
    """The calls a subagent made, in order (all of ``calls`` when not packed: a reader
    filters them itself)."""
    if isinstance(calls, CallColumns):
        return calls.with_parent()
    return calls


def measure(calls: Sequence[ToolCall]) -> tuple[int, bool] | None:
    """The widest kind (cells, ``↳ `` included) and whether some call has a start
    time, from the columns and the objects; ``None`` when ``calls`` is a list."""
    if not isinstance(calls, CallColumns):
        return None
    widest, timed = calls.widest_kind, calls.timed
    for call in calls.live():
        widest = max(widest, len(call.kind) + (2 if call.parent_call_id else 0))
        timed = timed or call.start_ms is not None
    return widest, timed


class CallsView(Sequence[ToolCall]):
    """Some of a packed session's calls, in an order (a filtered or sorted table):
    their places in an array, each call made when it is read.

    Args:
        calls: The session's calls.
        places: The places of the calls shown, in the order shown.
    """

    def __init__(self, calls: Sequence[ToolCall], places: Iterable[int]) -> None:
        self.calls = calls
        self.places = array("q", places)

    def __len__(self) -> int:
        return len(self.places)

    @overload
    def __getitem__(self, index: int) -> ToolCall: ...

    @overload
    def __getitem__(self, index: slice) -> list[ToolCall]: ...

    def __getitem__(self, index: int | slice) -> ToolCall | list[ToolCall]:
        if isinstance(index, slice):
            return [self.calls[place] for place in self.places[index]]
        return self.calls[self.places[index]]

    def __iter__(self) -> Iterator[ToolCall]:
        calls = self.calls
        for place in self.places:
            yield calls[place]


def is_packed(calls: Sequence[ToolCall]) -> bool:
    """Whether ``calls`` is read from columns (reading every call makes each one)."""
    return isinstance(calls, CallColumns | CallsView)


def place_of(calls: Sequence[ToolCall], row: int) -> int:
    """The session's index of the call on row ``row`` of ``calls``."""
    if isinstance(calls, CallColumns):
        return row
    if isinstance(calls, CallsView):
        return calls.places[row]
    return calls[row].index


def row_of(calls: Sequence[ToolCall], index: int) -> int | None:
    """The row of ``calls`` holding the session's call ``index`` (``None``: none)."""
    if isinstance(calls, CallColumns):
        return index if 0 <= index < len(calls) else None
    if isinstance(calls, CallsView):
        places = calls.places
        return places.index(index) if index in places else None
    return next((row for row, call in enumerate(calls) if call.index == index), None)


def nearest_row(calls: Sequence[ToolCall], index: int) -> int:
    """The row of ``calls`` (not empty) whose call is nearest the session's call
    ``index`` (the first of two as near)."""
    if isinstance(calls, CallColumns):
        return min(max(index, 0), len(calls) - 1)
    if isinstance(calls, CallsView):
        places = calls.places
        return min(range(len(places)), key=lambda row: (abs(places[row] - index), row))
    return min(range(len(calls)), key=lambda row: (abs(calls[row].index - index), row))


def running_rows(calls: Sequence[ToolCall]) -> set[int]:
    """Rows of ``calls`` whose call is still running."""
    if isinstance(calls, CallsView):
        running = {call.index for call in running_calls(calls.calls)}
        if not running:
            return set()
        places = calls.places
        return {row for row, place in enumerate(places) if place in running}
    return running_places(calls)
