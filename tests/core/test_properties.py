"""Properties: no input makes the fold raise, and chunking never changes the result."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamview.core import fold, summarize, tools

from .helpers import (
    assistant,
    completed,
    delta,
    flush,
    full_fold,
    init,
    result,
    started,
    thinking,
    user,
)

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Bytes that look like stream lines often enough to reach deep into the parser.
FRAGMENTS = [
    b"\n",
    b"\r\n",
    b"{",
    b"}",
    b'"type":',
    b'"tool_call"',
    b'"subtype":"completed"',
    b'{"type":"tool_call","subtype":"started","call_id":"a","tool_call":{"readToolCall":{}}}\n',
    b'{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]},"timestamp_ms":1}\n',
    b'{"type":"result","subtype":"success","result":"r","session_id":"s"}\n',
    b'{"type":"system","subtype":"init","session_id":"t"}\n',
    b"\xe2\x80",
    b"\x94",
    b"\xff",
    b"\x1b[31m",
    b"1e400",
    b"[[[[",
]

stream_bytes = st.one_of(
    st.binary(max_size=400),
    st.lists(st.sampled_from(FRAGMENTS) | st.binary(max_size=8), max_size=40).map(b"".join),
)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the given positions (taken modulo its length, sorted)."""
    if not data:
        return [data]
    points = sorted({cut % (len(data) + 1) for cut in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


@SETTINGS
@given(stream_bytes)
def test_arbitrary_bytes_never_raise_and_every_line_is_counted(data: bytes) -> None:
    state = fold([data])
    counts = state.counts
    assert counts.total == counts.events + counts.malformed + counts.unknown
    non_blank = [line for line in data.split(b"\n") if line.strip()]
    assert counts.total == len(non_blank)
    summarize(state)


@SETTINGS
@given(stream_bytes, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_any_chunking_gives_the_same_summary(data: bytes, cuts: list[int]) -> None:
    whole = summarize(full_fold([data]))
    assert summarize(fold([data])) == whole
    assert summarize(fold(chunked(data, cuts))) == whole
    assert summarize(full_fold(chunked(data, cuts))) == whole


@SETTINGS
@given(stream_bytes)
def test_byte_by_byte_gives_the_same_summary(data: bytes) -> None:
    assert summarize(fold(data[i : i + 1] for i in range(len(data)))) == summarize(fold([data]))


# -- interleavings of valid events -------------------------------------------------------------

RESULT_UNIONS: list[dict[str, Any]] = [
    {"success": {"exitCode": 0, "stdout": "ok"}},
    {"success": {"exitCode": 1}},
    {"failure": {"exitCode": 2}},
    {"rejected": {"reason": ""}},
    {"error": {"message": "boom"}},
    {"mystery": 1},
]
EXPECTED_STATUS = {
    0: tools.SUCCEEDED,
    1: tools.FAILED,
    2: tools.FAILED,
    3: tools.REJECTED,
    4: tools.ERROR,
    5: tools.COMPLETED,
}


@st.composite
def interleavings(
    draw: st.DrawFn,
) -> tuple[list[bytes], dict[str, int | None], set[str], bool]:
    """Random orders of started/completed for several calls, text around them.

    Returns the lines, each call's result index (``None``: never completed), the
    calls that have a ``started`` line, and whether the run ends with a result line.
    """
    count = draw(st.integers(min_value=1, max_value=6))
    call_ids = [f"call_{n}\nfc_{n}" for n in range(count)]
    items: list[tuple[str, str]] = []
    outcomes: dict[str, int | None] = {}
    with_start: set[str] = set()
    for call_id in call_ids:
        has_start = draw(st.booleans())
        has_end = draw(st.booleans()) or not has_start
        if has_start:
            items.append(("start", call_id))
            with_start.add(call_id)
        if has_end:
            items.append(("end", call_id))
        outcomes[call_id] = draw(st.integers(0, len(RESULT_UNIONS) - 1)) if has_end else None
    extras = draw(
        st.lists(st.sampled_from(["delta", "recap", "flush", "think", "junk"]), max_size=10)
    )
    items.extend(("extra", kind) for kind in extras)
    order = draw(st.permutations(items))
    lines = [init(), user("go")]
    for what, value in order:
        if what == "start":
            lines.append(started(value, "shell", {"command": value}))
        elif what == "end":
            index = outcomes[value]
            assert index is not None
            lines.append(completed(value, "shell", RESULT_UNIONS[index]))
        elif value == "delta":
            lines.append(delta("**"))
        elif value == "recap":
            lines.append(assistant("recap", model_call_id="m", timestamp_ms=1))
        elif value == "flush":
            lines.append(flush("flush"))
        elif value == "think":
            lines.append(thinking("hmm"))
        else:
            lines.append(b"not json at all\n")
    ends = draw(st.booleans())
    if ends:
        lines.append(result("done"))
    return lines, outcomes, with_start, ends


@SETTINGS
@given(interleavings())
def test_interleaved_starts_and_completions_never_raise_and_add_up(
    case: tuple[list[bytes], dict[str, int | None], set[str], bool],
) -> None:
    lines, outcomes, with_start, ends = case
    assert summarize(fold([b"".join(lines)])) == summarize(full_fold(lines))
    state = full_fold([b"".join(lines)])
    counts = state.counts
    assert counts.total == len(lines)
    assert counts.total == counts.events + counts.malformed + counts.unknown
    assert counts.malformed == sum(1 for line in lines if line.startswith(b"not json"))
    (session,) = state.sessions
    calls = {call.call_id: call for call in session.tool_calls}
    assert set(calls) == set(outcomes)
    for call_id, index in outcomes.items():
        expected = tools.INTERRUPTED if index is None else EXPECTED_STATUS[index]
        assert calls[call_id].status == expected, call_id
        assert calls[call_id].target == (call_id if call_id in with_start else None)
    assert session.outcome.status == ("success" if ends else "incomplete")
