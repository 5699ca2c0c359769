"""A file's lines found again by their place: every line, any chunking, any endings."""

from __future__ import annotations

from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core.events import UnknownRecord
from streamview.core.linestore import FileLineStore
from streamview.core.reader import fold

RECORD = orjson.dumps(
    {"type": "assistant", "message": {"content": [{"type": "text", "text": "hi"}]}}
)

lines = st.lists(
    st.one_of(
        st.just(RECORD),
        st.just(b""),
        st.just(b"   "),
        st.just(b"not json"),
        st.binary(max_size=12).filter(lambda b: b"\n" not in b),
    ),
    max_size=30,
)


def chunked(data: bytes, sizes: list[int]) -> list[bytes]:
    """``data`` cut into pieces of the given sizes (cycled), the last one whatever is left."""
    pieces, at, index = [], 0, 0
    while at < len(data):
        size = sizes[index % len(sizes)] if sizes else len(data)
        pieces.append(data[at : at + size])
        at += size
        index += 1
    return pieces


@settings(max_examples=150, deadline=None)
@given(
    lines=lines,
    endings=st.lists(st.sampled_from([b"\n", b"\r\n"]), min_size=1, max_size=30),
    final_newline=st.booleans(),
    sizes=st.lists(st.integers(min_value=1, max_value=40), max_size=5),
)
def test_every_line_is_read_back_as_it_was_written(
    tmp_path_factory: object,
    lines: list[bytes],
    endings: list[bytes],
    final_newline: bool,
    sizes: list[int],
) -> None:
    assert hasattr(tmp_path_factory, "mktemp")
    path: Path = tmp_path_factory.mktemp("store") / "run.ndjson"
    body = b"".join(line + endings[i % len(endings)] for i, line in enumerate(lines))
    if lines and not final_newline:
        body = body[: -len(endings[(len(lines) - 1) % len(endings)])]
    path.write_bytes(body)
    store = FileLineStore(path)
    fold(chunked(body, sizes), store=store)
    # What the store must say: each line where it starts, without its \r\n or \n.
    expected, start = [], 0
    for raw in body.split(b"\n"):
        expected.append((start, raw[:-1] if raw.endswith(b"\r") else raw))
        start += len(raw) + 1
    if body.endswith(b"\n") or not body:
        expected.pop()
    assert [store.get(number) for number in range(1, len(expected) + 1)] == [
        data for _, data in expected
    ]
    assert list(store.read_lines(1, len(expected))) == [
        (number, data) for number, (_, data) in enumerate(expected, 1)
    ]
    assert store.get(len(expected) + 1) is None


def sparse_file(path: Path, lines: dict[int, bytes]) -> None:
    """A file holding each of ``lines`` at its place, nothing (a hole) between them."""
    with open(path, "wb") as handle:
        for place, data in sorted(lines.items()):
            handle.seek(place)
            handle.write(data)


FAR = 1 << 32
"""The first place a 4-byte offset cannot hold."""
UNKNOWN = UnknownRecord(line=0, type="odd")
"""An event whose line a view may open (its bytes are kept)."""


def test_lines_past_four_gigabytes_are_read_back(tmp_path: Path) -> None:
    """A line the framer cut at 4 GB puts the next one past what 4 bytes hold: the
    store's offsets become 8-byte ints, and every line is still found."""
    path = tmp_path / "far.ndjson"
    sparse_file(path, {0: b"head", FAR: b"\nsecond\r\nthird\n"})
    store = FileLineStore(path)
    store.remember_lines([b"head", b"second\r"], cut={1: FAR})
    store.remember_lines([b"third"])
    assert store._offsets.itemsize == 8
    assert [store.get(number) for number in (1, 2, 3, 4)] == [b"head", b"second", b"third", None]
    assert list(store.read_lines(2, 3)) == [(2, b"second"), (3, b"third")]


def test_a_line_remembered_past_four_gigabytes(tmp_path: Path) -> None:
    """A line recorded by its place (a followed file), far out and after a gap."""
    path = tmp_path / "far.ndjson"
    sparse_file(path, {0: b"one\n", FAR + 5: b"far\n"})
    store = FileLineStore(path)
    store.remember_lines([b"one"])
    store.remember(4, FAR + 5, b"far", UNKNOWN)
    assert [store.get(number) for number in range(1, 6)] == [b"one", None, None, b"far", None]
    assert list(store.read_lines(4, 9)) == [(4, b"far")]


def test_small_files_take_four_bytes_a_place(tmp_path: Path) -> None:
    """Under 4 GB, a line's place and length are 4-byte ints; line 0 and a gap: unknown."""
    path = tmp_path / "run.ndjson"
    path.write_bytes(b"a\nbb\n\nccc\n")
    store = FileLineStore(path)
    store.remember_lines([b"a", b"bb"])
    store.remember(4, 6, b"ccc", UNKNOWN)
    assert (store._offsets.itemsize, store._lengths.itemsize) == (4, 4)
    assert [store.get(number) for number in range(5)] == [None, b"a", b"bb", None, b"ccc"]
    assert list(store.read_lines(0, 9)) == [(1, b"a"), (2, b"bb"), (4, b"ccc")]
