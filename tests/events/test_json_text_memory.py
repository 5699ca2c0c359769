"""``--json`` of a long file keeps its text on disk, not in memory (issue 27.5: a 2 GB
session's text is 220 MB of strings, kept only to be written at the end). Closed blocks'
text is moved to an anonymous temporary file while the input is folded
(:mod:`streamview.core.text_store`) and read back while the summary is written: the
summary is byte for byte the one written from the text kept in memory."""

from __future__ import annotations

import errno
import hashlib
import io
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import streamview.cli.fronts as fronts
import streamview.core.text_store as text_store
from streamview.core.reader import fold
from streamview.core.state import TEXT, THINKING, TOOL, StreamState
from streamview.core.summary import call_summary, summary_json
from streamview.core.text_store import TextSpill
from streamview.sources.base import FileSource, Source
from tests.core.helpers import (
    assistant,
    completed,
    init,
    result,
    started,
    stream,
    thinking,
    thinking_done,
    user,
)
from tests.events.streams import every_stream
from tests.events.test_same_account import source_of

SEGMENTS = 1500
TEXT_BYTES = 6000
"""Of each answer: 9 MB of text in all, and a third of that of thinking."""
ENDINGS = ("", "\n", "\n\n", " end")


def answer(number: int) -> str:
    """An answer of about :data:`TEXT_BYTES` characters (some beyond ASCII), ending in a
    newline, two, or none (the blank line between two answers depends on it)."""
    body = f"answer {number}: déjà vu, naïve café. " * (TEXT_BYTES // 40)
    return body + ENDINGS[number % len(ENDINGS)]


def session_file(tmp_path: Path) -> Path:
    records = [init(), user("go")]
    for number in range(SEGMENTS):
        records.append(thinking(f"thought {number} ☃ " * (TEXT_BYTES // 60)))
        records.append(thinking_done())
        records.append(assistant(answer(number)))
    records.append(assistant("   "))  # blank: no segment of the text
    records.append(result())
    path = tmp_path / "long.ndjson"
    path.write_bytes(stream(*records))
    return path


class Sink:
    """An output (with a file's ``buffer``) that keeps only the hash of its bytes."""

    def __init__(self) -> None:
        self.buffer = self
        self.hash = hashlib.sha256()

    def write(self, data: bytes | str) -> int:
        self.hash.update(data.encode() if isinstance(data, str) else data)
        return len(data)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def test_json_keeps_a_long_runs_text_out_of_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """9.6 MB of text and thinking in 1,500 answers: when ``--json`` has folded them and
    starts writing, it holds under a third of that (traced; 13 MB before: the text
    whole), and writes the same bytes as the summary of the text kept in memory."""
    path = session_file(tmp_path)
    monkeypatch.setattr(fronts, "SWEEP_EVERY", 1 << 20)
    held: list[int] = []
    write = fronts._write_summary

    def measured(*args: Any) -> None:
        held.append(tracemalloc.get_traced_memory()[0])
        write(*args)

    monkeypatch.setattr(fronts, "_write_summary", measured)
    sink = Sink()
    tracemalloc.start()
    try:
        fronts.run_json(FileSource(path), sink)  # type: ignore[arg-type]
    finally:
        tracemalloc.stop()
    kept = fold([path.read_bytes()], StreamState(track_changes=False, compact=True))
    written = hashlib.sha256(b"".join(summary_json(kept)) + b"\n")
    assert sink.hash.hexdigest() == written.hexdigest()
    text = sum(
        len(answer(n)) + len(f"thought {n} ☃ ") * (TEXT_BYTES // 60) for n in range(SEGMENTS)
    )
    assert held[0] < text / 3, (held, text)


class Crumbs(Source):
    """Another source's bytes in pieces of 300 bytes, so that ``--json`` moves text out
    between nearly every two lines."""

    def __init__(self, inner: Source) -> None:
        self.inner = inner
        self.label = inner.label

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        for chunk in self.inner.chunks(stop):
            for start in range(0, len(chunk), 300):
                yield chunk[start : start + 300]


def test_every_streams_summary_is_the_same_with_its_text_moved_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every fixture and recording, read 300 bytes at a time with its closed blocks'
    text moved out before each piece: the same ``--json`` bytes as with the text kept
    (blank lines between segments, thinking, a lone surrogate, a run's result standing
    for an answer that is not there)."""
    spills: list[TextSpill] = []

    def spill() -> TextSpill:
        spills.append(TextSpill())
        return spills[-1]

    for path in every_stream():
        kept = io.StringIO()
        fronts.run_json(source_of(path), kept)
        monkeypatch.setattr(fronts, "SWEEP_EVERY", 1)
        monkeypatch.setattr(text_store, "WRITE_PIECE", 256)  # some in the file, some not
        monkeypatch.setattr(fronts, "TextSpill", spill)
        out = io.StringIO()
        fronts.run_json(Crumbs(source_of(path)), out)
        monkeypatch.undo()
        assert out.getvalue() == kept.getvalue(), path
    assert len(spills) == len(every_stream())
    assert sum(spill.moved for spill in spills) > 100


def test_text_that_cannot_be_written_out_stays_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No temporary file can be made (a full disk, a read-only ``$TMPDIR``): ``--json``
    keeps the text it gathered and moves no more, and writes the same summary."""
    path = session_file(tmp_path)
    kept = io.StringIO()
    fronts.run_json(FileSource(path), kept)

    def no_room(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fronts, "SWEEP_EVERY", 1 << 20)
    monkeypatch.setattr(text_store, "anonymous_file", no_room)
    out = io.StringIO()
    assert fronts.run_json(FileSource(path), out) == 0
    assert out.getvalue() == kept.getvalue()


def test_moved_blocks_become_one_shared_block_of_each_kind() -> None:
    """600 turns of a prompt, thinking, a call and an answer, swept as ``--json`` sweeps:
    every closed block before the last answer is one shared block of its kind (190 bytes
    a block less: 100 MB of a 2 GB session), finished calls keep no line numbers nor
    index and share equal targets and summaries, and the text, thinking and calls read
    the same."""
    records = [init()]
    for number in range(600):
        records += [user(f"turn {number}"), thinking(f"thought {number}"), thinking_done()]
        records += [started(f"c{number}", args={"command": "ls"}), completed(f"c{number}")]
        records.append(assistant(f"answer {number}\n"))
    data = stream(*records, result())
    kept = fold([data], StreamState(track_changes=False, compact=True))
    state = StreamState(track_changes=False, compact=True)
    spill = TextSpill()

    def swept() -> Iterator[bytes]:
        for start in range(0, len(data), 4096):
            spill.sweep(state.sessions)
            yield data[start : start + 4096]

    try:
        fold(swept(), state)
        (session,) = state.sessions
        assert len(session.blocks) == len(kept.sessions[0].blocks) >= 2400
        assert len({id(block) for block in session.blocks}) < 40
        assert session.text == kept.sessions[0].text
        assert session.thinking == kept.sessions[0].thinking
        assert spill.moved > 1000
        assert [b.kind for b in session.blocks] == [b.kind for b in kept.sessions[0].blocks]
        assert {TEXT, THINKING, TOOL} <= {block.kind for block in session.blocks}
        # A finished call's line numbers and index (ints of 32 bytes, none written) are
        # let go; equal targets (each decoded from its own record) are one string.
        settled = session.tool_calls[:590]
        assert {(c.started_line, c.completed_line, c.index) for c in settled} == {(None, 0, 0)}
        assert len({id(call.target) for call in settled}) == 1
        assert [call_summary(c) for c in session.tool_calls] == [
            call_summary(c) for c in kept.sessions[0].tool_calls
        ]
    finally:
        spill.close()
