"""Google Gemini CLI's ``gemini -p --output-format stream-json``.

Records (one JSON object a line, each with an ISO 8601 ``timestamp``), as
``packages/core/src/output/types.ts`` of google-gemini/gemini-cli declares them and
``packages/cli/src/nonInteractiveCli.ts`` writes them:

- ``init``: ``session_id``, ``model``.
- ``message``: ``role`` (``user``: the prompt; ``assistant``: the answer), ``content``,
  and ``delta: true`` on each fragment of the streamed answer.
- ``tool_use``: ``tool_name``, ``tool_id``, ``parameters``: a call starts.
- ``tool_result``: ``tool_id``, ``status`` (``success`` or ``error``), ``output`` (the
  tool's display text), ``error`` (``type``, ``message``): the call ends.
- ``error``: ``severity`` (``warning`` or ``error``) and ``message``: a loop detected,
  turns exhausted, an invalid stream; the run goes on to its ``result``.
- ``result``: ``status`` (``success`` or ``error``), ``error`` (``type``, ``message``)
  and ``stats`` (``total_tokens``, ``input_tokens``, ``output_tokens``, ``cached``,
  ``input``, ``duration_ms``, ``tool_calls``, ``models``).

The CLI prints lines of its own before ``init`` ("YOLO mode is enabled...", "Loaded
cached credentials."): they are not JSON and are shown as such.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

import streamview.core.dialects.gemini_tools as tools
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    JSONObject,
    MalformedLine,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord, Int64, hot_decoder
from streamview.core.fields import as_int, as_str, iso_ms

NAME = "gemini"
_INIT_KEYS = frozenset({"type", "timestamp", "session_id", "model"})
_STATS_KEYS = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "cached": "cacheReadTokens",
    "total_tokens": "totalTokens",
    "input": "uncachedInputTokens",
    "tool_calls": "toolCalls",
}
"""``stats`` keys and the ``usage`` keys the header and ``--json`` read (Cursor's)."""
_RESULT_STATUSES = frozenset({"success", "error"})


def usage_of(stats: Any) -> JSONObject | None:
    """A ``result``'s ``stats`` as a ``usage`` object (Cursor's key names), or ``None``."""
    if not isinstance(stats, dict):
        return None
    usage: JSONObject = {}
    for key, name in _STATS_KEYS.items():
        value = as_int(stats.get(key))
        if value is not None:
            usage[name] = value
    if isinstance(stats.get("models"), dict):
        usage["models"] = stats["models"]
    return usage or None


class _Message(msgspec.Struct, gc=False):
    """An assistant's ``message`` record: the fields :meth:`GeminiTranslator.fast`
    reads, typed as it checks them, so that the decoder refuses what it would decline
    (another record or role, a content that is no string: those go the usual way); the
    rest of the line is skipped."""

    type: Literal["message"]
    role: Literal["assistant"]
    content: str
    delta: Any = None
    timestamp: Any = None
    streamview_recv_ms: Int64 | None = None


_decode_message = hot_decoder(_Message)


class GeminiTranslator:
    """One Gemini CLI stream, remembering each open call's tool and arguments."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoder), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    REPEATED_RESULT = "replace"  # see streamview.core.repeated_results

    def __init__(self) -> None:
        self._calls: dict[str, tuple[str, JSONObject]] = {}
        """Call id to its tool name and arguments (the result names neither)."""
        self._session: str | None = None
        """The ``init``'s session id: later records do not repeat it."""
        self._stamp: str | None = None
        self._stamp_ms: int | None = None
        """The last ``timestamp`` :meth:`fast_line` read, and its time (a run's deltas
        come in bursts stamped alike; ``None``: no time, as for a record without one)."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Gemini CLI record stands for (see ``Translator``)."""
        kind = record.get("type")
        stamp = record.get("timestamp")
        ts = None if stamp is None else iso_ms(stamp)
        if not isinstance(kind, str):
            return [
                MalformedLine(
                    line,
                    self._session,
                    None,
                    recv_ms,
                    reason="no 'type' field" if kind is None else "'type' is not a string",
                )
            ]
        events: list[AnyEvent] | None = None
        if kind == "message":
            events = self._message(record, line, ts, recv_ms)
        elif kind == "tool_use":
            events = [self._started(record, line, ts, recv_ms)]
        elif kind == "tool_result":
            events = [self._completed(record, line, ts, recv_ms)]
        elif kind == "init":
            events = [self._init(record, line, ts, recv_ms)]
        elif kind == "result":
            events = [self._result(record, line, ts, recv_ms)]
        elif kind == "error":
            events = self._error(record, line, ts, recv_ms)
        if not events:
            return [UnknownRecord(line, self._session, ts, recv_ms, type=kind, record=record)]
        return events

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """An assistant message (most of a run: its deltas), a call's start or its
        successful end for the fold's fast path."""
        kind = record.get("type")
        if kind != "message":
            if kind == "tool_use" or kind == "tool_result":
                return self._fast_tool(record, line, kind)
            return None
        if record.get("role") != "assistant":
            return None
        content = record.get("content")
        recv = record.get(RECV_KEY)
        if content.__class__ is not str or (recv is not None and recv.__class__ is not int):
            return None
        return self._assistant(content, record.get("delta"), record.get("timestamp"), recv)

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: an assistant message read into a
        typed struct (the ``Translator`` protocol says when it declines)."""
        if not data.startswith(b'{"type":"message"'):
            return None
        try:
            hot = _decode_message(data)
        except HOT_DECODE_ERRORS:
            return None
        # _assistant's body, inlined: this runs on 95 lines in 100 of a Gemini run.
        stamp = hot.timestamp
        if stamp == self._stamp:  # the stamp of the line before (a string, or None)
            ts = self._stamp_ms
        else:
            ts = iso_ms(stamp)
            if stamp.__class__ is str:
                self._stamp, self._stamp_ms = stamp, ts
        return (
            "assistant",
            hot.delta is True,
            hot.content,
            None,
            self._session,
            ts,
            hot.streamview_recv_ms,
        )

    def _fast_tool(self, record: JSONObject, line: int, kind: str) -> FastRecord | None:
        """A ``tool_use``, or a ``tool_result`` of status ``success``, as :meth:`translate`
        reads it, without its event: the fields :meth:`_started` and :meth:`_completed`
        give their :class:`ToolCallEvent` (a twentieth of a run's lines, a third of its
        fold the long way). Anything that raises goes the long way, which says so: the
        translator is changed only once the record is read."""
        recv = record.get(RECV_KEY)
        if recv is not None and recv.__class__ is not int:
            return None
        stamp = record.get("timestamp")
        try:
            ts = None if stamp is None else iso_ms(stamp)
            if kind == "tool_use":
                name = as_str(record.get("tool_name")) or "unknown"
                call_id = as_str(record.get("tool_id")) or f"<line {line}>"
                parameters = record.get("parameters")
                args = tools.args_of(name, parameters)
                description = tools.description_of(name, parameters)
                self._calls[call_id] = (name, args)
                started = (None, None, call_id, tools.kind_of(name), args, None, None, None)
                return (
                    "tool_call",
                    "started",
                    (*started, None, None, description, None),
                    None,
                    self._session,
                    ts,
                    recv,
                )
            if record.get("status") != "success" or isinstance(record.get("error"), dict):
                return None
            call_id = as_str(record.get("tool_id")) or f"<line {line}>"
            name, args = self._calls.get(call_id, ("", {}))
            kind = tools.kind_of(name) if name else "unknown"
            output = as_str(record.get("output")) or ""
            payload = tools.success_said(kind, args, output) or tools.success_payload(
                kind, args, output
            )
        except Exception:  # the long way says what is wrong with it
            return None
        self._calls.pop(call_id, None)
        fields = (None, None, call_id, kind, None, "success", payload, None)
        return (
            "tool_call",
            "completed",
            (*fields, None, None, None, None),
            None,
            self._session,
            ts,
            recv,
        )

    def _assistant(self, content: str, delta: Any, stamp: Any, recv: int | None) -> FastRecord:
        ts = None if stamp is None else iso_ms(stamp)
        return "assistant", delta is True, content, None, self._session, ts, recv

    def _init(self, record: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        self._session = as_str(record.get("session_id"))
        return SessionStarted(
            line,
            self._session,
            ts,
            recv,
            model=as_str(record.get("model")),
            agent=NAME,
            extra={k: v for k, v in record.items() if k not in _INIT_KEYS},
        )

    def _message(
        self, record: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        content = record.get("content")
        if not isinstance(content, str):
            return None
        role = record.get("role")
        if role == "user":
            return [PromptSubmitted(line, self._session, ts, recv, text=content)]
        if role == "assistant":
            delta = record.get("delta") is True
            return [AssistantMessage(line, self._session, ts, recv, text=content, delta=delta)]
        return None

    def _started(self, record: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        name = as_str(record.get("tool_name")) or "unknown"
        call_id = as_str(record.get("tool_id")) or f"<line {line}>"
        parameters = record.get("parameters")
        args = tools.args_of(name, parameters)
        self._calls[call_id] = (name, args)
        return ToolCallEvent(
            line,
            self._session,
            ts,
            recv,
            completed=False,
            call_id=call_id,
            kind=tools.kind_of(name),
            args=args,
            description=tools.description_of(name, parameters),
        )

    def _completed(
        self, record: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> AnyEvent:
        call_id = as_str(record.get("tool_id")) or f"<line {line}>"
        name, args = self._calls.pop(call_id, ("", {}))
        kind = tools.kind_of(name) if name else "unknown"
        output = as_str(record.get("output"))
        status = record.get("status")
        outcome: str
        payload: Any
        if status == "error" or isinstance(record.get("error"), dict):
            outcome, payload = tools.error_outcome(record.get("error"), output)
        elif status == "success":
            outcome, payload = "success", tools.success_payload(kind, args, output or "")
        else:  # a status this reader does not know: kept as it came
            outcome = str(status) if status is not None else "completed"
            payload = {k: v for k, v in record.items() if k not in ("type", "timestamp")}
        return ToolCallEvent(
            line,
            self._session,
            ts,
            recv,
            completed=True,
            call_id=call_id,
            kind=kind,
            outcome=outcome,
            payload=payload,
        )

    def _error(
        self, record: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        message = as_str(record.get("message"))
        if message is None:
            return None
        return [
            ConnectionNotice(
                line,
                self._session,
                ts,
                recv,
                type="error",
                subtype=as_str(record.get("severity")) or "error",
                detail=message,
            )
        ]

    def _result(self, record: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        status = as_str(record.get("status")) or "success"
        error = record.get("error")
        info: JSONObject = error if isinstance(error, dict) else {}
        message = as_str(info.get("message"))
        stats = record.get("stats")
        duration = as_int(stats.get("duration_ms")) if isinstance(stats, dict) else None
        is_error = status != "success" or message is not None
        if is_error:  # the error's own type names the outcome (FatalTurnLimitedError...)
            subtype = as_str(info.get("type")) or (
                "error" if status in _RESULT_STATUSES else f"status {status}"
            )
        else:
            subtype = status
        return RunResult(
            line,
            self._session,
            ts,
            recv,
            subtype=subtype,
            is_error=is_error,
            # The CLI reports 0 when it stops on an error: no duration is known.
            duration_ms=duration if duration or not is_error else None,
            usage=usage_of(stats),
            # Gemini has no final text in its result; an error's message is what it says
            # (as Claude Code's errors say theirs in ``result``).
            result=message if is_error else None,
            message=message,
        )


def detect(record: JSONObject) -> bool:
    """Gemini CLI's ``init``, ``message``, ``tool_use``, ``tool_result`` or ``result``.

    Cursor's and Claude Code's records are ``system``, ``user``, ``assistant``,
    ``tool_call``, ``result``...: none of them is an ``init``, a ``message`` with a
    ``role`` beside its ``content``, a ``tool_use`` or ``tool_result`` record with a
    ``tool_id``. A ``result`` is Gemini's when it has a ``status`` and no ``subtype``
    (Cursor's and Claude Code's always say ``subtype``).
    """
    kind = record.get("type")
    if kind == "init":
        return "session_id" in record and "subtype" not in record
    if kind == "message":
        return isinstance(record.get("role"), str) and isinstance(record.get("content"), str)
    if kind in ("tool_use", "tool_result"):
        return isinstance(record.get("tool_id"), str)
    if kind == "result":
        return isinstance(record.get("status"), str) and "subtype" not in record
    return False


DIALECT = Dialect(name=NAME, label="Gemini CLI", detect=detect, translator=GeminiTranslator)
