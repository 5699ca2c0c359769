"""Factory's ``droid exec --output-format stream-json``.

Droid is closed source; its records are those of the ``droid exec`` docs
(docs.factory.ai ``cli/droid-exec/overview``) and of the harnesses that drive it,
checked against droid 0.105.1 and 0.116.0 (see tests/fixtures/dialects/droid/
SOURCES.md). Every record but ``error`` carries ``session_id``; most carry a
``timestamp`` in epoch milliseconds.

- ``system/init``: ``cwd``, ``session_id``, ``tools``, ``model``, ``reasoning_effort``.
- ``message``: ``role`` (``user``: the prompt; ``assistant``: a complete answer
  segment), ``id``, ``text``.
- ``reasoning``: ``id``, ``text``: the model's thinking (a repeat of the same ``id``
  restates it).
- ``tool_call``: ``id``, ``messageId``, ``toolId``, ``toolName``, ``parameters``.
- ``tool_result``: ``id`` (missing in some builds: the oldest open call is meant),
  ``toolId``, ``isError``, ``value`` or ``error`` (``type``, ``message``).
- ``error``: ``source`` (``agent_loop``, ``cli``), ``message``: shown as a notice.
- ``completion``: ``finalText``, ``numTurns``, ``durationMs``, ``usage``
  (``input_tokens``, ``output_tokens``, ``cache_read_input_tokens``,
  ``cache_creation_input_tokens``, ``thinking_tokens``): the run's end.
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.droid_tools as tools
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude_like import usage_of
from streamview.core.dialects.droid_fast import Answer, Call, Result, decode_hot
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
from streamview.core.fast_path import HOT_DECODE_ERRORS, ONE_TARGET_ARG, FastRecord
from streamview.core.fields import as_int, as_str

NAME = "droid"
_INIT_KEYS = frozenset({"type", "subtype", "session_id", "model", "cwd"})
_OWN_TYPES = frozenset({"tool_call", "tool_result", "completion", "reasoning", "message"})


class DroidTranslator:
    """One ``droid exec`` stream, remembering each open call's tool and arguments."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoders), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    def __init__(self) -> None:
        self._calls: dict[str, tuple[str, JSONObject, str]] = {}
        """Open calls by id, in the order they started: the tool's name, the call's
        arguments and its kind."""
        self._session: str | None = None
        self._thought: tuple[str | None, str] = (None, "")
        """The last ``reasoning`` record's id and text (a repeat restates it)."""
        self._thinking = False
        """Reasoning was the last thing read: the next other record closes it."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Droid record stands for (see ``Translator``)."""
        kind = record.get("type")
        if not isinstance(kind, str):
            return [MalformedLine(line, self._session, None, recv_ms, reason="no 'type' field")]
        sid = as_str(record.get("session_id")) or self._session
        ts = as_int(record.get("timestamp"))
        if kind != "reasoning" and self._thinking:
            self._thinking = False
            return [
                ThinkingCompleted(line, sid, ts, recv_ms),
                *self.translate(record, line, recv_ms),
            ]
        events: list[AnyEvent] | None = None
        if kind == "message":
            events = self._message(record, line, sid, ts, recv_ms)
        elif kind == "reasoning":
            events = self._reasoning(record, line, sid, ts, recv_ms)
        elif kind == "tool_call":
            events = [self._started(record, line, sid, ts, recv_ms)]
        elif kind == "tool_result":
            events = [self._completed(record, line, sid, ts, recv_ms)]
        elif kind == "system" and record.get("subtype") == "init":
            self._session = sid
            events = [
                SessionStarted(
                    line,
                    sid,
                    ts,
                    recv_ms,
                    model=as_str(record.get("model")),
                    cwd=as_str(record.get("cwd")),
                    agent=NAME,
                    extra={k: v for k, v in record.items() if k not in _INIT_KEYS},
                )
            ]
        elif kind == "completion":
            events = [self._completion(record, line, sid, ts, recv_ms)]
        elif kind == "error" and as_str(record.get("message")):
            events = [
                ConnectionNotice(
                    line,
                    sid,
                    ts,
                    recv_ms,
                    type="error",
                    subtype=as_str(record.get("source")) or "error",
                    detail=as_str(record.get("message")),
                )
            ]
        if not events:
            subtype = as_str(record.get("subtype"))
            return [
                UnknownRecord(line, sid, ts, recv_ms, type=kind, subtype=subtype, record=record)
            ]
        return events

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """An answer, a call's start or its result (all of a Droid run but its first
        and last records) for the fold's fast path, as :meth:`translate` reads them;
        the call's fields go to the state without an event. Any field of an unusual
        type, a record after reasoning, or a result that cannot be read, goes the
        long way."""
        kind = record.get("type")
        if kind != "tool_call" and kind != "tool_result" and kind != "message":
            return None
        given = record.get("session_id")
        ts = record.get("timestamp")
        recv = record.get(RECV_KEY)
        if (
            self._thinking
            or (given is not None and given.__class__ is not str)
            or (ts is not None and ts.__class__ is not int)
            or (recv is not None and recv.__class__ is not int)
        ):
            return None
        sid = given or self._session
        if kind == "message":
            text = record.get("text")
            if text.__class__ is not str or record.get("role") != "assistant":
                return None
            return "assistant", False, text, None, sid, ts, recv
        if kind == "tool_call":
            return self._fast_call(
                record.get("toolName"),
                record.get("toolId"),
                record.get("id"),
                record.get("parameters"),
                record.get("messageId"),
                line,
                sid,
                ts,
                recv,
            )
        return self._fast_result(
            record.get("id"),
            record.get("toolId"),
            record.get("isError"),
            record.get("error"),
            record.get("value"),
            line,
            sid,
            ts,
            recv,
        )

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: an answer, a call's start or its
        plain result read into :mod:`.droid_fast`'s structs by its type; any other line,
        and one whose fields :meth:`fast` would not read the same, is declined (decoded
        in full)."""
        if self._thinking:
            return None
        try:
            hot = decode_hot(data)
        except HOT_DECODE_ERRORS:
            return None
        kind = hot.__class__
        if kind is Result:  # a plain result naming an open call, in this body (most)
            call_id = hot.id
            value = hot.value
            open_call = self._calls.get(call_id)
            if open_call is None or value is None or hot.is_error is True or hot.error:
                return self._result_line(hot, line)
            name, args, kind_name = open_call
            try:
                payload = tools.plain_result(name, kind_name, args, value)
            except Exception:
                return None  # the long way reads the record again
            del self._calls[call_id]
            ts = hot.timestamp
            # fmt: off
            ended = (
                None, None, call_id, kind_name, None, "success", payload, None, None, ts, None,
                None,
            )
            # fmt: on
            sid = hot.session_id or self._session
            return "tool_call", "completed", ended, None, sid, ts, hot.streamview_recv_ms
        if kind is Answer:
            text = hot.text
            if text is None or hot.role != "assistant":
                return None
            sid = hot.session_id or self._session
            return "assistant", False, text, None, sid, hot.timestamp, hot.streamview_recv_ms
        if kind is Call:
            sid = hot.session_id or self._session
            ts = hot.timestamp
            try:
                parameters = hot.parameters
                name = hot.tool_name or hot.tool_id or "unknown"
                call_id = hot.id or f"<line {line}>"
                # its parameters are this line's own: the usual calls' arguments, not a copy
                kind_name, args, described = tools.call_shape(name, parameters, True)
            except Exception:  # the long way reads the record again, and says what is wrong
                return None
            self._calls[call_id] = (name, args, kind_name)
            model_call_id = hot.message_id
            key = ONE_TARGET_ARG.get(kind_name)
            if key is None:  # the fold works the target out
                # fmt: off
                started: tuple[Any, ...] = (
                    None, None, call_id, kind_name, args, None, None, model_call_id, ts, None,
                    described, None,
                )
                # fmt: on
            else:  # and hands it over, as ``tools.target_of`` finds it: one string argument
                target = args.get(key)
                # fmt: off
                started = (
                    None, None, call_id, kind_name, args, None, None, model_call_id, ts, None,
                    described, None, target if target.__class__ is str and target else None,
                )
                # fmt: on
            return "tool_call", "started", started, None, sid, ts, hot.streamview_recv_ms
        return None  # a thought: the long way

    def _result_line(self, hot: Result, line: int) -> FastRecord | None:
        """:meth:`fast_line` of a ``tool_result`` its body does not take, as :meth:`fast`
        reads it: one answering the oldest open call (no id, or one no open call has),
        an error without an ``error`` object, a ``value`` of null; one with an ``error``
        object is declined (read from the dict)."""
        if hot.error:
            return None
        sid = hot.session_id or self._session
        ts, recv = hot.timestamp, hot.streamview_recv_ms
        return self._fast_result(
            hot.id, hot.tool_id, hot.is_error, None, hot.value, line, sid, ts, recv
        )

    def _fast_call(
        self,
        tool_name: Any,
        tool_id: Any,
        given_id: Any,
        parameters: Any,
        message_id: Any,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
    ) -> FastRecord | None:
        """A ``tool_call``'s fast record from its fields; the call is remembered once
        all is read."""
        try:  # the fields without an event; nothing is remembered until they are read
            name, call_id = self._call_ids(tool_name, tool_id, given_id, line)
            kind_name, args, described = tools.call_shape(name, parameters)
        except Exception:
            return None  # the long way reads the record again
        model_call_id = message_id if message_id.__class__ is str else None
        self._calls[call_id] = (name, args, kind_name)
        started = (None, None, call_id, kind_name, args, None, None, model_call_id, ts)
        return "tool_call", "started", (*started, None, described, None), None, sid, ts, recv

    def _fast_result(
        self,
        given_id: Any,
        tool_id: Any,
        is_error: Any,
        error: Any,
        value: Any,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
    ) -> FastRecord | None:
        """A ``tool_result``'s fast record from its fields; the call is forgotten once
        all is read."""
        try:
            call_id, name, outcome, payload = self._result(
                given_id, tool_id, is_error, error, value, line, lean=True
            )
        except Exception:
            return None  # the long way reads the record again
        self._calls.pop(call_id, None)
        kind_name = tools.kind_of(name) if name else "unknown"
        ended = (None, None, call_id, kind_name, None, outcome, payload, None, None, ts, None)
        return "tool_call", "completed", (*ended, None), None, sid, ts, recv

    def _message(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        text = record.get("text")
        if not isinstance(text, str):
            return None
        role = record.get("role")
        if role == "user":
            return [PromptSubmitted(line, sid, ts, recv, text=text)]
        if role == "assistant":
            return [AssistantMessage(line, sid, ts, recv, text=text, delta=False)]
        return None

    def _reasoning(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        text = record.get("text")
        if not isinstance(text, str):
            return None
        ident = as_str(record.get("id"))
        before_id, before = self._thought
        self._thought = (ident, text)
        if ident is not None and ident == before_id and text.startswith(before):
            text = text[len(before) :]  # the same thought restated: only what is new
        self._thinking = True
        return [ThinkingDelta(line, sid, ts, recv, text=text)]

    def _started(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> ToolCallEvent:
        name, call_id = self._call_ids(
            record.get("toolName"), record.get("toolId"), record.get("id"), line
        )
        parameters = record.get("parameters")
        kind = tools.kind_of(name)
        args = tools.args_of_kind(name, kind, parameters)
        self._calls[call_id] = (name, args, kind)
        return ToolCallEvent(
            line,
            sid,
            ts,
            recv,
            completed=False,
            call_id=call_id,
            kind=kind,
            args=args,
            description=tools.description_of(name, parameters),
            model_call_id=as_str(record.get("messageId")),
            started_at_ms=ts,
        )

    def _completed(
        self,
        record: JSONObject,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
        lean: bool = False,
    ) -> ToolCallEvent:
        """A ``tool_result``; ``lean`` (the fold's fast path): a summary for a payload
        where :func:`~streamview.core.dialects.droid_tools.success_said` counts one."""
        call_id, name, outcome, payload = self._result(
            record.get("id"),
            record.get("toolId"),
            record.get("isError"),
            record.get("error"),
            record.get("value"),
            line,
            lean,
            forget=True,
        )
        return ToolCallEvent(
            line,
            sid,
            ts,
            recv,
            completed=True,
            call_id=call_id,
            kind=tools.kind_of(name) if name else "unknown",
            outcome=outcome,
            payload=payload,
            completed_at_ms=ts,
        )

    @staticmethod
    def _call_ids(tool_name: Any, tool_id: Any, given_id: Any, line: int) -> tuple[str, str]:
        """A ``tool_call``'s tool name and call id, from its ``toolName``, ``toolId``
        and ``id``."""
        name = as_str(tool_name) or as_str(tool_id) or "unknown"
        return name, as_str(given_id) or f"<line {line}>"

    def _result(
        self,
        given_id: Any,
        tool_id: Any,
        is_error: Any,
        error: Any,
        value: Any,
        line: int,
        lean: bool,
        forget: bool = False,
    ) -> tuple[str, str, str, Any]:
        """A ``tool_result``'s call id, tool name, outcome and payload, from its ``id``,
        ``toolId``, ``isError``, ``error`` and ``value``. ``forget``: the call is
        forgotten first, even if reading its result then fails (the long way); else it
        is still remembered (the fast path forgets it once all is read)."""
        call_id = as_str(given_id)
        if call_id is None or call_id not in self._calls:
            # Builds that leave out the id answer the oldest open call.
            call_id = next(iter(self._calls), call_id or f"<line {line}>")
        calls = self._calls
        name, args, _ = (calls.pop if forget else calls.get)(
            call_id, (as_str(tool_id) or "", {}, None)
        )
        outcome: str
        payload: Any
        if is_error is True or isinstance(error, dict):
            outcome, payload = tools.error_outcome(name, error, value)
        else:
            said = tools.success_said(name, args, value) if lean else None
            payload = said or tools.success_payload(name, args, value)
            outcome = "success"
        return call_id, name, outcome, payload

    def _completion(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> AnyEvent:
        is_error = record.get("isError") is True
        text = as_str(record.get("finalText"))
        usage = usage_of(record.get("usage"))
        raw = record.get("usage")
        if usage is not None and isinstance(raw, dict) and as_int(raw.get("thinking_tokens")):
            usage["thinkingTokens"] = raw["thinking_tokens"]
        return RunResult(
            line,
            sid,
            ts,
            recv,
            subtype="error" if is_error else "success",
            is_error=is_error,
            duration_ms=as_int(record.get("durationMs")),
            result=text,
            usage=usage,
            num_turns=as_int(record.get("numTurns")),
            message=text if is_error else None,
        )


def detect(record: JSONObject) -> bool:
    """Droid's ``system/init`` (``reasoning_effort``, or ``Execute`` among its tools),
    or a record only Droid prints: a ``tool_call`` with ``toolName``, a
    ``tool_result`` with ``toolId``, a ``completion`` with ``finalText``, a
    ``message`` with ``text`` and a ``role``, a ``reasoning`` with ``text``."""
    kind = record.get("type")
    if kind == "system":
        if record.get("subtype") != "init":
            return False
        listed = record.get("tools")
        return "reasoning_effort" in record or (isinstance(listed, list) and "Execute" in listed)
    if kind not in _OWN_TYPES:
        return False
    if kind == "tool_call":
        return "toolName" in record or "toolId" in record
    if kind == "tool_result":
        return "toolId" in record or "isError" in record
    if kind == "completion":
        return "finalText" in record
    return isinstance(record.get("text"), str) and (kind == "reasoning" or "role" in record)


DIALECT = Dialect(name=NAME, label="Droid", detect=detect, translator=DroidTranslator)
