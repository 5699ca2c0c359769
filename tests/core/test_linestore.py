"""A file's lines found again by their place: every line, any chunking, any endings."""

from __future__ import annotations

from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

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
