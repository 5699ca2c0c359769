"""Copilot CLI's lines read from their bytes (:mod:`.copilot_fast`'s structs) for the
fold's fast path, as :meth:`CopilotTranslator.fast
<streamview.core.dialects.copilot.CopilotTranslator.fast>` reads them from the dict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

import streamview.core.dialects.copilot_tools as tools
from streamview.core.dialects.copilot_fast import (
    DELTA_STARTS,
    End,
    EndData,
    Message,
    MessageDelta,
    ReasoningDelta,
    Result,
    Start,
    StartData,
    Tokens,
    Usage,
    decode_delta_line,
    decode_hot,
    model_named,
    wide_decoder,
)
from streamview.core.dialects.droid_fast import call_input
from streamview.core.events import JSONObject
from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord
from streamview.core.fields import PAST_MS, TENS_MS, iso_ms

WIDE_AFTER = 256
"""Quiet records a run shows before its translator makes the wider decoder (about 2 ms,
what some 750 quiet records cost read the long way; a refused one costs about 1 us)."""
_NO_RESULT = Result()
"""A successful end without a ``result`` (or a ``null`` one): read as an empty one."""


class CopilotLines:
    """The Copilot translator's ``fast_line`` (the translator keeps these fields)."""

    _session: str | None
    _model: str | None
    _started: bool
    _calls: dict[str, tuple[str, JSONObject]]
    _streamed: set[str]
    _usage: JSONObject
    _decode: Callable[[bytes], Any]
    """:data:`~.copilot_fast.decode_hot`, until a line of another type comes: then its
    :func:`~.copilot_fast.wide_decoder` (a translator's own choice: each reads the
    same, the wide one more)."""
    _QUIET: frozenset[str]
    """The record types the translator reads and shows nothing of."""
    _QUIET_TYPES: frozenset[bytes]
    """:attr:`_QUIET`, encoded."""
    _quiet_seen: int
    """Quiet records the usual types' decoder refused so far."""
    raw_stamps = False
    """A delta's ``timestamp`` given unread (the str; ``--json``'s fold reads only the
    last of a run of deltas: see :func:`~streamview.core.reader._fold`)."""

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded, read from its bytes
        (:mod:`.copilot_fast`): once the model is known, a delta, a whole message, a
        tool's start or its end with a verdict (their type told by the decoder); before,
        a delta only (its model fields read too). Any other line is declined (decoded in
        full)."""
        if not self._started:
            return None
        if self._model is None:
            return self._naming_delta(data)
        try:
            hot = self._decode(data)
        except msgspec.ValidationError:  # another type, or a field of another type
            if self._decode is not decode_hot or not self._quiet(data):
                return None
            self._decode = wide_decoder(self._QUIET)  # quiet records read from now on
            try:
                hot = self._decode(data)
            except HOT_DECODE_ERRORS:
                return None
        except HOT_DECODE_ERRORS:
            return None
        stamp = hot.timestamp
        kind = hot.__class__
        if self.raw_stamps and (kind is MessageDelta or kind is ReasoningDelta):
            ts: int | str | None = stamp  # the fold reads it if it keeps it
        else:
            try:  # iso_ms's own lookups, without the call (a sixth of their cost)
                ts = TENS_MS[stamp[:18]] + PAST_MS[stamp[18:]]
            except (KeyError, TypeError):  # not in its tables (or None): iso_ms says
                ts = iso_ms(stamp) if stamp is not None else None
        if kind is MessageDelta:
            fields = hot.data
            self._streamed.add(fields.messageId or "")
            text = fields.deltaContent
            return "assistant", True, text, None, self._session, ts, hot.streamview_recv_ms
        if kind is ReasoningDelta:
            fields = hot.data
            self._streamed.add(fields.reasoningId or "")
            text = fields.deltaContent
            return "thinking", "delta", text, None, self._session, ts, hot.streamview_recv_ms
        if kind is Message:
            text = hot.data.content
            if not text:  # a message that only asks for tools
                return (
                    "thinking",
                    "completed",
                    None,
                    None,
                    self._session,
                    ts,
                    hot.streamview_recv_ms,
                )
            return "assistant", False, text, None, self._session, ts, hot.streamview_recv_ms
        if kind is Start:
            fields = self._start_line(hot.data, line)
        elif kind is not End:  # a quiet record (its usage summed)
            if kind is Usage and hot.data is not None:
                self._add_usage(hot.data)
            return "thinking", "completed", None, None, self._session, ts, hot.streamview_recv_ms
        else:
            fields = self._end_line(hot.data, line)
        if fields is None:
            return None
        subtype = "started" if kind is Start else "completed"
        return "tool_call", subtype, fields, None, self._session, ts, hot.streamview_recv_ms

    def _quiet(self, data: bytes) -> bool:
        """Whether a line the usual types' decoder refused is the run's
        :data:`WIDE_AFTER`-th quiet record (its ``type`` written first, as the CLI writes
        it): the prompt, the session's start or its result never make the wider
        decoder, nor a run with few quiet records (it would not earn its making)."""
        if not data.startswith(b'{"type":"'):
            return False
        if data[9 : data.find(b'"', 9)] not in self._QUIET_TYPES:
            return False
        self._quiet_seen += 1
        return self._quiet_seen >= WIDE_AFTER

    def _add_usage(self, tokens: Tokens) -> None:
        """Sum an ``assistant.usage``'s counts, as the translator's ``_learn`` does."""
        usage = self._usage
        for name, count in (
            ("inputTokens", tokens.inputTokens),
            ("outputTokens", tokens.outputTokens),
            ("cacheReadTokens", tokens.cacheReadTokens),
            ("cacheWriteTokens", tokens.cacheWriteTokens),
            ("reasoningTokens", tokens.reasoningTokens),
        ):
            if count is not None:
                usage[name] = usage.get(name, 0) + count

    def _start_line(self, data: StartData, line: int) -> tuple[Any, ...] | None:
        """A typed start's call fields, as :meth:`_fast_whole` makes them from the dict;
        the call is remembered once all is read."""
        try:
            arguments = call_input(data.arguments)
            name = data.toolName
            call = tools.kind_of(name or "unknown", data.mcpServerName, arguments)
            args = tools.shaped_args(call, arguments, data.mcpServerName, data.mcpToolName, name)
            described = tools.described(call, arguments)
        except Exception:  # the long way reads the record again, and says what is wrong
            return None
        call_id = data.toolCallId or f"<line {line}>"
        self._calls[call_id] = (call, args)
        parent = data.parentToolCallId
        return None, None, call_id, call, args, None, None, None, None, None, described, parent

    def _end_line(self, data: EndData, line: int) -> tuple[Any, ...] | None:
        """A typed end's call fields, as :meth:`_fast_whole` makes them from the dict;
        the call is forgotten once all is read."""
        call_id = data.toolCallId or f"<line {line}>"
        call, args = self._calls.get(call_id, ("unknown", {}))
        try:
            if data.success:
                result = data.result or _NO_RESULT
                text, detailed, contents = result.content, result.detailedContent, result.contents

                def build() -> JSONObject:
                    return tools.result_payload(
                        call, args, text, detailed, lambda: call_input(contents)
                    )

                outcome = "success"
                payload = tools.success_said(call, args, detailed, build) or build()
            else:
                outcome, payload = tools.error_outcome(call_input(data.error))
        except Exception:  # the long way reads the record again, and says what is wrong
            return None
        self._calls.pop(call_id, None)
        parent = data.parentToolCallId
        return None, None, call_id, call, None, outcome, payload, None, None, None, None, parent

    def _naming_delta(self, data: bytes) -> FastRecord | None:
        """A delta while no model is known: its model fields read too (the first model
        it names is kept)."""
        if not data.startswith(DELTA_STARTS):
            return None
        try:
            hot = decode_delta_line(data)
        except HOT_DECODE_ERRORS:
            return None
        fields = hot.data
        if fields is None or fields.deltaContent is None:
            return None
        kind = hot.type
        if kind == "assistant.message_delta":
            self._streamed.add(fields.messageId or "")
            fast_kind: str = "assistant"
            subtype: bool | str = True
        elif kind == "assistant.reasoning_delta":
            self._streamed.add(fields.reasoningId or "")
            fast_kind, subtype = "thinking", "delta"
        else:
            return None
        self._model = model_named(fields)
        stamp = hot.timestamp
        ts = stamp if self.raw_stamps or stamp is None else iso_ms(stamp)
        text = fields.deltaContent
        return fast_kind, subtype, text, None, self._session, ts, hot.streamview_recv_ms
