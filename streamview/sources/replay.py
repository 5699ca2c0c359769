"""Play a recorded run back in time, as a source.

:class:`ReplaySource` hands out the lines of a file when the schedule of
:mod:`streamview.core.timing` says they are due, so every front end (the viewer,
``--print``, ``--json``) shows a replay exactly as it would show the live run. The
file itself is passed on unchanged, and is not held: one pass records where each
unit starts and its times in compact arrays (:class:`IndexedRecording`), and the
units are read from the file when due. Pause, speed and seek are thread-safe: the
viewer calls them from its own thread while a reader thread consumes the lines.
"""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from streamview.core.timing import (
    STEADY_MS,
    Playhead,
    Schedule,
    build_column_schedule,
    build_schedule,
    faster,
    slower,
    times_of_line,
)
from streamview.sources.base import POLL_SECONDS, Source, open_file


@dataclass(frozen=True, slots=True)
class Recording:
    """A recorded run cut into the units playback steps through."""

    lines: tuple[bytes, ...]
    """One non-blank line each, terminator included; blank lines ride with the line
    before them (or the first line), so each unit is exactly one event."""
    schedule: Schedule

    def __len__(self) -> int:
        return len(self.lines)


def split_lines(data: bytes) -> list[bytes]:
    """Cut a file's bytes into units of one non-blank line (see :class:`Recording`)."""
    units: list[bytes] = []
    prefix = b""
    start = 0
    size = len(data)
    while start < size:
        end = data.find(b"\n", start)
        end = size if end < 0 else end + 1
        line = data[start:end]
        start = end
        if line.strip():
            units.append(prefix + line)
            prefix = b""
        elif units:
            units[-1] += line
        else:
            prefix += line
    if prefix:
        units.append(prefix)
    return units


def load_recording(
    data: bytes, idle_limit: float | None = None, steady_ms: int = STEADY_MS
) -> Recording:
    """Cut ``data`` into units and schedule them.

    Args:
        data: The whole file.
        idle_limit: Longest silence to play, in seconds.
        steady_ms: Pace of lines that carry no time.
    """
    units = split_lines(data)
    times = [times_of_line(unit) for unit in units]
    return Recording(tuple(units), build_schedule(times, idle_limit, steady_ms))


MAX_UNITS_AT_ONCE = 10_000
"""Units handed on in one chunk at most (a seek far ahead reads the file in pieces)."""
NO_TIME = -(1 << 63)
"""Stands for "no time" in the time columns."""


class IndexedRecording:
    """A recording's units left in the file: where each starts, and the schedule.

    The same units as :func:`split_lines` (a unit is one non-blank line; blank lines
    ride with the line before them, or with the first), found in one pass; a million
    lines cost three arrays (24 MB), not a million ``bytes``.
    """

    def __init__(self, handle: BinaryIO, idle_limit: float | None, steady_ms: int) -> None:
        self._handle = handle
        starts, received, stamps = array("q"), array("q"), array("q")
        position = 0
        for line in handle:
            if line.strip():
                starts.append(position if starts else 0)
                recv, stamp = times_of_line(line)
                received.append(NO_TIME if recv is None else recv)
                stamps.append(NO_TIME if stamp is None else stamp)
            position += len(line)
        if not starts and position:  # only blank lines: one unit of them all
            starts.append(0)
            received.append(NO_TIME)
            stamps.append(NO_TIME)
        self.size = position
        self.starts = starts
        self.schedule = build_column_schedule(received, stamps, NO_TIME, idle_limit, steady_ms)

    def __len__(self) -> int:
        return len(self.starts)

    def read(self, first: int, end: int) -> bytes:
        """Units ``first`` to ``end`` (exclusive), as they are in the file."""
        starts = self.starts
        stop = starts[end] if end < len(starts) else self.size
        self._handle.seek(starts[first])
        return self._handle.read(stop - starts[first])

    def close(self) -> None:
        """Let go of the file."""
        self._handle.close()


class ReplaySource(Source):
    """A recorded file, played back on its schedule.

    Args:
        path: The recording.
        speed: Recording time played per real second.
        idle_limit: Longest silence to play, in seconds (the file is not changed).
        paused: Start paused.
        clock: Monotonic seconds (injected by tests).
        sleep: Called to wait ``seconds`` instead of a condition wait (tests pass a
            fake clock's sleep); controls then take effect after the sleep.
    """

    live = False

    def __init__(
        self,
        path: Path,
        *,
        speed: float = 1.0,
        idle_limit: float | None = None,
        paused: bool = False,
        steady_ms: int = STEADY_MS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self._path = path
        self.label = str(path)
        self.idle_limit = idle_limit
        self.steady_ms = steady_ms
        self._condition = threading.Condition()
        self._playhead = Playhead(clock, speed=speed, paused=paused)
        self._sleep = sleep
        self._recording: IndexedRecording | None = None
        self.emitted = 0
        """How many units have been handed out."""

    @property
    def path(self) -> Path:
        """The recording (lines can be re-read from it: it is passed on unchanged)."""
        return self._path

    def load(self) -> IndexedRecording:
        """Index and schedule the file (once); playback time starts now.

        Raises:
            InputError: The file cannot be read.
        """
        with self._condition:
            if self._recording is None:
                handle = open_file(self._path)
                try:
                    self._recording = IndexedRecording(handle, self.idle_limit, self.steady_ms)
                except BaseException:
                    handle.close()
                    raise
                self._playhead.seek(0)
            return self._recording

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield the file's lines as they come due, until the end or ``stop``."""
        recording = self.load()
        schedule = recording.schedule
        total = len(recording)
        try:
            while not stop.is_set():
                with self._condition:
                    index = self.emitted
                    if index >= total:
                        return
                    wait = self._playhead.seconds_until(schedule.offsets[index])
                    if wait != 0:
                        self._wait(POLL_SECONDS if wait is None else min(wait, POLL_SECONDS))
                        continue
                    due = max(index + 1, schedule.due_at(self._playhead.position_ms))
                    due = min(due, index + MAX_UNITS_AT_ONCE)
                    chunk = recording.read(index, due)
                    self.emitted = due
                yield chunk
        finally:
            recording.close()

    def _wait(self, seconds: float) -> None:
        if self._sleep is None:
            self._condition.wait(seconds)
            return
        self._condition.release()
        try:
            self._sleep(seconds)
        finally:
            self._condition.acquire()

    # -- controls (any thread) --------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether playback stands still."""
        with self._condition:
            return self._playhead.paused

    @property
    def speed(self) -> float:
        """Recording time played per real second."""
        with self._condition:
            return self._playhead.speed

    @property
    def position_ms(self) -> float:
        """Where playback is, in recording ms (at most the end)."""
        with self._condition:
            position = self._playhead.position_ms
            if self._recording is not None:
                position = min(position, self._recording.schedule.total_ms)
            return position

    @property
    def total_ms(self) -> int:
        """Length of the playback at speed 1 (0 before loading)."""
        with self._condition:
            return self._recording.schedule.total_ms if self._recording else 0

    @property
    def total_lines(self) -> int:
        """Units in the recording (0 before loading)."""
        with self._condition:
            return len(self._recording) if self._recording else 0

    def pause(self) -> None:
        """Stop playback where it is."""
        with self._condition:
            self._playhead.pause()
            self._condition.notify_all()

    def resume(self) -> None:
        """Go on playing."""
        with self._condition:
            self._playhead.resume()
            self._condition.notify_all()

    def toggle_pause(self) -> bool:
        """Pause or resume; returns whether it is now paused."""
        with self._condition:
            if self._playhead.paused:
                self._playhead.resume()
            else:
                self._playhead.pause()
            self._condition.notify_all()
            return self._playhead.paused

    def set_speed(self, speed: float) -> None:
        """Play at ``speed`` from now on."""
        with self._condition:
            self._playhead.set_speed(speed)
            self._condition.notify_all()

    def faster(self) -> float:
        """One speed step up; returns the new speed."""
        with self._condition:
            self._playhead.set_speed(faster(self._playhead.speed))
            self._condition.notify_all()
            return self._playhead.speed

    def slower(self) -> float:
        """One speed step down; returns the new speed."""
        with self._condition:
            self._playhead.set_speed(slower(self._playhead.speed))
            self._condition.notify_all()
            return self._playhead.speed

    def seek_ms(self, position_ms: float) -> None:
        """Move playback to ``position_ms``.

        Lines already handed out stay handed out: going back only delays the next
        line (the viewer rebuilds earlier states from its own event list).
        """
        with self._condition:
            self._playhead.seek(position_ms)
            self._condition.notify_all()
