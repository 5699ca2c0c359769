"""Droid's hot lines read straight from their bytes, for the fold's fast path.

A ``droid exec --output-format stream-json`` run is mostly assistant ``message``,
``tool_call`` and ``tool_result`` records. :meth:`DroidTranslator.fast_line
<streamview.core.dialects.droid.DroidTranslator.fast_line>` decodes such a line into
:class:`HotLine`, which holds only the fields :meth:`~.droid.DroidTranslator.fast`
reads (``msgspec`` skips the rest in C and checks the types on the way), and takes it
apart as ``fast`` does from the decoded dict. A field of another type (a result whose
``value`` is an object, an id that is a number) declines the line, which is then
decoded in full and read by ``fast``. A call's ``parameters`` are kept as their bytes
and decoded by ``orjson``, as the general path decodes them (``msgspec`` reads an
integer past 64 bits as an ``int``, ``orjson`` as a ``float``).
"""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

from streamview.core.fast_path import Int64, hot_decoder


class HotLine(msgspec.Struct, gc=False):
    """A ``message``, ``tool_call`` or ``tool_result`` record's fields the fast path
    reads; the rest is skipped."""

    type: str | None = None
    role: str | None = None
    text: str | None = None
    id: str | None = None
    message_id: str | None = msgspec.field(default=None, name="messageId")
    tool_id: str | None = msgspec.field(default=None, name="toolId")
    tool_name: str | None = msgspec.field(default=None, name="toolName")
    parameters: msgspec.Raw = msgspec.Raw()
    is_error: bool | None = msgspec.field(default=None, name="isError")
    error: msgspec.Raw = msgspec.Raw()
    value: str | None = None
    session_id: str | None = None
    timestamp: Int64 | None = None
    streamview_recv_ms: Int64 | None = None


decode_hot = hot_decoder(HotLine)
HOT_STARTS = (b'{"type":"message"', b'{"type":"tool_')
"""How ``droid exec`` starts those lines (``type`` is written first)."""


_decode_flat = msgspec.json.Decoder(dict[str, str | Int64 | bool | None]).decode


def call_input(raw: msgspec.Raw) -> Any:
    """A call's arguments from their bytes (``None`` if it has none), as ``orjson``
    reads them: an object of strings, 64-bit integers, booleans and nulls (most
    calls') by ``msgspec``, in half the time; any other value by ``orjson`` itself
    (a float, a list, an integer ``orjson`` reads as a float).

    Raises:
        orjson.JSONDecodeError: What ``orjson.loads`` raises for them.
    """
    if not raw:
        return None
    try:
        return _decode_flat(raw)
    except msgspec.ValidationError:
        return orjson.loads(bytes(raw))
