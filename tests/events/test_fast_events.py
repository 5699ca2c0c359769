"""``--events``' fast path (:mod:`streamview.core.event_fast`) tells what the long way
tells, at every split of the input, and takes the deltas to the block being told
without building their events (issue 30.8)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

import streamview.core.event_stream as event_stream
from streamview.core.event_stream import EventStream
from streamview.core.events import AnyEvent
from streamview.core.model import Session
from streamview.core.normalizer import Normalizer
from streamview.fronts.events_api import event_batches, to_json_lines
from tests.core.dialects.test_fast_json import with_a_bad_byte
from tests.events.test_memory_session import TURN_LINES, one_session

from .streams import DIALECT_FIXTURES, every_stream, name

SMALL = 40_000
"""Streams up to this size are also fed 7 bytes at a time."""


def told(chunks: list[bytes]) -> bytes:
    """What ``--events`` writes for the input ``chunks``."""
    return b"".join(to_json_lines(batch) for batch in event_batches(chunks))


def splits(data: bytes) -> list[list[bytes]]:
    """The input whole, in 4 KiB chunks, and (small ones) 7 bytes at a time."""
    sizes = [len(data) or 1, 4096] + ([7] if len(data) <= SMALL else [])
    return [[data[i : i + size] for i in range(0, len(data), size)] for size in sizes]


@pytest.mark.parametrize("path", every_stream(), ids=name)
def test_the_fast_path_tells_what_the_long_way_tells(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = path.read_bytes()
    fast = [told(chunks) for chunks in splits(data)]
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    slow = [told(chunks) for chunks in splits(data)]
    assert fast == slow


@pytest.mark.parametrize("path", every_stream(), ids=name)
def test_a_byte_that_is_not_utf8_is_told_alike_both_ways(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A byte that is not UTF-8 in a field no dialect reads: the long way repairs the
    line and tells it (``input/invalid-utf8``); a fast path's decoder, which skips the
    field unread, must not take the line and tell nothing."""
    data = with_a_bad_byte(path.read_bytes())
    fast = [told(chunks) for chunks in splits(data)]
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in splits(data)]


def test_a_long_session_is_told_alike_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(one_session(40))
    fast = [told(chunks) for chunks in splits(data)]
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in splits(data)]


def test_deltas_to_the_block_being_told_build_no_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """Of a turn's 34 lines (10 thinking and 20 text deltas), the long way reads the
    first delta of each block, the thinking's end, the call's two records, and the
    stray end: at most 6."""
    built: list[int] = []
    handle = Normalizer.handle

    def counting(normalizer: Normalizer, event: AnyEvent, session: Session | None) -> object:
        built.append(event.line)
        return handle(normalizer, event, session)

    monkeypatch.setattr(Normalizer, "handle", counting)
    stream = EventStream()
    stream.start()
    for chunk in one_session(100):
        stream.feed(chunk)
    assert stream.state.counts.events == 100 * TURN_LINES + 2
    lines = 100 * TURN_LINES + 2
    assert len(set(built)) <= 100 * 6 + 2, f"{len(set(built))} lines of {lines} built events"


def _long_way_lines(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lines the long way builds events of, from now on (its handler counts them)."""
    built: list[int] = []
    handle = Normalizer.handle

    def counting(normalizer: Normalizer, event: AnyEvent, session: Session | None) -> object:
        built.append(event.line)
        return handle(normalizer, event, session)

    monkeypatch.setattr(Normalizer, "handle", counting)
    return built


def test_the_first_chunk_goes_the_fast_way_once_its_first_line_named_the_dialect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A whole file is one chunk to a reader of 1 MiB reads (a sixth of the bench's
    10k-event file is its first chunk): once its first line named the dialect, the
    rest of that chunk is read the fast way, and told as the long way tells it."""
    data = b"".join(one_session(50))
    built = _long_way_lines(monkeypatch)
    fast = told([data])
    assert len(set(built)) <= 50 * 6 + 2, f"{len(set(built))} lines built events"
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == told([data])


@pytest.mark.parametrize("junk", [0, 3, 40])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b""])
def test_the_lines_before_the_dialect_is_known_are_told_alike_both_ways(
    junk: int, ending: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines that name no dialect (text, blank lines) before the first record, fewer or
    more than are read one at a time, each line ending in CRLF or the last one in
    nothing: the first chunk is told as the long way tells it."""
    head = b"".join(b"warming up %d\n\n" % i for i in range(junk))
    data = head + b"".join(one_session(3))
    data = data.replace(b"\n", b"\r\n") if ending == b"\r\n" else data
    data = data.removesuffix(b"\n") if ending == b"" else data
    feeds = [[data], [data[:100], data[100:]], [head, data[len(head) :]]]
    fast = [told(chunks) for chunks in feeds]
    assert fast[0].count(b'"text.delta"') == 3 * 20
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in feeds]


def _cursor(record: dict[str, object]) -> bytes:
    return json.dumps({**record, "session_id": record.get("session_id", "s1")}).encode() + b"\n"


def _say(text: str, when: int | None = 5, **more: object) -> bytes:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return _cursor({"type": "assistant", "message": message, "timestamp_ms": when, **more})


def _think(text: str, subtype: str = "delta", **more: object) -> bytes:
    record = {"type": "thinking", "subtype": subtype, "text": text, "timestamp_ms": 4}
    return _cursor({**record, **more})


def test_what_ends_a_run_of_deltas_is_told_alike_both_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each line that stops a run of deltas to one block (another session's, an untimed
    one, a thinking delta between text deltas, the whole message) and the deltas after
    it (an empty one, one with the time streamview received it) are told as the long
    way tells them."""
    lines = [
        _cursor({"type": "system", "subtype": "init", "model": "m", "cwd": "/w"}),
        *(_think(f"t{i} ") for i in range(3)),
        _cursor({"type": "thinking", "subtype": "completed", "timestamp_ms": 4}),
        *(_say(f"a{i} ") for i in range(3)),
        _say("other ", session_id="s2"),
        *(_say(f"c{i} ", session_id="s2") for i in range(3)),
        _say("", session_id="s2"),
        _say("late ", when=None, session_id="s2"),  # no time: not a delta
        *(_say(f"d{i} ", session_id="s2") for i in range(3)),
        _think("between ", session_id="s2"),
        *(_say(f"e{i} ", session_id="s2") for i in range(3)),
        _say("whole", model_call_id="m1", session_id="s2"),
        *(_say(f"b{i} ", streamview_recv_ms=9, session_id="s2") for i in range(3)),
    ]
    # The first line alone, then the rest in one chunk, where the fast path runs
    # deltas in a row.
    feeds = [[lines[0], b"".join(lines[1:])], *splits(b"".join(lines))]
    fast = [told(chunks) for chunks in feeds]
    assert fast[0].count(b'"text.delta"') >= 15
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in feeds]


def _fold(chunks: list[bytes]) -> dict[str, object]:
    """What the fold holds after ``chunks``: counts, each session's counts and times,
    each block's delta count and text, and the deltas told of each block."""
    stream = EventStream()
    stream.start()
    for chunk in chunks:
        stream.feed(chunk)
    state = stream.state
    return {
        "counts": msgspec.to_builtins(state.counts),
        "last_event_ms": state.last_event_ms,
        "sessions": [
            (s.events, s.last_line, s.first_time_ms, s.last_time_ms) for s in state.sessions
        ],
        "blocks": [[(b.deltas, "".join(b.parts)) for b in s.blocks] for s in state.sessions],
        # What the normalizer counts as told by deltas: a run goes on in the next chunk
        # only while it matches the block's count.
        "told": {key: shown.deltas for key, shown in stream.normalizer._shown.items()},
    }


def test_a_run_of_deltas_leaves_the_fold_as_the_long_way_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deltas of a run are counted once the run ends (another line, a chunk's end):
    the counts, each session's last line and times, the block's deltas and the time of
    the last event are what the long way leaves, the first time included when only a
    later delta of the run has one."""
    untimed = [_think(f"u{i} ", timestamp_ms=None) for i in range(2)]
    lines = [
        _cursor({"type": "system", "subtype": "init", "model": "m", "cwd": "/w"}),
        *untimed,
        *(_think(f"t{i} ", timestamp_ms=10 + i) for i in range(4)),
        *(_think(f"v{i} ", timestamp_ms=None) for i in range(2)),  # no time: the last stays
        _cursor({"type": "thinking", "subtype": "completed", "timestamp_ms": 20}),
        *(_say(f"a{i} ", when=30 + i) for i in range(4)),
        *(_say(f"r{i} ", when=40, streamview_recv_ms=50 + i) for i in range(3)),
    ]
    rest = b"".join(lines[1:])
    feeds = [[lines[0], rest], [lines[0], rest[: len(rest) // 2], rest[len(rest) // 2 :]]]
    fast = [_fold(chunks) for chunks in feeds]
    assert fast[0]["counts"]["events"] == len(lines)  # type: ignore[index]
    assert fast[0]["sessions"] == [(len(lines), len(lines), 10, 52)]
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [_fold(chunks) for chunks in feeds]


def test_a_block_opened_and_closed_by_a_run_is_told_without_handle_fast(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first delta of a block and the line that closes it (a thinking end, the
    whole message) are told by the fast path itself: of a turn's lines only the call's
    two records and the stray thinking end go through ``handle_fast``."""
    from streamview.core.fast_normalizer import FastNormalizer

    asked: list[int] = []
    handle_fast = FastNormalizer.handle_fast

    def counting(normalizer: FastNormalizer, session: Session, line: int, *rest: object) -> object:
        asked.append(line)
        return handle_fast(normalizer, session, line, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(FastNormalizer, "handle_fast", counting)
    chunks = list(one_session(20))
    fast = told(chunks)
    assert len(asked) <= 20 * 3, f"{len(asked)} lines through handle_fast"
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == told(chunks)


@pytest.mark.parametrize(
    "whole",
    [
        "a0 a1 a2 ",  # what the deltas said
        "a0 a1 a2 and more",  # more: a delta of the rest, then the end
        "something else",  # a recap that replaced them: corrected
        "",  # corrected too
    ],
)
def test_the_whole_message_that_closes_a_run_is_told_alike_both_ways(
    whole: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        _cursor({"type": "system", "subtype": "init", "model": "m", "cwd": "/w"}),
        *(_say(f"a{i} ") for i in range(3)),
        _say(whole, model_call_id="m1"),
        *(_think(f"t{i} ") for i in range(2)),
        _think("", subtype="completed"),
        _say("after"),
    ]
    feeds = [[lines[0], b"".join(lines[1:])], *splits(b"".join(lines))]
    fast = [told(chunks) for chunks in feeds]
    assert fast[0].count(b'"text.done"') == 2  # the whole message's, then "after"'s
    assert (b'"corrected":true' in fast[0]) == (not whole.startswith("a0 a1 a2 "))
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in feeds]


def test_a_block_opened_where_the_session_changes_is_told_alike_both_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the session changes around a run of deltas: a first delta that also names
    the session (its init named none: ``session.update``), one in a session of its own
    (no init: ``session.start``), a run's end in a third: told as the long way tells
    them (the fast path opens and closes no block there)."""
    init = {"type": "system", "subtype": "init", "model": "m", "cwd": "/w", "session_id": None}
    lines = [
        json.dumps(init).encode() + b"\n",
        *(_think(f"t{i} ") for i in range(3)),  # names the session s1
        *(_say(f"a{i} ") for i in range(2)),
        *(_say(f"b{i} ", session_id="s2") for i in range(2)),  # a session of its own
        _cursor({"type": "thinking", "subtype": "completed", "session_id": "s2"}),
        _say("whole", model_call_id="m1", session_id="s3"),
    ]
    feeds = [[lines[0], b"".join(lines[1:])], *splits(b"".join(lines))]
    fast = [told(chunks) for chunks in feeds]
    assert fast[0].count(b'"session.update"') == 1
    assert fast[0].count(b'"session.start"') == 3
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in feeds]


def test_a_line_cursors_fast_line_declines_is_not_asked_to_be_utf8(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cursor's ``fast_line`` keeps no state, so it reads a line before the line is
    asked to be UTF-8: a tool call that is not ASCII (declined: read from its dict) is
    not scanned for it; a delta that is not ASCII is, and a bad byte in either is told
    as the long way tells it."""
    import streamview.core.event_fast as event_fast
    from streamview.core.fast_path import utf8

    asked: list[bytes] = []

    def counting(data: bytes) -> bool:
        asked.append(bytes(data))
        return utf8(data)

    def line(record: dict[str, object]) -> bytes:  # as Cursor writes it: compact, UTF-8
        text = json.dumps({**record, "session_id": "s1"}, separators=(",", ":"), ensure_ascii=False)
        return text.encode() + b"\n"

    monkeypatch.setattr(event_fast, "utf8", counting)
    call = {"readToolCall": {"args": {"path": "/w/caf\u00e9.py"}}}
    lines = [
        line({"type": "system", "subtype": "init", "model": "m", "cwd": "/w"}),
        line({"type": "thinking", "subtype": "delta", "text": "caf\u00e9 ", "timestamp_ms": 4}),
        line({"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": call}),
    ]
    data = b"".join(lines)
    fast = told([lines[0], b"".join(lines[1:])])
    assert [seen.startswith(b'{"type":"thinking"') for seen in asked] == [True]
    bad = data.replace("caf\u00e9".encode(), b"caf\xe9")
    fast_bad = told([lines[0], bad[len(lines[0]) :]])
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert [fast, fast_bad] == [told([data]), told([bad])]


@pytest.mark.parametrize("agent", ["cursor", "pi"])
def test_a_line_the_fast_path_declines_is_decoded_once_and_told_alike(
    agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record no ``fast`` takes (a session's start, a call's result with an arrival
    stamp) is translated from the dict decoded for ``fast``, not decoded again; a line
    that is JSON but no object (an array, a string, a number) and one that is not JSON
    still go the long way; each is told as the long way tells it."""
    import streamview.core.decoding as decoding
    import streamview.core.dialects.lines as lines_module
    import streamview.core.reader as reader_module

    if agent == "cursor":
        first = _cursor({"type": "system", "subtype": "init", "model": "m", "cwd": "/w"})
        declined = [
            _cursor({"type": "system", "subtype": "init", "model": "m2", "streamview_recv_ms": 9}),
            _cursor({"type": "result", "subtype": "success", "duration_ms": 5}),
        ]
    else:
        fixture = DIALECT_FIXTURES / "pi"
        pi_lines = (fixture / "success-tools.jsonl").read_bytes().splitlines(keepends=True)
        first, declined = pi_lines[0], pi_lines[1:]
        stamped = json.loads(declined[-1])
        declined.append(json.dumps({**stamped, "streamview_recv_ms": 7}).encode() + b"\n")
    odd = [b"[1, 2]\n", b'"said"\n', b"42\n", b"not json\n", b"\n"]
    rest = b"".join(declined + odd + declined)
    decoded: list[bytes] = []

    def counting(data: bytes, line: int) -> object:
        decoded.append(bytes(data))
        return decoding.decode_line(data, line)

    fast = told([first, rest])
    monkeypatch.setattr(lines_module, "decode_line", counting)
    monkeypatch.setattr(reader_module, "decode_line", counting)
    assert told([first, rest]) == fast
    after_first = [data for data in decoded if data != first.rstrip(b"\n")]  # warm-up's
    assert sorted(after_first) == sorted(line.rstrip(b"\n") for line in odd[:4])
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == told([first, rest])


_ENDED = {
    "claude": "partial-messages.jsonl",
    "codex": "fast-lines.jsonl",
    "cursor": "read-and-answer.ndjson",
    "kimi": "success-tools.jsonl",
    "amp": "fast-lines.jsonl",
    "droid": "success-tools.jsonl",
    "opencode": "success-tools.jsonl",
    "pi": "success-tools.jsonl",
    "goose": "fast-line-chunks.jsonl",
    "gemini": "fast-line-stamps.jsonl",
    "qwen": "partial-messages.jsonl",
}
"""A stream of each dialect whose ``fast_line`` reads a line with its newline on."""


def _odd_lines(data: bytes, crlf: bool) -> bytes:
    """``data`` (its first line kept first) with, after every third line, lines the
    fast path declines and the long way tells or counts: blank ones, JSON that is no
    object (``null`` among them), a line that is not JSON; each line ending in CRLF if
    ``crlf``, the last one in nothing."""
    odd = [b"\n", b"  \n", b"null\n", b"[1]\n", b"not json\n", b"\t\n", b'"s"\n']
    lines = data.splitlines(keepends=True)
    out = [lines[0]]
    for place, line in enumerate(lines[1:]):
        out.append(line if line.endswith(b"\n") else line + b"\n")
        if place % 3 == 2:
            out.append(odd[place % len(odd)])
    joined = b"".join(out)
    return (joined.replace(b"\n", b"\r\n") if crlf else joined).removesuffix(b"\n")


@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("agent", sorted(_ENDED))
def test_lines_cut_with_their_newline_are_told_as_the_long_way_tells_them(
    agent: str, crlf: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dialect whose ``fast_line`` reads a line with its ``\\n`` on has its lines cut
    by ``split_ended`` (memchr), not ``bytes.split``: the lines it declines (blank,
    CRLF, ``null``, not JSON, no newline at the end) lose their ending before the long
    way, and everything is told as the long way tells it."""
    from streamview.core.framing import LineFramer

    path = DIALECT_FIXTURES / agent / _ENDED[agent]
    data = _odd_lines(path.read_bytes(), crlf)
    first = data.index(b"\n") + 1
    ended: list[int] = []
    split_ended = LineFramer.split_ended

    def counting(framer: LineFramer, chunk: bytes) -> list[bytes]:
        ended.append(len(chunk))
        return split_ended(framer, chunk)

    monkeypatch.setattr(LineFramer, "split_ended", counting)
    feeds = [[data[:first], data[first:]], *splits(data)]
    fast = [told(chunks) for chunks in feeds]
    assert ended, "the fast path cut no chunk with split_ended"
    assert b'"type":"malformed"' in fast[0]
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert fast == [told(chunks) for chunks in feeds]
