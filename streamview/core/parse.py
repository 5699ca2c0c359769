"""Parse one line of a Cursor agent stream into an event. Never raises."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

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

RECV_KEY = "streamview_recv_ms"
"""Key a streamview recording adds as the last key of each line: arrival time, epoch ms."""

MALFORMED_RAW_LIMIT = 1 << 20
"""Bytes of a malformed line kept in memory for display; the rest stays in the source."""

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
    "system": {"init": _init},
    "user": {_ANY: _user},
    "assistant": {_ANY: _assistant},
    "thinking": {"delta": _thinking_delta, "completed": _thinking_completed},
    "tool_call": {"started": _tool_started, "completed": _tool_completed},
    "interaction_query": {"request": _interaction, "response": _interaction},
    "connection": {_ANY: _connection},
    "retry": {_ANY: _connection},
    "result": {_ANY: _result},
}


def _record_bytes(record: JSONObject) -> bytes:
    """``record`` as JSON bytes for display; ``parse_line`` passes the line's own bytes."""
    try:
        return orjson.dumps(record)[:MALFORMED_RAW_LIMIT]
    except TypeError:  # lone surrogates, nesting over orjson's limit: only decodable
        pass
    try:
        return json.dumps(record, ensure_ascii=True).encode()[:MALFORMED_RAW_LIMIT]
    except RecursionError:
        return b""


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
        return MalformedLine(
            line,
            as_str(record.get("session_id")),
            None,
            recv_ms,
            reason="no 'type' field" if kind is None else "'type' is not a string",
            raw=_record_bytes(record),
        )
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


_NOT_JSON: Any = object()
NOT_JSON: Any = _NOT_JSON
"""What :func:`decode_line` returns for a line that is not JSON."""
_BOM = b"\xef\xbb\xbf"


def _fallback_loads(data: bytes) -> Any:
    """Decode what orjson refuses but is still JSON (integers over 64 bits)."""
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return _NOT_JSON


def _malformed_reason(data: bytes) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "not valid UTF-8"
    return "not JSON"


def parse_line(data: bytes, line: int, recv_ms: int | None = None) -> AnyEvent:
    """Parse one line of input. Never raises.

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


def decode_line(data: bytes, line: int) -> tuple[Any, bytes]:
    """Decode one line's JSON, as :func:`parse_line` does. Never raises.

    Args:
        data: The line's bytes, without its terminator.
        line: The 1-based line number (line 1 may start with a byte-order mark).

    Returns:
        ``(record, data)``: the decoded value, or :data:`NOT_JSON` when the line is not
        JSON; and the line's bytes, without a leading byte-order mark it had.
    """
    try:
        return orjson.loads(data), data
    except orjson.JSONDecodeError:
        if line == 1 and data.startswith(_BOM):
            # A file re-saved by an editor may start with a byte-order mark.
            return decode_line(data[len(_BOM) :], line)
        record = _fallback_loads(data)
        if record is _NOT_JSON and _malformed_reason(data) == "not valid UTF-8":
            # One bad byte must not lose the record: read it with U+FFFD in its place.
            fixed = RepairedLine(data.decode("utf-8", "replace").encode())
            repaired = _fallback_loads(fixed)
            if repaired is not _NOT_JSON:
                return repaired, fixed
        return record, data


class RepairedLine(bytes):
    """A line's bytes with its invalid UTF-8 replaced by U+FFFD, as :func:`decode_line`
    gives them back for a line that is JSON once repaired (:func:`repair_notice`)."""


def repair_notice(line: int, recv_ms: int | None = None) -> ConnectionNotice:
    """The mark of a line read with invalid UTF-8 replaced (shown in the event log)."""
    return ConnectionNotice(
        line,
        None,
        None,
        recv_ms,
        type="input",
        subtype="invalid-utf8",
        detail=f"line {line}: invalid UTF-8 bytes replaced with U+FFFD",
    )


def parse_decoded(record: Any, data: bytes, line: int, recv_ms: int | None = None) -> AnyEvent:
    """Finish :func:`parse_line` for a line its caller already decoded.

    Args:
        record: What ``orjson.loads(data)`` returned, or ``_NOT_JSON`` (see
            :func:`parse_line`) when the line is not JSON.
        data: The line's bytes, without its terminator.
        line: The 1-based line number.
        recv_ms: Arrival time stamped by a live source, if any.
    """
    if record is _NOT_JSON:
        reason = _malformed_reason(data)
        return MalformedLine(
            line,
            None,
            None,
            recv_ms,
            reason=reason,
            raw=data[:MALFORMED_RAW_LIMIT],
            raw_size=len(data),
        )
    if not isinstance(record, dict):
        return MalformedLine(
            line,
            None,
            None,
            recv_ms,
            reason=f"not a JSON object (a {type(record).__name__})",
            raw=data[:MALFORMED_RAW_LIMIT],
            raw_size=len(data),
        )
    event = parse_record(record, line, recv_ms)
    if isinstance(event, MalformedLine):
        return with_raw(event, line, data)
    return event


def with_raw(event: MalformedLine, line: int, data: bytes) -> MalformedLine:
    """A record found malformed, with the line it came from (capped) to show."""
    return MalformedLine(
        line,
        event.session_id,
        None,
        event.recv_ms,
        reason=event.reason,
        raw=data[:MALFORMED_RAW_LIMIT],
        raw_size=len(data),
    )
