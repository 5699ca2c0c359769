"""A session's text in pieces (``--json`` writes it so): segments in order, a blank line
between two unless the first ends in one, whatever the parts' sizes."""

from __future__ import annotations

import random
from collections.abc import Iterator

from streamview.core.model import TEXT, THINKING, TOOL, Block, Session


def reference_pieces(blocks: list[Block]) -> Iterator[str]:
    """The rule, as first written: each text segment's non-empty parts, and between two
    segments ``\\n`` after one ending in a newline, ``\\n\\n`` after any other, nothing
    after a blank line."""
    last: str | None = None
    for block in blocks:
        if block.kind != TEXT or not any(block.parts):
            continue
        if last is not None and not last.endswith("\n\n"):
            yield "\n" if last.endswith("\n") else "\n\n"
        tail = ""
        for part in block.parts:
            if part:
                yield part
                tail = (tail + part)[-2:]
        last = tail


def test_text_pieces_follow_the_segments_tails_across_parts_of_any_size() -> None:
    """Parts of one character (a tail made of two parts: ``x`` then ``\\n``, ``\\n`` then
    ``\\n``), empty parts, empty segments, one-part segments, between thinking and tools."""
    generator = random.Random(308)
    shapes = ("", "\n", "\n\n", "x", "x\n", "ab", "a\n\n", "\nq", "end.")
    for _ in range(400):
        blocks = []
        for line in range(generator.randrange(0, 12)):
            kind = generator.choice((TEXT, TEXT, TEXT, THINKING, TOOL))
            parts = [generator.choice(shapes) for _ in range(generator.randrange(0, 4))]
            blocks.append(Block(kind, line, parts))
        session = Session(index=0, blocks=blocks)
        assert list(session.text_pieces()) == list(reference_pieces(blocks)), blocks
    assert list(
        Session(index=0, blocks=[Block(TEXT, 1, ["x"]), Block(TEXT, 2, ["\n", "y"])]).text_pieces()
    ) == ["x", "\n\n", "\n", "y"]
    two_parts = [Block(TEXT, 1, ["a\n", "\n"]), Block(TEXT, 2, ["b"])]
    assert list(Session(index=0, blocks=two_parts).text_pieces()) == ["a\n", "\n", "b"]
