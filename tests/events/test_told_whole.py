"""A text or thinking block that closes is told whole (``text.done``, ``thinking.done``)
as the deltas left it: what was not told yet first, then its whole text, ``corrected``
when a recap replaced what the deltas said (issue 30.8: a block closed with nothing new
since it was told is told without joining its text again)."""

from __future__ import annotations

from typing import Any

import msgspec

from streamview.core.fast_path import FastRecord
from streamview.core.model import Block
from streamview.core.normalizer import Normalizer
from streamview.core.state import StreamState


def _think(text: str | None, subtype: str = "delta") -> FastRecord:
    return ("thinking", subtype, text, None, "s1", 4, None)


def _told(records: list[FastRecord]) -> list[dict[str, Any]]:
    """The transcript events the fast fold's records are told as, one handle at a time."""
    state = StreamState(track_changes=False)
    normalizer = Normalizer(state, lambda: "cursor")
    told: list[dict[str, Any]] = []
    for line, record in enumerate(records, 1):
        state.apply_fast(record, line)
        told += msgspec.to_builtins(normalizer.handle_fast(state.sessions[-1], line, 4, None))
    return [event for event in told if event["type"].startswith("thinking.")]


def test_a_block_closed_after_its_deltas_were_told_is_their_text() -> None:
    told = _told([_think("a "), _think(""), _think("b "), _think(None, "completed")])
    assert [(e["type"], e["text"]) for e in told] == [
        ("thinking.delta", "a "),
        ("thinking.delta", "b "),
        ("thinking.done", "a b "),
    ]
    assert told[-1]["corrected"] is False


def test_a_record_that_adds_and_closes_tells_what_it_added_first() -> None:
    """A whole thinking record (a delta and the block's end in one line) after deltas:
    the block's deltas are one more than were told, so what is new is told first."""
    told = _told([_think("a "), _think("b "), _think("c", "whole")])
    assert [(e["type"], e["text"]) for e in told] == [
        ("thinking.delta", "a "),
        ("thinking.delta", "b "),
        ("thinking.delta", "c"),
        ("thinking.done", "a b c"),
    ]


def test_a_block_corrected_while_open_is_told_corrected_when_it_closes() -> None:
    """A growing answer replaced while open (its revision bumped) is told corrected
    then; closing with nothing new keeps that."""
    state = StreamState(track_changes=False)
    normalizer = Normalizer(state, lambda: "cursor")
    state.apply_fast(_think("first "), 1)
    normalizer.handle_fast(state.sessions[-1], 1, 4, None)
    session = state.sessions[-1]
    block: Block = session.blocks[0]
    block.parts, block.revision = ["other"], block.revision + 1  # as a replacing answer
    assert normalizer.handle_fast(session, 2, 4, None) == []  # nothing new to tell yet
    state.apply_fast(_think(None, "completed"), 3)
    done = msgspec.to_builtins(normalizer.handle_fast(session, 3, 4, None))
    assert [(e["type"], e["text"], e["corrected"]) for e in done] == [
        ("thinking.done", "other", True)
    ]
