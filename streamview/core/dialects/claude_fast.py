"""The typed decoder of Claude Code's hot lines: the partial messages' deltas.

With ``--include-partial-messages`` most of a run is ``stream_event`` lines holding a
``content_block_delta``. :meth:`ClaudeTranslator.fast_line
<streamview.core.dialects.claude.ClaudeTranslator.fast_line>` decodes such a line into
these structs, reading only what the fold needs and skipping the rest in C.
"""

from __future__ import annotations

from typing import Any

import msgspec

from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord, Int64, hot_decoder
from streamview.core.fields import iso_ms


class _Delta(msgspec.Struct, gc=False):
    type: Any = None
    text: Any = None
    thinking: Any = None


class _Event(msgspec.Struct, gc=False):
    type: Any = None
    delta: _Delta | None = None


class _StreamEvent(msgspec.Struct, gc=False):
    """A ``stream_event`` record's fields :meth:`ClaudeTranslator.fast` reads, typed
    as it checks them; the rest of the line is skipped."""

    type: Any = None
    event: _Event | None = None
    session_id: Any = None
    parent_tool_use_id: Any = None
    timestamp: Any = None
    streamview_recv_ms: Int64 | None = None


decode_stream_event = hot_decoder(_StreamEvent)
"""A ``stream_event`` line's bytes into the fields the fast path reads."""


def fast_line(self: Any, data: bytes, line: int) -> FastRecord | None:
    """``ClaudeTranslator.fast_line``: :meth:`fast` for a line not yet decoded, a
    partial message's delta read into these structs (the ``Translator`` protocol says
    when it declines). A text delta's record is made here (most lines of a run); any
    other goes through the translator's ``_delta``."""
    if not data.startswith(b'{"type":"stream_event"'):
        return None
    try:
        hot = decode_stream_event(data)
    except HOT_DECODE_ERRORS:
        return None
    event = hot.event
    if hot.type != "stream_event" or event is None or event.type != "content_block_delta":
        return None
    delta = event.delta
    if delta is None:
        return None
    if delta.type == "text_delta" and hot.parent_tool_use_id is None:  # most lines
        text, sid, when = delta.text, hot.session_id, hot.timestamp  # _delta's, inlined
        text, sid = (
            (text if text.__class__ is str else "") or "",
            sid if sid.__class__ is str else None,
        )
        when = None if when is None else iso_ms(when)
        return ("assistant", True, text, None, sid, when, hot.streamview_recv_ms)
    other: FastRecord | None = self._delta(
        delta.type,
        delta.text,
        delta.thinking,
        hot.parent_tool_use_id,
        hot.session_id,
        hot.timestamp,
        hot.streamview_recv_ms,
    )
    return other
