"""A filter or order of a packed session's calls read from the columns
(``CallFilter._column_places``, ``call_reading.row_flags`` and ``row_durations``) lets
the same calls through, in the same order, as the one that reads each call: with calls
still running, calls named again since they were packed (their rows stale), calls not
packed yet, odd values the columns keep on the side, texts that casefold unevenly, and
codes past one byte."""

from __future__ import annotations

from itertools import product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core import call_reading, tools
from streamview.core.call_columns import CallColumns
from streamview.core.model import ToolCall
from streamview.ui.calls.filter import ORDERS, STATUS_GROUPS, CallFilter

STATUSES = [
    tools.RUNNING,
    tools.SUCCEEDED,
    tools.FAILED,
    tools.REJECTED,
    tools.ERROR,
    tools.COMPLETED,
    tools.INTERRUPTED,
    "odd",
]
KINDS = ["read", "shell", "Edit", "grep"]
WORDS = [None, "", "py", "pytest -q", "STRASSE", "straße", "İstanbul", "h ls", "ls", "ﬃx"]
TIMES = st.one_of(st.none(), st.integers(-5, 50))
ODD_TIMES = st.sampled_from([-(1 << 31), -(1 << 63), 1 << 40, 1 << 70, True])
"""Ints the columns keep on the side or widen for: in one call of ten at most (else
nearly every row would be read from its call)."""
TIME_FIELDS = ("started_at_ms", "completed_at_ms", "start_ts", "end_ts", "start_recv", "end_recv")
TEXTS = ["", "py", "PY", "s", "ss", "ß", "i̇", "h l", "l s", " ", "read py", "ffi", "zz"]


@st.composite
def a_call(draw: Any, index: int) -> ToolCall:
    """A call with any mix of the fields a filter or an order reads."""
    times = {name: draw(TIMES) for name in TIME_FIELDS}
    if draw(st.integers(0, 9)) == 0:
        times[draw(st.sampled_from(TIME_FIELDS))] = draw(ODD_TIMES)
    return ToolCall(
        index,
        f"c{index}",
        draw(st.sampled_from(KINDS)),
        target=draw(st.sampled_from(WORDS)),
        status=draw(st.sampled_from(STATUSES)),
        summary=draw(st.sampled_from(WORDS)),
        **times,
    )


@st.composite
def packed_calls(draw: Any) -> CallColumns:
    """Calls packed in one or two sweeps, some named again (unpacked and changed),
    some not packed yet."""
    count = draw(st.integers(0, 40))
    calls = [draw(a_call(index)) for index in range(count)]
    first = draw(st.integers(0, count))
    columns = CallColumns(calls[:first])
    columns.pack(None)
    for call in calls[first:]:
        columns.append(call)
    if draw(st.booleans()):
        columns.pack(None)
    for row in draw(st.lists(st.integers(0, max(columns.packed - 1, 0)), max_size=4)):
        if row < columns.packed:
            named = columns.unpack(row)
            named.status = draw(st.sampled_from(STATUSES))
            named.summary = draw(st.sampled_from(WORDS))
            named.end_ts = draw(TIMES)
    for index in range(count, count + draw(st.integers(0, 3))):
        columns.append(draw(a_call(index)))
    return columns


def filters() -> st.SearchStrategy[CallFilter]:
    return st.builds(
        CallFilter,
        status=st.sampled_from([None, *STATUS_GROUPS]),
        kind=st.sampled_from([None, *KINDS, "none of them"]),
        text=st.sampled_from(TEXTS),
        order=st.sampled_from(list(ORDERS)),
    )


def indices(calls: Any) -> list[int]:
    return [call.index for call in calls]


@settings(max_examples=200, deadline=None)
@given(packed_calls(), st.lists(filters(), min_size=1, max_size=4))
def test_the_columns_let_through_what_the_calls_do(
    columns: CallColumns, chosen: list[CallFilter]
) -> None:
    """Each filter, read from the columns, shows the calls the objects' filter shows."""
    objects = list(columns)
    for call_filter in chosen:
        arranged = call_filter.arrange(columns)
        assert isinstance(arranged, call_reading.CallsView)
        assert indices(arranged) == indices(call_filter.arrange(objects)), call_filter
    for index in range(len(objects)):  # a tool block's look in the transcript
        assert call_reading.call_look(columns, index) == call_reading.call_look(objects, index)


def test_codes_past_a_byte_and_a_fork() -> None:
    """Targets and summaries past 255 distinct strings (two-byte codes), in a fork
    that shares the rows of a longer sequence."""
    calls = [
        ToolCall(
            index,
            f"c{index}",
            KINDS[index % 4],
            target=f"t{index} py" if index % 3 else f"T{index}",
            status=STATUSES[index % len(STATUSES)],
            summary=f"s{index % 300}",
            start_ts=index,
            end_ts=index + (index * 7919) % 100 if index % 5 else None,
        )
        for index in range(700)
    ]
    columns = CallColumns(calls)
    columns.pack(None)
    assert columns.code_column("target").codes.typecode != "B"
    fork = columns.fork(500, {})
    for sequence in (columns, fork):
        objects = list(sequence)
        for status, kind, text, order in product(
            [None, "failed"], [None, "shell"], ["", "py", "s29", "t1 p"], ORDERS
        ):
            call_filter = CallFilter(status=status, kind=kind, text=text, order=order)
            assert indices(call_filter.arrange(sequence)) == indices(call_filter.arrange(objects))


@given(st.lists(st.integers(0, 60), unique=True, min_size=1, max_size=30), st.integers(-5, 70))
def test_the_nearest_row_is_the_first_of_the_nearest(places: list[int], index: int) -> None:
    """A filtered table's cursor goes to the row whose call is nearest (the first of
    two as near), as the objects' search for it finds."""
    columns = CallColumns([ToolCall(place, f"c{place}", "read") for place in range(61)])
    view = call_reading.CallsView(columns, places)
    expected = min(range(len(places)), key=lambda row: (abs(places[row] - index), row))
    assert call_reading.nearest_row(view, index) == expected
