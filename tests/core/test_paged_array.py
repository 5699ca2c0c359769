"""The viewer's packed rows in pages of a file with no name (issue 27.5): a page let
go and read back is what was written, a changed page is written back, and a file that
cannot be written leaves the pages in memory and says why."""

from __future__ import annotations

import errno
import os
import threading
from array import array
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import streamview.core.args_store as args_store
import streamview.core.block_spill as block_spill
import streamview.core.paged_array as paged_array
from streamview.core.call_ids import SeenIds
from streamview.core.linestore import FileLineStore
from streamview.core.paged_array import PagedArray, PageFile, widened
from streamview.core.state import StreamState
from streamview.core.timeline import fold_indexed
from tests.core import test_call_columns as call_columns_tests
from tests.core import test_call_ids as call_ids_tests

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tiny_pages(monkeypatch: pytest.MonkeyPatch) -> PageFile:
    """Every paged array of the test in 16-byte pages, two of them cached."""
    pages = PageFile(cache_pages=2, page_bytes=16)
    monkeypatch.setattr(paged_array, "_SHARED", pages)
    return pages


def test_pages_let_go_are_read_back_as_written() -> None:
    """Pages past the cache are in the file only, and come back equal."""
    pages = PageFile(cache_pages=1, page_bytes=16)
    values = PagedArray("i", range(-50, 50), pages)
    assert len(values._places) == 25 and all(place >= 0 for place in values._places)
    assert not values._held and pages.end == 25 * 16
    assert list(values) == list(range(-50, 50))
    assert [values[i] for i in range(99, -1, -7)] == [i - 50 for i in range(99, -1, -7)]
    assert values[-1] == 49 and values[-100] == -50
    assert values[10:90].tolist() == list(range(-40, 40))
    assert values.count(7) == 1 and values.tobytes() == array("i", range(-50, 50)).tobytes()


def test_a_changed_page_is_written_back_when_let_go() -> None:
    """An item set on a page in the file, then two other pages read: the change is read
    back from the file."""
    pages = PageFile(cache_pages=1, page_bytes=16)
    values = PagedArray("q", range(40), pages)
    values[3] = -3
    values[30] = 1 << 40
    assert values[39] == 39  # the page of 3 and 30 let go
    assert values[3] == -3 and values[30] == 1 << 40
    with pytest.raises(OverflowError):
        PagedArray("B", [1], pages)[0] = 256


def test_the_page_read_last_is_not_read_stale() -> None:
    """An item read (its page remembered), the page let go, an item of it changed (read
    back into a new page): the next read sees the change."""
    pages = PageFile(cache_pages=1, page_bytes=16)
    values = PagedArray("i", range(12), pages)
    other = PagedArray("i", range(12), pages)
    assert values[1] == 1  # its page 0 remembered
    assert other[5] == 5  # the other's page in the one place of the cache
    values[2] = -2  # page 0 read back as another array, changed
    assert values[1] == 1 and values[2] == -2
    assert other[5] == 5 and values[2] == -2


def test_an_overflow_leaves_the_array_as_it_was() -> None:
    """``extend`` and ``append`` of a value too wide change nothing (the columns widen
    on the error and try again)."""
    values = PagedArray("B", range(20), PageFile(page_bytes=8))
    for bad in ([1, 2, 300], [256]):
        with pytest.raises(OverflowError):
            values.extend(bad)
    with pytest.raises(OverflowError):
        values.append(-1)
    assert list(values) == list(range(20))
    wide = widened(values, "H")
    wide.append(300)
    assert list(wide) == [*range(20), 300] and wide.typecode == "H"


def test_a_full_disk_keeps_the_pages_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pwrite`` failing with ENOSPC: nothing raised, every item still there, and the
    file says why once."""
    pages = PageFile(cache_pages=1, page_bytes=16)
    values = PagedArray("i", range(20), pages)
    real = os.pwrite

    def full(fd: int, data: Any, at: int) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "pwrite", full)
    values.extend(range(20, 60))
    values[2] = -2  # a page in the file, changed, then let go: cannot be written back
    assert values[59] == 59
    assert pages.failed == os.strerror(errno.ENOSPC)
    del values[30:]  # pages held in memory cut off; the rest read back later
    values.extend(range(30, 60))
    monkeypatch.setattr(os, "pwrite", real)
    assert list(values) == [0, 1, -2, *range(3, 60)]
    assert pages.write(b"x") == -1, "no more writes once failed"


def test_no_file_at_all_keeps_the_pages_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """The file cannot even be made (no temporary folder): all in memory."""

    def no_file() -> Any:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr("streamview.core.text_store.anonymous_file", no_file)
    pages = PageFile(page_bytes=8)
    values = PagedArray("H", range(100), pages)
    assert pages.failed == os.strerror(errno.EROFS) and len(values._held) == 25
    assert list(values) == list(range(100))


_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(-(1 << 31), (1 << 31) - 1)),
        st.tuples(st.just("extend"), st.lists(st.integers(-(1 << 31), (1 << 31) - 1), max_size=20)),
        st.tuples(st.just("set"), st.integers(0, 200), st.integers(-(1 << 31), (1 << 31) - 1)),
        st.tuples(st.just("get"), st.integers(-200, 200)),
        st.tuples(st.just("slice"), st.integers(-5, 200), st.integers(-5, 200)),
        st.tuples(st.just("count"), st.integers(-2, 2)),
        st.tuples(st.just("cut"), st.integers(-30, 200)),
        st.tuples(st.just("range"), st.integers(0, 200), st.lists(st.integers(-9, 9), max_size=20)),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(_OPS, st.sampled_from([8, 16, 32]), st.integers(1, 3))
def test_the_same_as_a_list(ops: list[tuple[Any, ...]], page_bytes: int, cache: int) -> None:
    """Any appends, extends, item changes (one or a run), reads and cuts (``del
    values[n:]``): what a list does."""
    pages = PageFile(cache_pages=cache, page_bytes=page_bytes)
    values = PagedArray("i", (), pages)
    model: list[int] = []
    for op in ops:
        if op[0] == "append":
            values.append(op[1])
            model.append(op[1])
        elif op[0] == "extend":
            values.extend(op[1])
            model.extend(op[1])
        elif op[0] == "set" and op[1] < len(model):
            values[op[1]] = op[2]
            model[op[1]] = op[2]
        elif op[0] == "get" and -len(model) <= op[1] < len(model):
            assert values[op[1]] == model[op[1]]
        elif op[0] == "slice":
            assert values[op[1] : op[2]].tolist() == model[op[1] : op[2]]
        elif op[0] == "count":
            assert values.count(op[1]) == model.count(op[1])
        elif op[0] == "cut":
            del values[op[1] :]
            del model[op[1] :]
        elif op[0] == "range" and op[1] + len(op[2]) <= len(model):
            values.set_range(op[1], array("i", op[2]))
            model[op[1] : op[1] + len(op[2])] = op[2]
        assert len(values) == len(model)
    assert list(values) == model
    pages.close()


def test_pages_cut_off_make_room_for_the_next() -> None:
    """An array cut and extended again and again (the transcript's offsets, laid out
    again from a block on) writes its new pages where the cut ones were: the file does
    not grow; a changed page cut off is not written back over them."""
    pages = PageFile(cache_pages=2, page_bytes=16)
    values = PagedArray("i", range(40), pages)
    end = pages.end
    for round_ in range(5):
        if round_ == 1:
            values[5] = -round_  # a changed page in the cache, cut off below
        del values[3:]
        values.extend(range(3 + round_, 40 + round_))
        assert list(values) == [0, 1, 2, *range(3 + round_, 40 + round_)]
        # read from the first page on, the page read last in the round before
        assert [values[at] for at in range(40)] == list(values)
        assert [values[at] for at in range(39, -1, -1)] == list(values)[::-1]
        assert pages.end == end
    with pytest.raises(TypeError):
        del values[2:4]
    pages.close()


def test_another_thread_reads_while_pages_fill() -> None:
    """A reader of the rows already there, while the fold's thread appends and changes
    items (each page let go at once): it always reads what was written."""
    pages = PageFile(cache_pages=1, page_bytes=16)
    values = PagedArray("i", range(64), pages)
    wrong: list[int] = []
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            for index in range(0, 64, 3):
                if values[index] not in (index, -index):
                    wrong.append(index)

    reader = threading.Thread(target=read)
    reader.start()
    for round_ in range(300):
        values.extend(range(64 + 4 * round_, 68 + 4 * round_))
        values[round_ % 64] = -(round_ % 64)
    done.set()
    reader.join()
    assert not wrong
    assert values[64:].tolist() == list(range(64, 64 + 1200))


def test_two_threads_filling_their_own_arrays_keep_their_own_pages() -> None:
    """The fold's thread pages out its columns while the UI's pages out the
    transcript's offsets, into one file: each page gets a place of its own (the place
    and the file are taken under a lock) and every item reads back as written. Seen
    in CI: two pages written at one place gave the transcript's offsets a column's
    numbers, and a line number of -5 (IndexError painting the transcript)."""
    import sys

    pages = PageFile(cache_pages=2, page_bytes=8)
    arrays: list[list[PagedArray]] = [[], []]
    start = threading.Barrier(2)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as CPython will

    def fill(which: int) -> None:
        start.wait()
        for number in range(40):
            values = PagedArray("i", (), pages)
            arrays[which].append(values)
            for item in range(64):
                values.append(which * 1_000_000 + number * 1000 + item)

    try:
        threads = [threading.Thread(target=fill, args=(which,)) for which in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    for which in (0, 1):
        for number, values in enumerate(arrays[which]):
            expected = [which * 1_000_000 + number * 1000 + item for item in range(64)]
            assert list(values) == expected, (which, number)
    assert len({values._token for both in arrays for values in both}) == 80
    assert pages.end == 80 * 64 * 4  # no page written over another, none lost
    pages.close()


def test_packed_calls_in_tiny_pages(tiny_pages: PageFile) -> None:
    """The calls' columns in 16-byte pages, two cached: every recording's calls read back
    as the fold's, and the seeks of the packed fold."""
    for path in call_columns_tests.files()[::2]:
        call_columns_tests.test_packed_calls_read_back_as_the_folds(path)
    for name in ("success-multi-tool.ndjson", "denied-tools.ndjson"):
        call_columns_tests.test_seeks_of_recordings(name)
    call_columns_tests.test_a_reused_id_stands_for_its_last_call_and_a_fork_for_its_own()
    call_columns_tests.test_a_code_column_widens_and_keeps_unhashable_values()
    assert tiny_pages.end > 0, "pages were written"


def test_call_ids_in_tiny_pages(tiny_pages: PageFile) -> None:
    """The ids' blob, its table and the playback index's seen ids with their bytes and
    ends in 16-byte pages, two cached: as with them in memory (the tables grow by
    reading the ids back a page at a time)."""
    call_ids_tests.test_a_blob_gives_back_each_id_appended_or_extended()
    call_ids_tests.test_a_table_finds_the_last_row_before_a_limit()
    call_ids_tests.test_seen_ids_answer_as_a_dictionary()
    seen = SeenIds()
    ids = [f"toolu_{number:05d}" for number in range(3000)]
    assert [seen.note(call_id, number % 3 == 0) for number, call_id in enumerate(ids)] == [
        None
    ] * 3000
    assert [seen.get(call_id) for call_id in ids] == [n % 3 == 0 for n in range(3000)]
    assert seen.get("toolu_3000") is None
    assert tiny_pages.end > 3000 * 11


def test_a_file_fold_with_no_page_file_says_so_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The viewer's fold of a file whose pages cannot be written: the same state as with
    them written, and one notice in the event log saying why."""
    path = REPO / "recordings" / "success-multi-tool.ndjson"
    monkeypatch.setattr(args_store, "SWEEP_EVERY", 64)
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 64)

    def fold_with(pages: PageFile) -> StreamState:
        monkeypatch.setattr(paged_array, "_SHARED", pages)
        chunks = call_columns_tests.lines_of(path.read_bytes())
        return fold_indexed(chunks, FileLineStore(path))[0]

    written = fold_with(PageFile(cache_pages=2, page_bytes=8))
    assert not any(getattr(notice, "subtype", None) == "paging" for notice in written.notices)

    def no_file() -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("streamview.core.text_store.anonymous_file", no_file)
    failed = fold_with(PageFile(cache_pages=2, page_bytes=8))
    told = [notice for notice in failed.notices if getattr(notice, "subtype", None) == "paging"]
    assert len(told) == 1 and os.strerror(errno.ENOSPC) in told[0].text
    failed.notices.remove(told[0])
    assert call_columns_tests.plain(failed) == call_columns_tests.plain(written)
    assert paged_array.paging_notice() is None, "said once"
