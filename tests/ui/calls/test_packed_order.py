"""Slowest first and trouble first of a packed session, sorted a chunk at a time and
merged (``ui/calls/packed_order.py``), give the places the plain :func:`sorted` of the
calls gives, for every order and filter: ties (equal durations, none, zero) in the order
the calls ran, across chunks of any size; a duration that cannot be packed sorted the
plain way."""

from __future__ import annotations

from collections.abc import Callable
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core.call_columns import CallColumns
from streamview.core.call_reading import CallsView, row_durations
from streamview.core.model import ToolCall
from streamview.ui.calls import packed_order
from streamview.ui.calls.filter import TROUBLE_RANK, CallFilter
from streamview.ui.calls.packed_order import slowest_places, trouble_places

from .test_filter_columns import filters, packed_calls

PLAIN_KEYS: dict[str, Callable[[ToolCall], int]] = {
    "run": lambda call: 0,
    "slowest": lambda call: -(call.duration_ms or -1),
    "trouble": lambda call: TROUBLE_RANK.get(call.status, 3),
}
"""Each order as a key of :func:`sorted` (stable: ties as the calls ran)."""


def plain(calls: list[ToolCall], call_filter: CallFilter) -> list[int]:
    """The places ``call_filter`` shows, by the plain sort of the calls."""
    shown = [call for call in calls if call_filter.admits(call)]
    return [call.index for call in sorted(shown, key=PLAIN_KEYS[call_filter.order])]


@settings(max_examples=150, deadline=None)
@given(packed_calls(), st.lists(filters(), min_size=1, max_size=4), st.integers(1, 9))
def test_every_order_and_filter_as_the_plain_sort(
    columns: CallColumns, chosen: list[CallFilter], chunk: int
) -> None:
    """Each filter and order of the columns, in chunks of 1 to 9 rows, shows the places
    the plain sort of the calls shows."""
    objects = list(columns)
    with patch.object(packed_order, "CHUNK", chunk):
        for call_filter in chosen:
            arranged = call_filter.arrange(columns)
            assert isinstance(arranged, CallsView)
            assert list(arranged.places) == plain(objects, call_filter), call_filter


@settings(max_examples=150, deadline=None)
@given(packed_calls(), st.data(), st.integers(1, 9))
def test_the_chunks_sort_as_the_calls_do(
    columns: CallColumns, data: st.DataObject, chunk: int
) -> None:
    """:func:`slowest_places` and :func:`trouble_places` of any rows: the plain sort's
    places; ``None`` from slowest first exactly when a duration cannot be packed."""
    objects = list(columns)
    flags = data.draw(
        st.none() | st.lists(st.booleans(), min_size=len(objects), max_size=len(objects))
    )
    shown = None if flags is None else bytearray(flags)
    places = [place for place in range(len(objects)) if shown is None or shown[place]]
    with patch.object(packed_order, "CHUNK", chunk):
        slowest = slowest_places(columns, shown)
        trouble = trouble_places(columns, shown, TROUBLE_RANK)
    durations = [call.duration_ms for call in objects]  # shown or not
    longest = (1 << 28) - 2  # ms: the key takes what of 52 bits 24 for the place leave
    packs = all(d is None or (d.__class__ is int and 0 <= d <= longest) for d in durations)
    assert (slowest is not None) == packs
    if slowest is not None:
        assert list(slowest) == sorted(places, key=lambda p: -(objects[p].duration_ms or -1))
    assert list(trouble) == sorted(places, key=lambda p: TROUBLE_RANK.get(objects[p].status, 3))


def test_ties_keep_the_order_the_calls_ran_across_chunks() -> None:
    """Equal durations, none and zero, spread over chunks of 4: each tie in place order,
    none and zero together last."""
    calls = [
        ToolCall(
            place, f"c{place}", "read", start_ts=100, end_ts=[None, 100, 105, 107, 1100][place % 5]
        )
        for place in range(50)
    ]
    columns = CallColumns(calls[:45])
    columns.pack(None)
    for call in calls[45:]:
        columns.append(call)
    with patch.object(packed_order, "CHUNK", 4):
        slowest = slowest_places(columns, None)
    assert slowest is not None
    by_duration: dict[int | None, list[int]] = {}
    for place in slowest:
        by_duration.setdefault(calls[place].duration_ms or 0, []).append(place)
    assert list(by_duration) == [1000, 7, 5, 0]
    assert all(group == sorted(group) for group in by_duration.values())
    assert by_duration[0] == [place for place in range(50) if place % 5 < 2]


def test_a_float_duration_is_sorted_the_plain_way() -> None:
    """A time the columns keep on the side as it came (a float): slowest first cannot
    pack it and the filter sorts the calls as the plain sort does."""
    calls = [
        ToolCall(place, f"c{place}", "read", start_ts=0, end_ts=place % 4) for place in range(20)
    ]
    calls[7] = ToolCall(7, "c7", "read", start_ts=0, end_ts=2.5)  # type: ignore[arg-type]
    columns = CallColumns(calls)
    columns.pack(None)
    assert slowest_places(columns, None) is None
    arranged = CallFilter(order="slowest").arrange(columns)
    assert isinstance(arranged, CallsView)
    assert list(arranged.places) == plain(calls, CallFilter(order="slowest"))
    assert arranged.places[:6].tolist() == [3, 11, 15, 19, 7, 2]


def test_places_past_two_bytes_in_many_stretches() -> None:
    """70,000 calls (places past 65,535: the third byte of a packed place), chunks of
    4,096 merged in stretches, shown or one in three left out: the plain sort's places."""
    calls = [
        ToolCall(
            place,
            f"c{place}",
            "read",
            status="success",
            start_ts=0,
            end_ts=(place * 7919) % 1000 or None,
        )
        for place in range(70_000)
    ]
    columns = CallColumns(calls)
    columns.pack(None)
    assert not columns.overlay  # finished calls: read from the columns
    shown = bytearray(place % 3 != 1 for place in range(70_000))
    with patch.object(packed_order, "CHUNK", 4_096):
        for flags in (None, shown):
            slowest = slowest_places(columns, flags)
            assert slowest is not None
            places = [place for place in range(70_000) if flags is None or flags[place]]
            expected = sorted(places, key=lambda p: -(calls[p].duration_ms or -1))
            assert slowest.tolist() == expected


def test_a_stale_row_is_sorted_by_what_its_call_says_now() -> None:
    """A packed call the fold took back (``unpack``: its row stale) whose row still
    holds a duration too long to pack, and whose call now has none: slowest first asks
    the call, packs every key and sorts as the plain sort does (CI once found the
    stale row's duration checked first: slowest first fell back for nothing)."""
    calls = [
        ToolCall(place, f"c{place}", "read", status="success", start_ts=0, end_ts=place)
        for place in range(12)
    ]
    calls[5] = ToolCall(5, "c5", "read", status="success", start_ts=0, end_ts=1 << 40)
    columns = CallColumns(calls)
    columns.pack(None)
    assert not columns.overlay and row_durations(columns)[5] == 1 << 40  # in its row
    call = columns.unpack(5)
    call.end_ts = None  # what the fold may do to a call it took back
    with patch.object(packed_order, "CHUNK", 4):
        slowest = slowest_places(columns, None)
    assert slowest is not None
    assert list(slowest) == plain(list(columns), CallFilter(order="slowest"))
    assert list(slowest)[-2:] == [0, 5]  # no duration and zero last, as they ran
