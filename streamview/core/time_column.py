"""One time per event (epoch ms, or none) in about four bytes, not eight.

The times of a recording's events come in order, most a few milliseconds to a few
minutes after the one before, so a :class:`TimeColumn` keeps each as its step from the
last time before it, a 4-byte signed int. A step that does not fit (the first time, a
clock that jumped more than 24 days either way) is kept exactly, on the side. A column
whose events have no time so far (a session file's arrival times: none at all) holds
only their count. Reading event ``n`` sums the steps since the nearest of the times
kept every :data:`BLOCK` steps, so it costs at most :data:`BLOCK` additions in C. The
steps' full pages are in the page file (:mod:`~streamview.core.paged_array`).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate, islice, repeat
from operator import sub
from typing import overload

from streamview.core.paged_array import PagedArray

BLOCK = 64
"""Steps between two times kept whole (8 bytes each: an eighth of a byte a step)."""
_MISSING = -(1 << 31)
"""The step of an event without a time."""
_EXACT = _MISSING + 1
"""The step of an event whose time is kept whole, in ``_exact``."""
_STEP_MAX = (1 << 31) - 1


class TimeColumn(Sequence[int]):
    """Each event's time, in order; ``missing`` stands for "no time".

    Args:
        missing: What an event without a time is given as, and read back as.
    """

    def __init__(self, missing: int) -> None:
        self.missing = missing
        self._lead = 0
        """Events before the first one with a time (none of them stored)."""
        self._steps = PagedArray("i")
        """From the first event with a time on: each one's step from the last time."""
        self._anchors = array("q")
        """The last time before step ``k * BLOCK``, for each ``k``."""
        self._exact: dict[int, int] = {}
        """Steps kept whole (their place in ``_steps`` -> the time)."""
        self._last = 0
        """The last time appended."""

    def append(self, value: int) -> None:
        """Add the next event's time (``missing``: it has none)."""
        steps = self._steps
        count = len(steps)
        if value == self.missing:
            if not count:
                self._lead += 1
                return
            if not count % BLOCK:
                self._anchors.append(self._last)
            steps.append(_MISSING)
            return
        if not count % BLOCK:
            self._anchors.append(self._last)
        step = value - self._last
        if _EXACT < step <= _STEP_MAX:
            steps.append(step)
        else:
            self._exact[count] = value
            steps.append(_EXACT)
        self._last = value

    def extend(self, values: array[int]) -> None:
        """:meth:`append` each of ``values``, the runs of times between two without one
        in C (a run whose steps do not all fit: one by one)."""
        missing, end = self.missing, len(values)
        if not self._steps and values.count(missing) == end:
            self._lead += end
            return
        start = 0
        while start < end:
            try:
                stop = values.index(missing, start)
            except ValueError:
                stop = end
            if stop > start:
                self._extend_timed(values[start:stop])
            if stop < end:
                self.append(missing)
            start = stop + 1

    def _extend_timed(self, run: array[int]) -> None:
        """:meth:`extend` of times, none of them ``missing``."""
        before = array("q", [self._last])
        before.extend(run[:-1])
        try:
            moved = array("i", map(sub, run, before))
        except OverflowError:
            moved = None
        if moved is None or min(moved) <= _EXACT:  # a step kept whole on the way
            for value in run:
                self.append(value)
            return
        steps = self._steps
        self._anchors.extend(before[-len(steps) % BLOCK :: BLOCK])
        steps.extend(moved)
        self._last = run[-1]

    def nbytes(self) -> int:
        """Bytes the arrays hold (the side dictionary's few entries left out)."""
        return len(self._steps) * 4 + len(self._anchors) * 8

    def __len__(self) -> int:
        return self._lead + len(self._steps)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return [self[place] for place in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        place = index - self._lead
        if place < 0:
            return self.missing
        steps = self._steps
        step = steps[place]
        if step == _MISSING:
            return self.missing
        if step == _EXACT:
            return self._exact[place]
        first = place - place % BLOCK
        value = self._anchors[place // BLOCK]
        run = steps[first : place + 1]
        if min(run) > _EXACT:
            return value + sum(run)
        exact = self._exact
        for at in range(first, place + 1):  # a time kept whole, or none, on the way
            step = steps[at]
            if step == _EXACT:
                value = exact[at]
            elif step != _MISSING:
                value += step
        return value

    def __contains__(self, value: object) -> bool:
        if value == self.missing:
            return self._lead > 0 or _MISSING in self._steps
        return any(item == value for item in self)

    def __iter__(self) -> Iterator[int]:
        missing = self.missing
        yield from repeat(missing, self._lead)
        steps, exact = self._steps, self._exact
        if _MISSING in steps:
            value = 0
            for at, step in enumerate(steps):
                if step == _MISSING:
                    yield missing
                elif step == _EXACT:
                    value = exact[at]
                    yield value
                else:
                    value += step
                    yield value
            return
        value, start = 0, 0
        for mark in [*exact, len(steps)]:  # runs of steps between times kept whole
            run = steps[start:mark]
            yield from islice(accumulate(run, initial=value), 1, None)
            if mark == len(steps):
                return
            value = exact[mark]
            yield value
            start = mark + 1
