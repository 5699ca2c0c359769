"""What playback needs of a big file, recorded while it is folded once.

Per event, a :class:`PlaybackIndex` keeps its two times in compact columns (a million
events take about 4-8 MB, not a gigabyte of event objects:
:class:`~streamview.core.time_column.TimeColumn`), the index of each tool call's
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
``open_thinking`` grow or are replaced), and so are the calls a completed record
finished (a checkpoint that shares one a later record names again is not used:
:meth:`PlaybackIndex.usable`), and even its lists of calls and blocks, which the fold
only appends to (a checkpoint keeps how long they were: :class:`KeptSession`); its
running calls, dictionaries, outcome and open blocks are copied, as are the state's
own lists and counts.
"""

from __future__ import annotations

import copy
from array import array
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, TypeVar, cast

import msgspec

import streamview.core.tools as tools
from streamview.core.approvals import query_id
from streamview.core.block_columns import copy_of, first_blocks, place_of
from streamview.core.call_columns import CallColumns, packed_session_ids
from streamview.core.call_ids import SeenIds
from streamview.core.dialects.base import Translator
from streamview.core.events import (
    AnyEvent,
    Event,
    InteractionQuery,
    MalformedLine,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import FastRecord
from streamview.core.model import Block, LineCounts, Outcome, Session, ToolCall
from streamview.core.paged_array import PagedArray, widened
from streamview.core.state import StreamState
from streamview.core.time_column import TimeColumn

CHECKPOINT_EVERY = 5_000
"""Events between two checkpoints: the most a seek replays (measured on the 1M-event
benchmark file: see the commit that set it)."""
EVENTS_PER_CALL_COPIED = 2
"""A checkpoint copies every tool call of the open session; the next one comes at
least this many events later per call copied, so a run of one huge session (a long
Codex thread: 35,000 calls in 100,000 events) does not copy its calls over and over.
Its seeks replay more events instead (about twice the open session's calls)."""
TIMES_HELD = 4096
"""Events whose times a :class:`PlaybackIndex` holds as they came (8-byte arrays,
appended to in C) before it adds them to its columns at once."""
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
    packed: Sequence[ToolCall] = session.tool_calls
    if isinstance(packed, CallColumns):  # the rows are shared: only objects are copied
        columns = packed.copied(_clone_call)
        twin.tool_calls = cast(list[ToolCall], columns)
        twin.calls_by_id = cast(dict[str, ToolCall], packed_session_ids(columns))
        _copy_rest(session, twin)
        return twin
    calls = {id(call): _clone_call(call) for call in session.tool_calls}
    twin.tool_calls = [calls[id(call)] for call in session.tool_calls]
    twin.calls_by_id = {key: calls[id(call)] for key, call in session.calls_by_id.items()}
    _copy_rest(session, twin)
    return twin


def _copy_rest(session: Session, twin: Session) -> None:
    """What :func:`copy_open_session` copies besides the calls: outcome, dictionaries,
    the blocks' list and the open blocks."""
    _copy_dicts(session, twin)
    blocks = twin.blocks = copy_of(session.blocks)  # packed ones share their rows
    for place, fresh in _open_copies(session, twin).items():
        blocks[place] = fresh


def _copy_dicts(session: Session, twin: Session) -> None:
    """Give ``twin`` copies of ``session``'s outcome and dictionaries."""
    twin.outcome = _clone_outcome(session.outcome)
    twin.queries = dict(session.queries)
    twin.pending_args = dict(session.pending_args)
    twin.pending_approval = dict(session.pending_approval)


def _open_copies(session: Session, twin: Session) -> dict[int, Block]:
    """Give ``twin`` copies of ``session``'s open blocks; returns them by their place in
    ``session.blocks``."""
    blocks = session.blocks
    copies: dict[int, Block] = {}
    for name in ("open_text", "open_thinking"):
        block: Block | None = getattr(session, name)
        if block is None:
            continue
        fresh = _clone_block(block)
        fresh.parts = list(block.parts)
        place = place_of(blocks, block)  # an open block is never packed
        if place is not None:
            copies[place] = fresh
        setattr(twin, name, fresh)
    return copies


class KeptSession(msgspec.Struct, frozen=True):
    """The open session as a checkpoint keeps it, sharing the fold's own lists of calls
    and blocks: the fold only appends to them (a call or block is changed in place,
    never replaced), so their first :attr:`calls` and :attr:`blocks` items are those the
    session had then, except the ones that could still change, kept as copies.

    A list per checkpoint was all a checkpoint of a long session cost (8 bytes a call
    and a block each time: 2.5 of the 200 MB Claude Code session's 2.5 MB)."""

    session: Session
    """A copy of the session, its lists of calls and blocks empty (:meth:`rebuilt`)."""
    tool_calls: list[ToolCall]
    """The fold's list of the session's calls, shared."""
    calls: int
    """How many calls it had."""
    call_copies: dict[int, ToolCall]
    """Copies of the calls not finished by a completed record, by place."""
    blocks_of: Session
    """The fold's own session, whose blocks are shared: read when :meth:`rebuilt` (the
    viewer packs them as it folds: :mod:`~streamview.core.block_spill`)."""
    blocks: int
    """How many blocks it had."""
    block_copies: dict[int, Block]
    """Copies of the open blocks (the copy's ``open_text`` and ``open_thinking``), by place."""

    def shares(self, call: ToolCall) -> bool:
        """Whether ``call`` is one of the calls kept as they are, not copied."""
        place = call.index
        return (
            0 <= place < self.calls
            and place not in self.call_copies
            and self.tool_calls[place] is call
        )

    def calls_kept(self) -> list[ToolCall]:
        """The session's calls as they were (finished ones shared, the others copies)."""
        packed: Sequence[ToolCall] = self.tool_calls
        if isinstance(packed, CallColumns):
            return cast(list[ToolCall], packed.fork(self.calls, self.call_copies))
        calls = self.tool_calls[: self.calls]
        for place, copied in self.call_copies.items():
            calls[place] = copied
        return calls

    def rebuilt(self) -> Session:
        """The session as it was, its lists made again (calls and blocks shared as
        above: :func:`copy_open_session` it before changing it)."""
        twin = _clone_session(self.session)
        twin.tool_calls = self.calls_kept()
        blocks = twin.blocks = first_blocks(self.blocks_of.blocks, self.blocks)
        for place, copied in self.block_copies.items():
            blocks[place] = copied
        return twin


def keep_open_session(session: Session, done: SeenIds) -> KeptSession:
    """What a checkpoint keeps of the open session: a copy sharing, besides what
    :func:`copy_open_session` shares, the calls a completed record finished
    (``done``), which the fold changes no more unless a later record names them
    again: :class:`PlaybackIndex` then stops using the checkpoints taken so far.

    Copying every call at every checkpoint took most of the viewer's memory on a
    long session file (2.5 copies of each of the 57,000 calls of a 200 MB Claude Code
    session: 28 MB of 116). :func:`restore` copies them all, so a replay changes only
    its own copies. Its ``calls_by_id`` is left empty: :func:`restore` builds it again
    from the calls (the fold adds each call to both, under its own id).
    """
    twin = _clone_session(session)
    running = tools.RUNNING
    calls = session.tool_calls
    packed: Sequence[ToolCall] = calls
    if isinstance(packed, CallColumns):  # a packed row is finished: a completed record did
        copies = {
            call.index: _clone_call(call)
            for call in packed.live()
            if call.status == running or not done.get(call.call_id)
        }
    else:
        copies = {
            place: _clone_call(call)
            for place, call in enumerate(calls)
            if call.status == running or not done.get(call.call_id)
        }
    twin.tool_calls, twin.blocks, twin.calls_by_id = [], [], {}
    _copy_dicts(session, twin)
    opened = _open_copies(session, twin)
    return KeptSession(twin, calls, len(calls), copies, session, len(session.blocks), opened)


class Checkpoint(msgspec.Struct, frozen=True):
    """The state after the first :attr:`events` events (the lines up to :attr:`line`)."""

    events: int
    """Events folded into it."""
    line: int
    """The last line folded: the events after it start on the next line."""
    sessions: tuple[Session, ...]
    """The sessions closed by then, shared (the fold changes them no more)."""
    open_session: KeptSession | None
    """The newest session (``None``: none yet)."""
    counts: LineCounts
    malformed: tuple[MalformedLine, ...]
    unknown: tuple[UnknownRecord, ...]
    notices: tuple[Event, ...]
    last_event_ms: int | None
    translator: Translator
    """The dialect's translator as it was after :attr:`line`."""


def snapshot(
    state: StreamState, events: int, line: int, translator: Translator, done: SeenIds
) -> Checkpoint:
    """A checkpoint of ``state`` (not finished), sharing what can no longer change
    (``done``: the ids of the calls a completed record finished, see
    :func:`keep_open_session`)."""
    sessions = state.sessions
    return Checkpoint(
        events,
        line,
        tuple(sessions[:-1]),
        keep_open_session(sessions[-1], done) if sessions else None,
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
    kept = checkpoint.open_session
    if kept is not None:
        twin = copy_open_session(kept.rebuilt())
        calls: Sequence[ToolCall] = twin.tool_calls
        if not isinstance(calls, CallColumns):  # (a packed copy has its own)
            twin.calls_by_id = {call.call_id: call for call in twin.tool_calls}
        sessions.append(twin)
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
        self._received = TimeColumn(NO_TIME)
        self._stamps = TimeColumn(NO_TIME)
        self._received_held = array("q")
        """The latest events' arrival times, not yet in ``_received`` (:meth:`_add_held`)."""
        self._stamps_held = array("q")
        self._held_due = 0
        """Times held at which :meth:`note_fast` asks for :meth:`end_line` (a checkpoint
        due, or :data:`TIMES_HELD` reached)."""
        self.call_starts: Any = PagedArray("I")
        """Index of the first event of each tool call (by ``call_id``), in order (4 bytes
        each; 8 past four billion events; paged: :mod:`~streamview.core.paged_array`)."""
        self.checkpoints: list[Checkpoint] = []
        self.due = 0
        """Event count at which :meth:`end_line` takes the next checkpoint."""
        self.named: tuple[str, int] | None = None
        """The agent the fold named and the line it named it before
        (:func:`~streamview.core.reader.named`), for parsing the file again."""
        self._calls_seen: SeenIds | None = SeenIds()
        """Each call id seen, and whether a completed record finished it: a checkpoint
        shares the finished calls (:func:`keep_open_session`)."""
        self._queries: dict[Any, str] = {}
        """Permission requests' call ids, as the state keeps them (``queries``)."""
        self.stale: list[tuple[int, int]] = []
        """Ranges of checkpoints (first, end) sharing a finished call that a later
        record named again (so it may have changed since): not used (:meth:`usable`)."""
        self._state: StreamState | None = None
        self._add_received = self._received_held.append
        self._add_stamp = self._stamps_held.append

    def __len__(self) -> int:
        return len(self._received) + len(self._received_held)

    @property
    def received(self) -> TimeColumn:
        """Each event's arrival time (epoch ms), :data:`NO_TIME` when it has none."""
        self._add_held()
        return self._received

    @property
    def stamps(self) -> TimeColumn:
        """Each event's ``timestamp_ms``, :data:`NO_TIME` when it has none."""
        self._add_held()
        return self._stamps

    def _add_held(self) -> None:
        """Add the times held to the columns."""
        for held, column in (
            (self._received_held, self._received),
            (self._stamps_held, self._stamps),
        ):
            if held:
                column.extend(held)
                del held[:]  # the same array: its append is bound

    def begin(self, state: StreamState, translator: Translator) -> None:
        """The first checkpoint: nothing folded yet."""
        self._state = state
        self.end_line(state, 0, translator)

    def note_fast(self, fast: FastRecord) -> bool:
        """The events of a line the fold applied straight from a fast record (its
        times are ``int`` or ``None``: the dialect checked). A ``whole`` thinking
        record is two events (the text, then the block closes), and so is an
        ``answer_call`` (the answer, then the call starts).

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
            self._call(text[2], subtype == "completed")  # the call id, in the tool fields
        elif kind == "answer_call":  # the answer, then the call's start
            self._add_received(recv)
            self._add_stamp(stamp)
            self._call(text[1][2], False)
        return len(self._received_held) >= self._held_due

    def note_event(self, event: AnyEvent) -> None:
        """An event the fold built and applied."""
        self._add_received(_as_time(event.recv_ms))
        self._add_stamp(_as_time(event.timestamp_ms))
        if isinstance(event, ToolCallEvent):
            self._call(event.call_id, event.completed)
        elif isinstance(event, InteractionQuery):
            self._query(event)

    def _call(self, call_id: str, completed: bool) -> None:
        seen = self._calls_seen
        if seen is None:
            return
        done = seen.note(call_id, completed)
        if done is None:
            start = len(self) - 1
            try:
                self.call_starts.append(start)
            except OverflowError:
                self.call_starts = widened(self.call_starts, "q")
                self.call_starts.append(start)
        elif done:  # a finished call named again: it may change
            self._named_again(call_id)

    def _query(self, event: InteractionQuery) -> None:
        """A permission request or answer: it may change a finished call
        (:func:`~streamview.core.approvals.apply_query`)."""
        call_id = event.tool_call_id
        key = query_id(event) if event.query_id is not None else None
        if event.subtype == "request" and call_id is not None and key is not None:
            self._queries[key] = call_id
        elif call_id is None and key is not None:
            call_id = self._queries.get(key)
        seen = self._calls_seen
        if call_id is not None and seen is not None and seen.get(call_id):
            self._named_again(call_id)

    def _named_again(self, call_id: str) -> None:
        """A finished call of the open session is named again, and may have changed:
        the checkpoints sharing it (the last ones, since it finished) go stale."""
        state = self._state
        call = state.sessions[-1].calls_by_id.get(call_id) if state and state.sessions else None
        if call is None:
            return  # a closed session's call: never changed, a new call is made
        checkpoints = self.checkpoints
        end = first = len(checkpoints)
        while first > 1:
            kept = checkpoints[first - 1].open_session
            if kept is None or not kept.shares(call):
                break
            first -= 1
        if first < end:
            self.stale.append((first, end))

    def usable(self, number: int) -> int:
        """The checkpoint to start from for one wanted (``number``): itself, or the
        last one before, when a later record named again a call it shares (one before
        that call finished, which holds a copy of it)."""
        moved = True
        while moved:
            moved = False
            for first, end in self.stale:
                if first <= number < end:
                    number, moved = first - 1, True
        return number

    def end_line(self, state: StreamState, line: int, translator: Translator) -> None:
        """Line ``line`` is folded: take a checkpoint if one is due."""
        if len(self._received_held) < self._held_due:
            return  # neither a checkpoint nor adding the times held is due
        if len(self._received_held) >= TIMES_HELD:
            self._add_held()
        count = len(self)
        if count >= self.due:
            done = self._calls_seen if self._calls_seen is not None else SeenIds()
            self.checkpoints.append(snapshot(state, count, line, translator, done))
            calls = len(state.sessions[-1].tool_calls) if state.sessions else 0
            self.due = count + max(self.every, calls * self.per_call)
        self._held_due = min(self.due - len(self._received), TIMES_HELD)

    def finish(self) -> None:
        """The fold is over: let go of what only the fold needed."""
        self._add_held()
        self._calls_seen = None
        self._state = None
        self._queries = {}
