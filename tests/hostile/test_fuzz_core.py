"""Property tests: bytes, chunkings and orderings of real captures never break the fold."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamview.core.parse import parse_line

from .checks import check_stream
from .corpus import CORPUS
from .helpers import real_captures
from .mutate import MUTATIONS, chunked, mutate
from .streams import hostile_stream

CAPTURES = real_captures()
DATA = [path.read_bytes() for path in CAPTURES]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("path", CAPTURES, ids=lambda p: p.name[:40])
def test_every_capture_at_every_chunk_size_folds(path: object) -> None:
    """Each real capture, fed 1, 7 and 4096 bytes at a time, keeps every invariant."""
    data = path.read_bytes()  # type: ignore[attr-defined]
    whole = check_stream([data])
    for size in (1, 7, 4096):
        pieces = [data[i : i + size] for i in range(0, len(data), size)]
        assert check_stream(pieces) == whole


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_each_mutation_alone(name: str) -> None:
    """Every mutation kind, 20 times over every capture."""
    rng = random.Random(name)
    for data in DATA:
        for _ in range(20):
            lines = data.split(b"\n")[:-1]
            out = b"\n".join(MUTATIONS[name](lines, rng)) + b"\n"
            check_stream(chunked(out, rng, rng.randrange(1, 6)))


@FUZZ
@given(
    capture=st.integers(min_value=0, max_value=max(len(DATA) - 1, 0)),
    seed=st.integers(min_value=0, max_value=2**32),
    rounds=st.integers(min_value=1, max_value=8),
    pieces=st.integers(min_value=1, max_value=40),
)
def test_mutated_captures_in_any_chunking(
    capture: int, seed: int, rounds: int, pieces: int
) -> None:
    """Several mutations at once, cut anywhere: nothing raises, counts add up."""
    rng = random.Random(seed)
    data, _ = mutate(DATA[capture], rng, rounds)
    assert check_stream(chunked(data, rng, pieces)) == check_stream([data])


@FUZZ
@given(st.data())
def test_any_order_of_real_lines(data: st.DataObject) -> None:
    """Events of a real capture in any order (completions before starts...) fold."""
    lines = data.draw(st.sampled_from(DATA)).split(b"\n")
    order = data.draw(st.permutations(lines))
    check_stream([b"\n".join(order)])


@FUZZ
@given(st.binary(max_size=2000), st.lists(st.integers(0, 2000), max_size=10))
def test_arbitrary_bytes(blob: bytes, cuts: list[int]) -> None:
    """Any bytes at all, cut anywhere."""
    bounds = sorted({0, len(blob), *(c for c in cuts if c <= len(blob))})
    check_stream([blob[a:b] for a, b in itertools.pairwise(bounds)])


@FUZZ
@given(
    st.lists(
        st.sampled_from(
            [
                b"{",
                b"}",
                b"[",
                b"]",
                b'"',
                b"\\",
                b"\n",
                b"\r",
                b",",
                b":",
                b'"type"',
                b'"tool_call"',
                b'"assistant"',
                b'"result"',
                b'"\\ud800"',
                b'"\\u001b"',
                b"1e999",
                b"99999999999999999999999",
                b"null",
                b"\xff",
                b"\xe2\x80",
            ]
        ),
        max_size=60,
    )
)
def test_json_shaped_noise(tokens: list[bytes]) -> None:
    """Fragments of JSON glued at random: the parser's edge cases."""
    check_stream([b"".join(tokens)])


@pytest.mark.parametrize("sequence", CORPUS, ids=lambda s: s.name)
def test_hostile_stream_folds(sequence: object) -> None:
    """The hostile stream of every corpus sequence keeps every invariant."""
    check_stream([hostile_stream(sequence.text)])  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "line",
    [
        b'{"x": "\\ud800"}',
        b'{"type": 1, "x": "\\udfff"}',
        b'{"a": ' + b"[" * 300 + b"]" * 300 + b"}",
        b'{"type": null, "a": ' + b"[" * 600 + b"]" * 600 + b"}",
        b'{"type": "tool_call", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'{"type": "result", "duration_ms": 123456789012345678901234567890, "x": "\\ud800"}',
        b'{"a": ' + b"[" * 1020 + b"]" * 1020 + b"}",
        b'{"type": "result", "usage": ' + b'{"a":' * 1020 + b"1" + b"}" * 1020 + b"}",
    ],
    ids=[
        "surrogate-no-type",
        "surrogate-bad-type",
        "deep-no-type",
        "deeper-null-type",
        "too-deep",
        "huge-int-and-surrogate",
        "deeper-than-python-no-type",
        "deeper-than-python-usage",
    ],
)
def test_parse_line_never_raises_on_json_orjson_cannot_write(line: bytes) -> None:
    """Records orjson reads but cannot write back (or reads only via the fallback)."""
    event = parse_line(line, 1)
    assert event.line == 1
    check_stream([line + b"\n"])
