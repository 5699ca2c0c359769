"""Bytes in, events out: framing, the stream's dialect and parsing, for any source."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING

import orjson

import streamview.core.dialects as dialects
from streamview.core.decoding import RepairedLine, decode_line, not_an_object, repair_notice
from streamview.core.dialects import cursor
from streamview.core.dialects.base import Dialect, Translator
from streamview.core.dialects.cursor_records import parse_decoded
from streamview.core.dialects.lines import end_of_input, translate_decoded
from streamview.core.events import (
    AnyEvent,
    MalformedLine,
    SessionStarted,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import utf8
from streamview.core.fold_runs import DeltaRun, read_stamp
from streamview.core.framing import LineFramer, RawLine, Restart
from streamview.core.input_events import restart_notice, too_long
from streamview.core.linestore import FileLineStore, LineStore
from streamview.core.recognise import recognise
from streamview.core.state import StreamState

if TYPE_CHECKING:  # only playback records one; --json need not import it
    from streamview.core.checkpoints import PlaybackIndex

_Held = tuple[int, int, bytes, "int | None"]
"""A line read before the dialect was known: number, offset, bytes, arrival time."""


def _cursor(data: bytes, number: int, recv_ms: int | None) -> list[AnyEvent]:
    """A Cursor line's event (and the mark of a line whose bad UTF-8 was replaced)."""
    record, data = decode_line(data, number)
    event = cursor.mark(parse_decoded(record, data, number, recv_ms))
    if data.__class__ is RepairedLine:
        return [event, repair_notice(number, recv_ms)]
    return [event]


def named(dialect: Dialect, line: int) -> SessionStarted:
    """The event that names the stream's agent, before the first record's own events.

    The dialect was forced or recognised (from any record, not only an ``init``): a
    stream cut before its ``init``, or whose hooks come first, is still named. It
    fills in what the session does not know and starts no run of its own."""
    return SessionStarted(line, agent=dialect.name, inferred=True)


def _kept(events: list[AnyEvent]) -> AnyEvent:
    """The event a line store judges a line by (a view may open its tool call)."""
    for event in events:
        if isinstance(event, ToolCallEvent | UnknownRecord | MalformedLine):
            return event
    return events[0]


class EventReader:
    """Turn chunks of bytes into events, keeping each line's byte offset.

    The stream's dialect is recognised from its first records (or forced with
    ``agent``); until it is, lines are held back (at most
    :data:`~streamview.core.dialects.DETECT_WINDOW` of them). Blank lines are not
    events: they are counted apart (see :meth:`StreamState.note_blank_line`) and
    otherwise skipped.

    Args:
        store: Where each parsed line is remembered, so a view can load it later.
        agent: A dialect's name to read the stream as; ``None`` or ``auto``
            recognises it.
    """

    __slots__ = (
        "_forced",
        "_held",
        "_named",
        "_translator",
        "blank_lines",
        "dialect",
        "framer",
        "store",
    )

    def __init__(self, store: LineStore | None = None, agent: str | None = None) -> None:
        self.framer = LineFramer()
        """Splits the chunks into lines; its count numbers them."""
        self.blank_lines = 0
        self.store = store
        """Where each parsed line is remembered, so a view can load its payload later."""
        self.dialect: Dialect | None = None
        """The stream's dialect, once known."""
        self._translator: Translator | None = None
        self._held: list[_Held] = []
        self._named: Dialect | None = None
        """A dialect forced or recognised, not named yet (:func:`named`)."""
        forced = self._forced = dialects.by_name(agent)
        if forced is not None:
            self._choose(forced, known=True)

    @property
    def pending_bytes(self) -> int:
        """Bytes of an unfinished line waiting for more input."""
        return self.framer.pending_bytes

    def _choose(self, dialect: Dialect, known: bool) -> None:
        self.dialect = dialect
        self._named = dialect if known else None
        self._translator = None if dialect is cursor.DIALECT else dialect.translator()
        if self.store is not None:
            self.store.agent = dialect.name

    @property
    def translator(self) -> Translator | None:
        """The dialect's translator once known (``None`` for Cursor's: the reader's own)."""
        return self._translator

    def steady(self) -> bool:
        """Whether each line is now read on its own: the dialect known and named, no
        line held back, no line store to remember lines (a fast path may read them)."""
        return (
            self.dialect is not None
            and not self._held
            and self._named is None
            and self.store is None
        )

    def line_events(
        self, number: int, start: int, data: bytes, recv_ms: int | None
    ) -> list[AnyEvent]:
        """The events of line ``number`` (at byte ``start``) once the dialect is known."""
        translator = self._translator
        if translator is None:
            events = _cursor(data, number, recv_ms)
        else:
            events = dialects.translate_line(translator, data, number, recv_ms)
        if self.store is not None:
            self.store.remember(number, start, data, _kept(events))
        if self._named is not None and not isinstance(events[0], MalformedLine):
            if not isinstance(events[0], SessionStarted):  # an init names it itself
                events.insert(0, named(self._named, number))
            self._named = None
        return events

    def _hold(self, line: _Held) -> list[AnyEvent]:
        """Keep a line until the dialect is known; parse every held line once it is.

        A line that is not a JSON object reads the same in every dialect: while nothing
        is held before it, it is shown at once (a live stream's first warning is not
        hidden until the agent's first record).
        """
        number, start, data, recv = line
        record, decoded = decode_line(data, number)
        if not self._held and record.__class__ is not dict:
            event = not_an_object(record, decoded, number, recv)
            if self.store is not None:
                self.store.remember(number, start, data, event)
            if decoded.__class__ is RepairedLine:
                return [event, repair_notice(number, recv)]
            return [event]
        self._held.append(line)
        found, known = dialects.decide_how(record)
        if found is None and len(self._held) < dialects.DETECT_WINDOW:
            return []
        self._choose(found or dialects.DEFAULT, known=known)
        return self._release()

    def _release(self) -> list[AnyEvent]:
        events: list[AnyEvent] = []
        for number, start, data, recv in self._held:
            events.extend(self.line_events(number, start, data, recv))
        self._held.clear()
        return events

    def feed(self, chunk: bytes, recv_ms: int | None = None) -> list[AnyEvent]:
        """Parse the lines ``chunk`` completes.

        Args:
            chunk: The next bytes of the stream.
            recv_ms: When they arrived (epoch ms), for live sources.
        """
        if chunk.__class__ is Restart:
            assert isinstance(chunk, Restart)
            return self.restart(chunk, recv_ms)
        framer = self.framer
        number = framer.lines_seen
        offset = framer.next_offset
        events: list[AnyEvent] = []
        append = events.append
        extend = events.extend
        store = self.store
        pieces = framer.split(chunk)
        cut = framer.take_cut()
        # The framer's own RawLine tuples cost more than the rest of the framing:
        # number and place each line here, in the loop that parses it.
        for data in pieces:
            number += 1
            start = offset
            if cut is not None and number in cut:
                offset += cut[number] + 1
                cut_line = too_long(number, data, cut[number], recv_ms)
                if store is not None:
                    store.remember(number, start, data, cut_line)
                append(cut_line)
                continue
            offset += len(data) + 1
            if data.endswith(b"\r"):
                data = data[:-1]
            if not data or data.isspace():
                self.blank_lines += 1
                continue
            if self.dialect is None:
                extend(self._hold((number, start, data, recv_ms)))
            elif self._translator is None and self._named is None:
                record, decoded = decode_line(data, number)
                event = cursor.mark(parse_decoded(record, decoded, number, recv_ms))
                if store is not None:
                    store.remember(number, start, data, event)
                append(event)
                if decoded.__class__ is RepairedLine:
                    append(repair_notice(number, recv_ms))
            else:
                extend(self.line_events(number, start, data, recv_ms))
        return events

    def restart(self, chunk: Restart, recv_ms: int | None = None) -> list[AnyEvent]:
        """The input starts over from its first byte (a followed file truncated or
        replaced): held lines are parsed, an unfinished line dropped, the dialect
        recognised again (unless forced), and a notice says what happened."""
        events: list[AnyEvent] = []
        if self.dialect is None and self._held:
            self._choose(dialects.DEFAULT, known=False)
            events.extend(self._release())
        line = self.framer.lines_seen
        self.framer.restart()
        if self.store is not None:
            self.store.restart(line + 1)
        if self._forced is None:
            self.dialect = None
            self._translator = None
        else:
            self._choose(self._forced, known=True)
        events.append(restart_notice(chunk, line, recv_ms))
        return events

    def finish(self, recv_ms: int | None = None) -> list[AnyEvent]:
        """Parse a last line that had no newline (a stream still unrecognised is Cursor's),
        then what the end of input stands for in the dialect (:func:`end_of_input`)."""
        events = self._parse(self.framer.finish(), recv_ms)
        return events + end_of_input(self._translator, self.framer.lines_seen, recv_ms)

    def _parse(self, lines: list[RawLine], recv_ms: int | None) -> list[AnyEvent]:
        events: list[AnyEvent] = []
        cut = self.framer.take_cut()
        for number, offset, data in lines:
            if cut is not None and number in cut:
                event = too_long(number, data, cut[number], recv_ms)
                if self.store is not None:
                    self.store.remember(number, offset, data, event)
                events.append(event)
                continue
            if not data or data.isspace():
                self.blank_lines += 1
                continue
            if self.dialect is None:
                events.extend(self._hold((number, offset, data, recv_ms)))
            else:
                events.extend(self.line_events(number, offset, data, recv_ms))
        if self.dialect is None:
            self._choose(dialects.DEFAULT, known=False)
            events.extend(self._release())
        return events


def iter_events(chunks: Iterable[bytes], agent: str | None = None) -> Iterator[AnyEvent]:
    """Events from an iterable of byte chunks, then the unterminated last line."""
    reader = EventReader(agent=agent)
    for chunk in chunks:
        yield from reader.feed(chunk)
    yield from reader.finish()


def fold(
    chunks: Iterable[bytes],
    state: StreamState | None = None,
    *,
    store: FileLineStore | None = None,
    finish: bool = True,
    agent: str | None = None,
    index: PlaybackIndex | None = None,
) -> StreamState:
    """Fold a whole input into a finished :class:`StreamState`.

    The fast path behind ``--json`` and the viewer's loader. Lines are decoded once; the
    records most of a run is made of (a dialect's ``fast``: token deltas, tool calls) go
    straight into the state (:meth:`StreamState.apply_fast`); only the other records
    become events, through the dialect's translator. The result is the same as applying
    every event of :func:`iter_events` (``tests/core/test_fast_fold.py``).

    Args:
        chunks: The input, in chunks of any size.
        state: A state to continue, else a new one without change tracking.
        store: Where each line's place in the file is recorded (the input must be
            the whole file from its start), so a view can load a payload later.
        finish: Mark the state ended (end of input); off for a partial read.
        agent: A dialect's name to read the input as; ``None`` or ``auto``
            recognises it from the first lines.
        index: Where each event's line and times, and checkpoints of the state,
            are recorded for playback (the input must be the whole file from its start).
    """
    state = state or StreamState(track_changes=False)
    known = dialects.by_name(agent)
    source: Iterable[bytes] = chunks
    if known is None:
        known, source = recognise(chunks)
    dialect = known or dialects.DEFAULT
    if store is not None:
        store.agent = dialect.name
    translator = dialect.translator()
    if index is not None:
        index.begin(state, translator)
    _fold(source, state, store, translator, index, known)
    last = state.sessions[-1].last_line if state.sessions else 0
    for event in end_of_input(translator, last) if finish else ():
        state.apply(event)
        if index is not None:
            index.note_event(event)
    if index is not None:
        index.finish()
    if finish:
        state.finish()
    return state


def _fold(
    chunks: Iterable[bytes],
    state: StreamState,
    store: FileLineStore | None,
    translator: Translator,
    index: PlaybackIndex | None = None,
    known: Dialect | None = None,
) -> None:
    """Fold a stream: its hot records straight from their dicts, the rest event by event.

    ``known``: the dialect, when forced or recognised; it is named (:func:`named`)
    before the first line that is a JSON object, as :class:`EventReader` names it."""
    framer = LineFramer()
    apply = state.apply
    apply_fast = state.apply_fast
    fast = translator.fast
    fast_line = getattr(translator, "fast_line", None)
    translate = translate_decoded
    loads = orjson.loads
    not_json = orjson.JSONDecodeError
    blank = 0
    remember = store.remember_lines if store is not None else None
    lines: Iterable[tuple[int, bytes]]
    cut: dict[int, int] | None = None
    # Where nothing watches the state line by line: a run of deltas to the open text or
    # thinking block (most of a streaming run's lines) is taken here without apply_fast's
    # call, what each would count added when the run ends (DeltaRun); and a hot line's
    # counts are left for later (LeanFold), settled before any other line or a run.
    lean = not state._track
    run: DeltaRun | None = None
    deferred = lean and index is None
    apply_hot = state.apply_lean if deferred else apply_fast
    settle, skip = state.settle_lean, state.skip_lean
    state._lean_from = 0  # this fold's lines are numbered from 1
    # raw_stamps: a delta's ISO time may come unread (a str), read at its run's end.
    raw = deferred and hasattr(translator, "raw_stamps")
    if raw:
        translator.raw_stamps = True  # type: ignore[attr-defined]
    ended = remember is None and index is None and getattr(translator, "fast_line_ended", False)
    split = framer.split_ended if ended else framer.split
    for chunk in chain(chunks, [None]):
        if chunk is None:
            last = framer.finish()
            cut = framer.take_cut()
            if remember is not None and last:
                remember([last[0].data], True, cut)  # its \r, if any, is dropped already
            lines = [(number, data) for number, _, data in last]
        elif chunk.__class__ is Restart:
            assert isinstance(chunk, Restart)
            # A followed file started over: its new lines are read from their start.
            if store is not None:
                store.restart(framer.lines_seen + 1)
            framer.restart()
            notice = restart_notice(chunk, framer.lines_seen)
            apply(notice)
            if index is not None:
                index.note_event(notice)
            continue
        else:
            first = framer.lines_seen + 1
            pieces = split(chunk)
            cut = framer.take_cut()
            if remember is not None and pieces:
                # A line can end in \r only if the chunk has one (the first line
                # aside: its start came with the chunk before). One byte is a memchr;
                # looking for b"\r\n" took 60 ms per 71 MB.
                remember(pieces, b"\r" in chunk or pieces[0][-1:] == b"\r", cut)
            lines = enumerate(pieces, first)
        for number, data in lines:
            if fast_line and (data.isascii() or utf8(data)) and (cut is None or number not in cut):
                hot = fast_line(data, number)
                if hot is not None and known is None and index is None:
                    if run is not None:
                        if (
                            hot[1] == run.subtype
                            and hot[0] == run.kind
                            and hot[2] is not None
                            and (hot[4] is None or hot[4] == run.session_id)
                        ):
                            when = hot[5] if hot[6] is None else hot[6]  # as apply_fast's
                            if when is None or run.timed:
                                run.parts.append(hot[2])
                                run.stamps.append(when)
                                continue
                        run.end(state)
                        run = None
                    if raw and hot[5].__class__ is str:
                        hot = read_stamp(hot)
                    # the common line, with the fewest checks; a delta may start a run
                    if apply_hot(hot, number) and lean:
                        run = DeltaRun.after(state, hot[0], hot[1], number)
                    continue
            else:
                hot = None
            if run is not None:
                run.end(state)
                run = None
            if deferred:  # this line goes another way, counted as it goes (or blank)
                skip(number)
            if cut is not None and number in cut:
                cut_line = too_long(number, data, cut[number])
                apply(cut_line)
                if index is not None:
                    index.note_event(cut_line)
                    index.end_line(state, number, translator)
                continue
            if hot is None:
                if ended and data[-1:] == b"\n":
                    data = data[:-1]
                try:
                    record = loads(data)
                except not_json:
                    if data.endswith(b"\r"):
                        data = data[:-1]
                    if not data or data.isspace():
                        blank += 1
                        continue
                    record, data = decode_line(data, number)
                else:
                    if record.__class__ is dict:
                        hot = fast(record, number)
                    if data.endswith(b"\r"):
                        data = data[:-1]
            if hot is not None:
                if raw and hot[5].__class__ is str:
                    hot = read_stamp(hot)
                if known is not None:  # once: before the first record's own events
                    _name(state, known, number, index)
                    known = None
                apply_fast(hot, number)
                if index is not None and index.note_fast(hot):
                    index.end_line(state, number, translator)
                continue
            events = translate(translator, record, data, number)
            if known is not None and events[0].__class__ is not MalformedLine:
                if events[0].__class__ is not SessionStarted:  # an init names it itself
                    _name(state, known, number, index)
                known = None
            for event in events:
                apply(event)
                if index is not None:
                    index.note_event(event)
            if index is not None:
                index.end_line(state, number, translator)
        if run is not None:  # the chunk's end: the state whole before the next sweep
            run.end(state)
            run = None
        if deferred:
            settle(framer.lines_seen)
    state.counts.blank += blank


def _name(state: StreamState, dialect: Dialect, line: int, index: PlaybackIndex | None) -> None:
    """Apply :func:`named` (and note it for playback, as any event of the fold)."""
    event = named(dialect, line)
    state.apply(event)
    if index is not None:
        index.note_event(event)
        index.named = (dialect.name, line)
