"""The plain text of closed blocks' laid-out lines, kept for search.

The transcript holds rendered lines only near the screen (issue 27.5), so a search
would lay the whole session out every time (5.5 s on a 60 MB session). What a search
matches against is each line's text: that is kept here per closed block, a block's
lines joined by newlines, long ones zlib-compressed, within a byte budget. Once the
budget is spent no block is added (a search walks every block in order, so dropping
the least recently used would drop each block just before the next search needs it);
the blocks beyond are laid out again at each search, as before.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Callable, Sequence

TEXTS_BUDGET = 48 << 20
"""Bytes the kept texts may take (a 60 MB Claude session's take 4 MB)."""
COMPRESS_FROM = 512
"""Characters from which a block's text is kept compressed (shorter ones gain little)."""
ENTRY_BYTES = 200
"""What a kept block costs besides its text: its dictionary slot, its index, the tuple
and the two ints in it."""


class LineTexts:
    """Per block index, the texts of its lines as laid out at the current width and look,
    with the signature the block had then (a block that changed since is not found)."""

    def __init__(self, budget: int = TEXTS_BUDGET) -> None:
        self.budget = budget
        self.size = 0
        """Bytes taken (the texts, and :data:`ENTRY_BYTES` each)."""
        self._kept: dict[int, tuple[str | bytes, int, int]] = {}
        """Per block: its text, the hash of its signature, the bytes it takes."""

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, index: int) -> bool:
        return index in self._kept

    def get(self, index: int, signature: tuple[object, ...]) -> list[str] | None:
        """Block ``index``'s line texts, if kept for this ``signature``."""
        kept = self._kept.get(index)
        if kept is None:
            return None
        text, was, _size = kept
        if was != hash(signature):
            self.drop(index)
            return None
        if isinstance(text, bytes):
            text = zlib.decompress(text).decode()
        return text.split("\n")

    def put(self, index: int, texts: Sequence[str], signature: tuple[object, ...]) -> None:
        """Keep block ``index``'s line texts (not if the budget is spent, or there are
        none, or a line holds a newline)."""
        if not texts:
            return
        joined = "\n".join(texts)
        if joined.count("\n") != len(texts) - 1:
            return
        text: str | bytes = joined
        if len(joined) >= COMPRESS_FROM:
            text = zlib.compress(joined.encode(), 1)
        size = sys.getsizeof(text) + ENTRY_BYTES
        self.drop(index)
        if self.size + size > self.budget:
            return
        self._kept[index] = (text, hash(signature), size)
        self.size += size

    def drop(self, index: int) -> None:
        """Forget block ``index``'s texts (it changed)."""
        kept = self._kept.pop(index, None)
        if kept is not None:
            self.size -= kept[2]

    def drop_where(self, stale: Callable[[int], bool]) -> None:
        """Forget the blocks for which ``stale(index)`` holds."""
        for index in [index for index in self._kept if stale(index)]:
            self.drop(index)

    def clear(self) -> None:
        """Forget every block's texts (a new width or look)."""
        self._kept.clear()
        self.size = 0
