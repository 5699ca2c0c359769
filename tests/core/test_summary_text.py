"""``--json`` writes moved text as it was kept, already JSON, separators and all: the
summary is byte for byte the one written from the text in memory, whatever stayed in
memory between moved blocks (open blocks, empty thinking), and however the pieces and
reads are cut; with a lone surrogate (the escaping fallback, as before: a moved block's
parts are one piece) the same value."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import streamview.core.summary_text as summary_text
import streamview.core.text_store as text_store
from streamview.core.model import TEXT, THINKING, TOOL, Block, Session
from streamview.core.state import StreamState
from streamview.core.summary import summary_json
from streamview.core.text_store import TextSpill

SHAPES = ("", "\n", "\n\n", "x", "a\n", "b\n\n", "déjà", '"q"\\', "\x7f\u2028", "end.")


@pytest.mark.parametrize("seed", range(6))
def test_moved_text_is_written_as_the_text_in_memory_is(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(summary_text, "STRING_PIECE", 40)
    monkeypatch.setattr(summary_text, "READ_PIECE", 64)
    monkeypatch.setattr(text_store, "READ_PIECE", 64)
    monkeypatch.setattr(text_store, "WRITE_PIECE", 100)
    generator = random.Random(seed)
    copied = 0
    whole = {True: 0, False: 0}
    for _ in range(40):
        moved, kept = StreamState(track_changes=False), StreamState(track_changes=False)
        blocks: list[Block] = []
        moved.sessions.append(Session(index=0, blocks=blocks))
        kept.sessions.append(Session(index=0, blocks=[]))
        spill = TextSpill()
        try:
            for line in range(generator.randrange(1, 60)):
                kind = generator.choice((TEXT, TEXT, THINKING, THINKING, TOOL))
                count = generator.choice((0, 1, 1, 1, 2, 3))
                parts = [generator.choice(SHAPES) for _ in range(count)]
                if generator.random() < 0.03:
                    parts.append("lone \ud800")
                block = Block(kind, line, parts, open=generator.random() < 0.1)
                blocks.append(block)
                kept.sessions[0].blocks.append(block)  # the same block: it may grow
                if generator.random() < 0.2:
                    spill.sweep(moved.sessions)
                    for other in blocks:
                        if other.open and other.parts.__class__ is list:
                            other.parts.append(generator.choice(SHAPES))
            spill.sweep(moved.sessions)
            want = b"".join(summary_json(kept))
            got = b"".join(summary_json(moved, spill=spill))
            if b"\\ud800" in want:  # the escaping fallback: its batches cut elsewhere
                assert json.loads(got) == json.loads(want)
            else:
                assert got == want
            stand_in = spill.stand_in(0, TEXT)
            copied += stand_in is not None and not stand_in.odd
            if stand_in is not None:
                whole[stand_in.whole] += 1
        finally:
            spill.close()
    assert copied > 10  # the copying path was taken, not only the fallback
    assert whole[True] and whole[False]  # the stream copied whole, and block by block


def test_a_lone_surrogate_in_moved_text_is_written_as_orjson_cannot() -> None:
    moved, kept = StreamState(track_changes=False), StreamState(track_changes=False)
    blocks = [Block(TEXT, 1, ["a \ud800"]), Block(TOOL, 2), Block(TEXT, 3, ["é"])]
    moved.sessions.append(Session(index=0, blocks=blocks))
    kept.sessions.append(Session(index=0, blocks=list(blocks)))
    spill = TextSpill()
    try:
        spill.sweep(moved.sessions)
        stand_in = spill.stand_in(0, TEXT)
        assert stand_in is not None and stand_in.odd
        assert b"".join(summary_json(moved, spill=spill)) == b"".join(summary_json(kept))
        assert b'"text":"a \\ud800\\n\\n\\u00e9"' in b"".join(summary_json(kept))
    finally:
        spill.close()


def test_calls_are_written_as_orjson_writes_their_dicts() -> None:
    """The calls' rows (msgspec) are the bytes ``json_for_terminal`` gives of their dicts:
    controls, DEL, C1, bidi and U+2028, non-ASCII, and where orjson gives up (a lone
    surrogate, an integer past 64 bits, a str subclass) its fallback's bytes."""
    from streamview.core.model import ToolCall
    from streamview.core.sanitize import json_for_terminal
    from streamview.core.summary import _call_summaries, _calls_json

    class Name(str):
        pass

    generator = random.Random(30)
    chars = [chr(code) for code in (*range(0x80), 0x9B, 0xE9, 0x202E, 0x2028, 0x1F600)]
    odd = ("\ud800", Name("x"), 1 << 64, -(1 << 63) - 1)
    for round_ in range(300):
        calls = []
        for index in range(generator.randrange(1, 6)):
            text = "".join(generator.choice(chars) for _ in range(generator.randrange(0, 9)))
            call = ToolCall(index, text, generator.choice(("shell", "ls", "Other", text)))
            call.target = generator.choice((None, text))
            call.summary = generator.choice((None, text, "exit 0"))
            call.started_at_ms, call.completed_at_ms = 5, generator.choice((None, 9, 1 << 63))
            calls.append(call)
        if round_ % 10 == 0:  # the fallback escapes every non-ASCII character
            calls[-1].summary = "déjà"
            value = odd[round_ // 10 % len(odd)]
            if isinstance(value, int):
                calls[0].completed_at_ms = value + 5
            else:
                calls[0].target = value
        assert _calls_json(calls) == json_for_terminal(_call_summaries(calls))


def test_a_kinds_moved_texts_follow_one_another_in_its_own_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thinking and answers alternating (Codex's turns), moved over several sweeps and
    written out in small pieces: each kind's texts lie one after the other in its own
    stream, separators between them, so the summary reads each kind in runs, not a block
    at a time; and it reads the same as the text kept in memory."""
    monkeypatch.setattr(text_store, "WRITE_PIECE", 50)
    monkeypatch.setattr(summary_text, "READ_PIECE", 30)
    monkeypatch.setattr(summary_text, "STRING_PIECE", 40)
    moved, kept = StreamState(track_changes=False), StreamState(track_changes=False)
    blocks: list[Block] = []
    moved.sessions.append(Session(index=0, blocks=blocks))
    kept.sessions.append(Session(index=0, blocks=[]))
    spill = TextSpill()
    try:
        for line in range(60):
            kind = (THINKING, TOOL, TEXT)[line % 3]
            block = Block(kind, line, [f"{kind} {line}" + "\n" * (line % 4)])
            blocks.append(block)
            kept.sessions[0].blocks.append(block)
            if line % 7 == 6:
                spill.sweep(moved.sessions)
        spill.sweep(moved.sessions)
        for kind in (TEXT, THINKING):
            stand_in = spill.stand_in(0, kind)
            assert stand_in is not None and len(stand_in.starts) >= 15
            assert len(stand_in.pieces) >= 4  # written in several pieces
            assert stand_in.whole  # and copied as one stretch of the stream
            for at in range(1, len(stand_in.starts)):
                separator = stand_in.tails[at] >> 4
                assert stand_in.starts[at] - separator == stand_in.ends[at - 1]
        assert b"".join(summary_json(moved, spill=spill)) == b"".join(summary_json(kept))
        assert moved.sessions[0].thinking == kept.sessions[0].thinking
        assert moved.sessions[0].text == kept.sessions[0].text
    finally:
        spill.close()


def test_the_spill_file_has_no_name_and_is_made_where_tempfile_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``O_TMPFILE`` in ``$TMPDIR`` (no name in the folder); a folder where it cannot be
    made falls back to :mod:`tempfile`'s file. Either reads back what was written."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    for folder in (tmp_path, tmp_path / "missing"):
        monkeypatch.setenv("TMPDIR", str(folder))
        fd, made = text_store.anonymous_file()
        try:
            assert os.pwrite(fd, b"abc", 0) == 3
            assert os.pread(fd, 3, 0) == b"abc"
            assert list(tmp_path.iterdir()) == []
            assert (made is None) == (folder == tmp_path)
        finally:
            if made is not None:
                made.close()
            else:
                os.close(fd)


@pytest.mark.parametrize("ending", ["\n", "\n\n", ""])
def test_a_lone_surrogate_before_a_newline_then_more_text_is_moved(ending: str) -> None:
    """A moved text with a lone surrogate that ends in a newline (or two), then another
    text in the same sweep: the next one's separator is read from the first's tail
    without its not-UTF-8 mark (the sweep raised IndexError on a1e2c5a)."""
    moved, kept = StreamState(track_changes=False), StreamState(track_changes=False)
    blocks = [
        Block(TEXT, 1, [f"a \ud800{ending}"]),
        Block(TOOL, 2),
        Block(TEXT, 3, ["b"]),
        Block(THINKING, 4, [f"\ud800{ending}"]),
        Block(THINKING, 5, ["c"]),
        Block(TEXT, 6, ["last"]),
    ]
    moved.sessions.append(Session(index=0, blocks=blocks))
    kept.sessions.append(Session(index=0, blocks=list(blocks)))
    spill = TextSpill()
    try:
        spill.sweep(moved.sessions)
        assert spill.moved == 4
        for kind in (TEXT, THINKING):
            stand_in = spill.stand_in(0, kind)
            assert stand_in is not None and stand_in.odd
        want = b"".join(summary_json(kept))
        assert json.loads(b"".join(summary_json(moved, spill=spill))) == json.loads(want)
        separator = "" if ending == "\n\n" else "\n" if ending == "\n" else "\n\n"
        assert json.loads(want)["sessions"][0]["text"] == f"a \ud800{ending}{separator}b\n\nlast"
    finally:
        spill.close()
