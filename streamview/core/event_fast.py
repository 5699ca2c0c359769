"""The fast path of ``--events``: a text or thinking delta to the block being told.

Most lines of a long run are token deltas. When one only grows the block the
:class:`~streamview.core.normalizer.Normalizer` is telling delta by delta (the
session's last block, every block before it told whole), its normalized event is the
delta itself: the dialect's ``fast_line`` reads it from the line's bytes, the state
applies it (:meth:`~streamview.core.state.StreamState.apply_fast`, the fold's own fast
path) and the delta is told, with no event built and no block swept. Every other line
goes the long way (:class:`~streamview.core.reader.EventReader`'s events, folded and
told one by one), in order. :class:`FastNormalizer` tells the first delta of a block
and the line that closes it (a thinking end, the whole message) without sweeping the
transcript, when that is all the line changed; the output is the same byte for byte
(``tests/events/test_golden.py``, ``tests/events/test_fast_events.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import orjson

import streamview.core.normalized as n
import streamview.core.told_events as tell
from streamview.core.dialects import cursor_fast
from streamview.core.events import JSONObject
from streamview.core.fast_path import LONG_LINE, FastRecord, loads_long, utf8
from streamview.core.input_events import too_long
from streamview.core.model import RUNNING, TEXT, THINKING, TOOL, Block, Session
from streamview.core.normalizer import Normalizer, _Shown
from streamview.core.reader import EventReader
from streamview.core.state import StreamState

FastLine = Callable[[bytes, int], "FastRecord | None"]
Fast = Callable[[JSONObject, int], "FastRecord | None"]


class FastNormalizer(Normalizer):
    """The :class:`~streamview.core.normalizer.Normalizer` of the fast path: what
    :func:`feed_fast` asks of it besides what every line asks."""

    told_session: Session | None = None
    """The newest session when its facts were last found as told (:meth:`tell_fast`)."""
    _told_id: str | None = None

    def opened(self, session: Session, before: int, thinking: bool, text: str) -> _Shown | None:
        """After ``apply_fast`` applied a delta that may have opened a block after the
        ``before`` blocks of ``session``: the block told as :meth:`handle_fast` tells it,
        and what was told of it returned (the caller writes the delta, ``text``), when
        that is all the line changed in what is told: ``session`` still the newest, its
        facts as told, its ``before`` blocks told whole and one more, open, of the
        delta's kind, holding the delta. Else ``None``, nothing told: the line is
        :meth:`handle_fast`'s."""
        index = session.index
        blocks = session.blocks
        if len(blocks) != before + 1 or self._settled.get(index, 0) != before:
            return None
        block = blocks[before]
        if (
            not block.open
            or block.kind != (THINKING if thinking else TEXT)
            or block.text != text
            or not self._as_told(session)
        ):
            return None
        shown = self._shown[(index, before)] = _Shown(block.revision, block.deltas, [text])
        return shown

    def closed(
        self,
        session: Session,
        position: int,
        block: Block,
        line: int,
        when: int | None,
        out: list[n.NormalizedEvent],
    ) -> bool:
        """After ``apply_fast`` applied the line that ended a run of deltas to ``block``
        (at ``position``, the last of ``session``, every block before it told whole):
        whether that line only closed the block, then told as :meth:`handle_fast` tells
        it (its end, and what it added); else nothing is told."""
        index = session.index
        blocks = session.blocks
        if (
            block.open
            or len(blocks) != position + 1
            or blocks[position] is not block
            or self._settled.get(index, 0) != position
            or not self._as_told(session)
        ):
            return False
        self._block(session, position, block, None, line, when, out)  # told whole: closed
        self._settled[index] = position + 1
        self._shown.pop((index, position), None)
        return True

    def handle_fast(
        self,
        session: Session,
        line: int,
        when: int | None,
        ended: str | None,
        out: list[n.NormalizedEvent] | None = None,
    ) -> list[n.NormalizedEvent]:
        """:meth:`Normalizer.handle_fast`, its transcript swept only when a block is
        left to tell (a call's result adds none) and the session's facts compared
        without building them twice; the events appended to ``out`` when given (the
        list returned)."""
        if out is None:
            out = []
        if not self._as_told(session):
            out.extend(super().handle_fast(session, line, when, ended))
            return out
        self.told_fast(session, line, when, ended, out)
        return out

    def tell_fast(
        self,
        session: Session,
        line: int,
        when: int | None,
        ended: str | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        """:meth:`handle_fast` for a line :func:`feed_fast` applied to ``session``, the
        newest, with the facts of the session last found as told remembered: a fast
        record that names no other session changes none of them (the long way may:
        :func:`feed_fast` forgets them then, and at each chunk's start)."""
        if session is self.told_session and session.session_id == self._told_id:
            self.told_fast(session, line, when, ended, out)
        elif self._as_told(session):
            self.told_session, self._told_id = session, session.session_id
            self.told_fast(session, line, when, ended, out)
        else:
            self.told_session = None
            self.handle_fast(session, line, when, ended, out)

    def told_fast(
        self,
        session: Session,
        line: int,
        when: int | None,
        ended: str | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        """:meth:`handle_fast` for ``session``, the newest, whose facts are as told: the
        blocks the line added told one by one while each is what most lines add (a
        call's start, a block told whole that no delta told, the close of a block
        told in deltas), the rest by :meth:`_sweep`; then the call ``ended`` ends."""
        index = session.index
        blocks = session.blocks
        count = len(blocks)
        settled = self._settled
        position = settled.get(index, 0)
        if position < count:
            shown_of = self._shown
            while position < count:
                block = blocks[position]
                kind = block.kind
                if kind == TOOL:
                    call_index = block.call_index
                    if call_index is None or (index, call_index) in self._started:
                        break
                    # Settled at once: _started is only asked of blocks not settled.
                    tell.start(index, session.tool_calls[call_index], line, when, out)
                elif kind in (TEXT, THINKING):
                    if block.open:
                        break
                    shown = shown_of.get((index, position))
                    thinking = kind == THINKING
                    if shown is None:  # told whole, at once: no delta told it
                        text = block.text
                        if text:
                            out.append(tell.delta(thinking, index, position, text, line, when))
                        out.append(tell.done(thinking, index, position, text, False, line, when))
                    elif shown.finished:
                        del shown_of[(index, position)]
                    elif shown.revision == block.revision and shown.deltas == block.deltas:
                        text = block.text  # told in deltas, all of them: its end
                        corrected = shown.corrected
                        out.append(
                            tell.done(thinking, index, position, text, corrected, line, when)
                        )
                        del shown_of[(index, position)]
                    else:
                        break
                position += 1
            settled[index] = position
            if position < count:
                self._sweep(session, None, line, when, out)
        if ended is not None:
            ending = session.calls_by_id.get(ended)
            if ending is not None and ending.status != RUNNING:
                self._end_call(session, ending, line, when, out)

    def _as_told(self, session: Session) -> bool:
        """Whether ``session``, the newest, was announced and its facts are as told."""
        index = session.index
        facts = self._facts
        if self.state.sessions[-1] is not session or index >= len(facts):
            return False
        told = facts[index]  # compared field by field, as _facts builds them
        return (
            told[0] == session.session_id
            and told[2] == session.model
            and told[3] == session.cwd
            and told[4] == session.permission_mode
            and told[1] == (session.agent or self._agent())
        )


def fast_line_of(reader: EventReader) -> tuple[FastLine | None, Fast, bool] | None:
    """The stream's ``fast_line`` (``None`` for a dialect without one) and ``fast``,
    once its dialect is known, named and nothing is held back (the reader's own steady
    state), and whether that ``fast_line`` is a pure function of the line (Cursor's:
    it keeps no translator); ``None`` while it is not.

    A ``fast_line`` that read a line changed its translator as ``translate`` would (the
    ``Translator`` protocol), and every dialect's does so idempotently (Claude Code's
    notes that thinking streamed): a line the fast path declines after reading it is
    translated again, the long way.
    """
    if not reader.steady():  # a line store remembers each line: the reader's loop does
        return None
    translator = reader.translator
    if translator is None:  # Cursor's lines, read by the reader itself
        return cursor_fast.fast_line, cursor_fast.fast_record, True
    found: FastLine | None = getattr(translator, "fast_line", None)
    return found, translator.fast, False


def feed_fast(
    reader: EventReader,
    state: StreamState,
    normalizer: FastNormalizer,
    chunk: bytes,
    fast_line: FastLine | None,
    fast: Fast,
    pure: bool = False,
) -> list[n.NormalizedEvent]:
    """The events the lines of ``chunk`` stand for, deltas to the block being told
    straight from their bytes (what :meth:`EventStream.feed
    <streamview.core.event_stream.EventStream.feed>` returns). A ``pure`` ``fast_line``
    (see :func:`fast_line_of`) reads a line before it is asked to be UTF-8: the lines
    it declines, a tool's long result most often, are then not scanned for that."""
    apply = state.apply
    apply_fast = state.apply_fast
    handle = normalizer.handle
    tell_fast = normalizer.tell_fast
    normalizer.told_session = None
    sessions = state.sessions
    loads = orjson.loads
    not_json = orjson.JSONDecodeError
    told_by_deltas = normalizer.told_by_deltas
    slow = reader.line_events
    text_delta = n.TextDelta
    thinking_delta = n.ThinkingDelta
    out: list[n.NormalizedEvent] = []
    append = out.append
    counts = state.counts
    assert not state._track, "the fast path changes what a view would be told of"
    streak: Block | None = None
    """The block the last line's delta went to, the fast way: told delta by delta."""
    streak_shown = None
    streak_kind = ""
    """The streak's record type, session, its index and the block's position."""
    streak_session: Session | None = None
    streak_index = streak_position = 0
    streak_delta: type[n.TextDelta | n.ThinkingDelta] = text_delta
    streak_id: str | None = None
    texts: list[str] = []
    parts_append = told_append = texts.append  # the streak's block's parts and told texts
    no_first_time = False
    run = run_line = 0
    """Deltas of the streak since its first, not yet counted, the last on run_line."""
    run_when: int | None = None
    framer = reader.framer
    number = framer.lines_seen
    # A long line may come as the framer's bytearray (no copy of a 3 MB line): the
    # decoders read it as they read bytes; it is copied before the long way.
    pieces = cast("list[bytes]", framer.split_lending(chunk))
    cut = framer.take_cut()
    for data in pieces:
        number += 1
        if cut is not None and number in cut:
            if run:
                _settle(state, streak_session, streak, streak_shown, run, run_line, run_when)
                run = 0
            streak = normalizer.told_session = None
            cut_line = too_long(number, data, cut[number])
            out.extend(handle(cut_line, apply(cut_line)))
            continue
        # A hot line is tried first: it starts with its record's type, so it is never
        # blank, and a trailing ``\r`` is whitespace to its decoder.
        if fast_line is None:
            hot = None
        elif pure:
            hot = fast_line(data, number)
            if hot is not None and not (data.isascii() or utf8(data)):
                hot = None
        else:
            hot = fast_line(data, number) if data.isascii() or utf8(data) else None
        if hot is None:
            if data.endswith(b"\r"):
                data = data[:-1]
            if not data or data.isspace():
                reader.blank_lines += 1
                continue
            try:
                record = loads(data) if len(data) < LONG_LINE else loads_long(data)
            except not_json:
                record = None
            if record.__class__ is dict:
                hot = fast(record, number)
            if hot is None:  # the long way (a line not JSON is decoded again there)
                if run:
                    _settle(state, streak_session, streak, streak_shown, run, run_line, run_when)
                    run = 0
                streak = normalizer.told_session = None
                if isinstance(data, bytearray):  # a long line the framer lent
                    data = bytes(data)
                for event in slow(number, 0, data, None):
                    out.extend(handle(event, apply(event)))
                continue
        kind, subtype, text, model_call_id, session_id, timestamp, recv = hot
        if kind == "tool_call" or kind == "answer_call":
            # A call's record: no delta, and not what closes the streak's block by
            # itself (closed() is asked of a line of the streak's kind only).
            if run:
                _settle(state, streak_session, streak, streak_shown, run, run_line, run_when)
                run = 0
            streak = None
            apply_fast(hot, number)
            ended = text[2] if kind == "tool_call" and subtype == "completed" else None
            tell_fast(sessions[-1], number, timestamp if recv is None else recv, ended, out)
            continue
        if (
            streak is not None
            and kind == streak_kind
            and (session_id is None or session_id == streak_id)
            and (
                subtype == "delta"
                if kind == "thinking"
                else (
                    subtype
                    if subtype is not None
                    else (model_call_id is None and timestamp is not None)
                )
            )
        ):
            # The next delta of the streak: only deltas were applied since its last
            # one, so the session, its open blocks and what was told are as they were.
            # Its counts and times are settled when the streak ends (_settle).
            run += 1
            run_line = number
            when = timestamp if recv is None else recv
            if when is not None:
                run_when = when
                if no_first_time:
                    no_first_time = False
                    streak_session.first_time_ms = when  # type: ignore[union-attr]
            parts_append(text)
            if text:
                told_append(text)
                append(
                    streak_delta(
                        line=number,
                        time_ms=when,
                        session=streak_index,
                        block=streak_position,
                        text=text,
                    )
                )
            continue
        if run:
            _settle(state, streak_session, streak, streak_shown, run, run_line, run_when)
            run = 0
        shown: _Shown | None = None
        opening: Session | None = None
        """The session a delta opens a block in, if it may (its blocks all told whole)."""
        if sessions and (session_id is None or session_id == sessions[-1].session_id):
            session = sessions[-1]
            block = None
            if kind == "assistant":
                is_delta = (
                    subtype
                    if subtype is not None
                    else (model_call_id is None and timestamp is not None)
                )
                if is_delta and session.open_thinking is None:
                    block = session.open_text
                    if block is None:
                        opening = session
            elif kind == "thinking" and subtype == "delta":
                block = session.open_thinking
                if block is None:
                    opening = session
            if block is not None:
                if block is streak:
                    shown = streak_shown
                elif session.blocks[-1] is block:
                    shown = told_by_deltas(session, block)
            if shown is not None:
                # What apply_fast does with a delta to the open block, inline.
                counts.total += 1
                counts.events += 1
                session.events += 1
                session.last_line = number
                when = timestamp if recv is None else recv
                if when is not None:
                    state.last_event_ms = when
                    if session.first_time_ms is None:
                        session.first_time_ms = when
                    session.last_time_ms = when
                block.parts.append(text)  # type: ignore[union-attr]
                block.deltas += 1  # type: ignore[union-attr]
                shown.deltas += 1
                if text:
                    shown.told.append(text)
        if shown is None:
            # The block the last line's delta went to: a line of its kind may close it.
            ending = streak if kind == streak_kind else None
            streak = None
            before = len(opening.blocks) if opening is not None else 0
            apply_fast(hot, number)
            when = timestamp if recv is None else recv
            if ending is not None and normalizer.closed(
                streak_session,  # type: ignore[arg-type]
                streak_position,
                ending,
                number,
                when,
                out,
            ):
                continue
            if opening is not None:
                # A delta that opened a block after blocks all told whole: told here,
                # and the run of deltas to the block starts with it.
                shown = normalizer.opened(opening, before, kind == "thinking", text)
            if shown is None:
                ended = text[2] if kind == "tool_call" and subtype == "completed" else None
                tell_fast(sessions[-1], number, when, ended, out)
                continue
            session = opening  # type: ignore[assignment]
            block = session.blocks[-1]
        streak, streak_shown, streak_kind = block, shown, kind
        streak_session, streak_index = session, session.index
        streak_id = session.session_id
        parts_append, told_append = block.parts.append, shown.told.append  # type: ignore[union-attr]
        no_first_time = session.first_time_ms is None
        run_when = None
        streak_position = len(session.blocks) - 1
        streak_delta = text_delta if kind == "assistant" else thinking_delta
        if text:
            append(
                streak_delta(
                    line=number,
                    time_ms=when,
                    session=streak_index,
                    block=streak_position,
                    text=text,
                )
            )
    if run:
        _settle(state, streak_session, streak, streak_shown, run, run_line, run_when)
    normalizer.forget_told()
    return out


def _settle(
    state: StreamState,
    session: Session | None,
    block: Block | None,
    shown: _Shown | None,
    run: int,
    line: int,
    when: int | None,
) -> None:
    """What ``run`` more deltas of a streak, the last on ``line``, change in the state
    (the rest of :meth:`~streamview.core.state.StreamState.apply_fast`'s work: their
    texts are already in the block and told)."""
    assert session is not None and block is not None and shown is not None
    counts = state.counts
    counts.total += run
    counts.events += run
    session.events += run
    session.last_line = line
    block.deltas += run
    shown.deltas += run
    if when is not None:
        state.last_event_ms = when
        session.last_time_ms = when
