"""Cursor's ``cursor-agent -p --output-format stream-json``: streamview's first dialect.

The records are read by :mod:`streamview.core.parse` (the format guide is
``STREAM_FORMAT.md``); this module only names the dialect, recognises it and marks the
session as Cursor's. The fast fold reads Cursor's token deltas and tool calls straight
from their dicts (the translator's ``fast``, then
:meth:`~streamview.core.state.StreamState.apply_fast`).
"""

from __future__ import annotations

import dataclasses

import msgspec

from streamview.core.dialects.base import Dialect
from streamview.core.events import (
    AnyEvent,
    JSONObject,
    MalformedLine,
    SessionStarted,
    UnknownRecord,
)
from streamview.core.fast_path import (
    HOT_DECODE_ERRORS,
    FastRecord,
    Int64,
    fast_record,
    hot_decoder,
)
from streamview.core.parse import parse_record

NAME = "cursor"


def mark(event: AnyEvent) -> AnyEvent:
    """The event, with ``agent="cursor"`` when it starts a session."""
    if event.__class__ is SessionStarted:
        assert isinstance(event, SessionStarted)
        if event.agent is None:
            return dataclasses.replace(event, agent=NAME)
    return event


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
    """A thinking or assistant delta's :data:`FastRecord`, read from its bytes.

    Args:
        data: The line, as read (a trailing ``\\r`` is whitespace to both decoders).
        line: Its 1-based line number.
    """
    if not data.startswith(_HOT_STARTS):
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
        return (
            "assistant",
            None,
            item.text,
            hot.model_call_id,
            hot.session_id,
            hot.timestamp_ms,
            hot.streamview_recv_ms,
        )
    return None


class CursorTranslator:
    """One Cursor stream: each record is one event, read by :func:`parse_record`."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The one event a Cursor record stands for (see :class:`Translator`)."""
        return [mark(parse_record(record, line, recv_ms))]

    fast = staticmethod(fast_record)
    """Token deltas, thinking and tool calls, straight from the dict."""
    fast_line = staticmethod(fast_line)
    """Thinking and assistant deltas, straight from the line's bytes."""


def detect(record: JSONObject) -> bool:
    """A ``system/init`` with Cursor's fields and no tool list, or a ``tool_call`` record.

    Claude Code's ``system/init`` also has ``apiKeySource`` and ``permissionMode``, but
    lists its ``tools`` and ``mcp_servers``; Cursor's never does.
    """
    kind = record.get("type")
    if kind == "tool_call":
        return isinstance(record.get("tool_call"), dict)
    if kind == "thinking":
        return record.get("subtype") in ("delta", "completed")
    if kind == "system" and record.get("subtype") == "init":
        return (
            ("apiKeySource" in record or "permissionMode" in record)
            and "tools" not in record
            and "mcp_servers" not in record
        )
    return False


def reads(record: JSONObject) -> bool:
    """Cursor's parser knows this record (a ``user``, an ``assistant``, a ``result``...).

    Not proof that the stream is Cursor's (Claude Code has records of the same types),
    but enough to stop waiting when no dialect recognises the stream's first record.
    """
    event = parse_record(dict(record), 0)  # a copy: the parser takes out the arrival key
    return not isinstance(event, UnknownRecord | MalformedLine)


DIALECT = Dialect(name=NAME, label="Cursor", detect=detect, translator=CursorTranslator)
