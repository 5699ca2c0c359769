"""A file folded for the viewer moves its closed blocks' text to a temporary file
(issue 27.5, :mod:`streamview.core.block_spill`): the viewer shows, finds and exports
the same text as when it is kept, and holds the text of a bounded number of blocks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

import streamview.core.block_spill as block_spill
from streamview.core.block_columns import PackedBlocks
from streamview.core.html_export import to_html
from streamview.core.linestore import FileLineStore
from streamview.core.markdown_export import to_markdown
from streamview.core.model import TEXT, THINKING
from streamview.core.state import StreamState
from streamview.core.textmatch import Matcher
from streamview.core.timeline import fold_indexed
from streamview.ui.calls.search import session_holds

SID = "5e1d2c3b-0000-4000-8000-000000000275"


def claude_session(turns: int, filler: int = 40) -> bytes:
    """A Claude Code session of ``turns`` turns: thinking, an answer (``word{n}`` only
    in it) and a Bash call each, then a result."""
    common = {"parent_tool_use_id": None, "session_id": SID}
    records: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "cwd": "/w", "session_id": SID,
         "tools": ["Bash"], "model": "claude-sonnet-4-5"},
    ]  # fmt: skip
    for n in range(turns):
        content = [
            {"type": "thinking", "thinking": f"pondering{n} " + "hm " * filler},
            {"type": "text", "text": f"Turn {n}: the word{n} é✓ " + "lorem " * filler},
            {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": "ls"}},
        ]
        back = {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": "ok"}
        records += [
            {"type": "assistant", "uuid": f"a{n}", **common,
             "message": {"id": f"m{n}", "role": "assistant", "content": content}},
            {"type": "user", "uuid": f"u{n}", **common,
             "message": {"role": "user", "content": [back]}},
        ]  # fmt: skip
    records.append({"type": "result", "subtype": "success", "is_error": False,
                    "result": "done", "session_id": SID})  # fmt: skip
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


def _fold(path: Path, every: int, piece: int = 4096) -> StreamState:
    data = path.read_bytes()
    chunks = [data[at : at + piece] for at in range(0, len(data), piece)]
    state, _timeline = fold_indexed(chunks, FileLineStore(path))
    return state


def _moved(state: StreamState) -> int:
    return sum(
        isinstance(block.parts, block_spill.InTheFile)
        for session in state.sessions
        for block in session.blocks
    )


@pytest.fixture(scope="module")
def session_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spill") / "session.jsonl"
    path.write_bytes(claude_session(60))
    return path


def test_a_spilled_block_is_shown_found_and_exported_as_a_kept_one(
    session_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folded with a sweep every 4 KB, most blocks' text is in the file; each block's
    text, the session's answer and thinking, a search for a word only a moved block
    holds, and the Markdown and HTML exports are the same as with every text kept."""
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 1 << 40)
    kept = _fold(session_file, 0)
    assert _moved(kept) == 0
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 4096)
    spilled = _fold(session_file, 4096)
    moved = _moved(spilled)
    assert moved > 100, moved  # 120 text and thinking blocks, the last few kept
    session, whole = spilled.sessions[0], kept.sessions[0]
    assert [(b.kind, b.text) for b in session.blocks] == [(b.kind, b.text) for b in whole.blocks]
    backwards = [b.text for b in reversed(session.blocks)]  # read back out of order too
    assert backwards == [b.text for b in reversed(whole.blocks)]
    assert session.text == whole.text and session.thinking == whole.thinking
    first = session.blocks[1]
    assert first.kind == TEXT and isinstance(first.parts, block_spill.InTheFile)
    assert first.text.startswith("Turn 0: the word0 é✓ ")
    assert session_holds(session, None, Matcher.for_query("word0 é✓"), thinking=False)
    assert session_holds(session, None, Matcher.for_query("pondering3"), thinking=True)
    assert not session_holds(session, None, Matcher.for_query("pondering3"), thinking=False)
    assert to_markdown(spilled) == to_markdown(kept)
    nonce = re.compile(r"nonce-[\w-]+|nonce=\"[\w-]+\"")  # each page's own
    html = nonce.sub("", to_html(spilled, title="run"))
    assert html == nonce.sub("", to_html(kept, title="run")) and "word0 é✓" in html


def test_a_long_session_holds_the_text_of_a_bounded_number_of_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session four times as long holds the text of no more blocks in memory: those
    folded since the last sweep (every 32 KB here), and the few last read back."""
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 32 << 10)
    held = []
    for turns in (200, 800):
        path = tmp_path / f"s{turns}.jsonl"
        path.write_bytes(claude_session(turns))
        state = _fold(path, 32 << 10, piece=8192)
        blocks = [b for b in state.sessions[0].blocks if b.kind in (TEXT, THINKING)]
        assert len(blocks) == 2 * turns
        in_memory = [b for b in blocks if not isinstance(b.parts, block_spill.InTheFile)]
        held.append(len(in_memory))
        for block in blocks:  # reading every text back keeps only the last few
            assert block.text
        packed = state.sessions[0].blocks
        assert isinstance(packed, PackedBlocks)
        spill = packed.columns.reader
        assert isinstance(spill, block_spill.BlockSpill)
        assert spill.held <= block_spill.READ_KEPT
    assert held[1] <= held[0] < 200, held


def test_two_answers_on_one_line_each_read_back_its_own_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message's two answers on one line (around a call) are both moved, and each
    reads back its own text (a packed block knows where its text is, not by its line)."""
    records = orjson.loads(b"[" + claude_session(40).replace(b"\n", b",")[:-1] + b"]")
    for record in records:
        content = record.get("message", {}).get("content")
        if record["type"] == "assistant":
            content.append({"type": "text", "text": f"After the call {record['uuid']} ✓"})
    path = tmp_path / "two.jsonl"
    path.write_bytes(b"".join(orjson.dumps(record) + b"\n" for record in records))
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 1 << 40)
    kept = _fold(path, 0).sessions[0]
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 2048)
    spilled = _fold(path, 2048).sessions[0]
    assert [(b.kind, b.line, b.text) for b in spilled.blocks] == [
        (b.kind, b.line, b.text) for b in kept.blocks
    ]
    seconds = [b for b in spilled.blocks if b.text.startswith("After the call")]
    assert len(seconds) == 40
    assert sum(isinstance(b.parts, block_spill.InTheFile) for b in seconds) > 35
    assert sum(isinstance(b.parts, block_spill.InTheFile) for b in spilled.blocks) > 100
    assert spilled.text == kept.text


def test_a_spill_file_that_cannot_be_written_keeps_the_text_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full disk under the viewer's fold: every block's text still shown (kept in
    memory), and the event log says once why (the paging has its own notice)."""
    import errno
    import os

    import streamview.core.args_store as args_store
    import streamview.core.paged_array as paged_array
    from tests.core import test_call_columns as call_columns_tests

    path = Path(__file__).resolve().parents[2] / "recordings" / "success-multi-tool.ndjson"
    monkeypatch.setattr(args_store, "SWEEP_EVERY", 64)
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 64)
    monkeypatch.setattr("streamview.core.text_store.WRITE_PIECE", 16)  # written at once

    def fold_with_fresh_pages() -> StreamState:
        monkeypatch.setattr(paged_array, "_SHARED", paged_array.PageFile(page_bytes=8))
        chunks = call_columns_tests.lines_of(path.read_bytes())
        return fold_indexed(chunks, FileLineStore(path))[0]

    def spill_notices(state: StreamState) -> list[Any]:
        return [n for n in state.notices if getattr(n, "subtype", None) == "spill"]

    written = fold_with_fresh_pages()
    assert not spill_notices(written)

    def no_file() -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("streamview.core.text_store.anonymous_file", no_file)
    failed = fold_with_fresh_pages()
    told = spill_notices(failed)
    assert len(told) == 1 and os.strerror(errno.ENOSPC) in told[0].text
    assert "kept in memory" in told[0].text

    def shown(state: StreamState) -> Any:  # what a front end shows: blocks, calls
        return [
            ([(b.kind, b.text, b.call_index) for b in s.blocks], list(s.tool_calls))
            for s in state.sessions
        ]

    assert shown(failed) == shown(written)
    assert sum(len(s.blocks) for s in written.sessions) > 20
