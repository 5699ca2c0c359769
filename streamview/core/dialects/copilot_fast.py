"""Copilot CLI's usual records read straight from their bytes, for the fold's fast path.

Text and reasoning deltas are most of a Copilot run, whole messages and tools' starts
and ends the rest. :meth:`CopilotTranslator.fast_line
<streamview.core.dialects.copilot.CopilotTranslator.fast_line>` decodes such a line into
a struct that holds only the fields it reads (``msgspec`` skips the rest in C and
checks the types on the way): a field of another type declines, and the line is decoded
in full. Until a model is known a delta is read into :class:`DeltaLine` (its model
fields too); then every usual record into one of a tagged union (:data:`decode_hot`),
its ``type`` told in C: no test of the line's start, no string compared.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Union

import msgspec

from streamview.core.fast_path import Int64, hot_decoder


class LeanData(msgspec.Struct, gc=False):
    """A delta's ``data`` once the model is known: its text, its message's or
    reasoning's id (the translator no longer reads a model a record names)."""

    deltaContent: str | None = None
    messageId: str | None = None
    reasoningId: str | None = None


class DeltaData(LeanData, gc=False):
    """A delta's ``data`` while no model is known: a model it names too."""

    selectedModel: str | None = None
    chosenModel: str | None = None
    newModel: str | None = None
    model: str | None = None


class DeltaLine(msgspec.Struct, gc=False):
    """An ``assistant.message_delta`` or ``assistant.reasoning_delta`` record's fields
    the fast path reads; the rest is skipped."""

    type: str | None = None
    data: DeltaData | None = None
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class Delta(msgspec.Struct, gc=False):
    """A delta's ``data`` once the model is known (:class:`LeanData`, its text required:
    a delta without one, or with another type of it, goes the long way)."""

    deltaContent: str
    messageId: str | None = None
    reasoningId: str | None = None


class MessageDelta(msgspec.Struct, tag_field="type", tag="assistant.message_delta", gc=False):
    """An ``assistant.message_delta`` once the model is known."""

    data: Delta
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class ReasoningDelta(msgspec.Struct, tag_field="type", tag="assistant.reasoning_delta", gc=False):
    """An ``assistant.reasoning_delta`` once the model is known."""

    data: Delta
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class MessageData(msgspec.Struct, gc=False):
    """A whole ``assistant.message``'s ``data`` once the model is known: its text."""

    content: str


class Message(msgspec.Struct, tag_field="type", tag="assistant.message", gc=False):
    """A whole ``assistant.message`` once the model is known."""

    data: MessageData
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class StartData(msgspec.Struct, gc=False):
    """A ``tool.execution_start``'s ``data``: the fields :meth:`CopilotTranslator._fast_whole
    <streamview.core.dialects.copilot.CopilotTranslator._fast_whole>` reads, the
    arguments as their bytes (decoded as the general path decodes them)."""

    toolCallId: str | None = None
    toolName: str | None = None
    mcpServerName: str | None = None
    mcpToolName: str | None = None
    arguments: msgspec.Raw = msgspec.Raw()
    parentToolCallId: str | None = None


class Start(msgspec.Struct, tag_field="type", tag="tool.execution_start", gc=False):
    """A ``tool.execution_start`` once the model is known."""

    data: StartData
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class Result(msgspec.Struct, gc=False):
    """A successful call's ``result``: what the model reads, what a person is shown, and
    its content items (as their bytes: a command's exit code is in one)."""

    content: str | None = None
    detailedContent: str | None = None
    contents: msgspec.Raw = msgspec.Raw()


class EndData(msgspec.Struct, gc=False):
    """A ``tool.execution_complete``'s ``data``: its verdict, its result or error."""

    success: bool
    toolCallId: str | None = None
    result: Result | None = None
    error: msgspec.Raw = msgspec.Raw()
    parentToolCallId: str | None = None


class End(msgspec.Struct, tag_field="type", tag="tool.execution_complete", gc=False):
    """A ``tool.execution_complete`` with a verdict, once the model is known."""

    data: EndData
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class Tokens(msgspec.Struct, gc=False):
    """An ``assistant.usage``'s counts the translator sums (``_USAGE_KEYS``, in order)."""

    inputTokens: Int64 | None = None
    outputTokens: Int64 | None = None
    cacheReadTokens: Int64 | None = None
    cacheWriteTokens: Int64 | None = None
    reasoningTokens: Int64 | None = None


class Usage(msgspec.Struct, tag_field="type", tag="assistant.usage", gc=False):
    """An ``assistant.usage`` (a quiet record whose counts are summed)."""

    data: Tokens | None = None
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class Quiet(msgspec.Struct, tag_field="type", gc=False):
    """The base of a quiet record's struct (a record of the CLI's own state: its time
    read, nothing shown)."""

    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


decode_delta_line = hot_decoder(DeltaLine)
_HOT = (MessageDelta, ReasoningDelta, Message, Start, End)
decode_hot = msgspec.json.Decoder(Union[_HOT]).decode  # noqa: UP007
"""Once the model is known: a Copilot run's usual records, told apart by their ``type``
in C (another type raises ``msgspec.ValidationError``, a :data:`HOT_DECODE_ERRORS`)."""


@functools.cache
def wide_decoder(quiet: frozenset[str]) -> Callable[[bytes], Any]:
    """:data:`decode_hot` that reads the ``quiet`` record types too (``assistant.usage``
    into :class:`Usage`, any other into a :class:`Quiet` of its own): made for a run
    once it shows a line of another type (a struct a type, about 2 ms, that a run of
    deltas and tools alone does not pay)."""
    own = [
        msgspec.defstruct("Quiet", [], bases=(Quiet,), tag=kind, gc=False)
        for kind in sorted(quiet - {"assistant.usage"})
    ]
    return msgspec.json.Decoder(Union[(*_HOT, Usage, *own)]).decode


DELTA_STARTS = (b'{"type":"assistant.message_delta"', b'{"type":"assistant.reasoning_delta"')
"""How the Copilot CLI starts a delta's line (``type`` is written first)."""


def model_named(data: LeanData) -> str | None:
    """The first model a delta names, in the order the translator looks for one
    (none, for a :class:`LeanData`)."""
    if not isinstance(data, DeltaData):
        return None
    return data.selectedModel or data.chosenModel or data.newModel or data.model or None
