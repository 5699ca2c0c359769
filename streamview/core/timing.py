"""When each line of a recorded run is shown during playback.

Pure: no threads and no real clock. A :class:`Schedule` gives every line an offset
from the start of playback, in recording milliseconds; a :class:`Playhead` turns an
injected clock into a position on that time line, with speed, pause and seek.

Where the times come from, best first:

1. arrival times a recording added to each line (``streamview_recv_ms``), unless
   they are all equal (a capture piped in at once has no timing worth replaying);
2. the records' own ``timestamp_ms``;
3. nothing: a steady pace of :data:`STEADY_MS` per line.

Lines without a time on the chosen clock are paced steadily too, and the time they
take is borrowed from the next timed gap, so the total length stays true.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from typing import Any

import msgspec
import orjson

from streamview.core.parse import RECV_KEY

STEADY_MS = 100
"""Pace, in recording ms, of lines that carry no usable time."""

RECEIVED = "received"
TIMESTAMPS = "timestamps"
STEADY = "steady"

SPEEDS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0)
"""The steps ``faster`` and ``slower`` move through."""

LineTimes = tuple[int | None, int | None]
"""``(arrival ms, timestamp_ms)`` of one line; either may be unknown."""


def _as_ms(value: Any) -> int | None:
    """An epoch-ms integer from an int, a float or a digit string; else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == value and abs(value) < 1e18:
        return int(value)
    if isinstance(value, str) and value.isascii() and value.strip().isdigit():
        return int(value)
    return None


def times_of_line(data: bytes) -> LineTimes:
    """The arrival time and ``timestamp_ms`` of one raw line, ``(None, None)`` if none.

    Args:
        data: The line's bytes, with or without its terminator.
    """
    data = data.strip()
    if not data.startswith(b"{"):
        return None, None
    try:
        record = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None, None
    if not isinstance(record, dict):
        return None, None
    return _as_ms(record.get(RECV_KEY)), _as_ms(record.get("timestamp_ms"))


def choose_clock(times: Sequence[LineTimes]) -> str:
    """Which clock to replay by: :data:`RECEIVED`, :data:`TIMESTAMPS` or :data:`STEADY`."""
    received = [recv for recv, _ in times if recv is not None]
    if received and (len(received) == 1 or max(received) != min(received)):
        return RECEIVED
    if any(stamp is not None for _, stamp in times):
        return TIMESTAMPS
    return RECEIVED if received else STEADY


def offsets_ms(
    times: Iterable[int | None],
    idle_limit_ms: int | None = None,
    steady_ms: int = STEADY_MS,
) -> list[int]:
    """Offset of each line from the start of playback, in recording milliseconds.

    Args:
        times: Each line's time on one clock (epoch ms), ``None`` when it has none.
        idle_limit_ms: Play any longer silence as this long.
        steady_ms: Gap before a line with no time (borrowed from the next timed gap).

    Returns:
        Non-decreasing offsets, the first one 0.
    """
    offsets: list[int] = []
    offset = 0
    anchor: int | None = None
    """The clock time playback has reached; never goes back."""
    for index, moment in enumerate(times):
        if index == 0:
            gap = 0
        elif moment is None or anchor is None:
            gap = steady_ms
        else:
            gap = max(0, moment - anchor)
        if idle_limit_ms is not None:
            gap = min(gap, idle_limit_ms)
        offset += gap
        offsets.append(offset)
        if moment is not None:
            anchor = moment if anchor is None else max(anchor, moment)
        elif anchor is not None and index > 0:
            anchor += steady_ms
    return offsets


class Schedule(msgspec.Struct, frozen=True):
    """Offsets of the lines of a recording, ready to be played."""

    clock: str
    """Where the times came from: :data:`RECEIVED`, :data:`TIMESTAMPS` or :data:`STEADY`."""
    offsets: Sequence[int]
    """Per line, ms from the start (idle limit applied, speed not): a tuple, or an
    ``array('q')`` for a big file (:func:`build_column_schedule`)."""

    @property
    def total_ms(self) -> int:
        """Length of the whole playback at speed 1."""
        return self.offsets[-1] if self.offsets else 0

    def __len__(self) -> int:
        return len(self.offsets)

    def due_at(self, position_ms: float) -> int:
        """How many lines are due once playback reaches ``position_ms``."""
        return bisect_right(self.offsets, position_ms)

    def offset_of(self, count: int) -> int:
        """Position at which ``count`` lines have been shown (0 for none)."""
        if count <= 0 or not self.offsets:
            return 0
        return self.offsets[min(count, len(self.offsets)) - 1]

    def delays(self, speed: float = 1.0) -> list[float]:
        """Seconds to wait before each line, at ``speed``."""
        previous = 0
        out: list[float] = []
        for offset in self.offsets:
            out.append((offset - previous) / 1000 / speed)
            previous = offset
        return out


def build_schedule(
    times: Sequence[LineTimes],
    idle_limit: float | None = None,
    steady_ms: int = STEADY_MS,
) -> Schedule:
    """The playback schedule of a recording.

    Args:
        times: ``(arrival ms, timestamp_ms)`` per line, in order.
        idle_limit: Longest silence to play, in seconds (``None``: as recorded).
        steady_ms: Pace of lines without a usable time.
    """
    clock = choose_clock(times)
    if clock == RECEIVED:
        moments: list[int | None] = [recv for recv, _ in times]
    elif clock == TIMESTAMPS:
        moments = [stamp for _, stamp in times]
    else:
        moments = [None] * len(times)
    limit = None if idle_limit is None else max(0, round(idle_limit * 1000))
    return Schedule(clock, tuple(offsets_ms(moments, limit, steady_ms)))


def build_column_schedule(
    received: Sequence[int],
    stamps: Sequence[int],
    missing: int,
    idle_limit: float | None = None,
    steady_ms: int = STEADY_MS,
) -> Schedule:
    """:func:`build_schedule` from two columns of times, with compact offsets.

    For a million lines: no tuple per line, and the offsets in an ``array('q')``.

    Args:
        received: Each line's arrival time, ``missing`` when it has none.
        stamps: Each line's ``timestamp_ms``, ``missing`` when it has none.
        missing: The value that stands for "no time".
        idle_limit: Longest silence to play, in seconds (``None``: as recorded).
        steady_ms: Pace of lines without a usable time.
    """
    present = (value for value in received if value != missing)
    first = next(present, missing)
    second = next(present, missing)
    if first != missing and (
        second == missing or second != first or any(value != first for value in present)
    ):
        clock = RECEIVED  # one arrival time, or times that differ (as choose_clock)
    elif any(value != missing for value in stamps):
        clock = TIMESTAMPS
    else:
        clock = RECEIVED if first != missing else STEADY
    column = received if clock == RECEIVED else stamps
    if clock != STEADY and idle_limit is None and column and missing not in column:
        # Every line timed, no idle limit: each offset is how far the clock's running
        # maximum has got from the first time (what offsets_ms works out line by line).
        start = column[0]
        return Schedule(clock, array("q", [top - start for top in accumulate(column, max)]))
    moments: Iterable[int | None]
    if clock == STEADY:
        moments = (None for _ in received)
    else:
        moments = (None if value == missing else value for value in column)
    limit = None if idle_limit is None else max(0, round(idle_limit * 1000))
    return Schedule(clock, array("q", offsets_ms(moments, limit, steady_ms)))


def faster(speed: float) -> float:
    """The next step up from ``speed`` in :data:`SPEEDS` (or ``speed`` at the top)."""
    for step in SPEEDS:
        if step > speed * 1.001:
            return step
    return speed


def slower(speed: float) -> float:
    """The next step down from ``speed`` in :data:`SPEEDS` (or ``speed`` at the bottom)."""
    for step in reversed(SPEEDS):
        if step < speed * 0.999:
            return step
    return speed


class Playhead:
    """A position on a recording's time line, driven by a clock.

    Not thread-safe: the owner locks around it.

    Args:
        clock: Seconds from any origin, never going back (``time.monotonic``).
        speed: Recording ms played per real ms.
        paused: Start paused.
        position_ms: Where to start.
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        speed: float = 1.0,
        paused: bool = False,
        position_ms: float = 0.0,
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self._clock = clock
        self._speed = speed
        self._paused = paused
        self._base_ms = float(position_ms)
        self._base_time = clock()

    @property
    def speed(self) -> float:
        """Recording ms played per real ms."""
        return self._speed

    @property
    def paused(self) -> bool:
        """Whether the position stands still."""
        return self._paused

    @property
    def position_ms(self) -> float:
        """The current position, in recording ms."""
        if self._paused:
            return self._base_ms
        return self._base_ms + (self._clock() - self._base_time) * 1000 * self._speed

    def _rebase(self) -> None:
        self._base_ms = self.position_ms
        self._base_time = self._clock()

    def pause(self) -> None:
        """Stop the position where it is."""
        self._rebase()
        self._paused = True

    def resume(self) -> None:
        """Let the position advance again."""
        self._rebase()
        self._paused = False

    def set_speed(self, speed: float) -> None:
        """Change the speed from now on, keeping the position."""
        if speed <= 0:
            raise ValueError("speed must be positive")
        self._rebase()
        self._speed = speed

    def seek(self, position_ms: float) -> None:
        """Jump to ``position_ms``."""
        self._base_ms = max(0.0, float(position_ms))
        self._base_time = self._clock()

    def seconds_until(self, target_ms: float) -> float | None:
        """Real seconds until the position reaches ``target_ms``.

        Returns:
            0 when it is already there, ``None`` when paused short of it.
        """
        remaining = target_ms - self.position_ms
        if remaining <= 0:
            return 0.0
        if self._paused:
            return None
        return remaining / 1000 / self._speed
