"""Bytes in, events out: framing and parsing together, for any source."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from streamview.core.events import AnyEvent
from streamview.core.framing import LineFramer, RawLine
from streamview.core.linestore import LineStore
from streamview.core.parse import parse_line
from streamview.core.state import StreamState

READ_SIZE = 1 << 20


class EventReader:
    """Turn chunks of bytes into events, keeping each line's byte offset.

    Blank lines are not events: they are counted apart (see
    :meth:`StreamState.note_blank_line`) and otherwise skipped.
    """

    __slots__ = ("_framer", "blank_lines", "store")

    def __init__(self, store: LineStore | None = None) -> None:
        self._framer = LineFramer()
        self.blank_lines = 0
        self.store = store
        """Where each parsed line is remembered, so a view can load its payload later."""

    @property
    def pending_bytes(self) -> int:
        """Bytes of an unfinished line waiting for more input."""
        return self._framer.pending_bytes

    def feed(self, chunk: bytes, recv_ms: int | None = None) -> list[AnyEvent]:
        """Parse the lines ``chunk`` completes.

        Args:
            chunk: The next bytes of the stream.
            recv_ms: When they arrived (epoch ms), for live sources.
        """
        return self._parse(self._framer.feed(chunk), recv_ms)

    def finish(self, recv_ms: int | None = None) -> list[AnyEvent]:
        """Parse a last line that had no newline."""
        return self._parse(self._framer.finish(), recv_ms)

    def _parse(self, lines: list[RawLine], recv_ms: int | None) -> list[AnyEvent]:
        events: list[AnyEvent] = []
        store = self.store
        for number, offset, data in lines:
            if not data or data.isspace():
                self.blank_lines += 1
                continue
            event = parse_line(data, number, recv_ms)
            if store is not None:
                store.remember(number, offset, data, event)
            events.append(event)
        return events


def iter_events(chunks: Iterable[bytes]) -> Iterator[AnyEvent]:
    """Events from an iterable of byte chunks, then the unterminated last line."""
    reader = EventReader()
    for chunk in chunks:
        yield from reader.feed(chunk)
    yield from reader.finish()


def fold(chunks: Iterable[bytes], state: StreamState | None = None) -> StreamState:
    """Fold a whole input into a finished :class:`StreamState`.

    Args:
        chunks: The input, in chunks of any size.
        state: A state to continue, else a new one without change tracking.
    """
    state = state or StreamState(track_changes=False)
    reader = EventReader()
    apply = state.apply
    for chunk in chunks:
        for event in reader.feed(chunk):
            apply(event)
    for event in reader.finish():
        apply(event)
    state.counts.blank += reader.blank_lines
    state.finish()
    return state
