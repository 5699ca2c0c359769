"""Closed blocks packed in columns (issue 27.5, :mod:`streamview.core.block_columns`):
a packed session's blocks read as the blocks packed, whatever their fields, and its
sequence behaves as the fold's list, copies included."""

from __future__ import annotations

from typing import cast

import pytest

from streamview.core import block_columns
from streamview.core.block_columns import (
    InTheFile,
    PackedBlocks,
    first_blocks,
    kind_at,
    packed_count,
    places_of,
    tools_from,
)
from streamview.core.block_spill import BlockSpill, LiveSweep
from streamview.core.fold_calls import NO_PARTS
from streamview.core.model import NOTICE, PROMPT, TEXT, THINKING, TOOL, Block, Session

Row = tuple[str, int, str, bool, int | None, int, int]


def row(block: Block) -> Row:
    """What a reader can tell of a block, its parts but as its text."""
    return (
        block.kind,
        block.line,
        block.text,
        block.open,
        block.call_index,
        block.revision,
        block.deltas,
    )


def odd_blocks() -> list[Block]:
    """Blocks of every kind and field a row must keep, ending in an answer (kept)."""
    return [
        Block(PROMPT, 1, ["do it"]),
        Block(THINKING, 2, ["hm", "m"], deltas=2),
        Block(TEXT, 2, ["Turn: é✓ "]),  # two blocks on one line, each its own text
        Block(TOOL, 3, NO_PARTS, False, 0),
        Block(TOOL, 3, [], False, None),  # a marker without a call
        Block(TEXT, 4, ["recap"], revision=3, deltas=7),
        Block(NOTICE, 5, ["rate limited"]),
        Block(TEXT, 6, []),  # empty: kept as it is
        Block(THINKING, 6, [""]),  # empty too, but one part: kept
        Block(TEXT, (1 << 32) + 3, ["far line"]),  # past 4 bytes
        Block(TOOL, 7, NO_PARTS, False, (1 << 31) + 5),  # a call index past 4 bytes
        Block(TEXT, 8, ["many deltas"], deltas=(1 << 32) + 1),
        Block(TEXT, 1 << 64, ["past 8 bytes"]),  # kept
        Block(TEXT, 9, ["lone \ud800 surrogate"]),
        Block(TOOL, 10, ["odd"], False, 4),  # a marker with parts: kept
        Block(TOOL, 10, NO_PARTS, False, -5),  # a call index no call has: kept
        Block(TEXT, 11, ["the last answer stays"]),
    ]


def packed_session(blocks: list[Block]) -> tuple[Session, BlockSpill]:
    """A session of ``blocks``, packed by one sweep."""
    session = Session(index=0, blocks=list(blocks))
    spill = BlockSpill()
    spill.sweep([session])
    return session, spill


def test_every_packed_block_reads_as_it_was() -> None:
    """Each block, packed, reads back with the same kind, line, text and numbers; the
    moved ones with an empty stand-in for parts, the odd ones kept as they are."""
    blocks = odd_blocks()
    session, spill = packed_session(blocks)
    packed = session.blocks
    assert isinstance(packed, PackedBlocks) and packed.owns
    assert packed_count(packed) == len(blocks) - 1  # the last answer stays a block
    assert [row(block) for block in packed] == [row(block) for block in blocks]
    assert packed[2].parts == [] and isinstance(packed[2].parts, InTheFile)
    for place in (0, 6, 7, 8, 12, 14, 15):  # prompt, notice, empties, far line, odd tools
        assert packed[place] is blocks[place]
    assert packed[3].parts is NO_PARTS and packed[4].call_index is None
    assert spill.moved == 6 and spill.packed == len(blocks) - 1


def test_packed_blocks_are_a_sequence_like_the_list() -> None:
    """Indexing (negative too), slices, iteration both ways, kinds, the places of a kind
    and the tool markers: as the list's, without making the rows' blocks for the last."""
    blocks = odd_blocks()
    packed = cast(PackedBlocks, packed_session(blocks)[0].blocks)
    count = len(blocks)
    assert len(packed) == count
    for at in range(-count, count):
        assert row(packed[at]) == row(blocks[at])
        assert kind_at(packed, at) == blocks[at].kind
    for wrong in (count, -count - 1):
        with pytest.raises(IndexError):
            packed[wrong]
    for cut in (slice(1, 5), slice(None, None, -2), slice(-3, None), slice(4, 2)):
        assert [row(b) for b in packed[cut]] == [row(b) for b in blocks[cut]]
    assert [row(b) for b in reversed(packed)] == [row(b) for b in reversed(blocks)]
    for kind in (TEXT, THINKING, TOOL, PROMPT, NOTICE, "other"):
        assert places_of(packed, kind) == places_of(blocks, kind)
    for start in range(count + 1):
        assert list(tools_from(packed, start)) == list(tools_from(blocks, start))
    assert list(tools_from(packed, 0)) == [(3, 0), (10, (1 << 31) + 5), (14, 4), (15, -5)]


@pytest.mark.parametrize("at_once", [1, 2, 3, 5, 7])
def test_places_found_a_few_rows_at_a_time(monkeypatch: pytest.MonkeyPatch, at_once: int) -> None:
    """The places of a kind and the tool markers, looked for a few rows at a time
    (windows that cut between kept rows, a row in place of one, and the tail): the same
    as the list's, from every start."""
    monkeypatch.setattr(block_columns, "PLACES_AT_ONCE", at_once)
    blocks = odd_blocks() + odd_blocks()
    packed = cast(PackedBlocks, packed_session(blocks)[0].blocks)
    replaced = Block(TOOL, 3, NO_PARTS, False, 9)  # a copy's own block in place of a row
    packed[11], blocks[11] = replaced, replaced
    assert 0 < packed_count(packed) < len(blocks)
    for start in range(len(blocks) + 1):
        for kind in (TEXT, THINKING, TOOL, PROMPT, NOTICE):
            expected = [at for at in places_of(blocks, kind) if at >= start]
            assert list(packed.iter_places(kind, start)) == expected
        assert list(tools_from(packed, start)) == list(tools_from(blocks, start))


def test_appended_blocks_and_a_second_sweep() -> None:
    """The fold appends to the packed sequence as to its list; the next sweep packs what
    closed since, up to the first open block; a copy taken before sees what it had."""
    session, spill = packed_session(odd_blocks())
    packed = cast(PackedBlocks, session.blocks)
    before = packed.copy()
    rows_before = [row(b) for b in before]
    opened = Block(THINKING, 20, ["still"], open=True, deltas=1)
    later = [Block(TEXT, 12, ["after"]), opened, Block(TEXT, 21, ["closed"]), Block(TOOL, 22)]
    for block in later:
        session.blocks.append(block)
    session.open_thinking = opened
    spill.sweep([session])
    assert session.blocks is packed and packed.packed == len(odd_blocks()) + 1
    assert packed[-3] is opened  # an open block stops the packing, and what follows
    assert [row(b) for b in packed] == [row(b) for b in [*odd_blocks(), *later]]
    assert [row(b) for b in before] == rows_before and len(before) == len(rows_before)
    assert spill.pack(Session(index=1, blocks=cast(list[Block], before))) == 0  # a copy's
    session.open_thinking, opened.open = None, False
    stray = Block(TEXT, 30, ["open, and not the session's open text"], open=True)
    for block in (stray, Block(TEXT, 31, ["closed"]), Block(TOOL, 32)):
        session.blocks.append(block)
    spill.sweep([session])
    assert packed.packed == len(packed) - 3 and packed[-3] is stray
    stray.open = False
    spill.sweep([session])
    assert packed.packed == len(packed) - 1
    assert [b.text for b in packed[-7:-1]] == ["after", "still", "closed", "", stray.text, "closed"]


def test_copies_take_their_own_blocks_in_place() -> None:
    """A copy's blocks set in place (a checkpoint's open copies) are its own, on a row or
    after them; the original and the rows do not change."""
    blocks = odd_blocks()
    packed = cast(PackedBlocks, packed_session(blocks)[0].blocks)
    copy = packed.copy()
    first = first_blocks(cast(list[Block], packed), 5)
    assert isinstance(first, PackedBlocks) and len(first) == 5
    assert [row(b) for b in first] == [row(b) for b in blocks[:5]]
    mine = Block(TEXT, 2, ["mine"], open=True)
    copy[2] = mine
    copy[-1] = Block(TEXT, 11, ["my last"])
    first[-1] = mine
    assert copy[2] is mine and copy[-1].text == "my last" and first[4] is mine
    assert kind_at(first, 4) == TEXT and list(tools_from(first, 0)) == [(3, 0)]
    first[3] = Block(PROMPT, 3, ["not a marker now"])
    assert places_of(first, TOOL) == [] and list(tools_from(first, 0)) == []
    assert places_of(first, PROMPT) == [0, 3] and places_of(packed, TOOL) == [3, 4, 10, 14, 15]
    within = first_blocks(cast(list[Block], copy), 3)
    within[2] = Block(THINKING, 2, ["the prefix's own"])
    assert copy[2] is mine and within[2].kind == THINKING
    assert [row(b) for b in packed] == [row(b) for b in blocks]
    longer = first_blocks(cast(list[Block], copy), len(copy))
    assert longer[2] is mine and longer == copy and longer != packed
    longer[2] = Block(TEXT, 2, ["the longer copy's own"])
    assert copy[2] is mine
    assert first_blocks(blocks, 3) == blocks[:3]


def test_live_sweep_packs_once_enough_blocks_piled_up() -> None:
    """:class:`LiveSweep` leaves a session alone until it has ``every`` blocks not
    packed, then packs them; a session closed since is packed once a new one opens."""
    sweep = LiveSweep(every=10)
    first = Session(index=0, blocks=[Block(TEXT, line, [f"w{line}"]) for line in range(8)])
    sessions = [first]
    sweep(sessions)  # the first call sweeps (nothing seen yet)
    assert packed_count(first.blocks) == 7
    for line in range(8, 14):
        first.blocks.append(Block(TEXT, line, [f"w{line}"]))
    sweep(sessions)
    assert packed_count(first.blocks) == 7  # 7 not packed: fewer than 10
    for line in range(14, 18):
        first.blocks.append(Block(TEXT, line, [f"w{line}"]))
    sweep(sessions)
    assert packed_count(first.blocks) == 17
    for line in range(18, 20):
        first.blocks.append(Block(TEXT, line, [f"w{line}"]))
    sessions.append(Session(index=1, blocks=[Block(TEXT, 30, ["new"])]))
    sweep(sessions)
    assert packed_count(first.blocks) == 19
    assert [b.text for b in first.blocks] == [f"w{line}" for line in range(20)]
    fresh = [Session(index=0, blocks=[Block(TEXT, line, ["x"]) for line in range(3)])]
    sweep(fresh)  # a state started over: its own sessions
    assert packed_count(fresh[0].blocks) == 2
