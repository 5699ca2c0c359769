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

RECV_KEY = "streamview_recv_ms"
"""Key a streamview recording adds as the last key of each line: arrival time, epoch ms."""

MALFORMED_RAW_LIMIT = 1 << 20
"""Bytes of a malformed line kept in memory for display; the rest stays in the source."""

TOOL_SUFFIX = "ToolCall"
_INIT_KEYS = frozenset(
    {"type", "subtype", "session_id", "model", "cwd", "permissionMode", "apiKeySource"}
)
_BOOKKEEPING = frozenset({"toolCallId", "startedAtMs", "completedAtMs", "hookAdditionalContexts"})
_RESULT_VARIANTS = ("success", "failure", "rejected", "error")


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    """An integer from an int, a float or a numeric string (``startedAtMs`` is a string)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value == value and abs(value) < 1e18 else None
    if isinstance(value, str) and value.isascii() and value.strip().lstrip("-").isdigit():
        try:
            return int(value)
        except ValueError:  # "--5", or more digits than int() converts
            return None
    return None


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


def _common(record: JSONObject) -> tuple[str | None, int | None]:
    return _str(record.get("session_id")), _int(record.get("timestamp_ms"))


def _init(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = _common(record)
    return SessionStarted(
        line,
        sid,
        ts,
        recv,
        model=_str(record.get("model")),
        cwd=_str(record.get("cwd")),
        permission_mode=_str(record.get("permissionMode")),
        api_key_source=_str(record.get("apiKeySource")),
        extra={k: v for k, v in record.items() if k not in _INIT_KEYS and k != "timestamp_ms"},
    )


def _user(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = _common(record)
    return PromptSubmitted(line, sid, ts, recv, text=message_text(record))


def _assistant(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = _common(record)
    return AssistantMessage(
        line,
        sid,
        ts,
        recv,
        text=message_text(record),
        model_call_id=_str(record.get("model_call_id")),
    )


def _thinking_delta(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = _common(record)
    return ThinkingDelta(line, sid, ts, recv, text=_str(record.get("text")) or "")


def _thinking_completed(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = _common(record)
    return ThinkingCompleted(line, sid, ts, recv)


def tool_key(tool_call: JSONObject) -> str | None:
    """The key of ``tool_call`` that names the tool: the one ending in ``ToolCall``.

    Never the first key: bookkeeping keys such as ``toolCallId`` sit beside it in any
    order.
    """
    for key in tool_call:
        if key.endswith(TOOL_SUFFIX) and key != "toolCallId":
            return key
    return None


def _split_tool(tool_call: Any) -> tuple[str, JSONObject | None, Any]:
    """Return ``(kind, args, result)`` of a ``tool_call`` object."""
    if not isinstance(tool_call, dict):
        return "unknown", None, None
    key = tool_key(tool_call)
    if key is not None:
        body = tool_call[key]
        kind = key[: -len(TOOL_SUFFIX)] or key
        if not isinstance(body, dict):
            return kind, None, None
        args = body.get("args")
        return kind, args if isinstance(args, dict) else None, body.get("result")
    function = tool_call.get("function")
    if isinstance(function, dict):
        name = _str(function.get("name")) or "function"
        arguments = function.get("arguments")
        parsed: JSONObject | None = None
        if isinstance(arguments, dict):
            parsed = arguments
        elif isinstance(arguments, str):
            try:
                loaded = orjson.loads(arguments)
            except orjson.JSONDecodeError:
                loaded = {"arguments": arguments}
            parsed = loaded if isinstance(loaded, dict) else {"arguments": loaded}
        return name, parsed, tool_call.get("result", function.get("result"))
    # A shape nobody has seen: the one non-bookkeeping object-valued key, if any.
    candidates = [k for k, v in tool_call.items() if k not in _BOOKKEEPING and isinstance(v, dict)]
    if len(candidates) == 1:
        body = tool_call[candidates[0]]
        args = body.get("args")
        return candidates[0], args if isinstance(args, dict) else None, body.get("result")
    return "unknown", None, None


ToolCallFields = tuple[
    str | None,
    int | None,
    str,
    str,
    JSONObject | None,
    str | None,
    Any,
    str | None,
    int | None,
    int | None,
    str | None,
]
"""``(session_id, timestamp_ms, call_id, kind, args, outcome, payload, model_call_id,
started_at_ms, completed_at_ms, description)`` of a ``tool_call`` record."""


def tool_call_fields(record: JSONObject, line: int) -> ToolCallFields:
    """The fields of a :class:`ToolCallEvent`, read from a ``tool_call`` record.

    Lets the fold apply a tool call without building the event (see
    :meth:`~streamview.core.state.StreamState.apply_record`).
    """
    sid, ts = _common(record)
    tool_call = record.get("tool_call")
    kind, args, result = _split_tool(tool_call)
    outcome: str | None = None
    payload: Any = None
    if isinstance(result, dict) and result:
        # Shell results hold an ``isBackground`` flag beside the variant: prefer a
        # known variant, then an object-valued key, whatever the key order.
        for outcome in _RESULT_VARIANTS:
            if outcome in result:
                break
        else:
            outcome = next(
                (k for k, v in result.items() if isinstance(v, dict)), next(iter(result))
            )
        payload = result[outcome]
    elif result is not None:
        outcome, payload = "result", result
    started_at = completed_at = None
    description = None
    if isinstance(tool_call, dict):
        started_at = tool_call.get("startedAtMs")
        if started_at.__class__ is not int:
            started_at = _int(started_at)
        completed_at = tool_call.get("completedAtMs")
        if completed_at.__class__ is not int:
            completed_at = _int(completed_at)
        key = tool_key(tool_call)
        body = tool_call.get(key) if key else None
        if isinstance(body, dict):
            description = _str(body.get("description"))
    call_id = record.get("call_id")
    if not isinstance(call_id, str):
        fallback = tool_call.get("toolCallId") if isinstance(tool_call, dict) else None
        call_id = fallback if isinstance(fallback, str) else f"<line {line}>"
    return (
        sid,
        ts,
        call_id,
        kind,
        args,
        outcome,
        payload,
        _str(record.get("model_call_id")),
        started_at,
        completed_at,
        description,
    )


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
    sid, ts = _common(record)
    subtype = _str(record.get("subtype")) or ""
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
                tool_call_id = _str(maybe_args.get("toolCallId"))
            if tool_call_id is None:
                # askQuestion requests carry it beside ``args``, not inside.
                tool_call_id = _str(inner.get("toolCallId"))
            nested = inner.get("result")
            verdict: JSONObject = nested if isinstance(nested, dict) else inner
            if "approved" in verdict:
                approved = True
            elif "rejected" in verdict:
                approved = False
                rejected = verdict["rejected"]
                if isinstance(rejected, dict):
                    reason = _str(rejected.get("reason"))
    return InteractionQuery(
        line,
        sid,
        ts,
        recv,
        subtype=subtype,
        query_type=_str(record.get("query_type")),
        query_id=query_id,
        tool_call_id=tool_call_id,
        args=args,
        approved=approved,
        reason=reason,
    )


def _connection(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = _common(record)
    detail = _str(record.get("endpoint_url"))
    if detail is None and "is_resume" in record:
        detail = "resume" if record.get("is_resume") else "fresh start"
    return ConnectionNotice(
        line,
        sid,
        ts,
        recv,
        type=str(record.get("type")),
        subtype=_str(record.get("subtype")) or "",
        attempt=_int(record.get("attempt")),
        detail=detail,
    )


def _result(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    sid, ts = _common(record)
    usage = record.get("usage")
    result = record.get("result")
    return RunResult(
        line,
        sid,
        ts,
        recv,
        subtype=_str(record.get("subtype")) or "success",
        is_error=record.get("is_error") is True,
        duration_ms=_int(record.get("duration_ms")),
        duration_api_ms=_int(record.get("duration_api_ms")),
        result=result if isinstance(result, str) else None,
        request_id=_str(record.get("request_id")),
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
        recorded = _int(record.pop(RECV_KEY))
        # A live source's own stamp wins: it is on the same clock as "now", which the
        # viewer's elapsed timers compare against (a recording piped in live, say).
        if recorded is not None and recv_ms is None:
            recv_ms = recorded
    kind = record.get("type")
    if not isinstance(kind, str):
        return MalformedLine(
            line,
            _str(record.get("session_id")),
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
                    _str(record.get("session_id")),
                    _int(record.get("timestamp_ms")),
                    recv_ms,
                    type=kind,
                    subtype=f"{subtype} (unreadable: {type(error).__name__})",
                    record=record,
                )
    return UnknownRecord(
        line,
        _str(record.get("session_id")),
        _int(record.get("timestamp_ms")),
        recv_ms,
        type=kind,
        subtype=_str(subtype),
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
        return _fallback_loads(data), data


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
        return MalformedLine(
            line,
            event.session_id,
            None,
            event.recv_ms,
            reason=event.reason,
            raw=data[:MALFORMED_RAW_LIMIT],
            raw_size=len(data),
        )
    return event
