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
"""Bytes the kept texts may take (a 60 MB Claude session's take 9 MB)."""
COMPRESS_FROM = 256
"""UTF-8 bytes from which a block's text is kept compressed (shorter ones gain little)."""
ENTRY_BYTES = 96
"""What a kept block costs besides its bytes object: its index and dictionary slot."""
PLAIN, ZLIB = b"p", b"z"
"""The first byte of a kept block: how its text is kept."""
HEADER = 9
"""The kind byte, then the hash of the block's signature (8 bytes), then the text."""


def _header(kind: bytes, signature: tuple[object, ...]) -> bytes:
    return kind + hash(signature).to_bytes(8, "little", signed=True)


class LineTexts:
    """Per block index, the texts of its lines as laid out at the current width and look,
    with the signature the block had then (a block that changed since is not found).

    A block is one bytes object: a kind byte, its signature's hash and its lines joined
    by newlines in UTF-8 (zlib-compressed from :data:`COMPRESS_FROM` bytes): tool
    markers, half the blocks, are not ASCII and would take two bytes a character in a
    ``str``; a tuple for each block would take more than most texts.
    """

    def __init__(self, budget: int = TEXTS_BUDGET) -> None:
        self.budget = budget
        self.size = 0
        """Bytes taken (the bytes objects, and :data:`ENTRY_BYTES` each)."""
        self._kept: dict[int, bytes] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, index: int) -> bool:
        return index in self._kept

    def get(self, index: int, signature: tuple[object, ...]) -> list[str] | None:
        """Block ``index``'s line texts, if kept for this ``signature``."""
        kept = self._kept.get(index)
        if kept is None:
            return None
        if kept[1:HEADER] != _header(b"", signature):
            self.drop(index)
            return None
        text = memoryview(kept)[HEADER:]
        if kept[:1] == ZLIB:
            return zlib.decompress(text).decode().split("\n")
        return str(text, "utf-8").split("\n")

    def put(self, index: int, texts: Sequence[str], signature: tuple[object, ...]) -> None:
        """Keep block ``index``'s line texts (not if the budget is spent, or there are
        none, or a line holds a newline)."""
        if not texts:
            return
        joined = "\n".join(texts)
        if joined.count("\n") != len(texts) - 1:
            return
        data = joined.encode()
        if len(data) >= COMPRESS_FROM:
            kept = _header(ZLIB, signature) + zlib.compress(data, 1)
        else:
            kept = _header(PLAIN, signature) + data
        self.drop(index)
        size = sys.getsizeof(kept) + ENTRY_BYTES
        if self.size + size > self.budget:
            return
        self._kept[index] = kept
        self.size += size

    def drop(self, index: int) -> None:
        """Forget block ``index``'s texts (it changed)."""
        kept = self._kept.pop(index, None)
        if kept is not None:
            self.size -= sys.getsizeof(kept) + ENTRY_BYTES

    def drop_where(self, stale: Callable[[int], bool]) -> None:
        """Forget the blocks for which ``stale(index)`` holds."""
        for index in [index for index in self._kept if stale(index)]:
            self.drop(index)

    def clear(self) -> None:
        """Forget every block's texts (a new width or look)."""
        self._kept.clear()
        self.size = 0
