"""Lines cut with their ``\\n`` on (``LineFramer.split_ended``) and the fold that reads them.

The fold behind ``--json`` hands the dialects that say so (``fast_line_ended``) each line
with its newline, found by ``memchr``; every other reader cuts them off. These tests
hold ``split_ended`` to ``split`` (the same lines, cuts, numbers and offsets, in chunks
of any size, through restarts) and the fold of such dialects to the event-by-event
reading, on their fixtures with odd lines put in the middle of a chunk.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core import dialects, framing
from streamview.core.framing import LineFramer, Restart
from streamview.core.reader import fold

from .test_fast_fold import account, chunked, event_by_event

LINE = st.one_of(
    st.binary(max_size=12).map(lambda data: data.replace(b"\n", b"")),
    st.sampled_from([b"", b" ", b"\r", b"{}\r", b"\xff\xfe", b"\xc3", b"\xa9", b"x" * 40]),
)


@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(LINE, max_size=14),
    end=st.sampled_from([b"", b"\n", b"\r\n"]),
    sizes=st.lists(st.integers(1, 50), min_size=1, max_size=8),
    limit=st.integers(1, 30),
    restart_at=st.integers(0, 12),
)
def test_split_ended_gives_splits_lines_each_with_its_newline(
    lines: list[bytes], end: bytes, sizes: list[int], limit: int, restart_at: int
) -> None:
    """Any lines (blank, CR, bad UTF-8, over the limit), any chunks, a restart anywhere:
    the same lines as ``split`` with ``\\n`` on each whole one (none on a cut one), the
    same cuts, numbers, offsets and pending bytes after every chunk and at the end."""
    data = b"\n".join(lines) + end
    plain, ended = LineFramer(max_line=limit), LineFramer(max_line=limit)
    start = step = 0
    while start < len(data):
        size = sizes[step % len(sizes)]
        chunk = data[start : start + size]
        if step == restart_at:
            plain.restart()
            ended.restart()
        first = plain.lines_seen + 1
        want = plain.split(chunk)
        got = ended.split_ended(chunk)
        cut = plain.take_cut() or {}
        assert (ended.take_cut() or {}) == cut
        assert got == [
            piece if first + place in cut else piece + b"\n" for place, piece in enumerate(want)
        ]
        assert (ended.lines_seen, ended.next_offset, ended.pending_bytes) == (
            plain.lines_seen,
            plain.next_offset,
            plain.pending_bytes,
        )
        start += size
        step += 1
    assert ended.finish() == plain.finish()
    assert ended.take_cut() == plain.take_cut()


ENDED = ["amp", "claude", "codex", "cursor", "droid", "kilo", "kimi", "opencode"]
ODD_LINES = [
    b"{not json",
    b"[1, 2]",
    b'"a string"',
    b"7",
    b"  ",
    b"",
    b'{"type":"turn.started"}\r',
    b'{"type":"item.completed","item":{"id":"i9","type":"reasoning","text":"a\\nb\xff"}}',
    b'{"type":"item.completed","item":{"id":"i8","type":"agent_message","text":"x\\\\ny\\n"}}',
]
"""Lines no fast path takes whole (or takes only as the long way does): bad JSON, JSON
that is not an object, blank lines, a CR line end, bad UTF-8 in a field, escapes."""


def fixtures(agent: str) -> list[Path]:
    """The dialect's fixture files."""
    root = Path(__file__).parent.parent / "fixtures" / "dialects" / agent
    return sorted(path for path in root.iterdir() if path.suffix in {".jsonl", ".ndjson"})


def with_odd_lines(data: bytes, long: int) -> bytes:
    """``data`` with :data:`ODD_LINES` and a line of ``long`` bytes put in after its third
    line, a copy of its first line ended by CRLF, and its last line torn off its newline."""
    lines = data.rstrip(b"\n").split(b"\n")
    middle = [*ODD_LINES, b"y" * long, lines[0] + b"\r"]
    return b"\n".join([*lines[:3], *middle, *lines[3:]])


@pytest.mark.parametrize("agent", ENDED)
def test_dialects_reading_ended_lines_say_so(agent: str) -> None:
    """Each of these dialects is read with its lines' newlines on (the tests below then
    test that path)."""
    dialect = dialects.by_name(agent)
    assert dialect is not None
    assert dialect.translator().fast_line_ended is True  # type: ignore[attr-defined]


@pytest.mark.parametrize("agent", ENDED)
def test_odd_lines_amid_hot_ones_fold_as_event_by_event(agent: str) -> None:
    """Bad JSON, JSON that is not an object, bad UTF-8, blank and CRLF lines, escaped
    newlines, a torn last line and a line over the limit (set just past the fixture's
    longest) among a dialect's lines, in chunks of every size: the state the
    event-by-event reading leaves."""
    before = framing.line_limit()
    assert fixtures(agent)
    try:
        for path in fixtures(agent):
            data = path.read_bytes()
            limit = max(map(len, data.split(b"\n"))) + 10
            framing.set_line_limit(limit)
            data = with_odd_lines(data, limit + 50)
            for size in (len(data), 4096, 61, 7):
                # The same chunks: below KEPT_BYTES, what a cut line keeps depends on them.
                chunks = chunked(data, size)
                expected = account(event_by_event(chunks))
                assert "too long" in repr(expected)  # the long line was cut
                assert account(fold(chunks)) == expected, (path.name, size)
    finally:
        framing.set_line_limit(before)


@pytest.mark.parametrize("agent", ENDED)
def test_lines_with_their_newlines_fold_as_lines_without(
    agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every fixture, with and without a torn last line, and a followed file replaced
    while a line was half read (the half line dropped, numbering going on, the new
    content read from its start), in chunks of every size: the state the fold leaves
    when it cuts the lines off their newlines (``split``)."""
    translator = type(dialects.by_name(agent).translator())  # type: ignore[union-attr]
    for path in fixtures(agent):
        data = path.read_bytes()
        cut = data.index(b"\n", len(data) // 2) - 5
        for size in (len(data), 61, 7):
            for chunks in (
                chunked(data, size),
                chunked(data.rstrip(b"\n"), size),
                [*chunked(data[:cut], size), Restart("replaced", "test"), *chunked(data, size)],
            ):
                ended = account(fold(chunks))
                with monkeypatch.context() as patch:
                    patch.setattr(translator, "fast_line_ended", False)
                    assert account(fold(chunks)) == ended, (path.name, size)
