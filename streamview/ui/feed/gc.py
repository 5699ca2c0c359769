"""Garbage collection between frames: short collections right after a frame reaches the
screen, rather than long ones in the middle of the next.

The viewer raises the young generation's threshold to 100,000 objects
(:func:`streamview.ui.frame.launch.prepare_process`) so that folding a big file is not slowed
by collections. While lines stream in, that made each collection a 20-100 ms pause,
taken wherever the allocation happened to be: mostly inside a screen update (Textual's
strips and their caches are cyclic garbage). Collected after each frame once
:data:`YOUNG_OBJECTS` have piled up, the same work comes in 5-15 ms slices at the one
moment nothing waits for the UI thread.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

YOUNG_OBJECTS = 20_000
"""Objects allocated (net) since the last collection that make a collection worth running."""
YOUNG_PER_MIDDLE = 10
"""Every this many young collections the middle generation is collected too (CPython's
own ratio is 10 by default); its survivors go to the oldest."""


_bulk = {"folds": 0}
_bulk_lock = threading.Lock()


def collection_due() -> bool:
    """Whether enough objects piled up for :func:`collect_between_frames` to run
    (never while a whole file is folded: see :func:`folding_a_file`)."""
    return not _bulk["folds"] and gc.get_count()[0] >= YOUNG_OBJECTS


@contextmanager
def folding_a_file() -> Iterator[None]:
    """No collection while a whole file is folded on a thread; its state frozen after.

    A fold makes millions of objects that all stay alive and form no cycles, so a
    collection meanwhile only walks the growing state again: on the 1M-event file that
    was 0.25 s on the UI thread (between frames) and more on the loader's, with the
    GIL held. After the fold, :func:`gc.freeze` moves the state (and whatever else is
    alive) out of the generations, so later collections, in every frame while the
    person browses, no longer walk it. Objects frozen are still freed when no longer
    referenced; only a cycle among them would never be collected.
    """
    with _bulk_lock:
        _bulk["folds"] += 1
        gc.disable()
    try:
        yield
    finally:
        with _bulk_lock:
            _bulk["folds"] -= 1
            if not _bulk["folds"]:
                gc.freeze()
                gc.enable()


FULL_SHARE = 0.01
"""At most this share of the time goes to full collections: after one that took ``t``
seconds, the next waits at least ``t / FULL_SHARE``. A full collection walks the whole
heap (a long run's state is millions of objects); CPython postpones it on a large heap
by its own rule, which collecting by hand bypasses."""

_full = {"not_before": 0.0}


def collect_between_frames(clock: Callable[[], float] = time.monotonic) -> int:
    """Collect the young generation, and the older ones when their turn came.

    The oldest generation is collected when the middle one was collected as many times
    as its threshold says, as CPython itself would, and no sooner than
    :data:`FULL_SHARE` allows after the last one.

    Args:
        clock: Monotonic seconds (tests pass a fake one).

    Returns:
        The generation collected (-1: nothing was due).
    """
    if not collection_due():
        return -1
    _young, middle, old = gc.get_count()
    generation = 0
    if middle >= YOUNG_PER_MIDDLE:
        full = old >= gc.get_threshold()[2] and clock() >= _full["not_before"]
        generation = 2 if full else 1
    began = clock()
    gc.collect(generation)
    if generation == 2:
        ended = clock()
        _full["not_before"] = ended + (ended - began) / FULL_SHARE
    return generation
