"""Droid's hot lines read straight from their bytes, for the fold's fast path.

A ``droid exec --output-format stream-json`` run is mostly assistant ``message``,
``tool_call`` and ``tool_result`` records. :meth:`DroidTranslator.fast_line
<streamview.core.dialects.droid.DroidTranslator.fast_line>` decodes such a line into
:class:`Answer`, :class:`Call` or :class:`Result` by its ``type`` (a tagged union,
told in C), each holding only the fields :meth:`~.droid.DroidTranslator.fast` reads
(``msgspec`` skips the rest in C and checks the types on the way), and takes it apart
as ``fast`` does from the decoded dict. A field of another type (a result whose
``value`` is an object, an id that is a number) declines the line, which is then
decoded in full and read by ``fast``; so is a call whose ``parameters`` hold a value
``msgspec`` would not read as ``orjson`` does (a float: ``orjson`` reads an integer past
64 bits as one), or nest deeper than a list of objects.
"""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

from streamview.core.fast_path import Int64


class Answer(msgspec.Struct, tag_field="type", tag="message", gc=False):
    """A ``message`` record's fields the fast path reads (an assistant's answer is
    taken); the rest is skipped."""

    role: str | None = None
    text: str | None = None
    session_id: str | None = None
    timestamp: Int64 | None = None
    streamview_recv_ms: Int64 | None = None


Flat = str | Int64 | bool | None
"""A value ``msgspec`` and ``orjson`` read alike (not a float: an integer past 64 bits
is one to ``orjson``, an ``int`` to ``msgspec``; the type declines it)."""

Parameter = Flat | list[Flat | dict[str, Flat]] | dict[str, Flat]
"""A call's argument as the fast path reads it: a flat value, a list of them or of flat
objects (patterns, todos), a flat object."""


class Call(msgspec.Struct, tag_field="type", tag="tool_call", gc=False):
    """A ``tool_call``'s fields the fast path reads, its parameters decoded with the
    line (:data:`Parameter` each): any other value declines the line, which ``orjson``
    reads then, as the general path does."""

    id: str | None = None
    message_id: str | None = msgspec.field(default=None, name="messageId")
    tool_id: str | None = msgspec.field(default=None, name="toolId")
    tool_name: str | None = msgspec.field(default=None, name="toolName")
    parameters: dict[str, Parameter] | None = None
    session_id: str | None = None
    timestamp: Int64 | None = None
    streamview_recv_ms: Int64 | None = None


class Result(msgspec.Struct, tag_field="type", tag="tool_result", gc=False):
    """A ``tool_result``'s fields the fast path reads (a text ``value`` only)."""

    id: str | None = None
    tool_id: str | None = msgspec.field(default=None, name="toolId")
    is_error: bool | None = msgspec.field(default=None, name="isError")
    error: msgspec.Raw = msgspec.Raw()
    value: str | None = None
    session_id: str | None = None
    timestamp: Int64 | None = None
    streamview_recv_ms: Int64 | None = None


class Thought(msgspec.Struct, tag_field="type", tag="reasoning", gc=False):
    """A ``reasoning`` record, told apart and declined (it goes the long way) without
    raising: a run's thoughts can be many."""


decode_hot = msgspec.json.Decoder(Answer | Call | Result | Thought).decode
"""The decoder of Droid's hot lines, their ``type`` told in C (any other type raises
``msgspec.ValidationError``, a :data:`~streamview.core.fast_path.HOT_DECODE_ERRORS`)."""


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
