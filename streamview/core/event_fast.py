"""The fast path of ``--events``: a text or thinking delta to the block being told.

Most lines of a long run are token deltas. When one only grows the block the
:class:`~streamview.core.normalizer.Normalizer` is telling delta by delta (the
session's last block, every block before it told whole), its normalized event is the
delta itself: the dialect's ``fast_line`` reads it from the line's bytes, the state
applies it (:meth:`~streamview.core.fold_lean.LeanFold.apply_lean`, the fold's own fast
path, its lines counted a stretch at a time) and the delta is told, with no event built
and no block swept. Every other line goes the long way
(:class:`~streamview.core.reader.EventReader`'s events, folded and told one by one), in
order. The
:class:`~streamview.core.fast_normalizer.FastNormalizer` tells the first delta of a
block and the line that closes it (a thinking end, the whole message) without sweeping
the transcript, when that is all the line changed; the output is the same byte for byte
(``tests/events/test_golden.py``, ``tests/events/test_fast_events.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import orjson

import streamview.core.normalized as n
from streamview.core.dialects import cursor, cursor_fast
from streamview.core.dialects.cursor_records import parse_decoded
from streamview.core.dialects.lines import translate_decoded
from streamview.core.events import JSONObject
from streamview.core.fast_normalizer import FastNormalizer
from streamview.core.fast_path import LONG_LINE, FastRecord, loads_long, utf8
from streamview.core.input_events import too_long
from streamview.core.model import Block, Session
from streamview.core.normalizer import _Shown
from streamview.core.reader import EventReader
from streamview.core.state import StreamState

FastLine = Callable[[bytes, int], "FastRecord | None"]
Fast = Callable[[JSONObject, int], "FastRecord | None"]


def fast_line_of(reader: EventReader) -> tuple[FastLine | None, Fast, bool, bool] | None:
    """The stream's ``fast_line`` (``None`` for a dialect without one) and ``fast``,
    once its dialect is known, named and nothing is held back (the reader's own steady
    state), whether that ``fast_line`` is a pure function of the line (Cursor's: it
    keeps no translator), and whether it reads a line with its ``\\n`` still on
    (``fast_line_ended``: the lines are then cut by ``memchr``,
    :meth:`~streamview.core.framing.LineFramer.split_ended`); ``None`` while it is not.

    A ``fast_line`` that read a line changed its translator as ``translate`` would (the
    ``Translator`` protocol), and every dialect's does so idempotently (Claude Code's
    notes that thinking streamed): a line the fast path declines after reading it is
    translated again, the long way.
    """
    if not reader.steady():  # a line store remembers each line: the reader's loop does
        return None
    translator = reader.translator
    if translator is None:  # Cursor's lines, read by the reader itself
        return cursor_fast.fast_line, cursor_fast.fast_record, True, True
    found: FastLine | None = getattr(translator, "fast_line", None)
    newline = found is not None and getattr(translator, "fast_line_ended", False)
    return found, translator.fast, False, newline


def feed_fast(
    reader: EventReader,
    state: StreamState,
    normalizer: FastNormalizer,
    chunk: bytes,
    fast_line: FastLine | None,
    fast: Fast,
    pure: bool = False,
    newline: bool = False,
) -> list[n.NormalizedEvent]:
    """The events the lines of ``chunk`` stand for, deltas to the block being told
    straight from their bytes (what :meth:`EventStream.feed
    <streamview.core.event_stream.EventStream.feed>` returns). A ``pure`` ``fast_line``
    (see :func:`fast_line_of`) reads a line before it is asked to be UTF-8: the lines
    it declines, a tool's long result most often, are then not scanned for that. With
    ``newline``, ``fast_line`` reads lines cut with their ``\\n`` (:func:`fast_line_of`): a line it
    declines loses it before the long way."""
    apply = state.apply
    # The hot lines' counts are left for later (LeanFold, as --json's fold does): the
    # lines from the one after state._lean_from are all applied by apply_lean or are
    # deltas of a streak, counted at once before a line that goes another way (as
    # skip_lean), a new session (apply_lean) or the chunk's end. What is told reads
    # none of those counts: its events carry their own line and time.
    apply_lean = state.apply_lean
    settle = state.settle_lean
    handle = normalizer.handle
    tell_fast = normalizer.tell_fast
    told_fast = normalizer.told_fast
    normalizer.told_session = None
    sessions = state.sessions
    loads = orjson.loads
    not_json = orjson.JSONDecodeError
    told_by_deltas = normalizer.told_by_deltas
    slow = reader.line_events
    # A steady reader (fast_line_of) holds no line, names nothing and stores nothing:
    # line_events of a line decoded here is the translation of the decoded record.
    translator = reader.translator
    translate = translate_decoded
    cursor_mark = cursor.mark
    text_delta = n.TextDelta
    version = n.VERSION
    thinking_delta = n.ThinkingDelta
    out: list[n.NormalizedEvent] = []
    append = out.append
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
    parts_append = texts.append  # the streak's block's parts (its told texts: _settle)
    no_first_time = False
    run = 0
    """Deltas of the streak since its first or its last settling (_settle)."""
    run_when: int | None = None
    framer = reader.framer
    number = state._lean_from = framer.lines_seen
    # A long line may come as the framer's bytearray (no copy of a 3 MB line): the
    # decoders read it as they read bytes; it is copied before the long way. Lines a
    # fast_line reads with their newline are cut by memchr instead (bytes.split
    # compares every byte: 3-5 % of a run).
    pieces = (
        framer.split_ended(chunk) if newline else cast("list[bytes]", framer.split_lending(chunk))
    )
    cut = framer.take_cut()
    # Every line but the first (which may begin in an earlier chunk) is a piece of this
    # chunk: when both are ASCII, so is every line, not asked one by one (~40 ns a line).
    # A pure fast_line's declined lines are never asked: their bytes are not scanned.
    ascii = not pure and chunk.isascii() and (not pieces or pieces[0].isascii())
    for data in pieces:
        number += 1
        if cut is not None and number in cut:
            if run:
                _settle(state, streak, streak_shown, run, run_when)
                run = 0
            streak = normalizer.told_session = None
            state.skip_lean(number)
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
            hot = fast_line(data, number) if ascii or data.isascii() or utf8(data) else None
        if hot is None:
            # A trailing newline or \r is whitespace to the decoders: taken off (a
            # copy of the line) only for a line that goes the long way, or is blank.
            try:
                record = loads(data) if len(data) < LONG_LINE else loads_long(data)
            except not_json:
                record = None
            if record.__class__ is dict:
                hot = fast(record, number)
            if hot is None:  # the long way (a line not JSON is decoded again there)
                if run:
                    _settle(state, streak, streak_shown, run, run_when)
                    run = 0
                # Counted as it goes (or blank: not counted): skip_lean, inline.
                if number - 1 != state._lean_from:
                    settle(number - 1)
                state._lean_from = number
                if newline and data[-1:] == b"\n":
                    data = data[:-1]
                if data.endswith(b"\r"):
                    data = data[:-1]
                if not data or data.isspace():
                    reader.blank_lines += 1
                    continue
                streak = normalizer.told_session = None
                if isinstance(data, bytearray):  # a long line the framer lent
                    data = bytes(data)
                if record.__class__ is not dict:
                    events = slow(number, 0, data, None)
                elif translator is not None:  # decoded once, as the fold's loop does
                    events = translate(translator, record, data, number, None)
                else:
                    events = [cursor_mark(parse_decoded(record, data, number, None))]
                for event in events:
                    out.extend(handle(event, apply(event)))
                continue
        kind, subtype, text, model_call_id, session_id, timestamp, recv = hot
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
            # The next delta of the streak (asked first: most lines are; a call's
            # record is never one, its kind is no streak's): only deltas were applied
            # since its last one, so the session, its open blocks and what was told
            # are as they were. Its line is counted with the lean fold's, its time and
            # the block's delta count settled when the streak ends (_settle).
            run += 1
            when = timestamp if recv is None else recv
            if when is not None:
                run_when = when
                if no_first_time:
                    no_first_time = False
                    streak_session.first_time_ms = when  # type: ignore[union-attr]
            parts_append(text)
            if text:
                append(
                    streak_delta(
                        v=version,  # the default, given: msgspec then fills no field
                        line=number,
                        time_ms=when,
                        session=streak_index,
                        block=streak_position,
                        text=text,
                    )
                )
            continue
        if kind == "tool_call" or kind == "answer_call":
            # A call's record: no delta, and not what closes the streak's block by
            # itself (closed() is asked of a line of the streak's kind only).
            if run:
                _settle(state, streak, streak_shown, run, run_when)
                run = 0
            streak = None
            apply_lean(hot, number)
            ended = text[2] if kind == "tool_call" and subtype == "completed" else None
            session = sessions[-1]
            when = timestamp if recv is None else recv
            if session is normalizer.told_session and session.session_id == normalizer.told_id:
                told_fast(session, number, when, ended, out)  # tell_fast's first case
            else:
                tell_fast(session, number, when, ended, out)
            continue
        if run:
            _settle(state, streak, streak_shown, run, run_when)
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
                # What apply_lean does with a delta to the open block, inline.
                when = timestamp if recv is None else recv
                if when is not None:
                    state._lean_when = when
                    if session.first_time_ms is None:
                        session.first_time_ms = when
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
            apply_lean(hot, number)
            when = timestamp if recv is None else recv
            if ending is not None and normalizer.closed(
                streak_session,  # type: ignore[arg-type]
                streak_position,
                ending,
                streak_shown,  # type: ignore[arg-type]
                number,
                when,
                out,
            ):
                continue
            if opening is not None:
                # A delta that opened a block after blocks all told whole: told here,
                # and the run of deltas to the block starts with it.
                shown = normalizer.opened(opening, before, kind == "thinking", text)
            if shown is None:  # not a call's record (those went above): it ends none
                session = sessions[-1]
                if session is normalizer.told_session and session.session_id == normalizer.told_id:
                    told_fast(session, number, when, None, out)
                else:
                    tell_fast(session, number, when, None, out)
                continue
            session = opening  # type: ignore[assignment]
            block = session.blocks[-1]
        streak, streak_shown, streak_kind = block, shown, kind
        streak_session, streak_index = session, session.index
        streak_id = session.session_id
        parts_append = block.parts.append  # type: ignore[union-attr]
        no_first_time = session.first_time_ms is None
        run_when = None
        streak_position = len(session.blocks) - 1
        streak_delta = text_delta if kind == "assistant" else thinking_delta
        if text:
            append(
                streak_delta(
                    v=version,
                    line=number,
                    time_ms=when,
                    session=streak_index,
                    block=streak_position,
                    text=text,
                )
            )
    if run:
        _settle(state, streak, streak_shown, run, run_when)
    settle(number)
    normalizer.forget_told()
    return out


def _settle(
    state: StreamState, block: Block | None, shown: _Shown | None, run: int, when: int | None
) -> None:
    """What ``run`` more deltas of a streak change in the state (the rest of
    :meth:`~streamview.core.state.StreamState.apply_lean`'s work: their texts are
    already in the block and told; their lines are counted with the lean fold's,
    ``when`` the last time they had) and in what was told of the block: the block's
    last ``run`` parts are the streak's (only its deltas were applied since its first),
    whose texts were told."""
    assert block is not None and shown is not None
    block.deltas += run
    shown.deltas += run
    shown.told += block.parts[-run:]  # its empty texts too: the told texts are only joined
    if when is not None:
        state._lean_when = when
