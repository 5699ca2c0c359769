"""The typed decoder of Claude Code's hot lines: the partial messages' deltas.

With ``--include-partial-messages`` most of a run is ``stream_event`` lines holding a
``content_block_delta``. :meth:`ClaudeTranslator.fast_line
<streamview.core.dialects.claude.ClaudeTranslator.fast_line>` decodes such a line into
these structs, reading only what the fold needs and skipping the rest in C.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

import streamview.core.dialects.claude_tools as tools
from streamview.core.decoding import RECV_KEY
from streamview.core.events import JSONObject
from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord, Int64, hot_decoder
from streamview.core.fields import as_str, iso_ms

_NO_CALL: tuple[str, JSONObject] = ("", {})
"""A result's call not seen started: no name, no arguments (never changed)."""


class _Delta(msgspec.Struct, gc=False):
    type: Any = None
    text: str = ""
    thinking: Any = None


class _Event(msgspec.Struct, gc=False):
    type: Literal["content_block_delta"]
    delta: _Delta


class _StreamEvent(msgspec.Struct, gc=False):
    """A ``stream_event`` record holding a ``content_block_delta``: the fields
    :meth:`ClaudeTranslator.fast` reads, typed as it checks them, so that the decoder
    refuses what it would decline (another event, a delta that is no object, a text or
    session id that is no string: those go the usual way); the rest of the line is
    skipped."""

    type: Literal["stream_event"]
    event: _Event
    session_id: str | None = None
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
    delta = hot.event.delta
    if delta.type == "text_delta" and hot.parent_tool_use_id is None:  # most lines
        when = hot.timestamp  # _delta's, inlined: its checks are the struct's types
        return (
            "assistant",
            True,
            delta.text,
            None,
            hot.session_id,
            None if when is None else iso_ms(when),
            hot.streamview_recv_ms,
        )
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


def fast_message(self: Any, record: JSONObject, line: int) -> FastRecord | None:
    """``ClaudeTranslator.fast`` of an ``assistant`` record of one text or one
    ``tool_use`` block (two records in three of a tool-heavy run's complete ones), as
    :meth:`~ClaudeTranslator.translate` reads it, without its event. A subagent's
    text, a model not yet named, thinking, several blocks go the long way."""
    message: Any = record.get("message")
    content = message.get("content") if message.__class__ is dict else None
    if content.__class__ is not list or len(content) != 1:
        return None
    block = content[0]
    recv = record.get(RECV_KEY)
    if block.__class__ is not dict or (recv is not None and recv.__class__ is not int):
        return None
    parent = as_str(record.get("parent_tool_use_id"))
    if parent is None and self.names_model(message):
        return None  # the session's model, named here: an event of its own
    sid = record.get("session_id")
    if sid.__class__ is not str:
        sid = None
    stamp = record.get("timestamp")
    block_type = block.get("type")
    if block_type == "text" and parent is None:
        text = block.get("text")
        if text.__class__ is not str:
            return None
        return "assistant", False, text, None, sid, None if stamp is None else iso_ms(stamp), recv
    call_id = block.get("id")
    if block_type != "tool_use" or call_id.__class__ is not str or not call_id:
        return None
    ts = None if stamp is None else iso_ms(stamp)
    name, call_id, args = self.start_call(block, line, sid, recv, parent)
    kind = tools.kind_of(name)
    description = tools.description_of(name, block.get("input"))
    fields = (None, None, call_id, kind, args, None, None, None, None, None, description, parent)
    return "tool_call", "started", fields, None, sid, ts, recv


def one_result(record: JSONObject) -> tuple[JSONObject, str, int | None] | None:
    """The block, call id and arrival time of a ``user`` record that is one successful
    ``tool_result`` and nothing else, as Claude Code's and Qwen Code's fast paths take
    it; ``None`` for anything else (an error, a prompt, several blocks, an odd type)."""
    message = record.get("message")
    content = message.get("content") if message.__class__ is dict else None
    if content.__class__ is not list or len(content) != 1:
        return None
    block = content[0]
    if block.__class__ is not dict or block.get("type") != "tool_result":
        return None
    call_id = block.get("tool_use_id")
    recv = record.get(RECV_KEY)
    if (
        block.get("is_error") is True
        or call_id.__class__ is not str
        or not call_id
        or (recv is not None and recv.__class__ is not int)
    ):
        return None
    return block, call_id, recv


def fast_result(self: Any, record: JSONObject, line: int) -> FastRecord | None:
    """``ClaudeTranslator.fast`` of a ``user`` record of one successful
    ``tool_result`` (a third of a tool-heavy run's complete records), as
    :meth:`~ClaudeTranslator.translate` reads it, without its event. An error, a
    prompt, several blocks go the long way, and so does a result whose payload cannot
    be read (the long way says so): the translator forgets the call only once its
    payload is made."""
    taken = one_result(record)
    if taken is None:
        return None
    block, call_id, recv = taken
    calls = self._calls
    name, args = calls.get(call_id, _NO_CALL)
    kind = tools.kind_of(name) if name else "unknown"
    try:
        text = tools.result_text(block.get("content"))
        structured = record.get("tool_use_result")
        payload = tools.success_said(kind, args, text, structured) or tools.success_payload(
            kind, args, text, structured
        )
        stamp = record.get("timestamp")
        ts = None if stamp is None else iso_ms(stamp)
    except Exception:  # the long way reads it again, and says what is wrong with it
        return None
    calls.pop(call_id, None)
    sid = record.get("session_id")
    if sid.__class__ is not str:
        sid = None
    parent = as_str(record.get("parent_tool_use_id"))
    fields = (None, None, call_id, kind, None, "success", payload, None, None, None, None, parent)
    return "tool_call", "completed", fields, None, sid, ts, recv
