"""Bytes in, events out: framing and parsing together, for any source."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import orjson

from streamview.core.events import AnyEvent
from streamview.core.framing import LineFramer, RawLine
from streamview.core.linestore import FileLineStore, LineStore
from streamview.core.parse import parse_decoded, parse_line
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
        framer = self._framer
        number = framer.lines_seen
        offset = framer.next_offset
        events: list[AnyEvent] = []
        append = events.append
        store = self.store
        # The framer's own RawLine tuples cost more than the rest of the framing:
        # number and place each line here, in the loop that parses it.
        for data in framer.split(chunk):
            number += 1
            start = offset
            offset += len(data) + 1
            if data.endswith(b"\r"):
                data = data[:-1]
            if not data or data.isspace():
                self.blank_lines += 1
                continue
            event = parse_line(data, number, recv_ms)
            if store is not None:
                store.remember(number, start, data, event)
            append(event)
        return events

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


def fold(
    chunks: Iterable[bytes],
    state: StreamState | None = None,
    *,
    store: FileLineStore | None = None,
    finish: bool = True,
) -> StreamState:
    """Fold a whole input into a finished :class:`StreamState`.

    The fast path behind ``--json``: lines are decoded once, and thinking, assistant
    and tool-call records go straight into the state
    (:meth:`StreamState.apply_record`); only the other records become events. The
    result is the same as applying every event of :func:`iter_events`
    (``tests/core/test_fast_fold.py``).

    Args:
        chunks: The input, in chunks of any size.
        state: A state to continue, else a new one without change tracking.
        store: Where each line's place in the file is recorded (the input must be
            the whole file from its start), so a view can load a payload later.
        finish: Mark the state ended (end of input); off for a partial read.
    """
    state = state or StreamState(track_changes=False)
    framer = LineFramer()
    apply = state.apply
    apply_record = state.apply_record
    loads = orjson.loads
    not_json = orjson.JSONDecodeError
    blank = 0
    remember = store.remember_next if store is not None else None
    for chunk in chunks:
        number = framer.lines_seen
        for data in framer.split(chunk):
            number += 1
            if remember is not None:
                remember(data)
            try:
                record = loads(data)
            except not_json:
                record = None
            else:
                if record.__class__ is dict and apply_record(record, number):
                    continue
            if data.endswith(b"\r"):
                data = data[:-1]
            if record is None:  # not JSON (or a bare null: parse_line says so too)
                if not data or data.isspace():
                    blank += 1
                    continue
                apply(parse_line(data, number))
            else:
                apply(parse_decoded(record, data, number))
    for number, _, data in framer.finish():
        if remember is not None:
            remember(data)
        if data and not data.isspace():
            apply(parse_line(data, number))
        else:
            blank += 1
    state.counts.blank += blank
    if finish:
        state.finish()
    return state
