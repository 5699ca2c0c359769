"""The fast path's first step: the few records most of a run is made of, checked and
taken apart straight from the decoded dict or the line's bytes.

A dialect's translator offers ``fast`` (and maybe ``fast_line``) returning a
:data:`FastRecord`; :meth:`streamview.core.state.StreamState.apply_fast` applies it.
Any record declined goes the long way (an event from the dialect's translator). This
module holds what every dialect's fast path shares; Cursor's own is
:mod:`streamview.core.dialects.cursor_fast`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
import orjson

from streamview.core.tools import TARGET_ARGS

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
does), ``tool_call`` (``subtype`` ``started`` or ``completed``) or ``answer_call``
(Kimi's: a whole answer, then a call starts, two events of one line; ``(text, the
call's fields)``, ``subtype`` ``None``). A ``tool_call``'s third item is a tuple of the
call's fields: ``(session_id, timestamp_ms, call_id, kind, args, outcome, payload,
model_call_id, started_at_ms, completed_at_ms, description, parent_call_id)``, the
first two unused, ``call_id`` third (playback and ``--events`` read it there); eleven
without ``parent_call_id`` (Cursor's
:func:`~streamview.core.tool_record.tool_call_fields`); thirteen with the call's target
last, where the dialect knows it already (exactly what :func:`~.tools.target_of` gives
of the kind and arguments: the fold then need not work it out). The fold applies the
common ones, a new call with its arguments and the first result of a running call,
by a lean path (``CallFold._call_record``), the rest by the general rules. Every field
has its usual type.
"""


ONE_TARGET_ARG: dict[str, str] = {
    kind: keys[0] for kind, keys in TARGET_ARGS.items() if len(keys) == 1
}
"""The kinds whose target is one argument, and its name: :func:`~.tools.target_of` of
such a call is that argument if it is a string (not empty), else ``None``; a dialect
that knows the kind and arguments hands it over so (a call's thirteenth field)."""


LONG_LINE = 1 << 20
"""Bytes from which :func:`loads_long` decodes a line instead of ``orjson.loads``."""

_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1
"""The integers ``orjson`` reads as ``int``; past them it gives a ``float``."""
_decode_any = msgspec.json.Decoder().decode


def utf8(data: bytes | bytearray) -> bool:
    """Whether a line that is not ASCII is UTF-8 throughout, before a ``fast_line`` may
    read it (callers ask ``data.isascii()`` first: most lines are).

    A hot decoder skips the fields it does not read without looking at their bytes, so
    a byte that is not UTF-8 there would pass unnoticed; the general path repairs the
    line and says so (``input/invalid-utf8``). Such a line goes the general way.
    """
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


def loads_long(data: bytes) -> Any:
    """``orjson.loads(data)`` for a line of :data:`LONG_LINE` bytes or more, in less memory.

    ``orjson`` copies a long line into a buffer of its own before building its objects
    (the generated bench files' 3.3 MB tool calls: about 2 MB more resident at the
    peak); ``msgspec`` builds them from the line itself. The value is the one ``orjson``
    gives: a line ``msgspec`` cannot read (not JSON, not UTF-8, nested past the
    recursion limit) and one holding an integer ``orjson`` would read as a float are
    read by ``orjson``, whose error is then raised.

    Raises:
        orjson.JSONDecodeError: What ``orjson.loads`` raises for the line.
    """
    try:
        value = _decode_any(data)
    except Exception:  # any refusal: orjson says what it says of the line
        return orjson.loads(data)
    if _has_wide_int(value):
        return orjson.loads(data)
    return value


def _has_wide_int(value: Any) -> bool:
    """Whether ``value`` holds an integer outside what ``orjson`` reads as one."""
    stack = [value]
    pop = stack.pop
    extend = stack.extend
    while stack:
        item = pop()
        kind = item.__class__
        if kind is dict:
            extend(item.values())
        elif kind is list:
            extend(item)
        elif kind is int and not _INT_MIN <= item <= _INT_MAX:
            return True
    return False
