"""Packed call ids (:mod:`streamview.core.call_ids`): an :class:`IdBlob` gives back each
id it was given, an :class:`IdTable` finds the rows a list would, and :class:`SeenIds`
answers as the dictionary of ids it stands for (issue 27.5)."""

from __future__ import annotations

from array import array
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core.call_ids import IdBlob, IdTable, SeenIds

ODD_IDS: list[Any] = [
    "toolu_01ABC",
    "",
    "é",
    "call\u2028with\nlines",
    "\ud800lone",  # a lone surrogate: JSON may carry one
    "日本語の呼び出し",
    7,
    None,
    ("a", 1),
]

ids_strategy = st.one_of(
    st.sampled_from(["a", "b", "", "toolu_1", "toolu_2", "é", "\udfff"]),
    st.text(max_size=6),
    st.integers(-3, 3),
)


def test_a_blob_gives_back_each_id_appended_or_extended() -> None:
    """Strings of any kind (empty, non-ASCII, a lone surrogate) and ids that are not
    strings come back equal, one by one or in runs."""
    one, run = IdBlob(), IdBlob()
    for call_id in ODD_IDS:
        one.append(call_id)
    run.extend(ODD_IDS[:3])
    run.extend(ODD_IDS[3:6])
    run.extend(ODD_IDS[6:])
    for blob in (one, run):
        assert len(blob) == len(ODD_IDS)
        assert [blob[row] for row in range(len(blob))] == ODD_IDS
        assert [type(blob[row]) for row in range(len(blob))] == [type(i) for i in ODD_IDS]


@settings(max_examples=300, deadline=None)
@given(st.lists(ids_strategy, max_size=60), st.lists(ids_strategy, max_size=10))
def test_a_table_finds_the_last_row_before_a_limit(ids: list[Any], asked: list[Any]) -> None:
    """Reused ids, ids of other types, a table grown many times: :meth:`IdTable.find`
    gives what a scan of the list would."""
    blob = IdBlob()
    table = IdTable(blob)
    cut = len(ids) // 2
    blob.extend(ids[:cut])
    table.add_rows(0, ids[:cut])
    for row, call_id in enumerate(ids[cut:], cut):
        blob.append(call_id)
        table.add(row, call_id)
    for call_id in [*ids, *asked]:
        for limit in (0, cut, len(ids)):
            rows = [row for row in range(limit) if ids[row] == call_id]
            assert table.find(call_id, limit) == (rows[-1] if rows else -1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(ids_strategy, st.booleans()), max_size=80))
def test_seen_ids_answer_as_a_dictionary(records: list[tuple[Any, bool]]) -> None:
    """Each record's answer (never seen, running, finished) and every later ``get``
    are the dictionary's (``PlaybackIndex``'s before): an id seen again after it
    finished, a completed record first, a running call named twice."""
    seen, model = SeenIds(), dict[Any, bool]()
    for call_id, completed in records:
        before = model.get(call_id)
        if before is None or (before is False and completed):
            model[call_id] = completed
        assert seen.note(call_id, completed) is before
        for known in [call_id, *model, "never"]:
            assert seen.get(known) is model.get(known)
    assert len(seen.running) == sum(1 for done in model.values() if not done)


class _SmallEnds(array):  # type: ignore[type-arg]
    """Ends that refuse a value past 20, as a 4-byte array refuses one past 4 GB."""

    def append(self, value: int) -> None:
        if value > 20:
            raise OverflowError(value)
        super().append(value)


def test_ids_past_the_4_byte_edge_keep_their_place() -> None:
    """When the ends' 4 bytes are too few, they become 8-byte and every id (seen or
    appended) is still there."""
    ids = [f"call_{number}" for number in range(8)]
    seen, blob = SeenIds(), IdBlob()
    seen.ids.ends = _SmallEnds("I")
    blob.ends = _SmallEnds("I")
    for call_id in ids:
        assert seen.note(call_id, True) is None
        blob.append(call_id)
    for held in (seen.ids, blob):
        assert held.ends.typecode == "q"
        assert [held[row] for row in range(len(ids))] == ids
    assert all(seen.note(call_id, False) is True for call_id in ids)


def test_tables_fill_three_quarters_before_they_grow() -> None:
    """A table holds up to three ids for four slots (five bytes a slot: a 2 GB session's
    576,690 calls in 2**20 slots, not 2**21), added one by one, in runs or seen, and
    finds each id after every growth."""
    ids = [f"toolu_{n:05d}" for n in range(3072)]
    blob = IdBlob()
    table, one_by_one, seen = IdTable(blob), IdTable(IdBlob()), SeenIds()
    for row, call_id in enumerate(ids):
        one_by_one.ids.append(call_id)
        one_by_one.add(row, call_id)
        seen.note(call_id, True)
    for start in range(0, len(ids), 100):
        blob.extend(ids[start : start + 100])
        table.add_rows(start, ids[start : start + 100])
    sizes = {len(grown.slots) for grown in (table, one_by_one, seen.table)}
    assert sizes == {4096}  # 3,072 ids: three quarters of 4,096 slots
    for grown in (table, one_by_one):
        assert [grown.first(call_id) for call_id in ids] == list(range(len(ids)))
    assert all(seen.get(call_id) for call_id in ids) and seen.get("toolu_x") is None
