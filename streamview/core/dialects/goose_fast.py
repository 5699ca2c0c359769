"""Goose's hot lines: the typed decoder of messages holding one streamed chunk, and a
tool call's request and response read from their decoded dicts.

Most of a Goose run (``goose run --output-format stream-json``) is ``message`` lines
each holding one chunk of the answer, beside the message's id and metadata.
:meth:`GooseTranslator.fast_line <streamview.core.dialects.goose.GooseTranslator.fast_line>`
decodes such a line into these structs, reading only what the fold needs and skipping
the rest in C.
"""

from __future__ import annotations

from typing import Any

import msgspec

import streamview.core.dialects.goose_tools as tools
from streamview.core.events import JSONObject
from streamview.core.fast_path import ONE_TARGET_ARG, FastRecord, Int64, hot_decoder

_NO_CALL: tuple[str, JSONObject] = ("unknown", {})
"""A response's call not seen requested: as the long way reads it (never changed)."""


class _Item(msgspec.Struct, gc=False):
    type: Any = None
    text: Any = None
    thinking: Any = None


class _Message(msgspec.Struct, gc=False):
    role: Any = None
    created: Any = None
    content: list[_Item] | None = None


class _Chunk(msgspec.Struct, gc=False):
    """A ``message`` record's fields :meth:`GooseTranslator.fast` reads, typed as it
    checks them; the rest of the line is skipped."""

    type: Any = None
    message: _Message | None = None
    streamview_recv_ms: Int64 | None = None


decode_chunk = hot_decoder(_Chunk)
"""A ``message`` line's bytes into the fields the fast path reads."""


def fast_request(
    calls: dict[str, tuple[str, JSONObject]], item: JSONObject, ts: int | None, recv: int | None
) -> FastRecord | None:
    """The ``tool_call``/``started`` record of a message's one ``toolRequest`` item, as
    :meth:`GooseTranslator._request <streamview.core.dialects.goose.GooseTranslator>`
    reads it (the call noted in ``calls``), its target handed over where the kind's
    target is one argument. A call that cannot run (``status: "error"``), no id, a
    name or arguments of another type go the long way."""
    call_id = item.get("id")
    call = item.get("toolCall")
    if call_id.__class__ is not str or not call_id or call.__class__ is not dict:
        return None
    if call.get("status") == "error":
        return None
    value = call.get("value") if "value" in call else call
    if value.__class__ is not dict:
        return None
    name = value.get("name")
    arguments = value.get("arguments")
    if name.__class__ is not str or not name or arguments.__class__ is not dict:
        return None
    kind = tools.kind_of(name, arguments)
    args = tools.args_of(name, kind, arguments)
    calls[call_id] = (kind, args)
    fields: tuple[Any, ...] = (None, None, call_id, kind, args) + (None,) * 7
    key = ONE_TARGET_ARG.get(kind)
    if key is not None:  # the call's target, as target_of gives it
        target = args.get(key)
        fields += (target if target.__class__ is str and target else None,)
    return "tool_call", "started", fields, None, None, ts, recv


def fast_response(
    calls: dict[str, tuple[str, JSONObject]], item: JSONObject, ts: int | None, recv: int | None
) -> FastRecord | None:
    """The ``tool_call``/``completed`` record of a message's one ``toolResponse`` item
    whose ``toolResult`` succeeded, as :meth:`GooseTranslator._response
    <streamview.core.dialects.goose.GooseTranslator>` reads it (the call forgotten once
    its payload is made). An error (a result the tool marked ``isError`` too, but a
    shell's), no id or no status go the long way."""
    call_id = item.get("id")
    result = item.get("toolResult")
    if call_id.__class__ is not str or not call_id or result.__class__ is not dict:
        return None
    if result.get("status") != "success":
        return None
    kind, args = calls.get(call_id, _NO_CALL)
    try:
        outcome, payload = tools.success_payload(kind, args, result.get("value"))
    except Exception:  # the long way reads it again, and says what is wrong with it
        return None
    if outcome != "success":
        return None
    calls.pop(call_id, None)
    fields = (None, None, call_id, kind, None, outcome, payload, None, None, None, None, None)
    return "tool_call", "completed", fields, None, None, ts, recv
