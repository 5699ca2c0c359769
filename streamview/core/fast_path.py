"""The fast path's first step: the few records most of a run is made of, checked and
taken apart straight from the decoded dict.

Cursor's translator offers :func:`fast_record` as its ``fast``;
:meth:`streamview.core.state.StreamState.apply_fast` applies what it returns. Any record
it declines goes the long way (an event from :mod:`streamview.core.parse`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec

from streamview.core.events import JSONObject
from streamview.core.parse import RECV_KEY
from streamview.core.tool_record import tool_call_fields

Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
"""An integer field of a typed hot record: ``orjson`` reads it as an int too (past 64
bits it gives a float), so a typed decoder and the dict agree on it."""

HOT_DECODE_ERRORS = (msgspec.DecodeError, UnicodeDecodeError)
"""What a typed decoder raises for a line it cannot read (not JSON, not UTF-8, a field
of another type): the line then goes the usual way."""

Hot = TypeVar("Hot", bound=msgspec.Struct)


def hot_decoder(struct: type[Hot]) -> Callable[[bytes], Hot]:
    """The decoder of a dialect's hot lines into ``struct``, for its ``fast_line``.

    A ``fast_line`` first checks how the agent's CLI starts those lines (any other line
    is decoded in full), then decodes, and declines a line that raises
    :data:`HOT_DECODE_ERRORS`: all in its own body, for this runs once a line (a
    reader function around the decoder cost a quarter of Cursor's ``fast_line``).

    Args:
        struct: The fields the fast path reads, typed as it checks them (a
            ``gc=False`` struct: it holds no cycle, and is not tracked).
    """
    return msgspec.json.Decoder(struct).decode


FastRecord = tuple[str, Any, Any, Any, Any, Any, Any]
"""``(type, subtype, text or tool fields, model_call_id, session_id, timestamp_ms, recv_ms)``.

``type`` is ``thinking`` (``subtype`` ``delta`` with the text, ``completed``, or
``whole``: the text, then the block closes, two events of one line),
``assistant`` (``subtype`` says whether the text is a delta: ``True``, ``False``, or
``None`` to tell by ``model_call_id`` and ``timestamp_ms`` as Cursor's format guide
does) or ``tool_call`` (Cursor's: the fields of
:func:`~streamview.core.tool_record.tool_call_fields`). Every field has its usual type.
"""


def fast_record(record: JSONObject, line: int) -> FastRecord | None:
    """A thinking, assistant or tool-call record's fields, if its fields have the usual types.

    Args:
        record: A decoded line; it is not modified.
        line: Its 1-based line number.

    Returns:
        ``None`` for any other record, or one whose fields have unusual types.
    """
    subtype: Any = None
    kind = record.get("type")
    model_call_id = None
    text: Any
    if kind == "thinking":
        subtype = record.get("subtype")
        if subtype == "delta":
            text = record.get("text")
            if text.__class__ is not str:
                return None
        elif subtype == "completed":
            text = None
        else:
            return None
    elif kind == "assistant":
        message = record.get("message")
        if message.__class__ is not dict:
            return None
        content = message.get("content")
        if content.__class__ is not list or len(content) != 1:
            return None
        item = content[0]
        if item.__class__ is not dict or item.get("type") != "text":
            return None
        text = item.get("text")
        model_call_id = record.get("model_call_id")
        if text.__class__ is not str or (
            model_call_id is not None and model_call_id.__class__ is not str
        ):
            return None
    elif kind == "tool_call":
        subtype = record.get("subtype")
        if subtype != "started" and subtype != "completed":
            return None
        try:
            text = tool_call_fields(record, line)
        except Exception:
            return None  # parse_record turns this into an UnknownRecord
    else:
        return None
    session_id = record.get("session_id")
    timestamp = record.get("timestamp_ms")
    recv = record.get(RECV_KEY)
    if (
        (session_id is not None and session_id.__class__ is not str)
        or (timestamp is not None and timestamp.__class__ is not int)
        or (recv is not None and recv.__class__ is not int)
    ):
        return None
    return kind, subtype, text, model_call_id, session_id, timestamp, recv
