"""One long session streams in constant memory too: ``--events`` lets go of the blocks
and calls it told whole (issue 30.8). A run of one session, ten times as long, peaks at
about the same traced memory (``tracemalloc``), and the session keeps its blocks' and
calls' places, not their text."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator

import orjson

import streamview.core.normalizer as normalizer
from streamview.core.event_stream import EventStream
from tests.cli.helpers import SID, init_record, ndjson, result_record

TURN_LINES = 34
"""Lines of one turn of :func:`turn`."""


def turn(number: int) -> bytes:
    """Thinking deltas, answer deltas, then a read and its result: :data:`TURN_LINES` lines."""
    records: list[dict[str, object]] = []
    for piece in range(10):
        records.append(
            {"type": "thinking", "subtype": "delta", "text": f"thought {piece} ", "session_id": SID}
        )
    records.append({"type": "thinking", "subtype": "completed", "session_id": SID})
    for piece in range(20):
        records.append(
            {
                "type": "assistant",
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"w{piece} "}],
                },
                "session_id": SID,
                "timestamp_ms": 1_700_000_000_000 + number,
            }
        )
    call = f"call-{number}"
    args = {"path": f"src/module_{number}.py"}
    result = {"success": {"content": "line of the file\n" * 40, "totalLines": 40}}
    for subtype, body in (
        ("started", {"args": args}),
        ("completed", {"args": args, "result": result}),
    ):
        records.append(
            {
                "type": "tool_call",
                "subtype": subtype,
                "call_id": call,
                "tool_call": {"readToolCall": body},
                "session_id": SID,
            }
        )
    records.append({"type": "thinking", "subtype": "completed", "session_id": SID})
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


def one_session(turns: int) -> Iterator[bytes]:
    """A run of ``turns`` turns, one session from its init to its result, chunk by chunk."""
    yield ndjson(init_record())
    for number in range(turns):
        yield turn(number)
    yield ndjson(result_record("done"))


def traced_peak(turns: int) -> tuple[int, EventStream]:
    """The peak traced memory of reading one session of ``turns`` turns as events (the
    input is made first: only what the reading holds is traced)."""
    chunks = list(one_session(turns))
    stream = EventStream()
    tracemalloc.start()
    try:
        stream.start()
        for chunk in chunks:
            stream.feed(chunk)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, stream


def test_a_session_ten_times_as_long_peaks_at_about_the_same_memory() -> None:
    short, _ = traced_peak(60)  # about 2k events
    long, stream = traced_peak(600)  # about 20k events
    assert len(stream.state.sessions) == 1
    assert stream.state.counts.events >= 600 * TURN_LINES
    # What is left is a pointer per block and call (about a byte an event here); it
    # held their text: 9x the memory for 10x the events.
    assert long < short * 2, f"{long >> 10} KiB for 20k events, {short >> 10} KiB for 2k"


def test_the_told_blocks_and_calls_of_the_open_session_are_let_go() -> None:
    _, stream = traced_peak(200)
    session = stream.state.sessions[0]
    freed = {id(block) for block in normalizer.FREED_BLOCKS.values()}
    kept = [block for block in session.blocks if id(block) not in freed]
    assert len(session.blocks) >= 200 * 3  # every place kept: thinking, text, tool
    assert len(kept) < 100, f"{len(kept)} of {len(session.blocks)} blocks still held"
    calls = [call for call in session.tool_calls if call is not normalizer.FREED_CALL]
    assert len(session.tool_calls) == 200
    assert len(calls) < 50 and len(session.calls_by_id) < 50
    stream.finish()
    assert session.outcome.status == "success"
    assert stream.end().exit_code == 0
