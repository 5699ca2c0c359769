"""Cursor's ``tool_call`` record taken apart: which key names the tool, its arguments,
and which variant of the result union it completed with."""

from __future__ import annotations

from typing import Any

import orjson

from streamview.core.events import JSONObject, ToolCallEvent
from streamview.core.fields import as_int, as_str

TOOL_SUFFIX = "ToolCall"
_BOOKKEEPING = frozenset({"toolCallId", "startedAtMs", "completedAtMs", "hookAdditionalContexts"})
_RESULT_VARIANTS = ("success", "failure", "rejected", "error")


_KINDS: dict[str, str] = {}
"""A tool key (``readToolCall``) to its kind (``read``)."""


def tool_key(tool_call: JSONObject) -> str | None:
    """The key of ``tool_call`` that names the tool: the one ending in ``ToolCall``.

    Never the first key: bookkeeping keys such as ``toolCallId`` sit beside it in any
    order.
    """
    for key in tool_call:
        if key.endswith(TOOL_SUFFIX) and key != "toolCallId":
            return key
    return None


def _split_tool(tool_call: Any) -> tuple[str, JSONObject | None, Any, Any]:
    """Return ``(kind, args, result, body)`` of a ``tool_call`` object; ``body`` is the
    value under the ``...ToolCall`` key (``None`` without one)."""
    if not isinstance(tool_call, dict):
        return "unknown", None, None, None
    key = tool_key(tool_call)
    if key is not None:
        body = tool_call[key]
        kind = _KINDS.get(key)
        if kind is None:  # one string per kind, not one per call
            kind = key[: -len(TOOL_SUFFIX)] or key
            if len(_KINDS) < 1024:
                _KINDS[key] = kind
        if not isinstance(body, dict):
            return kind, None, None, body
        args = body.get("args")
        return kind, args if isinstance(args, dict) else None, body.get("result"), body
    function = tool_call.get("function")
    if isinstance(function, dict):
        name = as_str(function.get("name")) or "function"
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
        return name, parsed, tool_call.get("result", function.get("result")), None
    # A shape nobody has seen: the one non-bookkeeping object-valued key, if any.
    candidates = [k for k, v in tool_call.items() if k not in _BOOKKEEPING and isinstance(v, dict)]
    if len(candidates) == 1:
        body = tool_call[candidates[0]]
        args = body.get("args")
        return candidates[0], args if isinstance(args, dict) else None, body.get("result"), None
    return "unknown", None, None, None


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
    None,
]
"""``(session_id, timestamp_ms, call_id, kind, args, outcome, payload, model_call_id,
started_at_ms, completed_at_ms, description, parent_call_id)`` of a ``tool_call`` record:
the twelve fields :meth:`~streamview.core.state.StreamState.apply_fast` takes, the last
always ``None`` (Cursor names no parent call)."""


def event_fields(event: ToolCallEvent) -> tuple[Any, ...]:
    """A built call event's fields as the fold's fast path takes a tool record (see
    :meth:`~streamview.core.state.StreamState.apply_fast`), its session and time left
    ``None``: a dialect that builds the event anyway still skips the event's dispatch."""
    return (
        None,
        None,
        event.call_id,
        event.kind,
        event.args,
        event.outcome,
        event.payload,
        event.model_call_id,
        event.started_at_ms,
        event.completed_at_ms,
        event.description,
        event.parent_call_id,
    )


def tool_call_fields(record: JSONObject, line: int) -> ToolCallFields:
    """The fields of a :class:`ToolCallEvent`, read from a ``tool_call`` record.

    Lets the fold apply a tool call without building the event (see
    :meth:`~streamview.core.state.StreamState.apply_fast`).
    """
    # The usual types are checked by class first: this runs for every tool record.
    sid = record.get("session_id")
    if sid.__class__ is not str:
        sid = sid if isinstance(sid, str) else None  # as_str, without the call
    ts = record.get("timestamp_ms")
    if ts.__class__ is not int:
        ts = as_int(ts)
    tool_call = record.get("tool_call")
    kind, args, result, body = _split_tool(tool_call)
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
        # Cursor writes them as strings of digits: as_int reads those first.
        started_at = tool_call.get("startedAtMs")
        if started_at.__class__ is not int:
            started_at = as_int(started_at)
        completed_at = tool_call.get("completedAtMs")
        if completed_at.__class__ is not int:
            completed_at = as_int(completed_at)
        if isinstance(body, dict):
            description = body.get("description")
            if description.__class__ is not str:
                description = description if isinstance(description, str) else None
    call_id = record.get("call_id")
    if call_id.__class__ is not str:
        call_id = record_call_id(record, line)
    model_call_id = record.get("model_call_id")
    if model_call_id.__class__ is not str:
        model_call_id = model_call_id if isinstance(model_call_id, str) else None
    return (
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
        None,  # no parent call: twelve fields, as the fold takes them (not padded per call)
    )


def record_call_id(record: JSONObject, line: int) -> str:
    """A ``tool_call`` record's ``call_id``: the field, else the call's ``toolCallId``,
    else one made from the line number."""
    call_id = record.get("call_id")
    if isinstance(call_id, str):
        return call_id
    tool_call = record.get("tool_call")
    fallback = tool_call.get("toolCallId") if isinstance(tool_call, dict) else None
    return fallback if isinstance(fallback, str) else f"<line {line}>"
