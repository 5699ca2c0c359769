"""One line of any dialect, bytes to events: decoding, arrival stamps, bad input.

A translator sees decoded JSON objects only; what every dialect shares (a line that is
not JSON, a byte-order mark, the recording's arrival stamp, a translator that fails)
is handled here once, the way :func:`~streamview.core.dialects.cursor_records.parse_line`
handles it for Cursor.
"""

from __future__ import annotations

from typing import Any

from streamview.core.decoding import (
    NOT_JSON,
    RECV_KEY,
    RepairedLine,
    decode_line,
    repair_notice,
    with_raw,
)
from streamview.core.dialects.base import Dialect, Translator
from streamview.core.dialects.cursor_records import parse_decoded, parse_line
from streamview.core.events import (
    AnyEvent,
    MalformedLine,
    SessionStarted,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fields import as_int
from streamview.core.session_versions import newer_format


def translate_line(
    translator: Translator, data: bytes, line: int, recv_ms: int | None = None
) -> list[AnyEvent]:
    """The events one line stands for, through ``translator``. Never raises.

    Args:
        translator: The stream's translator (it remembers earlier lines).
        data: The line's bytes, without its terminator.
        line: The 1-based line number.
        recv_ms: Arrival time stamped by a live source, if any.

    Returns:
        At least one event: a line that is not a JSON object is one
        :class:`MalformedLine`; a record the translator cannot read is one
        :class:`UnknownRecord`.
    """
    record, data = decode_line(data, line)
    return translate_decoded(translator, record, data, line, recv_ms)


def translate_decoded(
    translator: Translator, record: Any, data: bytes, line: int, recv_ms: int | None = None
) -> list[AnyEvent]:
    """Finish :func:`translate_line` for a line its caller already decoded.

    Args:
        translator: The stream's translator.
        record: What :func:`~streamview.core.decoding.decode_line` returned for the line.
        data: The line's bytes, as ``decode_line`` gave them back.
        line: The 1-based line number.
        recv_ms: Arrival time stamped by a live source, if any.
    """
    if data.__class__ is RepairedLine:
        return [
            *translate_decoded(translator, record, bytes(data), line, recv_ms),
            repair_notice(line, recv_ms),
        ]
    if record.__class__ is not dict:
        plain = getattr(translator, "plain", None) if record is NOT_JSON else None
        if plain is not None:  # an agent that prints its last words as plain text
            said: list[AnyEvent] | None = plain(data.decode("utf-8", "replace"), line, recv_ms)
            if said:
                return said
        return [parse_decoded(record, data, line, recv_ms)]
    if RECV_KEY in record:
        recorded = as_int(record.pop(RECV_KEY))  # as parse_record reads it
        if recorded is not None and recv_ms is None:
            recv_ms = recorded
    kind = record.get("type")
    try:
        events = translator.translate(record, line, recv_ms)
    except Exception as error:  # a translator's bug must not stop the stream
        events = [
            UnknownRecord(
                line,
                None,
                None,
                recv_ms,
                type=kind if isinstance(kind, str) else "?",
                subtype=f"unreadable: {type(error).__name__}",
                record=record,
            )
        ]
    if not events:
        events = [
            UnknownRecord(
                line,
                None,
                None,
                recv_ms,
                type=kind if isinstance(kind, str) else "?",
                record=record,
            )
        ]
    if len(events) == 1 and isinstance(events[0], MalformedLine):
        return [with_raw(events[0], line, data)]
    first = events[0]
    if first.__class__ is SessionStarted and first.extra:
        newer = newer_format(first)
        if newer is not None:  # a release past the ones its dialect was checked against
            events = [first, newer, *events[1:]]
    return events


def end_of_input(translator: Translator | None, line: int, recv_ms: int | None = None) -> list[Any]:
    """What the end of input stands for in the translator's dialect (its optional
    ``end``: an outcome it held back until no more records came), if anything."""
    end = getattr(translator, "end", None)
    return list(end(line, recv_ms)) if end is not None else []


class CallReparser:
    """Re-read one tool call's lines (its ``started`` line, then its ``completed`` line).

    A view that opens a call loads its full arguments and result from the lines the
    fold did not keep. A dialect's result record may not name its tool (Claude Code's
    ``tool_result``): the lines go through one translator, in order, so the second
    knows what the first said.

    Args:
        dialect: The stream's dialect (``by_name(LineStore.agent)``); ``None`` for Cursor.
        call_id: The call whose events are wanted (one line may hold several calls).
    """

    def __init__(self, dialect: Dialect | None, call_id: str) -> None:
        self._translator = (
            dialect.translator() if dialect is not None and dialect.name != "cursor" else None
        )
        self._call_id = call_id

    def __call__(self, data: bytes, number: int) -> ToolCallEvent | None:
        """The call's event on line ``number`` (``data`` its bytes), if it has one."""
        if self._translator is None:
            events = [parse_line(data, number)]
        else:
            events = translate_line(self._translator, data, number)
        for event in events:
            if isinstance(event, ToolCallEvent) and event.call_id == self._call_id:
                return event
        return None
