"""Seeking through checkpoints of the viewer's fold, whose sweeps pack closed blocks
(issue 27.5, :mod:`streamview.core.block_columns`): the state reached equals a
straight fold of the events before that point, block by block, and playing on from a
checkpoint leaves it as it was."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

import streamview.core.block_spill as block_spill
from streamview.core.block_columns import PackedBlocks
from streamview.core.linestore import FileLineStore
from streamview.core.model import Block
from streamview.core.state import StreamState
from streamview.core.timeline import FileTimeline, fold_indexed

from .test_checkpoints import ACROSS, DIALECT_FILES, REPO, reference_events, straight
from .test_fast_fold import SYNTHETIC, dump

PIECE = 96
"""Bytes a chunk of the file, and between two sweeps."""


def row(block: Block | None) -> Any:
    """What a reader can tell of a block (a packed one's parts are a stand-in)."""
    if block is None:
        return None
    fields = (block.line, block.text, block.open, block.call_index)
    return (block.kind, *fields, block.revision, block.deltas)


def readable(state: StreamState) -> Any:
    """Everything a front end reads of ``state``, each block as :func:`row`."""
    sessions = [
        msgspec.structs.replace(
            session,
            blocks=[row(block) for block in session.blocks],
            open_text=row(session.open_text),
            open_thinking=row(session.open_thinking),
        )
        for session in state.sessions
    ]
    rest = (state.counts, state.malformed, state.unknown, state.notices, state.last_event_ms)
    return dump(sessions), dump(list(rest)), state.ended


def packed_fold(path: Path, every: int) -> tuple[StreamState, FileTimeline]:
    """``streamview FILE``'s fold, swept every :data:`PIECE` bytes."""
    data = path.read_bytes()
    chunks = [data[at : at + PIECE] for at in range(0, len(data), PIECE)]
    return fold_indexed(chunks, FileLineStore(path), every=every)


def assert_packed_seeks_match(path: Path, every: int, counts: list[int] | None = None) -> int:
    """Every seek (or those to ``counts``) equals the straight fold; how many of the
    states reached had a block of their own in place of a packed one."""
    final, timeline = packed_fold(path, every)
    events = reference_events(path)
    assert len(timeline) == len(events)
    expected = readable(final)
    own = 0
    for count in counts if counts is not None else range(len(events) + 1):
        state, start = timeline.state_before(count)
        for event in timeline.between(start, count):
            state.apply(event)
        for session in state.sessions:
            for block in (session.open_text, session.open_thinking):
                assert block is None or any(item is block for item in session.blocks)
            own += isinstance(session.blocks, PackedBlocks) and bool(session.blocks._over)
        assert readable(state) == readable(straight(events, count)), count
    assert readable(final) == expected, "the checkpoints share nothing the seeks changed"
    return own


@pytest.fixture(autouse=True)
def _sweep_often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", PIECE)


@pytest.mark.parametrize("every", [1, 2, 3, 5])
def test_every_position_across_sessions_packed(tmp_path: Path, every: int) -> None:
    """Two sessions, calls across checkpoints, deltas and a recap: every position."""
    path = tmp_path / "across.ndjson"
    path.write_bytes(ACROSS)
    final, _ = packed_fold(path, every)
    assert any(isinstance(session.blocks, PackedBlocks) for session in final.sessions)
    assert_packed_seeks_match(path, every)


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_synthetic_streams_packed(tmp_path: Path, name: str) -> None:
    """CRLF, blank lines, recaps, parallel calls: every position, checkpoints every 2."""
    path = tmp_path / "synthetic.ndjson"
    path.write_bytes(SYNTHETIC[name])
    assert_packed_seeks_match(path, 2)


@pytest.mark.parametrize("path", DIALECT_FILES[::3], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_other_dialects_packed(path: Path) -> None:
    """Claude, Codex, Gemini...: every position, checkpoints every 3 events."""
    assert_packed_seeks_match(path, 3)


def test_random_seeks_on_a_long_packed_run() -> None:
    """The long bundled run (token deltas: blocks open across checkpoints, packed once
    they close): at random, and some states reached hold their own open block in
    place of a packed row."""
    path = REPO / "recordings" / "long-run.ndjson"
    events = reference_events(path)
    rng = random.Random(27)
    counts = [rng.randrange(len(events) + 1) for _ in range(60)]
    assert assert_packed_seeks_match(path, 20, counts) > 0


def test_playing_on_from_a_packed_checkpoint_leaves_it_as_it_was(tmp_path: Path) -> None:
    """A state restored from a checkpoint and played to the end changes no checkpoint
    nor the fold's packed rows."""
    path = tmp_path / "across.ndjson"
    path.write_bytes(ACROSS)
    final, timeline = packed_fold(path, 2)
    before = readable(final)
    events = reference_events(path)
    for count in range(len(events) + 1):
        state, start = timeline.state_before(count)
        for event in timeline.between(start, len(events)):
            state.apply(event)
        state.finish()
    assert readable(final) == before
    for count in range(len(events) + 1):
        state, start = timeline.state_before(count)
        for event in timeline.between(start, count):
            state.apply(event)
        assert readable(state) == readable(straight(events, count)), count
