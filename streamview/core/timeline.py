"""The events of a finished input, in order, for playback: held, or read from the file.

A :class:`MemoryTimeline` holds every event (a pipe, or a file played from its start
while it is read). A :class:`FileTimeline` holds none: it reads them from the file, a
window of :data:`~streamview.core.checkpoints.CHECKPOINT_EVERY` events at a time, by
the line numbers a :class:`~streamview.core.checkpoints.PlaybackIndex` recorded while
the file was folded, and starts a state at an earlier event from the nearest
checkpoint. Both answer the same questions, so the playback feed does not care which
it has.
"""

from __future__ import annotations

import copy
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import overload

import streamview.core.dialects as dialects
from streamview.core.args_store import releasing
from streamview.core.block_spill import BlockSpill, spill_notices, spilling
from streamview.core.checkpoints import CHECKPOINT_EVERY, NO_TIME, PlaybackIndex, restore
from streamview.core.dialects.lines import end_of_input
from streamview.core.events import AnyEvent, ToolCallEvent
from streamview.core.linestore import FileLineStore
from streamview.core.paged_array import paging_notice
from streamview.core.reader import fold
from streamview.core.reader import named as name_event
from streamview.core.state import StreamState
from streamview.core.timing import Schedule, build_column_schedule, build_schedule

PLAY_PREFIX_BYTES = 1 << 20
"""A file bigger than this starts playing from a fold of its first bytes (whole lines)
while the whole file is folded."""
WINDOWS_KEPT = 3
"""Windows of parsed events a :class:`FileTimeline` keeps (the one played, the one
before it for stepping back, one more)."""


class MemoryTimeline(Sequence[AnyEvent]):
    """Every event, held in a list (it grows while the input is read)."""

    def __init__(self) -> None:
        self._events: list[AnyEvent] = []
        self.call_starts: list[int] = []
        """Index of the first event of each tool call."""
        self._calls_seen: set[str] = set()

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> AnyEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[AnyEvent]: ...

    def __getitem__(self, index: int | slice) -> AnyEvent | list[AnyEvent]:
        return self._events[index]

    def __iter__(self) -> Iterator[AnyEvent]:
        return iter(self._events)

    def extend(self, events: list[AnyEvent]) -> None:
        """Add the next events read."""
        base = len(self._events)
        self._events.extend(events)
        seen = self._calls_seen
        for offset, event in enumerate(events):
            if isinstance(event, ToolCallEvent) and event.call_id not in seen:
                seen.add(event.call_id)
                self.call_starts.append(base + offset)

    def between(self, start: int, end: int) -> list[AnyEvent]:
        """Events ``start`` to ``end`` (exclusive)."""
        return self._events[start:end]

    def state_before(self, count: int) -> tuple[StreamState, int]:
        """A state to reach event ``count`` from, and how many events it holds: a
        fresh one (everything is replayed)."""
        return StreamState(track_changes=True), 0

    def nearest_start(self, count: int) -> int:
        """Events held by the state :meth:`state_before` gives for ``count``."""
        return 0

    def schedule(self, idle_limit: float | None, steady_ms: int) -> Schedule:
        """When each event is played."""
        times = [(event.recv_ms, event.timestamp_ms) for event in self._events]
        return build_schedule(times, idle_limit, steady_ms)

    def moment(self, index: int, received: bool) -> int | None:
        """Event ``index``'s arrival time (``received``) or ``timestamp_ms``."""
        event = self._events[index]
        return event.recv_ms if received else event.timestamp_ms


class FileTimeline(Sequence[AnyEvent]):
    """A folded file's events, parsed again from the file a window at a time.

    Args:
        store: The file's line offsets (filled by the same fold as ``index``).
        index: Each event's line and times, and the checkpoints.
    """

    def __init__(self, store: FileLineStore, index: PlaybackIndex) -> None:
        self.store = store
        self.recorded = index
        self.call_starts: Sequence[int] = index.call_starts
        """Index of the first event of each tool call."""
        self._starts = [checkpoint.events for checkpoint in index.checkpoints]
        self._windows: OrderedDict[int, list[AnyEvent]] = OrderedDict()

    def __len__(self) -> int:
        return len(self.recorded)

    @overload
    def __getitem__(self, index: int) -> AnyEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[AnyEvent]: ...

    def __getitem__(self, index: int | slice) -> AnyEvent | list[AnyEvent]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            return self.between(start, stop)[::step]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.between(index, index + 1)[0]

    def __iter__(self) -> Iterator[AnyEvent]:
        for window in range(len(self._starts)):
            yield from self._window(window)

    def _window_of(self, event: int) -> int:
        """The window (checkpoint) that event ``event`` falls in."""
        return max(bisect_right(self._starts, event) - 1, 0)

    def _window(self, number: int) -> list[AnyEvent]:
        """The events from checkpoint ``number`` to the next, parsed from the file."""
        cached = self._windows.get(number)
        if cached is not None:
            self._windows.move_to_end(number)
            return cached
        starts = self._starts
        first = starts[number]
        end = starts[number + 1] if number + 1 < len(starts) else len(self)
        events: list[AnyEvent] = []
        if end > first:
            checkpoints = self.recorded.checkpoints
            checkpoint = checkpoints[number]
            translator = copy.deepcopy(checkpoint.translator)
            last_line = checkpoints[number + 1].line if number + 1 < len(starts) else 1 << 62
            named = self.recorded.named
            agent = dialects.by_name(named[0]) if named is not None else None
            for line, data in self.store.read_lines(checkpoint.line + 1, last_line):
                if not data or data.isspace():
                    continue
                if agent is not None and named is not None and line == named[1]:
                    events.append(name_event(agent, line))  # as the fold named it
                events.extend(dialects.translate_line(translator, data, line))
            if number + 1 == len(starts):  # the end of input, as the fold read it
                # (a checkpoint may fall after the last line: the window is then only
                # what the end of input said)
                last = events[-1].line if events else checkpoint.line
                events.extend(end_of_input(translator, last))
            del events[end - first :]  # a file changed since its fold: never more
        self._windows[number] = events
        while len(self._windows) > WINDOWS_KEPT:
            self._windows.popitem(last=False)
        return events

    def between(self, start: int, end: int) -> list[AnyEvent]:
        """Events ``start`` to ``end`` (exclusive), from the windows they fall in."""
        end = min(end, len(self))
        out: list[AnyEvent] = []
        while start < end:
            number = self._window_of(start)
            first = self._starts[number]
            window = self._window(number)
            taken = window[start - first : end - first]
            if not taken:
                break  # the file no longer has them
            out.extend(taken)
            start += len(taken)
        return out

    def state_before(self, count: int) -> tuple[StreamState, int]:
        """The state of the nearest checkpoint at or before event ``count`` (a copy),
        and how many events it holds."""
        number = self.recorded.usable(self._window_of(count))
        return restore(self.recorded.checkpoints[number]), self._starts[number]

    def nearest_start(self, count: int) -> int:
        """Events held by the state :meth:`state_before` gives for ``count``."""
        return self._starts[self.recorded.usable(self._window_of(count))]

    def schedule(self, idle_limit: float | None, steady_ms: int) -> Schedule:
        """When each event is played (offsets in an array, not a tuple of a million)."""
        index = self.recorded
        return build_column_schedule(index.received, index.stamps, NO_TIME, idle_limit, steady_ms)

    def moment(self, index: int, received: bool) -> int | None:
        """Event ``index``'s arrival time (``received``) or ``timestamp_ms``."""
        value = (self.recorded.received if received else self.recorded.stamps)[index]
        return None if value == NO_TIME else value


def next_call(call_starts: Sequence[int], current: int, direction: int) -> int | None:
    """The first event of the next (``1``) or previous (``-1``) tool call from event
    ``current``, if there is one."""
    if direction > 0:
        place = bisect_right(call_starts, current)
        return call_starts[place] if place < len(call_starts) else None
    place = bisect_left(call_starts, current)
    return call_starts[place - 1] if place > 0 else None


def fold_indexed(
    chunks: Iterable[bytes],
    store: FileLineStore,
    agent: str | None = None,
    every: int = CHECKPOINT_EVERY,
) -> tuple[StreamState, FileTimeline]:
    """Fold a whole file (:func:`~streamview.core.reader.fold`), recording its events
    for playback on the way.

    Args:
        chunks: The file from its start.
        store: Where each line's place in the file is recorded.
        agent: The dialect to read it as (``None``: recognised from its start).
        every: Events between two checkpoints.

    Returns:
        The finished state and the file's events.
    """
    index = PlaybackIndex(every)
    state = StreamState(track_changes=False)
    # Finished calls' arguments are read back from the file when their details open,
    # closed blocks' text from a temporary file when it is shown.
    spills: list[BlockSpill] = []
    chunks = spilling(releasing(chunks, state.sessions), state.sessions, spills=spills)
    state = fold(chunks, state, store=store, agent=agent, index=index)
    paged = paging_notice()  # the page file could not be written: said in the event log
    if paged is not None:
        state.notices.append(paged)
    state.notices.extend(spill_notices(spills))  # and the moved texts' file, likewise
    return state, FileTimeline(store, index)


def file_prefix(path: Path, size: int = PLAY_PREFIX_BYTES) -> bytes | None:
    """The first ``size`` bytes of a bigger file, cut after its last whole line in them
    (``None``: the file is no bigger, or has no newline there)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(size + 1)
    except OSError:
        return None
    if len(data) <= size:
        return None
    end = data.rfind(b"\n", 0, size) + 1
    return data[:end] if end else None


def last_moment(
    timeline: MemoryTimeline | FileTimeline, before: int, received: bool, reach: int = 1000
) -> tuple[int, int] | None:
    """The last of the first ``before`` events that has a time on the clock asked for
    (looking back ``reach`` events at most): its index and that time."""
    for index in range(before - 1, max(before - reach, 0) - 1, -1):
        moment = timeline.moment(index, received)
        if moment is not None:
            return index, moment
    return None
