"""Goose's ``goose run --output-format stream-json``.

Records (one JSON object a line), the ``StreamEvent`` enum of
``crates/goose-cli/src/session/mod.rs`` (block/goose), tagged by a snake_case ``type``:

- ``message``: ``message`` is a Goose ``Message`` (``crates/goose/src/conversation/
  message.rs``: ``id``, ``role``, ``created`` in epoch seconds, ``content``,
  ``metadata``, whose ``inference.requestedModel`` names the model in newer builds).
  Its ``content`` items, camelCase: ``text`` (the answer, a chunk at a time),
  ``thinking``, ``toolRequest`` (``id``, ``toolCall``), ``toolResponse`` (``id``,
  ``toolResult``), ``actionRequired``, ``systemNotification``.
- ``notification``: an extension's log line (``extension_id``, ``message``) or
  progress (``progress``, ``total``), flattened into the record.
- ``error``: ``error`` (a string).
- ``complete``: the run's ``total_tokens``, ``input_tokens``, ``output_tokens``,
  ``cache_read_input_tokens``, ``cache_write_input_tokens``, ``cost_usd`` (newer
  builds; older ones only ``total_tokens``).

There is no session id and no working directory in the stream.
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.goose_tools as tools
import streamview.core.dialects.shapes as shapes
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.goose_fast import decode_chunk, fast_request, fast_response
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    JSONObject,
    MalformedLine,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord
from streamview.core.fields import as_int, as_str

NAME = "goose"
_TYPES = frozenset({"message", "notification", "error", "complete"})
_USAGE = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "cache_read_input_tokens": "cacheReadTokens",
    "cache_write_input_tokens": "cacheWriteTokens",
    "total_tokens": "totalTokens",
}


class GooseTranslator:
    """One Goose stream: the model, the open calls, the run's first moment."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoder), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    def __init__(self) -> None:
        self._started = False
        self._first_ms: int | None = None
        """The first message's ``created``: the run's duration is counted from it."""
        self._last_ms: int | None = None
        self._calls: dict[str, tuple[str, JSONObject]] = {}
        """Call id to its kind and arguments (the response names neither)."""
        self._error: str | None = None

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Goose record stands for (see ``Translator``)."""
        kind = record.get("type")
        if not isinstance(kind, str):
            reason = "no 'type' field" if kind is None else "'type' is not a string"
            return [MalformedLine(line, None, None, recv_ms, reason=reason)]
        message = shapes.obj(record.get("message"))
        created = as_int(message.get("created"))
        ts = created * 1000 if created is not None and kind == "message" else None
        if ts is not None:
            self._first_ms = self._first_ms if self._first_ms is not None else ts
            self._last_ms = ts
        events: list[AnyEvent] = []
        if not self._started and kind in _TYPES:
            self._started = True
            inference = shapes.obj(shapes.obj(message.get("metadata")).get("inference"))
            model = as_str(inference.get("requestedModel")) or as_str(inference.get("model"))
            events.append(SessionStarted(line, None, ts, recv_ms, model=model, agent=NAME))
        found: list[AnyEvent] | None = None
        if kind == "message" and isinstance(message.get("content"), list):
            found = self._message(message, line, ts, recv_ms)
        elif kind == "notification":
            found = self._notification(record, line, recv_ms)
        elif kind == "error":
            self._error = as_str(record.get("error")) or "error"
            found = [
                ConnectionNotice(
                    line, None, None, recv_ms, type="error", subtype="error", detail=self._error
                )
            ]
        elif kind == "complete":
            found = [self._complete(record, line, recv_ms)]
        if not found:
            found = [UnknownRecord(line, None, ts, recv_ms, type=kind, record=record)]
        return events + found

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A message holding one streamed chunk of the answer or of thinking (most of
        a Goose run) for the fold's fast path, once the session started; as
        :meth:`translate` reads it. Any field of an unusual type goes the long way."""
        if not self._started or record.get("type") != "message":
            return None
        message = record.get("message")
        if message.__class__ is not dict:
            return None
        content = message.get("content")
        if content.__class__ is not list or len(content) != 1:
            return None
        item = content[0]
        recv = record.get(RECV_KEY)
        if item.__class__ is not dict or (recv is not None and recv.__class__ is not int):
            return None
        kind = item.get("type")
        if kind == "toolRequest" or kind == "toolResponse":
            created = message.get("created")
            if created is not None and created.__class__ is not int:
                return None
            ts = None if created is None else created * 1000
            take = fast_request if kind == "toolRequest" else fast_response
            call = take(self._calls, item, ts, recv)
            if call is not None and ts is not None:
                self._first_ms = self._first_ms if self._first_ms is not None else ts
                self._last_ms = ts
            return call
        return self._chunk(
            message.get("role"),
            message.get("created"),
            item.get("type"),
            item.get("text"),
            item.get("thinking"),
            recv,
        )

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: a ``message`` read into typed
        structs (the ``Translator`` protocol says when it declines)."""
        if not self._started or not data.startswith(b'{"type":"message"'):
            return None
        try:
            hot = decode_chunk(data)
        except HOT_DECODE_ERRORS:
            return None
        message = hot.message
        if hot.type != "message" or message is None:
            return None
        content = message.content
        if content is None or len(content) != 1:
            return None
        item = content[0]
        # _chunk's body, inlined: this runs on 97 lines in 100 of a Goose run.
        created = message.created
        if created is not None and created.__class__ is not int:
            return None
        kind = item.type
        subtype: bool | str
        if kind == "text" and message.role != "user":
            kind, subtype, text = "assistant", True, item.text
        elif kind == "thinking":
            kind, subtype, text = "thinking", "delta", item.thinking
        else:
            return None
        if text.__class__ is not str:
            return None
        if created is None:
            return kind, subtype, text, None, None, None, hot.streamview_recv_ms
        ts = created * 1000
        if self._first_ms is None:
            self._first_ms = ts
        self._last_ms = ts
        return kind, subtype, text, None, None, ts, hot.streamview_recv_ms

    def _chunk(
        self, role: Any, created: Any, kind: Any, said: Any, thought: Any, recv: int | None
    ) -> FastRecord | None:
        """A chunk's fast record, from its fields (as :meth:`_message` reads them; the
        message's time noted), or ``None`` for anything else."""
        if created is not None and created.__class__ is not int:
            return None
        subtype: bool | str
        if kind == "text" and role != "user":
            kind, subtype, text = "assistant", True, said
        elif kind == "thinking":
            kind, subtype, text = "thinking", "delta", thought
        else:
            return None
        if text.__class__ is not str:
            return None
        ts = created * 1000 if created is not None else None
        if ts is not None:
            self._first_ms = self._first_ms if self._first_ms is not None else ts
            self._last_ms = ts
        return kind, subtype, text, None, None, ts, recv

    def _message(
        self, message: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        role = message.get("role")
        events: list[AnyEvent] = []
        for item in message["content"]:
            if not isinstance(item, dict):
                continue
            kind = item.get("type")
            if kind == "text" and isinstance(item.get("text"), str):
                if role == "user":
                    events.append(PromptSubmitted(line, None, ts, recv, text=item["text"]))
                else:  # streamed a chunk a message
                    events.append(
                        AssistantMessage(line, None, ts, recv, text=item["text"], delta=True)
                    )
            elif kind == "thinking" and isinstance(item.get("thinking"), str):
                events.append(ThinkingDelta(line, None, ts, recv, text=item["thinking"]))
            elif kind == "toolRequest":
                events.append(self._request(item, line, ts, recv))
            elif kind == "toolResponse":
                events.append(self._response(item, line, ts, recv))
            elif kind == "systemNotification":
                detail = as_str(item.get("msg")) or as_str(item.get("message"))
                subtype = as_str(item.get("notificationType")) or "notice"
                events.append(
                    ConnectionNotice(
                        line, None, ts, recv, type="notice", subtype=subtype, detail=detail
                    )
                )
            elif kind in ("redactedThinking", "actionRequired", "toolConfirmationRequest"):
                events.append(ThinkingCompleted(line, None, ts, recv))
        return events

    def _request(self, item: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        call_id = as_str(item.get("id")) or f"<line {line}>"
        call = shapes.obj(item.get("toolCall"))
        value = shapes.obj(call.get("value")) if "value" in call else call
        name = as_str(value.get("name")) or "unknown"
        kind = tools.kind_of(name, value.get("arguments"))
        args = tools.args_of(name, kind, value.get("arguments"))
        self._calls[call_id] = (kind, args)
        event = ToolCallEvent(line, None, ts, recv, call_id=call_id, kind=kind, args=args)
        if call.get("status") == "error":  # the model asked for a tool that cannot run
            self._calls.pop(call_id)
            outcome, payload = tools.error_outcome(as_str(call.get("error")) or "invalid call")
            return ToolCallEvent(
                line,
                None,
                ts,
                recv,
                completed=True,
                call_id=call_id,
                kind=kind,
                args=args,
                outcome=outcome,
                payload=payload,
            )
        return event

    def _response(self, item: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        call_id = as_str(item.get("id")) or f"<line {line}>"
        kind, args = self._calls.pop(call_id, ("unknown", {}))
        result = shapes.obj(item.get("toolResult"))
        status = result.get("status")
        if status == "error":
            outcome, payload = tools.error_outcome(as_str(result.get("error")) or "error")
        elif status == "success" or "value" in result:
            outcome, payload = tools.success_payload(kind, args, result.get("value"))
        else:  # no status: kept as it came
            outcome, payload = "completed", result
        return ToolCallEvent(
            line,
            None,
            ts,
            recv,
            completed=True,
            call_id=call_id,
            kind=kind,
            outcome=outcome,
            payload=payload,
        )

    def _notification(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        if "progress" in record:  # a progress bar's tick: nothing to keep
            return [ThinkingCompleted(line, None, None, recv)]
        detail = as_str(record.get("message")) or as_str(record.get("log"))
        if detail is None:
            return []
        source = as_str(record.get("extension_id")) or "extension"
        return [
            ConnectionNotice(
                line, None, None, recv, type="notification", subtype=source, detail=detail
            )
        ]

    def _complete(self, record: JSONObject, line: int, recv: int | None) -> AnyEvent:
        usage: JSONObject = {}
        for key, name in _USAGE.items():
            count = as_int(record.get(key))
            if count is not None:
                usage[name] = count
        cost = record.get("cost_usd")
        money = (
            float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) else None
        )
        duration = None
        if self._first_ms is not None and self._last_ms is not None:
            # Seconds apart at best (``created``): none rather than a false "0ms".
            duration = (self._last_ms - self._first_ms) or None
        is_error = self._error is not None
        return RunResult(
            line,
            None,
            None,
            recv,
            subtype="error" if is_error else "success",
            is_error=is_error,
            duration_ms=duration,
            usage=usage or None,
            total_cost_usd=money,
            result=self._error,
            message=self._error,
        )


def detect(record: JSONObject) -> bool:
    """A Goose record: a ``message`` whose ``message`` is an object with a ``content``
    list, a ``complete`` with ``total_tokens``, or a ``notification`` with an
    ``extension_id``. Gemini CLI's ``message`` has ``role`` and ``content`` at the top."""
    kind = record.get("type")
    if kind == "message":
        message = record.get("message")
        return isinstance(message, dict) and isinstance(message.get("content"), list)
    if kind == "complete":
        return "total_tokens" in record
    if kind == "notification":
        return isinstance(record.get("extension_id"), str)
    return False


DIALECT = Dialect(name=NAME, label="Goose", detect=detect, translator=GooseTranslator)
