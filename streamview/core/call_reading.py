"""What readers ask of every call of a session (the status bar's counts, the call
table's running rows and widths, a filter's rows), answered from the columns when its
calls are packed (:mod:`~streamview.core.call_columns`), where reading each call would
make each one: a 2 GB session has half a million.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat
from operator import sub
from typing import Any, overload

import streamview.core.tools as tools
from streamview.core.call_columns import CallColumns
from streamview.core.model import ToolCall, running_calls

__all__ = [
    "CallsView",
    "call_look",
    "duration_odd_rows",
    "is_packed",
    "kind_counts",
    "measure",
    "nearest_row",
    "nested_count",
    "place_of",
    "row_durations",
    "row_flags",
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
        if index in places:
            return places.index(index)
        distance = min(map(abs, map(sub, places, repeat(index))))
        near = (index - distance, index + distance)
        return min(places.index(place) for place in near if place in places)
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


class _FlagOf(dict[tuple[int, ...], int]):
    """A row's flag by its codes, ``of`` asked once for each codes first seen."""

    def __init__(self, columns: list[list[Any]], of: Callable[..., int]) -> None:
        super().__init__()
        self.columns = columns
        self.of = of

    def __missing__(self, codes: tuple[int, ...]) -> int:
        flag = self[codes] = self.of(
            *(values[code] for values, code in zip(self.columns, codes, strict=True))
        )
        return flag


def row_flags(calls: CallColumns, names: tuple[str, ...], of: Callable[..., int]) -> bytearray:
    """``of(value, ...)`` (0 to 255) of each packed row's values of the string fields
    ``names``, asked once for each distinct value (or values): a status or kind filter,
    a text, a rank, without making the calls. A row in ``calls.overlay`` is stale: the
    caller reads that call itself.
    """
    packed = calls.packed
    columns = [calls.code_column(name) for name in names]
    codes = [column.codes[:packed] for column in columns]  # a fork's rows are its first
    if len(columns) == 1:
        flags = [of(value) for value in columns[0].values]
        if codes[0].typecode == "B":
            return bytearray(codes[0].tobytes().translate(bytes(flags).ljust(256, b"\0")))
        return bytearray(map(flags.__getitem__, codes[0]))
    flag_of = _FlagOf([column.values for column in columns], of)
    return bytearray(map(flag_of.__getitem__, zip(*codes, strict=True)))


_DURATION_PAIRS = (
    ("started_at_ms", "completed_at_ms"),
    ("start_ts", "end_ts"),
    ("start_recv", "end_recv"),
)
"""The times :attr:`~streamview.core.model.ToolCall.duration_ms` tries, in its order."""


def row_durations(calls: CallColumns, start: int = 0, stop: int | None = None) -> list[int | None]:
    """Each packed row's :attr:`~streamview.core.model.ToolCall.duration_ms` from
    ``start`` to ``stop`` (every packed row by default), from the columns (a row in
    ``calls.overlay`` is stale, as in :func:`row_flags`: the caller asks it)."""
    stop = calls.packed if stop is None else min(stop, calls.packed)
    found: list[int | None] | None = None
    odd: set[int] = set()
    for start_name, end_name in _DURATION_PAIRS:
        starts, ends = calls.int_column(start_name), calls.int_column(end_name)
        odd.update(starts.odd, ends.odd)
        if starts.values is None or ends.values is None:
            continue  # no row has both
        first = _padded(starts.values, start, stop, starts.none)
        last = _padded(ends.values, start, stop, ends.none)
        no_start, no_end = starts.none, ends.none
        if found is None:
            found = [
                finish - begin
                if begin != no_start and finish != no_end and finish >= begin
                else None
                for begin, finish in zip(first, last, strict=True)
            ]
            continue
        for row in [row for row, duration in enumerate(found) if duration is None]:
            begin, finish = first[row], last[row]
            if begin != no_start and finish != no_end and finish >= begin:
                found[row] = finish - begin
    if found is None:
        found = [None] * max(stop - start, 0)
    for row in odd:  # a value not kept in the array (a bool, a huge int): as the call says
        if start <= row < stop:
            found[row - start] = calls[row].duration_ms
    return found


def duration_odd_rows(calls: CallColumns) -> set[int]:
    """The rows whose duration :func:`row_durations` asks the call for (a time kept
    beside the columns: a bool, a huge int)."""
    odd: set[int] = set()
    for start_name, end_name in _DURATION_PAIRS:
        odd.update(calls.int_column(start_name).odd, calls.int_column(end_name).odd)
    return odd


def _padded(values: Sequence[int], start: int, stop: int, none: int) -> Sequence[int]:
    """``values[start:stop]``, ``none`` past its end."""
    part = values[start:stop]
    if len(part) < stop - start:
        part = array("q", part)  # a column narrower than ``none`` is not padded in place
        part.extend(array("q", [none]) * (stop - start - len(part)))
    return part


def call_look(calls: Sequence[ToolCall], index: int) -> tuple[object, ...]:
    """What a call's line in the transcript shows of call ``index``: its status, target,
    summary, kind and duration, read from the columns for a packed call (no
    :class:`ToolCall` made: a search checks every tool block's look)."""
    if isinstance(calls, CallColumns) and 0 <= index < calls.packed and index not in calls.overlay:
        code = calls.code_column
        duration = None
        for start_name, end_name in _DURATION_PAIRS:
            start = calls.int_column(start_name).get(index)
            end = calls.int_column(end_name).get(index)
            if start is not None and end is not None and end >= start:
                duration = end - start
                break
        return (
            code("status").get(index),
            code("target").get(index),
            code("summary").get(index),
            code("kind").get(index),
            duration,
        )
    call = calls[index]
    return (call.status, call.target, call.summary, call.kind, call.duration_ms)
