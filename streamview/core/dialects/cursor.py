"""Cursor's ``cursor-agent -p --output-format stream-json``: streamview's first dialect.

Laid out as every agent's dialect is: this module names the dialect, recognises it and
marks the session as Cursor's; its records are read by :mod:`.cursor_records` (the
format guide is ``STREAM_FORMAT.md``), its records about its own work by
:mod:`.cursor_notices`, and the fast fold reads its token deltas and tool calls
straight from their dicts or bytes (:mod:`.cursor_fast`, then
:meth:`~streamview.core.state.StreamState.apply_fast`).
"""

from __future__ import annotations

from msgspec.structs import replace

from streamview.core.dialects.base import Dialect
from streamview.core.dialects.cursor_fast import fast_line, fast_record
from streamview.core.dialects.cursor_records import parse_line, parse_record
from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    JSONObject,
    MalformedLine,
    SessionStarted,
    UnknownRecord,
)

NAME = "cursor"


def mark(event: AnyEvent) -> AnyEvent:
    """The event, with ``agent="cursor"`` when it starts a session."""
    if event.__class__ is SessionStarted:
        assert isinstance(event, SessionStarted)
        if event.agent is None:
            return replace(event, agent=NAME)
    return event


class CursorTranslator:
    """One Cursor stream: each record is one event, read by :func:`parse_record`."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoders), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

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
    # A notice (a system record other than init) is no proof: Claude Code prints its
    # hooks before its init, and they must not decide the stream for Cursor.
    return not isinstance(event, UnknownRecord | MalformedLine | AgentNotice)


def read_line(data: bytes, line: int, recv_ms: int | None = None) -> AnyEvent:
    """One line of a Cursor stream as its event, the session marked as Cursor's."""
    return mark(parse_line(data, line, recv_ms))


DIALECT = Dialect(name=NAME, label="Cursor", detect=detect, translator=CursorTranslator)
