"""A session's text and thinking as ``--json`` writes them: JSON string bodies, a MB or
so at a time.

Text the fold moved out of memory (:mod:`streamview.core.text_store`) is kept with the
separators between its segments, where they are known when it is moved: it is read back
in runs of a MB, one ``decode`` and one JSON encoding a run, not a few Python steps a
segment (two thirds of writing a tool-heavy run's summary). A string's escapes are its
characters' escapes, one after another, so the bytes are the ones ``json_for_terminal``
gives of the whole text. Where a text holds what orjson cannot write (a lone
surrogate), the escaping fallback writes a batch whole: the text is then written from
its pieces, batch by batch, as before (:func:`pieces_json`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

import orjson

from streamview.core.model import TEXT, Block, Session
from streamview.core.sanitize import json_for_terminal
from streamview.core.text_store import (
    CARRIED,
    ENDS_IN_BLANK_LINE,
    READ_PIECE,
    SpilledParts,
    TextSpill,
    tail_of,
)

STRING_PIECE = 1 << 20
"""Characters of a session's text or thinking written in one piece, about."""
_SEPARATORS = ("\n\n", "\n", "")
"""Before a text segment, by what the one before it ends in (:func:`tail_of`)."""


def text_json(session: Session, kind: str, spill: TextSpill | None) -> Iterator[bytes]:
    """The JSON string body of a session's text (the run's result when it has none) or
    thinking (``kind``), in pieces of a MB or so."""
    spilled = spill.stand_in(session.index, kind) if spill is not None else None
    after = None
    if spilled is not None and spilled.whole:  # only what follows the moved texts is kept
        after = _after_moved(session.blocks, kind, spilled)
    kept = session.blocks if after is None else after
    if spilled is None or spilled.odd or not _orjson_writes(kept, kind, spilled):
        if kind == TEXT:
            pieces = session.text_pieces()
            first = next(pieces, None)
            # No text: the run's result stands for it, as in :attr:`Session.text`.
            if first is None:
                yield from pieces_json(pieces, session.outcome.result or "")
            else:
                yield from pieces_json(_chain(first, pieces), None)
        else:
            yield from pieces_json(session.thinking_pieces(), None)
        return
    yield from _Copy(spilled, kind).run(session.blocks, after)


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def pieces_json(pieces: Iterator[str], instead: str | None) -> Iterator[bytes]:
    """The JSON of the string ``pieces`` join to (``instead`` when there is none),
    without its quotes, written a MB or so at a time."""
    batch: list[str] = [] if instead is None else [instead]
    size = 0
    for piece in pieces:
        batch.append(piece)
        size += len(piece)
        if size >= STRING_PIECE:
            yield json_for_terminal("".join(batch))[1:-1]
            batch, size = [], 0
    if batch:
        yield json_for_terminal("".join(batch))[1:-1]


def _after_moved(blocks: list[Block], kind: str, spilled: SpilledParts) -> list[Block] | None:
    """The ``kind`` blocks after the last moved one, in order (``None``: none was moved)."""
    after: list[Block] = []
    for block in reversed(blocks):
        if block.kind == kind:
            if block.parts is spilled:
                after.reverse()
                return after
            after.append(block)
    return None


def _orjson_writes(blocks: list[Block], kind: str, spilled: SpilledParts) -> bool:
    """Whether orjson writes every ``kind`` text of ``blocks`` kept in memory (no lone
    surrogate): asked of them all at once. With every moved text carrying its
    separator (:attr:`SpilledParts.whole`) those before the last moved one are moved
    or empty, and only the blocks after it are asked of (:func:`_after_moved`)."""
    try:
        orjson.dumps([b.parts for b in blocks if b.kind == kind and b.parts is not spilled])
    except TypeError:
        return False
    return True


class _Copy:
    """The JSON of one kind of a session's pieces, moved texts read back in runs."""

    def __init__(self, spilled: SpilledParts, kind: str) -> None:
        self.spilled = spilled
        self.kind = kind
        self.texts: list[str] = []
        """Text gathered to be written."""
        self.size = 0
        self.window = b""
        """Bytes of the file from :attr:`at`, read ahead."""
        self.at = 0
        self.run_from = self.run_to = 0
        """The run of moved bytes to be read."""

    def run(self, blocks: list[Block], after: list[Block] | None) -> Iterator[bytes]:
        """The JSON pieces of ``blocks``' text (or thinking); ``after``: the blocks of
        the kind after the last moved one, where every moved text carries its separator
        (:func:`_after_moved`)."""
        spilled = self.spilled
        last = -1  # what the segment before ends in (tail_of); -1: none yet
        taken = 0
        if spilled.whole and after is not None:
            # Every moved text carried its separator, none kept in memory between
            # them: the stream is the text up to the last one, copied a piece at a
            # time without a step per block; then what stayed in memory after it.
            yield from self.stream()
            last, taken = spilled.tails[-1] & 3, len(spilled.ends)
            blocks = after
        yield from self.blocks(blocks, last, taken)

    def stream(self) -> Iterator[bytes]:
        """The JSON pieces of the whole stream, cut where a text ends, a MB or so a piece
        (what was gathered before it goes first, with the first)."""
        spilled, texts = self.spilled, self.texts
        ends = spilled.ends
        count = len(ends)
        start = at = 0
        while at < count:
            upto = max(bisect_right(ends, start + READ_PIECE) - 1, at)
            end = ends[upto]
            texts.append(spilled.span(start, end).decode("utf-8"))
            start, at = end, upto + 1
            yield self.flush()  # a piece a read: one copy of it held at a time

    def blocks(self, blocks: list[Block], last: int, taken: int) -> Iterator[bytes]:
        """The JSON pieces of ``blocks``' text (or thinking), after ``taken`` moved texts
        (the last of them ending in ``last``)."""
        spilled, kind, texts = self.spilled, self.kind, self.texts
        starts, ends, tails = spilled.starts, spilled.ends, spilled.tails
        text = kind == TEXT
        for block in blocks:
            if block.kind != kind:
                continue
            parts = block.parts
            if parts is spilled:
                tail = tails[taken]
                start = starts[taken]
                if tail & CARRIED:
                    start -= tail >> 4  # its separator is in the file
                elif last >= 0 and (last != ENDS_IN_BLANK_LINE or not text):
                    self.read()
                    texts.append(_SEPARATORS[last] if text else "\n\n")
                if start != self.run_to or self.run_to - self.run_from >= READ_PIECE:
                    self.read()
                    self.run_from = start
                self.run_to = ends[taken]
                last = tail & 3
                taken += 1
            elif text:
                if not any(parts):
                    continue
                self.read()
                if last >= 0 and last != ENDS_IN_BLANK_LINE:
                    texts.append(_SEPARATORS[last])
                end = ""
                for part in parts:
                    if part:
                        texts.append(part)
                        self.size += len(part)
                        end = part[-2:] if len(part) > 1 else (end + part)[-2:]
                last = tail_of(end)
            elif parts:
                self.read()
                if last >= 0:
                    texts.append("\n\n")
                texts.extend(parts)
                self.size += sum(map(len, parts))
                last = 0
            if self.size >= STRING_PIECE:
                yield self.flush()
        self.read()
        if texts:
            yield self.flush()

    def read(self) -> None:
        """Gather the run of moved texts (and their separators)."""
        start, end = self.run_from, self.run_to
        if end <= start:
            return
        if start < self.at or end > self.at + len(self.window):
            self.at = start
            self.window = self.spilled.span(start, max(end, start + READ_PIECE))
        self.texts.append(self.window[start - self.at : end - self.at].decode("utf-8"))
        self.size += end - start
        self.run_from = self.run_to = end

    def flush(self) -> bytes:
        """The JSON of what was gathered."""
        data = json_for_terminal("".join(self.texts))[1:-1]
        self.texts.clear()
        self.size = 0
        return data
