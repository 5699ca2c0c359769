"""Whether a transcript's blocks have a code fence, for the check a built lexer makes
(:meth:`streamview.ui.transcript.transcript.Transcript.on_transcript_lexer_ready`):
each closed block's text is read once, not at every lexer (a 2 GB session's million
blocks took ~2 s a lexer, their texts read back from the viewer's spill)."""

from __future__ import annotations

from collections.abc import Sequence

from streamview.core.block_columns import kind_at
from streamview.core.model import Block
from streamview.ui.transcript.block_layout import has_fence

CODE_KINDS = frozenset({"text", "thinking"})
"""Blocks laid out as Markdown, whose code fences are coloured by a lexer."""

FenceFree = tuple[object, int]
"""The blocks last looked at, and how many of their first blocks are closed and have
no code fence."""


def find_fence(
    blocks: Sequence[Block], count: int, closed: int, known: FenceFree
) -> tuple[FenceFree, bool]:
    """Whether one of the first ``count`` of ``blocks`` has a code fence; what is known
    of them after (``closed``: the blocks before it are closed, their texts final).

    Args:
        blocks: The blocks shown.
        count: How many of them the transcript has.
        closed: The first block still open.
        known: What the last call said (of these blocks or others).
    """
    seen, start = known
    start = min(start, count) if seen is blocks else 0
    closed = min(closed, count)
    for index in range(start, count):
        if kind_at(blocks, index) in CODE_KINDS and has_fence(blocks[index].text):
            return (blocks, max(start, min(closed, index))), True
    return (blocks, max(start, closed)), False
