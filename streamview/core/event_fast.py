"""The fast path of ``--events``: a text or thinking delta to the block being told.

Most lines of a long run are token deltas. When one only grows the block the
:class:`~streamview.core.normalizer.Normalizer` is telling delta by delta (the
session's last block, every block before it told whole), its normalized event is the
delta itself: the dialect's ``fast_line`` reads it from the line's bytes, the state
applies it (:meth:`~streamview.core.state.StreamState.apply_fast`, the fold's own fast
path) and the delta is told, with no event built and no block swept. Every other line
goes the long way (:class:`~streamview.core.reader.EventReader`'s events, folded and
told one by one), in order; the output is the same byte for byte
(``tests/events/test_golden.py``, ``tests/events/test_fast_events.py``).
"""

from __future__ import annotations

from collections.abc import Callable

import streamview.core.normalized as n
from streamview.core.dialects import cursor_fast
from streamview.core.fast_path import FastRecord
from streamview.core.normalizer import Normalizer
from streamview.core.reader import EventReader, too_long
from streamview.core.state import StreamState

FastLine = Callable[[bytes, int], "FastRecord | None"]


def fast_line_of(reader: EventReader) -> FastLine | None:
    """The stream's ``fast_line``, once its dialect is known, named and nothing is held
    back (the reader's own steady state); ``None`` while it is not, or for a dialect
    without one.

    A ``fast_line`` that read a line changed its translator as ``translate`` would (the
    ``Translator`` protocol), and every dialect's does so idempotently (Claude Code's
    notes that thinking streamed): a line the fast path declines after reading it is
    translated again, the long way.
    """
    # The reader's private state: its module is at the house's size limit.
    if reader.dialect is None or reader._held or reader._named is not None:
        return None
    if reader.store is not None:
        return None  # a line store remembers each line: the reader's own loop does
    translator = reader._translator
    if translator is None:  # Cursor's lines, read by the reader itself
        return cursor_fast.fast_line
    found: FastLine | None = getattr(translator, "fast_line", None)
    return found


def feed_fast(
    reader: EventReader,
    state: StreamState,
    normalizer: Normalizer,
    chunk: bytes,
    fast_line: FastLine,
) -> list[n.NormalizedEvent]:
    """The events the lines of ``chunk`` stand for, deltas to the block being told
    straight from their bytes (what :meth:`EventStream.feed
    <streamview.core.event_stream.EventStream.feed>` returns)."""
    apply = state.apply
    apply_fast = state.apply_fast
    handle = normalizer.handle
    told_by_deltas = normalizer.told_by_deltas
    slow = reader._events
    text_delta = n.TextDelta
    thinking_delta = n.ThinkingDelta
    out: list[n.NormalizedEvent] = []
    append = out.append
    framer = reader._framer
    number = framer.lines_seen
    pieces = framer.split(chunk)
    cut = framer.take_cut()
    for data in pieces:
        number += 1
        if cut is not None and number in cut:
            cut_line = too_long(number, data, cut[number])
            out.extend(handle(cut_line, apply(cut_line)))
            continue
        if data.endswith(b"\r"):
            data = data[:-1]
        if not data or data.isspace():
            reader.blank_lines += 1
            continue
        hot = fast_line(data, number)
        if hot is not None and state.sessions:
            kind, subtype, text, model_call_id, session_id, timestamp, recv = hot
            session = state.sessions[-1]
            if session_id is None or session_id == session.session_id:
                block = None
                if kind == "assistant":
                    is_delta = (
                        subtype
                        if subtype is not None
                        else (model_call_id is None and timestamp is not None)
                    )
                    if is_delta and session.open_thinking is None:
                        block = session.open_text
                elif subtype == "delta":
                    block = session.open_thinking
                blocks = session.blocks
                if block is not None and blocks[-1] is block:
                    shown = told_by_deltas(session, block)
                    if shown is not None:
                        apply_fast(hot, number)
                        shown.deltas = block.deltas
                        if text:
                            shown.told.append(text)
                            delta = text_delta if kind == "assistant" else thinking_delta
                            append(
                                delta(
                                    line=number,
                                    time_ms=timestamp if recv is None else recv,
                                    session=session.index,
                                    block=len(blocks) - 1,
                                    text=text,
                                )
                            )
                        continue
        for event in slow(number, 0, data, None):
            out.extend(handle(event, apply(event)))
    normalizer.forget_told()
    return out
