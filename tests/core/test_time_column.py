"""A :class:`~streamview.core.time_column.TimeColumn` reads back every time it was
given, in order and one at a time, whatever the steps between them: steps at and
around the edges of four bytes (kept whole past them), events without a time before,
between and after times, and runs longer than a block."""

from __future__ import annotations

import random
from array import array

import pytest

from streamview.core.checkpoints import NO_TIME, PlaybackIndex
from streamview.core.time_column import BLOCK, TimeColumn

EDGES = [
    (1 << 31) - 1,
    1 << 31,
    -(1 << 31),
    -(1 << 31) + 1,
    -(1 << 31) + 2,
    -(1 << 31) - 1,
    1 << 40,
    -(1 << 40),
    (1 << 63) - 1,
]
"""Steps a 4-byte int holds or not, and the two it holds that mark "none" and "whole"."""


def filled(values: list[int]) -> TimeColumn:
    """A column given ``values`` in order."""
    column = TimeColumn(NO_TIME)
    for value in values:
        column.append(value)
    return column


def assert_reads_back(values: list[int]) -> None:
    """Iterated, indexed from both ends, sliced and searched for "none": ``values``."""
    column = filled(values)
    assert len(column) == len(values)
    assert list(column) == values
    assert [column[n] for n in range(len(values))] == values
    assert [column[-n] for n in range(1, len(values) + 1)] == values[::-1]
    assert column[3:40:3] == values[3:40:3]
    assert (NO_TIME in column) == (NO_TIME in values)
    with pytest.raises(IndexError):
        column[len(values)]


@pytest.mark.parametrize("seed", range(40))
def test_random_times_read_back(seed: int) -> None:
    """Small steps, big jumps, steps at the edges, none, a leading run of none."""
    rng = random.Random(seed)
    start = rng.choice([0, 5, -7, 1_764_000_000_000, 1 << 62])
    values = [NO_TIME] * rng.randrange(0, 4)
    value = start
    for _ in range(rng.randrange(0, 5 * BLOCK)):
        roll = rng.random()
        if roll < seed % 4 * 0.1:
            values.append(NO_TIME)
            continue
        if roll > 0.93:
            value += rng.choice(EDGES) if value < 1 << 62 else -rng.choice(EDGES[:2])
        else:
            value += rng.randrange(-2_000, 120_000)
        values.append(max(min(value, (1 << 63) - 1), NO_TIME + 1))
        value = values[-1]
    assert_reads_back(values)


def test_each_edge_step_reads_back() -> None:
    """Each edge step, from each side of a block boundary, with none around it."""
    for step in EDGES:
        for place in (1, BLOCK - 1, BLOCK, BLOCK + 1):
            values = [1_000 + n for n in range(place)] + [1_000 + place - 1 + step]
            values += [values[-1] + 3, NO_TIME, values[-1] + 9]
            if not NO_TIME < values[place] < 1 << 63:
                continue
            assert_reads_back(values)
            assert_reads_back([NO_TIME, *values])


def test_no_time_at_all_costs_nothing() -> None:
    """A column of events without a time (a session file's arrival times) holds no array
    item; the first time after them starts the steps."""
    column = filled([NO_TIME] * 1_000)
    assert column.nbytes() == 0 and len(column) == 1_000 and NO_TIME in column
    column.append(42)
    assert column[999] == NO_TIME and column[1_000] == 42 and list(column)[-2:] == [NO_TIME, 42]


def test_steps_take_four_bytes() -> None:
    """A million-event-like run of small steps: about 4 bytes an event."""
    column = filled([1_764_000_000_000 + 37 * n for n in range(10 * BLOCK)])
    assert column.nbytes() == 10 * BLOCK * 4 + 10 * 8


def test_call_starts_past_four_billion_events() -> None:
    """A call starting after event 2**32 makes the index's starts 8-byte ints, kept."""
    index = PlaybackIndex()
    index.received.append(NO_TIME)
    index._call("first", False)
    assert index.call_starts == array("I", [0])
    index.received._lead = (1 << 32) + 1  # as if that many events without a time came
    index._call("far", False)
    assert index.call_starts == array("q", [0, 1 << 32])


@pytest.mark.parametrize("seed", range(20))
def test_extend_keeps_what_append_keeps(seed: int) -> None:
    """Times added in runs of any length (the index's held times) are kept as one by one:
    the same steps, times kept whole, blocks and leading none, and read back."""
    rng = random.Random(seed)
    values = [NO_TIME] * rng.randrange(0, 3 * BLOCK if seed % 3 == 0 else 3)
    value = rng.choice([5, 1_764_000_000_000])
    for _ in range(rng.randrange(0, 6 * BLOCK)):
        if rng.random() < seed % 4 * 0.05:
            values.append(NO_TIME)
            continue
        value += rng.choice(EDGES[:6]) if rng.random() > 0.97 else rng.randrange(-50, 9_000)
        values.append(value)
    one_by_one, in_runs = filled(values), TimeColumn(NO_TIME)
    start = 0
    while start < len(values):
        size = rng.choice([1, 2, BLOCK - 1, BLOCK, 3 * BLOCK + 5])
        in_runs.extend(array("q", values[start : start + size]))
        start += size
    kept = ("_lead", "_steps", "_anchors", "_exact", "_last")
    assert [getattr(in_runs, name) for name in kept] == [getattr(one_by_one, name) for name in kept]
    assert list(in_runs) == values and [in_runs[n] for n in range(len(values))] == values
