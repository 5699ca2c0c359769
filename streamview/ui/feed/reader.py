"""The background reader: a :class:`~streamview.sources.base.Source` in, batches of events out.

One daemon thread iterates ``source.chunks(stop)``, parses with an
:class:`~streamview.core.reader.EventReader` and appends the events to a buffer under
a lock. The UI never receives one message per line: once per frame it calls
:meth:`Feed.drain` and folds everything that piled up. The thread never touches
Textual, so the feed is easy to drive from tests.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable

import msgspec

from streamview.core.block_spill import LiveSweep, spill_notices
from streamview.core.events import AgentNotice, AnyEvent, Event
from streamview.core.linestore import FileLineStore, LineStore
from streamview.core.model import Session
from streamview.core.paged_array import paging_notice
from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.sources.base import InputError, Source, now_ms
from streamview.sources.spill import Spill

MAX_BUFFERED = 200_000
"""Events the reader may run ahead of the UI before it waits (bounds memory)."""


class Batch(msgspec.Struct):
    """What the reader produced since the last :meth:`Feed.drain`."""

    events: list[AnyEvent] = msgspec.field(default_factory=list)
    ended: bool = False
    """The input reached its end (or failed); no more events will come."""
    error: str | None = None
    """Why reading failed, on one line, when it did."""
    more: bool = False
    """Events are still waiting (the drain stopped at its limit)."""
    state: StreamState | None = None
    """A state folded on the reader's thread: the consumer replaces its own with it
    (then applies :attr:`events`, if any, on top)."""


class Feed:
    """Read a source on a thread and hand its events over in batches.

    Args:
        source: Where the bytes come from.
        store: Where each line's position is remembered, so a view can load a
            payload later. By default a :class:`FileLineStore` for a file, else a
            memory :class:`LineStore`.
        clock: Arrival-time stamp for live sources (epoch ms).
        agent: The dialect to read the stream as (``None``: recognised from its start).
    """

    def __init__(
        self,
        source: Source,
        store: LineStore | None = None,
        clock: Callable[[], int] = now_ms,
        agent: str | None = None,
    ) -> None:
        self.source = source
        self.agent = agent
        path = source.path
        self.spill: Spill | None = None
        """Where a live input without a file is kept, so payloads are read back from disk."""
        if store is None and path is None and source.live:
            self.spill = Spill()
            path = self.spill.path
        self.store: LineStore = store or (FileLineStore(path) if path else LineStore())
        self._clock = clock
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._room = threading.Condition(self._lock)
        self._events: deque[AnyEvent] = deque()
        self._ended = False
        self._error: str | None = None
        self.bytes_read = 0
        """Bytes received so far."""
        self.blank_lines = 0
        """Blank lines skipped so far (not events)."""
        self._thread: threading.Thread | None = None
        self._sweep = LiveSweep()
        self._told: set[str] = set()
        """The files (``copy``, ``spill``) whose failure the event log was told of."""
        self.on_arrival: Callable[[], object] | None = None
        """Called (on the reader thread) when events arrive in an empty buffer, so a UI
        can fold them at once rather than at its next frame. Must not block."""

    @property
    def ended(self) -> bool:
        """The reader reached the end of the input (events may still be waiting)."""
        return self._ended

    @property
    def pending(self) -> int:
        """Events read and not drained yet."""
        return len(self._events)

    @property
    def stopping(self) -> bool:
        """:meth:`stop` was called."""
        return self._stop.is_set()

    def pack_blocks(self, sessions: list[Session], notices: list[Event]) -> None:
        """What the consumer calls with its state's sessions after folding events: packs
        their closed blocks as they pile up (issue 27.5: a run without end), and tells
        ``notices`` (the event log) once of each file that could not be written, so a
        live run that stopped moving its rows, texts or bytes to disk says why it grows
        and which lines cannot be opened again."""
        self._sweep(sessions)
        copy, swept = self.spill, self._sweep.spill
        if copy is not None and copy.error is not None and "copy" not in self._told:
            self._told.add("copy")
            text = f"Lines read from now on cannot be opened again: {copy.error}."
            notices.append(_notice("live-copy", text))
        if swept is not None and swept.failed is not None and "spill" not in self._told:
            self._told.add("spill")
            notices.extend(spill_notices([swept]))
        paged = paging_notice()  # once per process, whichever fold saw it first
        if paged is not None:
            notices.append(paged)

    def start(self) -> None:
        """Start the reader thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="streamview-reader", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 1.0) -> None:
        """Ask the reader to stop and wait a little for it (it polls, so it is quick)."""
        self._stop.set()
        with self._room:
            self._room.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def drain(self, limit: int | None = None) -> Batch:
        """Take the events that are waiting.

        Args:
            limit: Take at most this many (the rest stay for the next call).
        """
        with self._room:
            events = self._events
            if limit is None or len(events) <= limit:
                taken = list(events)
                events.clear()
            else:
                taken = [events.popleft() for _ in range(limit)]
            self._room.notify_all()
            more = bool(events)
            return Batch(taken, self._ended and not more, self._error, more)

    def _push(self, events: list[AnyEvent]) -> None:
        if not events:
            return
        with self._room:
            while len(self._events) >= MAX_BUFFERED and not self._stop.is_set():
                self._room.wait(0.1)
            was_empty = not self._events
            self._events.extend(events)
        wake = self.on_arrival
        if was_empty and wake is not None:
            # Once per batch at most: the UI drained everything before this arrived.
            with contextlib.suppress(RuntimeError):  # the UI's event loop is gone (quitting)
                wake()

    def _run(self) -> None:
        """The thread: read, parse, buffer; always mark the end."""
        source = self.source
        reader = EventReader(self.store, agent=self.agent)
        live = source.live
        clock = self._clock
        try:
            spill = self.spill
            for chunk in source.chunks(self._stop):
                if spill is not None:
                    spill.write(chunk)  # before the lines are remembered: readable at once
                self.bytes_read += len(chunk)
                arrived = source.arrived_ms if live else None  # read ahead, earlier
                stamp = live and not source.history  # a followed file's old lines: unknown
                self._push(reader.feed(chunk, arrived or (clock() if stamp else None)))
                self.blank_lines = reader.blank_lines
            if not self._stop.is_set():
                self._push(reader.finish(clock() if live else None))
        except InputError as error:
            self._error = str(error)
        except Exception as error:  # the UI must show it, not die with the thread
            self._error = f"reading {source.label} failed: {error!r}"
        finally:
            self.blank_lines = reader.blank_lines
            with self._room:
                self._ended = True
            wake = self.on_arrival
            if wake is not None:
                # The end is news too: a UI that stopped folding for want of events
                # must learn that none will come.
                with contextlib.suppress(RuntimeError):
                    wake()


def _notice(subtype: str, text: str) -> AgentNotice:
    """A notice of streamview's own for the event log."""
    return AgentNotice(line=0, type="streamview", subtype=subtype, topic="status", text=text)
