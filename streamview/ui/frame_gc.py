"""Garbage collection between frames: short collections right after a frame reaches the
screen, rather than long ones in the middle of the next.

The viewer raises the young generation's threshold to 100,000 objects
(:func:`streamview.ui.launch.prepare_process`) so that folding a big file is not slowed
by collections. While lines stream in, that made each collection a 20-100 ms pause,
taken wherever the allocation happened to be: mostly inside a screen update (Textual's
strips and their caches are cyclic garbage). Collected after each frame once
:data:`YOUNG_OBJECTS` have piled up, the same work comes in 5-15 ms slices at the one
moment nothing waits for the UI thread.
"""

from __future__ import annotations

import gc

YOUNG_OBJECTS = 20_000
"""Objects allocated (net) since the last collection that make a collection worth running."""
YOUNG_PER_MIDDLE = 10
"""Every this many young collections the middle generation is collected too (CPython's
own ratio is 10 by default); its survivors go to the oldest."""


def collection_due() -> bool:
    """Whether enough objects piled up for :func:`collect_between_frames` to run."""
    return gc.get_count()[0] >= YOUNG_OBJECTS


def collect_between_frames() -> int:
    """Collect the young generation, and the older ones when their turn came.

    The oldest generation is collected when the middle one was collected as many times
    as its threshold says, as CPython itself would.

    Returns:
        The generation collected (-1: nothing was due).
    """
    if not collection_due():
        return -1
    _young, middle, old = gc.get_count()
    generation = 0
    if middle >= YOUNG_PER_MIDDLE:
        generation = 2 if old >= gc.get_threshold()[2] else 1
    gc.collect(generation)
    return generation
