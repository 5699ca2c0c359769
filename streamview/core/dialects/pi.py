"""pi's ``pi --mode json "..."`` (badlogic/pi-mono, ``packages/coding-agent``).

``docs/json.md`` and ``src/modes/print-mode.ts``: the session header, then every
``AgentSessionEvent`` as a line:

- ``session``: ``version``, ``id``, ``timestamp``, ``cwd``.
- ``agent_start``, ``turn_start``, ``turn_end``, ``agent_end`` (``messages``; later
  builds add ``agent_settled``): a run's and a turn's edges.
- ``message_start``, ``message_update`` (``assistantMessageEvent``: ``text_delta``,
  ``thinking_delta``, ``toolcall_delta``...), ``message_end``: a message
  (``role`` ``user``, ``assistant`` or ``toolResult``) as it grows; an assistant's
  carries ``model``, ``provider``, ``usage`` (``input``, ``output``, ``cacheRead``,
  ``cacheWrite``, ``totalTokens``, ``cost.total``), ``stopReason`` and, when it is
  ``error`` or ``aborted``, ``errorMessage``.
- ``tool_execution_start`` (``toolCallId``, ``toolName``, ``args``),
  ``tool_execution_update``, ``tool_execution_end`` (``result``, ``isError``).
- ``auto_retry_start``/``auto_retry_end`` and ``auto_compaction_start``/
  ``auto_compaction_end``: shown as notices.

The model is known only from the first assistant message: the session header is held
until then (with the prompt before it), so the session starts with its model. The
run's outcome is the last assistant message's ``stopReason`` at ``agent_end``, with
the usage and cost of every assistant message summed.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

import streamview.core.dialects.pi_tools as tools
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.pi_fast import decode_message_update, fast_call
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
from streamview.core.fields import as_int, as_str, iso_ms
from streamview.core.parse import RECV_KEY

NAME = "pi"
_EDGES = frozenset({"agent_start", "turn_start", "turn_end", "agent_settled", "message_start"})
_USAGE = {"input": "inputTokens", "output": "outputTokens", "cacheRead": "cacheReadTokens"}
_USAGE_MORE = {"cacheWrite": "cacheWriteTokens", "totalTokens": "totalTokens"}
_OWN_TYPES = frozenset(
    {
        "agent_start",
        "agent_end",
        "turn_start",
        "message_update",
        "tool_execution_start",
        "tool_execution_update",
        "tool_execution_end",
        "auto_retry_start",
        "auto_compaction_start",
    }
)


def _text_of(content: Any, part_type: str, key: str) -> str:
    if isinstance(content, str):
        return content if part_type == "text" else ""
    return "".join(
        part[key]
        for part in (content if isinstance(content, list) else [])
        if isinstance(part, dict)
        and part.get("type") == part_type
        and isinstance(part.get(key), str)
    )


class PiTranslator:
    """One pi stream: the held header, open calls, the run's usage so far."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoder), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    def __init__(self) -> None:
        self._header: SessionStarted | None = None
        """The ``session`` record, until the first assistant message names the model."""
        self._held: list[AnyEvent] = []
        """Events of records between the header and the first assistant message."""
        self._started = False
        self._session: str | None = None
        self._calls: dict[str, tuple[str, JSONObject]] = {}
        self._usage: JSONObject = {}
        self._cost = 0.0
        self._costed = False
        self._last: JSONObject = {}
        """The last assistant message (its ``stopReason`` is the run's outcome)."""
        self._first_ms: int | None = None
        self._last_ms: int | None = None
        self._streamed_thinking = False

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one pi record stands for (see ``Translator``)."""
        kind = record.get("type")
        if not isinstance(kind, str):
            return [MalformedLine(line, self._session, None, recv_ms, reason="no 'type' field")]
        sid = self._session
        if kind == "session":
            self._session = as_str(record.get("id"))
            stamp = record.get("timestamp")
            self._header = SessionStarted(
                line,
                self._session,
                None if stamp is None else iso_ms(stamp),
                recv_ms,
                cwd=as_str(record.get("cwd")),
                agent=NAME,
                extra={"version": record.get("version")},
            )
            self._started = False
            return [ThinkingCompleted(line, self._session, None, recv_ms)]
        message = record.get("message")
        found: list[AnyEvent] | None
        if kind in ("message_update", "message_end", "message_start") and isinstance(message, dict):
            found = self._message(kind, record, message, line, sid, recv_ms)
        elif kind == "tool_execution_start":
            found = [self._started_call(record, line, sid, recv_ms)]
        elif kind == "tool_execution_end":
            found = [self._ended_call(record, line, sid, recv_ms)]
        elif kind == "agent_end":
            found = [self._outcome(line, sid, recv_ms)]
        elif kind in _EDGES or kind == "tool_execution_update" or kind == "auto_retry_end":
            found = self._edge(kind, record, line, sid, recv_ms)
        elif kind in ("auto_retry_start", "auto_compaction_start", "auto_compaction_end"):
            found = [self._notice(kind, record, line, sid, recv_ms)]
        else:
            found = [UnknownRecord(line, sid, None, recv_ms, type=kind, record=record)]
        return self._release(found, kind, message, line, recv_ms)

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A ``message_update``'s text delta or a call's start or end
        (:func:`~streamview.core.dialects.pi_fast.fast_call`), once the session has
        started."""
        if not self._started:
            return None
        kind = record.get("type")
        if kind != "message_update":
            if kind == "tool_execution_start" or kind == "tool_execution_end":
                return fast_call(self, record, kind == "tool_execution_end")
            return None
        message = record.get("message")
        update = record.get("assistantMessageEvent")
        recv = record.get(RECV_KEY)
        if (
            message.__class__ is not dict
            or update.__class__ is not dict
            or (recv is not None and recv.__class__ is not int)
        ):
            return None
        role = message.get("role")
        stamp = message.get("timestamp")
        return self._delta(role, stamp, update.get("type"), update.get("delta"), recv)

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: a ``message_update`` read into
        typed structs (the ``Translator`` protocol says when it declines)."""
        if not self._started or not data.startswith(b'{"type":"message_update"'):
            return None
        try:
            hot = decode_message_update(data)
        except HOT_DECODE_ERRORS:
            return None
        message = hot.message
        update = hot.assistantMessageEvent
        if hot.type != "message_update" or message is None or update is None:
            return None
        recv = hot.streamview_recv_ms
        return self._delta(message.role, message.timestamp, update.type, update.delta, recv)

    def _delta(
        self, role: Any, stamp: Any, kind: Any, delta: Any, recv: int | None
    ) -> FastRecord | None:
        """An assistant's text delta as :meth:`_message` reads it (the message's time
        noted), or ``None`` for anything else: a stamp of an unusual type included."""
        if (
            role != "assistant"
            or kind != "text_delta"
            or delta.__class__ is not str
            or (stamp is not None and stamp.__class__ is not int)
        ):
            return None
        if stamp is not None:
            self._first_ms = self._first_ms if self._first_ms is not None else stamp
            self._last_ms = stamp
        return "assistant", True, delta, None, self._session, None, recv

    def _release(
        self, found: list[AnyEvent], kind: str, message: Any, line: int, recv: int | None
    ) -> list[AnyEvent]:
        """Hold events until the first assistant message (or the run's end) is read."""
        if self._started or self._header is None:
            return found
        role = message.get("role") if isinstance(message, dict) else None
        if role != "assistant" and kind not in ("tool_execution_start", "agent_end"):
            self._held.extend(e for e in found if not isinstance(e, ThinkingCompleted))
            return [ThinkingCompleted(line, self._session, None, recv)]
        self._started = True
        model = as_str(message.get("model")) if isinstance(message, dict) else None
        header = self._header
        started = SessionStarted(
            line,  # every event of a line carries its number: a line is counted once
            header.session_id,
            header.timestamp_ms,
            header.recv_ms,
            model=model,
            cwd=header.cwd,
            agent=NAME,
            extra={**header.extra, "provider": message.get("provider")}
            if isinstance(message, dict) and message.get("provider")
            else header.extra,
        )
        held, self._held = self._held, []
        return [started, *(replace(event, line=line) for event in held), *found]

    def _edge(
        self, kind: str, record: JSONObject, line: int, sid: str | None, recv: int | None
    ) -> list[AnyEvent]:
        if kind == "auto_retry_end" and record.get("success") is False:
            return [self._notice(kind, record, line, sid, recv)]
        return [ThinkingCompleted(line, sid, None, recv)]

    def _notice(
        self, kind: str, record: JSONObject, line: int, sid: str | None, recv: int | None
    ) -> AnyEvent:
        retry = kind.startswith("auto_retry")
        detail = (
            as_str(record.get("errorMessage"))
            or as_str(record.get("finalError"))
            or as_str(record.get("reason"))
        )
        if kind == "auto_compaction_end":
            detail = detail or ("aborted" if record.get("aborted") is True else "done")
        return ConnectionNotice(
            line,
            sid,
            None,
            recv,
            type="retry" if retry else "compaction",
            subtype=kind.removeprefix("auto_retry_").removeprefix("auto_compaction_"),
            attempt=as_int(record.get("attempt")),
            detail=detail,
        )

    def _message(
        self,
        kind: str,
        record: JSONObject,
        message: JSONObject,
        line: int,
        sid: str | None,
        recv: int | None,
    ) -> list[AnyEvent]:
        role = message.get("role")
        stamp = as_int(message.get("timestamp"))
        if stamp is not None:
            self._first_ms = self._first_ms if self._first_ms is not None else stamp
            self._last_ms = stamp
        nothing: list[AnyEvent] = [ThinkingCompleted(line, sid, None, recv)]
        if kind == "message_update" and role == "assistant":
            return self._update(record.get("assistantMessageEvent"), line, sid, recv) or nothing
        if kind != "message_end":
            return nothing
        if role == "user":
            text = _text_of(message.get("content"), "text", "text")
            return [PromptSubmitted(line, sid, stamp, recv, text=text)]
        if role != "assistant":
            return nothing  # a toolResult: its tool_execution_end said it
        self._last = message
        self._add_usage(message.get("usage"))
        events: list[AnyEvent] = []
        thinking = _text_of(message.get("content"), "thinking", "thinking")
        if thinking and not self._streamed_thinking:
            events.append(ThinkingDelta(line, sid, stamp, recv, text=thinking))
        self._streamed_thinking = False
        text = _text_of(message.get("content"), "text", "text")
        if text:
            events.append(AssistantMessage(line, sid, stamp, recv, text=text, delta=False))
        return events or nothing

    def _update(self, update: Any, line: int, sid: str | None, recv: int | None) -> list[AnyEvent]:
        if not isinstance(update, dict):
            return []
        kind = update.get("type")
        delta = update.get("delta")
        if kind == "text_delta" and isinstance(delta, str):
            return [AssistantMessage(line, sid, None, recv, text=delta, delta=True)]
        if kind == "thinking_delta" and isinstance(delta, str):
            self._streamed_thinking = True
            return [ThinkingDelta(line, sid, None, recv, text=delta)]
        return []

    def _add_usage(self, usage: Any) -> None:
        if not isinstance(usage, dict):
            return
        for key, name in {**_USAGE, **_USAGE_MORE}.items():
            value = as_int(usage.get(key))
            if value is not None:
                self._usage[name] = self._usage.get(name, 0) + value
        cost = usage.get("cost")
        total = cost.get("total") if isinstance(cost, dict) else None
        if isinstance(total, int | float) and not isinstance(total, bool):
            self._cost += float(total)
            self._costed = True

    def _started_call(
        self, record: JSONObject, line: int, sid: str | None, recv: int | None
    ) -> AnyEvent:
        name = as_str(record.get("toolName")) or "unknown"
        call_id = as_str(record.get("toolCallId")) or f"<line {line}>"
        args = tools.args_of(name, record.get("args"))
        self._calls[call_id] = (name, args)
        return ToolCallEvent(
            line,
            sid,
            None,
            recv,
            completed=False,
            call_id=call_id,
            kind=tools.kind_of(name),
            args=args,
        )

    def _ended_call(
        self, record: JSONObject, line: int, sid: str | None, recv: int | None
    ) -> AnyEvent:
        call_id = as_str(record.get("toolCallId")) or f"<line {line}>"
        name, args = self._calls.pop(call_id, (as_str(record.get("toolName")) or "", {}))
        kind = tools.kind_of(name) if name else "unknown"
        outcome, payload = tools.outcome_of(
            kind, args, record.get("result"), record.get("isError") is True
        )
        return ToolCallEvent(
            line,
            sid,
            None,
            recv,
            completed=True,
            call_id=call_id,
            kind=kind,
            outcome=outcome,
            payload=payload,
        )

    def _outcome(self, line: int, sid: str | None, recv: int | None) -> AnyEvent:
        reason = as_str(self._last.get("stopReason")) or "stop"
        failed = reason in ("error", "aborted")
        message = as_str(self._last.get("errorMessage")) if failed else None
        text = _text_of(self._last.get("content"), "text", "text")
        first, last = self._first_ms, self._last_ms
        return RunResult(
            line,
            sid,
            None,
            recv,
            subtype=reason if failed else "success",
            is_error=failed,
            duration_ms=last - first if first is not None and last is not None else None,
            result=message if failed else text or None,
            usage=dict(self._usage) or None,
            total_cost_usd=self._cost if self._costed else None,
            message=message or (f"request {reason}" if failed else None),
        )


def detect(record: JSONObject) -> bool:
    """pi's session header (``session`` with ``version`` and ``id``) or one of its
    agent events (``agent_start``, ``message_update``, ``tool_execution_*``...)."""
    kind = record.get("type")
    if kind == "session":
        return "version" in record and "id" in record and "session_id" not in record
    if kind == "message_end":
        message = record.get("message")
        return isinstance(message, dict) and message.get("role") in (
            "assistant",
            "user",
            "toolResult",
        )
    return kind in _OWN_TYPES


DIALECT = Dialect(name=NAME, label="pi", detect=detect, translator=PiTranslator)
