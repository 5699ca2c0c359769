r"""Cursor's records (``cursor-agent -p --output-format stream-json``) as events.

The format guide is ``STREAM_FORMAT.md``: dispatch on ``type``, then ``subtype``. One
record is one event; a record of a type Cursor's CLI is not known to print is an
:class:`~streamview.core.events.UnknownRecord`, kept and shown, never dropped. Cursor's
records about its own work (``system/task_notification``,
``system/background_shell_timeout``, a ``text`` record) are
:class:`~streamview.core.events.AgentNotice`\ s (:mod:`.cursor_notices`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamview.core.dialects.cursor_notices as cursor_notices
from streamview.core.decoding import (
    RECV_KEY,
    decode_line,
    not_an_object,
    untyped,
    with_raw,
)
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    InteractionQuery,
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
from streamview.core.fields import as_int, as_str, common_fields
from streamview.core.tool_record import tool_call_fields

_INIT_KEYS = frozenset(
    {"type", "subtype", "session_id", "model", "cwd", "permissionMode", "apiKeySource"}
)


def message_text(record: JSONObject) -> str:
    """Concatenate the ``text`` items of ``message.content``, in order.

    Args:
        record: A ``user`` or ``assistant`` record.

    Returns:
        The text, ``""`` when there is none.
    """
    message = record.get("message")
    if not isinstance(message, dict):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [
        item["text"]
        for item in content
        if isinstance(item, dict)
        and item.get("type") == "text"
        and isinstance(item.get("text"), str)
    ]
    return parts[0] if len(parts) == 1 else "".join(parts)


def _init(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    return SessionStarted(
        line,
        sid,
        ts,
        recv,
        model=as_str(record.get("model")),
        cwd=as_str(record.get("cwd")),
        permission_mode=as_str(record.get("permissionMode")),
        api_key_source=as_str(record.get("apiKeySource")),
        extra={k: v for k, v in record.items() if k not in _INIT_KEYS and k != "timestamp_ms"},
    )


def _user(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    return PromptSubmitted(line, sid, ts, recv, text=message_text(record))


def _assistant(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    return AssistantMessage(
        line,
        sid,
        ts,
        recv,
        text=message_text(record),
        model_call_id=as_str(record.get("model_call_id")),
    )


def _thinking_delta(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    return ThinkingDelta(line, sid, ts, recv, text=as_str(record.get("text")) or "")


def _thinking_completed(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    return ThinkingCompleted(line, sid, ts, recv)


def _tool_call(record: JSONObject, line: int, recv: int | None, completed: bool) -> AnyEvent:
    (
        sid,
        ts,
        call_id,
        kind,
        args,
        outcome,
        payload,
        model_call_id,
        started_at,
        completed_at,
        description,
        _,
    ) = tool_call_fields(record, line)
    return ToolCallEvent(
        line,
        sid,
        ts,
        recv,
        completed=completed,
        call_id=call_id,
        kind=kind,
        args=args,
        outcome=outcome,
        payload=payload,
        model_call_id=model_call_id,
        started_at_ms=started_at,
        completed_at_ms=completed_at,
        description=description,
    )


def _tool_started(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    return _tool_call(record, line, recv, completed=False)


def _tool_completed(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    return _tool_call(record, line, recv, completed=True)


def _interaction(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    subtype = as_str(record.get("subtype")) or ""
    body = record.get("query") if subtype == "request" else record.get("response")
    tool_call_id = reason = None
    args: JSONObject | None = None
    approved: bool | None = None
    query_id: int | str | None = None
    if isinstance(body, dict):
        raw_id = body.get("id")
        query_id = (
            raw_id if isinstance(raw_id, int | str) and not isinstance(raw_id, bool) else None
        )
        inner = next((v for k, v in body.items() if k != "id" and isinstance(v, dict)), None)
        if isinstance(inner, dict):
            maybe_args = inner.get("args")
            if isinstance(maybe_args, dict):
                args = maybe_args
                tool_call_id = as_str(maybe_args.get("toolCallId"))
            if tool_call_id is None:
                # askQuestion requests carry it beside ``args``, not inside.
                tool_call_id = as_str(inner.get("toolCallId"))
            nested = inner.get("result")
            verdict: JSONObject = nested if isinstance(nested, dict) else inner
            if "approved" in verdict:
                approved = True
            elif "rejected" in verdict:
                approved = False
                rejected = verdict["rejected"]
                if isinstance(rejected, dict):
                    reason = as_str(rejected.get("reason"))
    return InteractionQuery(
        line,
        sid,
        ts,
        recv,
        subtype=subtype,
        query_type=as_str(record.get("query_type")),
        query_id=query_id,
        tool_call_id=tool_call_id,
        args=args,
        approved=approved,
        reason=reason,
    )


def _connection(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    detail = as_str(record.get("endpoint_url"))
    if detail is None and "is_resume" in record:
        detail = "resume" if record.get("is_resume") else "fresh start"
    return ConnectionNotice(
        line,
        sid,
        ts,
        recv,
        type=str(record.get("type")),
        subtype=as_str(record.get("subtype")) or "",
        attempt=as_int(record.get("attempt")),
        detail=detail,
    )


def _result(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = common_fields(record)
    usage = record.get("usage")
    result = record.get("result")
    return RunResult(
        line,
        sid,
        ts,
        recv,
        subtype=as_str(record.get("subtype")) or "success",
        is_error=record.get("is_error") is True,
        duration_ms=as_int(record.get("duration_ms")),
        duration_api_ms=as_int(record.get("duration_api_ms")),
        result=result if isinstance(result, str) else None,
        request_id=as_str(record.get("request_id")),
        usage=usage if isinstance(usage, dict) else None,
    )


Builder = Callable[[JSONObject, int, "int | None"], AnyEvent]
_ANY = "*"
_DISPATCH: dict[str, dict[str | None, Builder]] = {
    "system": {"init": _init, _ANY: cursor_notices.system},
    "text": {_ANY: cursor_notices.text},
    "user": {_ANY: _user},
    "assistant": {_ANY: _assistant},
    "thinking": {"delta": _thinking_delta, "completed": _thinking_completed},
    "tool_call": {"started": _tool_started, "completed": _tool_completed},
    "interaction_query": {"request": _interaction, "response": _interaction},
    "connection": {_ANY: _connection},
    "retry": {_ANY: _connection},
    "result": {_ANY: _result},
}


def parse_record(record: JSONObject, line: int, recv_ms: int | None = None) -> AnyEvent:
    """Turn a decoded JSON object into an event.

    Args:
        record: The decoded line. A ``streamview_recv_ms`` key, if present, is taken
            out; it is the arrival time unless a live source stamped one.
        line: The 1-based line number.
        recv_ms: Arrival time stamped by a live source, if any.

    Returns:
        A known event, an :class:`UnknownRecord`, or a :class:`MalformedLine` when the
        object has no string ``type``.
    """
    if RECV_KEY in record:
        recorded = as_int(record.pop(RECV_KEY))
        # A live source's own stamp wins: it is on the same clock as "now", which the
        # viewer's elapsed timers compare against (a recording piped in live, say).
        if recorded is not None and recv_ms is None:
            recv_ms = recorded
    kind = record.get("type")
    if not isinstance(kind, str):
        return untyped(record, line, recv_ms)
    subtype = record.get("subtype")
    by_subtype = _DISPATCH.get(kind)
    if by_subtype is not None:
        builder = by_subtype.get(subtype) if isinstance(subtype, str) else None
        if builder is None:
            builder = by_subtype.get(_ANY)
        if builder is not None:
            try:
                return builder(record, line, recv_ms)
            except Exception as error:  # pragma: no cover - a builder bug must not crash
                return UnknownRecord(
                    line,
                    as_str(record.get("session_id")),
                    as_int(record.get("timestamp_ms")),
                    recv_ms,
                    type=kind,
                    subtype=f"{subtype} (unreadable: {type(error).__name__})",
                    record=record,
                )
    return UnknownRecord(
        line,
        as_str(record.get("session_id")),
        as_int(record.get("timestamp_ms")),
        recv_ms,
        type=kind,
        subtype=as_str(subtype),
        record=record,
    )


def parse_line(data: bytes, line: int, recv_ms: int | None = None) -> AnyEvent:
    """Parse one line of a Cursor stream. Never raises.

    Args:
        data: The line's bytes, without its terminator.
        line: The 1-based line number.
        recv_ms: Arrival time stamped by a live source, if any.

    Returns:
        The event for that line; bad input becomes a :class:`MalformedLine` carrying
        the line number, the reason and the raw bytes.
    """
    record, data = decode_line(data, line)
    return parse_decoded(record, data, line, recv_ms)


def parse_decoded(record: Any, data: bytes, line: int, recv_ms: int | None = None) -> AnyEvent:
    """Finish :func:`parse_line` for a line its caller already decoded.

    Args:
        record: What :func:`~streamview.core.decoding.decode_line` returned for the
            line (:data:`~streamview.core.decoding.NOT_JSON` when it is not JSON).
        data: The line's bytes, without its terminator.
        line: The 1-based line number.
        recv_ms: Arrival time stamped by a live source, if any.
    """
    if not isinstance(record, dict):
        return not_an_object(record, data, line, recv_ms)
    event = parse_record(record, line, recv_ms)
    if isinstance(event, MalformedLine):
        return with_raw(event, line, data)
    return event
