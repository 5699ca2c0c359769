"""Playback in the viewer: a finished file's events, handed out in time.

:class:`PlaybackFeed` stands in for :class:`~streamview.ui.feed.reader.Feed` when the input
is a finished file. Opened at its final state, it folds the file on a thread
(:func:`~streamview.core.timeline.fold_indexed`: a big file's start and end first, as
a preview) and hands the app the finished state in one piece; the fold also records
each event's times and checkpoints of the state, so no event is held (a
:class:`~streamview.core.timeline.FileTimeline` reads them from the file when due).
Played from its start (``--replay``), a big file's first MiBs are folded first, so
playback starts at once. Only a pipe's events are held in memory.

Playing, it hands the app the events a :class:`~streamview.core.timing.Playhead` says
are due. Going forward only appends; going back (or far ahead) hands the app the state
of the nearest checkpoint at or before the target, then the events after it: exactly
the state a straight replay has there. Keys and position bar:
:mod:`streamview.ui.playback.controls`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from streamview.core.checkpoints import CHECKPOINT_EVERY
from streamview.core.linestore import FileLineStore, LineStore
from streamview.core.preview import PREVIEW_FROM_BYTES, fold_preview
from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.core.timeline import (
    FileTimeline,
    MemoryTimeline,
    file_prefix,
    fold_indexed,
    last_moment,
    next_call,
)
from streamview.core.timing import RECEIVED, STEADY, STEADY_MS, Playhead, Schedule, faster, slower
from streamview.sources.base import InputError, Source, now_ms
from streamview.ui.feed.gc import folding_a_file
from streamview.ui.feed.reader import Batch


class PlaybackFeed:
    """A finished file as a feed the viewer can play, pause, step and seek.

    Args:
        source: The file (its ``path`` lets views re-read payloads).
        playing: Start playing from the beginning; otherwise open at the final state.
        speed: Recording time played per real second.
        idle_limit: Longest silence to play, in seconds.
        clock: Monotonic seconds (tests inject a fake one).
        index_on_demand: Opened at the final state, schedule a big file's events for
            playback only when :meth:`request_index` or :meth:`index` asks; a small
            file's, and any file's when ``False``, right after the fold.
        agent: The dialect to read the file as (``None``: recognised from its start).
        on_demand_from: Files at least this big (bytes) are "big" for
            ``index_on_demand``.
        checkpoint_every: Events between two checkpoints of the state (a file opened
            at its final state): the most a seek replays.
    """

    def __init__(
        self,
        source: Source,
        *,
        playing: bool = False,
        speed: float = 1.0,
        idle_limit: float | None = None,
        steady_ms: int = STEADY_MS,
        clock: Callable[[], float] = time.monotonic,
        index_on_demand: bool = True,
        agent: str | None = None,
        on_demand_from: int = PREVIEW_FROM_BYTES,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> None:
        self.source = source
        self.agent = agent
        path = source.path
        self.store: LineStore = FileLineStore(path) if path else LineStore()
        self.timeline: MemoryTimeline | FileTimeline = MemoryTimeline()
        """Every event of the input, in order (held ones grow while loading)."""
        self.schedule: Schedule | None = None
        self.idle_limit = idle_limit
        self.steady_ms = steady_ms
        self.bytes_read = 0
        self.blank_lines = 0
        self.on_rewind: Callable[[], None] | None = None
        """Called (in the caller's thread) when playback goes back: the next drain hands
        the consumer the state to start again from."""
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._playhead = Playhead(clock, speed=speed, paused=True)
        self.plays_on_open = playing
        self._loaded = False
        self.size: int | None = None
        """The file's size, when it is opened at its final state."""
        self._handover: StreamState | None = None
        """A state folded here that the app has not taken yet."""
        self._preview: StreamState | None = None
        """The preview the app shows until the whole file is folded."""
        self._final: StreamState | None = None
        """The whole file folded (opened at its final state)."""
        self._index_on_demand = index_on_demand
        self._on_demand_from = on_demand_from
        self._checkpoint_every = checkpoint_every
        self._indexing = False
        self._indexer: threading.Thread | None = None
        self._error: str | None = None
        self._applied = 0
        self._played_to_end = False
        self._partial = False  # only a big file's start is scheduled yet (--replay)
        self._target: int | None = None
        """Events wanted while paused; ``None`` means all that are loaded."""

    # -- the Feed interface -----------------------------------------------------------

    @property
    def stopping(self) -> bool:
        """:meth:`stop` was called."""
        return self._stop.is_set()

    def start(self) -> None:
        """Load the file on a thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self.load, name="streamview-playback-loader", daemon=True
            )
            self._thread.start()

    def stop(self, timeout: float = 1.0) -> None:
        """Stop loading."""
        self._stop.set()
        for thread in (self._thread, self._indexer):
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout)

    @property
    def events(self) -> MemoryTimeline | FileTimeline:
        """Every event, in order (a file's are parsed from it when asked for)."""
        return self.timeline

    def load(self) -> None:
        """Read the whole input and schedule it (the loader thread's body).

        Opening at the final state, the file is folded, recording what playback needs,
        and the state handed over.
        """
        store = self.store
        if not isinstance(store, FileLineStore):
            self._load_events(EventReader(self.store, agent=self.agent))
            return
        try:
            (self._play_file if self.plays_on_open else self._fold_final)(store)
        except InputError as error:
            self._error = str(error)
        except Exception as error:  # shown in the status line, never a dead thread
            self._error = f"reading {self.source.label} failed: {error!r}"
        if self._stop.is_set():
            return
        if self._error is not None:
            self._schedule(0)
            return
        if not self._index_on_demand or self.size is None or self.size < self._on_demand_from:
            self.index()

    def index(self) -> None:
        """Schedule the file's events for playback (once), from the times its fold
        recorded. Only for a file opened at its final state, once folded."""
        with self._lock:
            if self._final is None or self._loaded or self._indexing:
                return
            self._indexing = True
        self._schedule(self.blank_lines)

    def request_index(self) -> bool:
        """Start :meth:`index` on a thread, unless it ran or runs already.

        Returns:
            Whether the events are on their way (``False``: the fold is not done yet).
        """
        with self._lock:
            if self._final is None:
                return False
            if self._indexer is None:
                self._indexer = threading.Thread(
                    target=self.index, name="streamview-playback-indexer", daemon=True
                )
                self._indexer.start()
            return True

    def _fold_final(self, store: FileLineStore) -> None:
        """Fold the whole file (a preview of a big one first) and hand the state over."""
        path = store.path
        self.size = size = path.stat().st_size
        if size >= PREVIEW_FROM_BYTES:
            preview = fold_preview(path, size, self.agent)
            with self._lock:
                self._handover = self._preview = preview
        with folding_a_file():
            state, timeline = fold_indexed(
                self._counted(), store, self.agent, self._checkpoint_every
            )
        if self._stop.is_set():
            return
        with self._lock:
            self.timeline = timeline
            self._handover = self._final = state
            self.blank_lines = state.counts.blank

    def _play_file(self, store: FileLineStore) -> None:
        """``--replay``: a big file's start is folded and played while it is all folded."""
        prefix = file_prefix(store.path)
        if prefix is not None:
            self.timeline = fold_indexed([prefix], FileLineStore(store.path), self.agent)[1]
            self._partial = True
            self._schedule(0)
        with folding_a_file():
            state, timeline = fold_indexed(
                self._counted(), store, self.agent, self._checkpoint_every
            )
        with self._lock:
            self.timeline, self._final, self._partial = timeline, state, False
        self._schedule(state.counts.blank)

    def _counted(self) -> Iterator[bytes]:
        """The file's chunks, counted into :attr:`bytes_read`."""
        for chunk in self.source.chunks(self._stop):
            self.bytes_read += len(chunk)
            yield chunk

    def _load_events(self, reader: EventReader) -> None:
        """Parse the whole input into held events, then schedule them."""
        timeline = self.timeline
        assert isinstance(timeline, MemoryTimeline)
        try:
            for chunk in self.source.chunks(self._stop):
                events = reader.feed(chunk)
                with self._lock:
                    self.bytes_read += len(chunk)
                    timeline.extend(events)
            events = reader.finish()
            with self._lock:
                timeline.extend(events)
        except InputError as error:
            self._error = str(error)
        except Exception as error:  # shown in the status line, never a dead thread
            self._error = f"reading {self.source.label} failed: {error!r}"
        self._schedule(reader.blank_lines)

    def _schedule(self, blank_lines: int) -> None:
        """Time the loaded events and put the playhead at its start or its end."""
        schedule = self.timeline.schedule(self.idle_limit, self.steady_ms)
        with self._lock:
            self.blank_lines = blank_lines
            self.schedule = schedule
            if self._loaded:
                return  # the whole file's, after its start's (--replay)
            self._loaded = True
            if self.plays_on_open:
                self._playhead.seek(0)
                self._playhead.resume()
            else:
                self._playhead.seek(schedule.total_ms)

    def drain(self, limit: int | None = None) -> Batch:
        """The events due since the last call.

        Args:
            limit: Hand out at most this many (the rest stay for the next call).
        """
        with self._lock:
            state = self._handover
            if state is not None:
                self._handover = None
                if state is self._final:
                    self._preview = None
                    self._applied = len(self.timeline)
                if state is self._final or state is self._preview:
                    return Batch([], state.ended, self._error, False, state)
            # Else a checkpoint's state (or a fresh one), if any: the events after it follow.
            if self._final is not None and not self._loaded:
                return Batch([], True, self._error, False)  # not indexed for playback yet
            if not self._loaded:
                if self.plays_on_open:
                    return Batch([], False, self._error, False)
                target = len(self.timeline)
            else:
                target = self._due()
            end = target if limit is None else min(target, self._applied + limit)
            taken = self.timeline.between(self._applied, end) if end > self._applied else []
            self._applied = max(self._applied, end)
            more = self._applied < target
            ended = self._loaded and not self._partial and self._applied >= len(self.timeline)
            return Batch(taken, ended and not more, self._error, more, state)

    def _due(self) -> int:
        """Events wanted now (lock held, loaded)."""
        schedule = self.schedule
        assert schedule is not None
        total = len(self.timeline)
        if self._playhead.paused:
            return total if self._target is None else self._target
        due = schedule.due_at(self._playhead.position_ms)
        if due >= total and not self._partial:  # partial: the rest is still being folded
            self._played_to_end = True
            self._playhead.pause()
            self._playhead.seek(schedule.total_ms)
            self._target = None
            return total
        return min(due, total)

    def final_state(self) -> StreamState:
        """The whole file folded, as it ends (whatever the playback position)."""
        if self._final is not None:
            return self._final
        state = StreamState(track_changes=False)
        for event in self.timeline:
            state.apply(event)
        state.finish()
        return state

    # -- what the position bar shows --------------------------------------------------

    @property
    def loaded(self) -> bool:
        """The whole file has been read and scheduled."""
        return self._loaded

    @property
    def indexing(self) -> bool:
        """The events for playback are being read (the final state is shown)."""
        return self._indexing and not self._loaded

    @property
    def folded(self) -> bool:
        """The whole file is folded (opened at its final state), whether indexed or not."""
        return self._final is not None

    @property
    def progress(self) -> float | None:
        """Share of the file folded so far, when its size is known."""
        return min(self.bytes_read / self.size, 1.0) if self.size else None

    def is_preview(self, state: StreamState) -> bool:
        """``state`` is the preview of a big file's start and end, not the whole file."""
        return state is self._preview

    @property
    def total(self) -> int:
        """Events in the file (so far, while loading)."""
        return len(self.timeline)

    @property
    def position(self) -> int:
        """Events shown: the app's state is the fold of ``events[:position]``."""
        return self._applied

    @property
    def played_to_end(self) -> bool:
        """The playback reached the end by playing, not by a jump to it (a bool: no lock)."""
        return self._played_to_end

    @property
    def playing(self) -> bool:
        """Playback is moving."""
        with self._lock:
            return self._loaded and not self._playhead.paused

    @property
    def speed(self) -> float:
        """Recording time played per real second."""
        return self._playhead.speed

    def times(self) -> tuple[float, int]:
        """``(elapsed, total)`` recording ms at the current position."""
        with self._lock:
            schedule = self.schedule
            if schedule is None:
                return 0.0, 0
            return min(self._playhead.position_ms, schedule.total_ms), schedule.total_ms

    def recorded_now_ms(self) -> int:
        """The run's own clock at the playback position (epoch ms), for running timers.

        The time of the last event shown that has one, plus how far playback has
        gone past it; the wall clock before anything with a time was shown.
        """
        with self._lock:
            schedule = self.schedule
            if schedule is None or schedule.clock == STEADY:
                return now_ms()
            found = last_moment(self.timeline, self._applied, schedule.clock == RECEIVED)
            if found is None:
                return now_ms()
            index, moment = found
            return moment + max(0, round(self._playhead.position_ms - schedule.offsets[index]))

    # -- controls (the UI thread) -----------------------------------------------------

    def go_to(self, count: int, keep_playing: bool = False) -> None:
        """Show exactly the first ``count`` events (at least one).

        Args:
            count: How many events to show.
            keep_playing: Go on playing from there if playing; otherwise pause.
        """
        with self._lock:
            if not self._loaded or self.schedule is None:
                return
            timeline = self.timeline
            total = len(timeline)
            count = max(min(count, total), 1 if total else 0)
            self._played_to_end = False
            playing = keep_playing and not self._playhead.paused
            self._playhead.seek(self.schedule.offset_of(count))
            if playing and count < total:
                self._target = None
            else:
                self._playhead.pause()
                self._target = count
            # Back, far ahead (past a checkpoint), or with a final state not taken yet:
            # the consumer starts over from the nearest checkpoint's state.
            rewind = (
                count < self._applied
                or self._handover is not None
                or timeline.nearest_start(count) > self._applied
            )
            self._handover = self._preview = None
            if rewind:
                self._handover, self._applied = timeline.state_before(count)
        if rewind and self.on_rewind is not None:
            self.on_rewind()

    def step(self, delta: int) -> None:
        """One event (or ``delta``) forward or back; pauses."""
        self.go_to(self._applied + delta)

    def jump_to_call(self, direction: int) -> bool:
        """Show up to the next (``1``) or previous (``-1``) tool call; pauses.

        Returns:
            Whether there was one.
        """
        with self._lock:
            target = next_call(self.timeline.call_starts, self._applied - 1, direction)
        if target is None:
            return False
        self.go_to(target + 1)
        return True

    def seek_fraction(self, fraction: float) -> None:
        """Jump to ``fraction`` (0-1) of the run's time, playing on if playing."""
        with self._lock:
            schedule = self.schedule
            if schedule is None:
                return
            position = schedule.total_ms * max(0.0, min(fraction, 1.0))
            count = schedule.due_at(position)
        self.go_to(count, keep_playing=True)
        with self._lock:
            self._playhead.seek(position)

    def toggle(self) -> bool:
        """Play or pause; at the end, play again from the start. Returns whether playing."""
        with self._lock:
            if not self._loaded or self.schedule is None:
                return False
            if not self._playhead.paused:
                self._target = self._applied
                self._playhead.pause()
                return False
            at_end = self._applied >= len(self.timeline)
        if at_end:
            self.go_to(1)
        with self._lock:
            self._target = None
            self._playhead.resume()
            return True

    def restart(self) -> None:
        """Back to the first event, playing."""
        self.go_to(1)
        with self._lock:
            self._playhead.seek(0)
            self._target = None
            self._playhead.resume()

    def faster(self) -> float:
        """One speed step up."""
        with self._lock:
            self._playhead.set_speed(faster(self._playhead.speed))
            return self._playhead.speed

    def slower(self) -> float:
        """One speed step down."""
        with self._lock:
            self._playhead.set_speed(slower(self._playhead.speed))
            return self._playhead.speed
