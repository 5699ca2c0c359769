"""What playback needs of a big file, recorded while it is folded once.

Per event, a :class:`PlaybackIndex` keeps its two times in compact arrays (a million
events take 16 MB, not a gigabyte of event objects), the index of each tool call's
first event, and, at the end of a line every :data:`CHECKPOINT_EVERY` events or so, a
:class:`Checkpoint`: the state folded so far and the line it ends with (the lines
between two checkpoints are one window of events to read again). Going back to event
``n`` is then the nearest checkpoint at or before ``n`` plus the events after it,
parsed again from the file (:mod:`streamview.core.timeline`), instead of a fold of
everything before ``n``.

A checkpoint is cheap because most of a state can no longer change. Only the newest
session is ever touched by :meth:`~streamview.core.state.StreamState.apply` (a new
session closes the one before it, and :meth:`~streamview.core.state.StreamState.finish`
finds those already closed), so closed sessions are shared, not copied. Of the open
session, closed transcript blocks are shared too (only ``open_text`` and
``open_thinking`` grow or are replaced); its tool calls, dictionaries, outcome and open
blocks are copied, as are the state's own lists and counts.
"""

from __future__ import annotations

import copy
from array import array
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

import msgspec

from streamview.core.dialects.base import Translator
from streamview.core.events import (
    AnyEvent,
    Event,
    MalformedLine,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import FastRecord
from streamview.core.model import Block, LineCounts, Outcome, Session, ToolCall
from streamview.core.state import StreamState

CHECKPOINT_EVERY = 5_000
"""Events between two checkpoints: the most a seek replays (measured on the 1M-event
benchmark file: see the commit that set it)."""
EVENTS_PER_CALL_COPIED = 2
"""A checkpoint copies every tool call of the open session; the next one comes at
least this many events later per call copied, so a run of one huge session (a long
Codex thread: 35,000 calls in 100,000 events) does not copy its calls over and over.
Its seeks replay more events instead (about twice the open session's calls)."""
NO_TIME = -(1 << 63)
"""Stands for "no time" in the time arrays."""
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1

_T = TypeVar("_T")


def _cloner(cls: type[_T]) -> Callable[[_T], _T]:
    """A fast shallow copy of a struct: its constructor, given every field."""
    names = list(cls.__struct_fields__)  # type: ignore[attr-defined]
    values = attrgetter(*names)
    return lambda item: cls(*values(item))


_clone_call = _cloner(ToolCall)
_clone_block = _cloner(Block)
_clone_session = _cloner(Session)
_clone_outcome = _cloner(Outcome)
_clone_counts = _cloner(LineCounts)


def copy_open_session(session: Session) -> Session:
    """A copy of ``session`` that applying later events to cannot tell from the original,
    sharing what can no longer change (closed blocks, payloads, arguments)."""
    twin = _clone_session(session)
    calls = {id(call): _clone_call(call) for call in session.tool_calls}
    twin.tool_calls = [calls[id(call)] for call in session.tool_calls]
    twin.calls_by_id = {key: calls[id(call)] for key, call in session.calls_by_id.items()}
    twin.outcome = _clone_outcome(session.outcome)
    twin.queries = dict(session.queries)
    twin.pending_args = dict(session.pending_args)
    twin.pending_approval = dict(session.pending_approval)
    blocks = twin.blocks = list(session.blocks)
    for name in ("open_text", "open_thinking"):
        block: Block | None = getattr(session, name)
        if block is None:
            continue
        fresh = _clone_block(block)
        fresh.parts = list(block.parts)
        for place in range(len(blocks) - 1, -1, -1):
            if blocks[place] is block:
                blocks[place] = fresh
                break
        setattr(twin, name, fresh)
    return twin


class Checkpoint(msgspec.Struct, frozen=True):
    """The state after the first :attr:`events` events (the lines up to :attr:`line`)."""

    events: int
    """Events folded into it."""
    line: int
    """The last line folded: the events after it start on the next line."""
    sessions: tuple[Session, ...]
    counts: LineCounts
    malformed: tuple[MalformedLine, ...]
    unknown: tuple[UnknownRecord, ...]
    notices: tuple[Event, ...]
    last_event_ms: int | None
    translator: Translator
    """The dialect's translator as it was after :attr:`line`."""


def snapshot(state: StreamState, events: int, line: int, translator: Translator) -> Checkpoint:
    """A checkpoint of ``state`` (not finished), sharing what can no longer change."""
    sessions = state.sessions
    kept = (*sessions[:-1], copy_open_session(sessions[-1])) if sessions else ()
    return Checkpoint(
        events,
        line,
        kept,
        _clone_counts(state.counts),
        tuple(state.malformed),
        tuple(state.unknown),
        tuple(state.notices),
        state.last_event_ms,
        copy.deepcopy(translator),
    )


def restore(checkpoint: Checkpoint, track_changes: bool = True) -> StreamState:
    """A fresh state equal to the checkpoint's, to apply the events after it to."""
    state = StreamState(track_changes=track_changes)
    sessions = list(checkpoint.sessions)
    if sessions:
        sessions[-1] = copy_open_session(sessions[-1])
    state.sessions = sessions
    state.counts = _clone_counts(checkpoint.counts)
    state.malformed = list(checkpoint.malformed)
    state.unknown = list(checkpoint.unknown)
    state.notices = list(checkpoint.notices)
    state.last_event_ms = checkpoint.last_event_ms
    # The next event is on a later line, so it is counted, as in a straight fold.
    state._counted_line = checkpoint.line
    return state


def _as_time(value: Any) -> int:
    """An event's time for the arrays (:data:`NO_TIME` when it has none or it does not fit)."""
    if value is None or not -(1 << 63) < value < 1 << 63:
        return NO_TIME
    return int(value)


class PlaybackIndex:
    """Per event of a fold: its line and times; every ``every`` events, a checkpoint.

    :func:`~streamview.core.reader.fold` fills it (``index=``), calling :meth:`begin`,
    then :meth:`note_fast` or :meth:`note_event` for each event and :meth:`end_line`
    after a line (when they say a checkpoint is due, at least).

    Args:
        every: Events between checkpoints (at least).
        per_call: Events between checkpoints, at least, per tool call of the open
            session (each checkpoint copies them all).
    """

    def __init__(
        self, every: int = CHECKPOINT_EVERY, per_call: int = EVENTS_PER_CALL_COPIED
    ) -> None:
        self.every = max(1, every)
        self.per_call = per_call
        self.received = array("q")
        """Each event's arrival time (epoch ms), :data:`NO_TIME` when it has none."""
        self.stamps = array("q")
        """Each event's ``timestamp_ms``, :data:`NO_TIME` when it has none."""
        self.call_starts = array("q")
        """Index of the first event of each tool call (by ``call_id``), in order."""
        self.checkpoints: list[Checkpoint] = []
        self.due = 0
        self.named: tuple[str, int] | None = None
        """The agent the fold named and the line it named it before
        (:func:`~streamview.core.reader.named`), for parsing the file again."""
        """Event count at which :meth:`end_line` takes the next checkpoint."""
        self._calls_seen: set[str] | None = set()
        self._add_received = self.received.append
        self._add_stamp = self.stamps.append

    def __len__(self) -> int:
        return len(self.received)

    def begin(self, state: StreamState, translator: Translator) -> None:
        """The first checkpoint: nothing folded yet."""
        self.end_line(state, 0, translator)

    def note_fast(self, fast: FastRecord) -> bool:
        """The events of a line the fold applied straight from a fast record (its
        times are ``int`` or ``None``: the dialect checked). A ``whole`` thinking
        record is two events (the text, then the block closes).

        Returns:
            Whether a checkpoint is due (at the end of this line).
        """
        kind, subtype, text, _, _, stamp, recv = fast
        if recv is None or not _INT64_MIN <= recv <= _INT64_MAX:
            recv = NO_TIME  # none, or an int past 64 bits: no usable time
        if stamp is None or not _INT64_MIN <= stamp <= _INT64_MAX:
            stamp = NO_TIME
        self._add_received(recv)
        self._add_stamp(stamp)
        if subtype == "whole":
            self._add_received(recv)
            self._add_stamp(stamp)
        elif kind == "tool_call":
            self._call(text[2])  # the call id, in the tool fields
        return len(self.received) >= self.due

    def note_event(self, event: AnyEvent) -> None:
        """An event the fold built and applied."""
        self._add_received(_as_time(event.recv_ms))
        self._add_stamp(_as_time(event.timestamp_ms))
        if isinstance(event, ToolCallEvent):
            self._call(event.call_id)

    def _call(self, call_id: str) -> None:
        seen = self._calls_seen
        if seen is not None and call_id not in seen:
            seen.add(call_id)
            self.call_starts.append(len(self.received) - 1)

    def end_line(self, state: StreamState, line: int, translator: Translator) -> None:
        """Line ``line`` is folded: take a checkpoint if one is due."""
        count = len(self.received)
        if count < self.due:
            return
        self.checkpoints.append(snapshot(state, count, line, translator))
        calls = len(state.sessions[-1].tool_calls) if state.sessions else 0
        self.due = count + max(self.every, calls * self.per_call)

    def finish(self) -> None:
        """The fold is over: let go of what only the fold needed."""
        self._calls_seen = None
