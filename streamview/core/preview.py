"""A quick look at a big file before it is read: its start and its end folded, its
middle skipped, so the viewer shows the session and the run's outcome at once."""

from __future__ import annotations

from pathlib import Path

from streamview.core.reader import fold
from streamview.core.state import StreamState

PREVIEW_FROM_BYTES = 4 << 20
"""Files at least this big show a preview of their start and end while they are read."""
PREVIEW_HEAD_BYTES = 256 << 10
"""The preview's start: enough for the session's init and prompt."""
PREVIEW_TAIL_BYTES = 2 << 20
"""The preview's end: the tail of the run, with its result."""


def fold_preview(path: Path, size: int, agent: str | None = None) -> StreamState:
    """Fold the start and the end of a big file, skipping its middle.

    Only whole lines are kept: the head up to its last newline, the tail from its
    first one. The state is not finished (the run's end may be in what was skipped)
    and its line numbers past the head are wrong, so no payload can be loaded from it.

    Args:
        path: The file.
        size: Its size in bytes.
        agent: The dialect to read it as (``None``: recognised from the head).
    """
    with open(path, "rb") as handle:
        head = handle.read(PREVIEW_HEAD_BYTES)
        head = head[: head.rfind(b"\n") + 1]
        start = max(size - PREVIEW_TAIL_BYTES, len(head))
        handle.seek(start)
        tail = handle.read()
    if start > len(head):  # the tail begins inside a line: drop that piece
        newline = tail.find(b"\n")
        tail = tail[newline + 1 :] if newline >= 0 else b""
    return fold([head, tail], finish=False, agent=agent)
