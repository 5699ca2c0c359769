"""Cursor's fast path: the records most of a run is made of, without building events.

Thinking and assistant deltas and tool calls are most of a Cursor run.
:func:`fast_record` takes them apart from the decoded dict; :func:`fast_line` reads
the deltas straight from the line's bytes, and a grep's result too (its matches
counted as they are decoded). Both return what
:meth:`~streamview.core.state.StreamState.apply_fast` applies, or ``None``: the line
then goes the long way (:func:`~streamview.core.dialects.cursor_records.parse_record`).
"""

from __future__ import annotations

from typing import Any

import msgspec

from streamview.core.decoding import RECV_KEY
from streamview.core.events import JSONObject
from streamview.core.fast_path import (
    HOT_DECODE_ERRORS,
    FastRecord,
    Int64,
    hot_decoder,
)
from streamview.core.tool_record import tool_call_fields


def fast_record(record: JSONObject, line: int) -> FastRecord | None:
    """A thinking, assistant or tool-call record's fields, if its fields have the usual types.

    Args:
        record: A decoded line; it is not modified.
        line: Its 1-based line number.

    Returns:
        ``None`` for any other record, or one whose fields have unusual types. An
        assistant record's subtype says whether it is a delta, by the format guide's
        rule (no ``model_call_id``, a ``timestamp_ms``): the fold then appends it to
        the open text without asking again.
    """
    subtype: Any = None
    kind = record.get("type")
    model_call_id = None
    text: Any
    if kind == "thinking":
        subtype = record.get("subtype")
        if subtype == "delta":
            text = record.get("text")
            if text.__class__ is not str:
                return None
        elif subtype == "completed":
            text = None
        else:
            return None
    elif kind == "assistant":
        message = record.get("message")
        if message.__class__ is not dict:
            return None
        content = message.get("content")
        if content.__class__ is not list or len(content) != 1:
            return None
        item = content[0]
        if item.__class__ is not dict or item.get("type") != "text":
            return None
        text = item.get("text")
        model_call_id = record.get("model_call_id")
        if text.__class__ is not str or (
            model_call_id is not None and model_call_id.__class__ is not str
        ):
            return None
    elif kind == "tool_call":
        subtype = record.get("subtype")
        if subtype != "started" and subtype != "completed":
            return None
        try:
            text = tool_call_fields(record, line)
        except Exception:
            return None  # parse_record turns this into an UnknownRecord
    else:
        return None
    session_id = record.get("session_id")
    timestamp = record.get("timestamp_ms")
    recv = record.get(RECV_KEY)
    if (
        (session_id is not None and session_id.__class__ is not str)
        or (timestamp is not None and timestamp.__class__ is not int)
        or (recv is not None and recv.__class__ is not int)
    ):
        return None
    if kind == "assistant":  # a delta by the format guide's rule, told here once
        subtype = model_call_id is None and timestamp is not None
    return kind, subtype, text, model_call_id, session_id, timestamp, recv


# -- the token deltas, decoded straight into typed structs -----------------------------
#
# Thinking and assistant deltas are most of a Cursor run. Decoding such a line into a
# msgspec Struct holding only what the fold reads skips every other field in C and
# checks the fields' types on the way, so the fold gets its FastRecord without a dict.
# fast_line returns exactly what fast_record returns for orjson.loads(data), or None:
# the line is then decoded in full. Anything unusual declines: a field of another
# type, an integer orjson would read as a float, bytes that are not UTF-8, keys in
# another order, a tool call (its payload is read from the dict).


class _Item(msgspec.Struct, gc=False):
    type: str | None = None
    text: str | None = None


class _Message(msgspec.Struct, gc=False):
    content: list[_Item] | None = None


class _Hot(msgspec.Struct, gc=False):
    """A thinking or assistant record's fields the fold reads; the rest is skipped."""

    type: str | None = None
    subtype: str | None = None
    text: str | None = None
    message: _Message | None = None
    model_call_id: str | None = None
    session_id: str | None = None
    timestamp_ms: Int64 | None = None
    streamview_recv_ms: Int64 | None = None


_decode_hot = hot_decoder(_Hot)
_HOT_STARTS = (b'{"type":"thinking"', b'{"type":"assistant"')


def fast_line(data: bytes, line: int) -> FastRecord | None:
    """A thinking or assistant delta's :data:`FastRecord`, or a grep's result
    (:func:`_grep_line`), read from its bytes.

    Args:
        data: The line, as read (a trailing ``\\r`` is whitespace to both decoders).
        line: Its 1-based line number.
    """
    if not data.startswith(_HOT_STARTS):
        if data.startswith(_GREP_START) and data.find(_GREP_CALL, 0, _GREP_WITHIN) > 0:
            return _grep_line(data)
        return None
    try:
        hot = _decode_hot(data)
    except HOT_DECODE_ERRORS:
        return None
    kind = hot.type
    if kind == "thinking":
        subtype = hot.subtype
        if subtype == "delta":
            text = hot.text
            if text is None:
                return None
        elif subtype == "completed":
            text = None
        else:
            return None
        return (
            "thinking",
            subtype,
            text,
            None,
            hot.session_id,
            hot.timestamp_ms,
            hot.streamview_recv_ms,
        )
    if kind == "assistant":
        message = hot.message
        if message is None:
            return None
        content = message.content
        if content is None or len(content) != 1:
            return None
        item = content[0]
        if item.type != "text" or item.text is None:
            return None
        model_call_id = hot.model_call_id
        timestamp = hot.timestamp_ms
        return (
            "assistant",
            model_call_id is None and timestamp is not None,  # a delta, as fast_record says
            item.text,
            model_call_id,
            hot.session_id,
            timestamp,
            hot.streamview_recv_ms,
        )
    return None


_GREP_START = b'{"type":"tool_call","subtype":"completed",'
_GREP_CALL = b'"tool_call":{"grepToolCall":'
_GREP_WITHIN = 256
"""Bytes of a line in which its ``tool_call`` must start with the grep's body."""


def _grep_line(data: bytes) -> FastRecord | None:
    """:func:`~.cursor_grep.grep_line`, imported at the first grep's result: its
    structs are built then, not in the start-up of every stream."""
    from streamview.core.dialects.cursor_grep import grep_line

    return grep_line(data)
