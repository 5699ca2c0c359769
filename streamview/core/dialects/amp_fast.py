"""Amp's hot lines read straight from their bytes, for the fold's fast path.

A tool-heavy Amp run is an ``assistant`` message of one text or one ``tool_use`` block,
then a ``user`` message of one ``tool_result``, over and over.
:meth:`AmpTranslator.fast_line` decodes such a line into the structs below, which hold
only the fields :meth:`ClaudeLikeTranslator.fast
<streamview.core.dialects.claude_like.ClaudeLikeTranslator.fast>` reads (``msgspec``
skips the rest in C and checks the types on the way), and takes it apart as ``fast``
does from the decoded dict. A field of another type declines the line, which is then
decoded in full and read by ``fast``; so does a call's ``input`` holding a value
``msgspec`` would not read as ``orjson`` does (a float: ``orjson`` reads an integer past
64 bits as one) or nesting deeper than a list of flat objects.
"""

from __future__ import annotations

from typing import Any

import msgspec

from streamview.core.dialects.amp_tools import KINDS, call_shape, ended, kind_of
from streamview.core.dialects.claude_like import ClaudeLikeTranslator, ToolMap
from streamview.core.dialects.claude_tools import result_text
from streamview.core.dialects.droid_fast import Parameter
from streamview.core.events import JSONObject
from streamview.core.fast_path import (
    HOT_DECODE_ERRORS,
    ONE_TARGET_ARG,
    FastRecord,
    Int64,
    hot_decoder,
)


class Usage(msgspec.Struct, gc=False):
    """An assistant message's usage: the counts :func:`~.claude_like.usage_of` keeps."""

    input_tokens: Int64 | None = None
    output_tokens: Int64 | None = None
    cache_read_input_tokens: Int64 | None = None
    cache_creation_input_tokens: Int64 | None = None
    total_tokens: Int64 | None = None


class SaidBlock(msgspec.Struct, gc=False):
    """A ``text`` or ``tool_use`` block of an assistant message."""

    type: str | None = None
    text: str | None = None
    id: str | None = None
    name: str | None = None
    input: dict[str, Parameter] | None = None
    """A call's input, decoded with its line where ``msgspec`` reads it as ``orjson``
    does (:data:`~.droid_fast.Parameter`); any other value declines the line."""


class SaidMessage(msgspec.Struct, gc=False):
    """An assistant ``message``'s fields the fast path reads."""

    model: str | None = None
    id: str | None = None
    content: list[SaidBlock] | None = None
    usage: Usage | None = None


class AssistantLine(msgspec.Struct, gc=False):
    """An ``assistant`` record's fields the fast path reads; the rest is skipped."""

    type: str | None = None
    session_id: str | None = None
    parent_tool_use_id: str | None = None
    timestamp: Any = None
    message: SaidMessage | None = None
    streamview_recv_ms: Int64 | None = None


class Result(msgspec.Struct, gc=False):
    """A ``tool_result`` block (its ``content`` is only read for its text)."""

    type: str | None = None
    tool_use_id: str | None = None
    is_error: Any = None
    content: Any = None


class ResultMessage(msgspec.Struct, gc=False):
    """A user ``message``'s blocks."""

    content: list[Result] | None = None


class UserLine(msgspec.Struct, gc=False):
    """A ``user`` record's fields the fast path reads; the rest is skipped."""

    type: str | None = None
    session_id: str | None = None
    parent_tool_use_id: str | None = None
    timestamp: Any = None
    tool_use_result: msgspec.Raw = msgspec.Raw()
    message: ResultMessage | None = None
    streamview_recv_ms: Int64 | None = None


decode_assistant = hot_decoder(AssistantLine)
decode_user = hot_decoder(UserLine)
_NO_CALL: tuple[str, JSONObject] = ("", {})
"""A result's call never seen start (its args: never changed)."""
ASSISTANT_START = b'{"type":"assistant"'
USER_START = b'{"type":"user"'
"""How ``amp --stream-json`` starts those lines (``type`` is written first)."""


def _said(usage: Usage) -> bool:
    """Whether :func:`_usage` of it is not ``None`` (a usage of no count is not kept)."""
    return (
        usage.input_tokens is not None
        or usage.output_tokens is not None
        or usage.cache_read_input_tokens is not None
        or usage.cache_creation_input_tokens is not None
        or usage.total_tokens is not None
    )


def _usage(usage: Usage | None) -> JSONObject | None:
    """:func:`~.claude_like.usage_of` of the typed usage (its keys in the same order)."""
    if usage is None:
        return None
    found: JSONObject = {}
    if usage.input_tokens is not None:
        found["inputTokens"] = usage.input_tokens
    if usage.output_tokens is not None:
        found["outputTokens"] = usage.output_tokens
    if usage.cache_read_input_tokens is not None:
        found["cacheReadTokens"] = usage.cache_read_input_tokens
    if usage.cache_creation_input_tokens is not None:
        found["cacheWriteTokens"] = usage.cache_creation_input_tokens
    if usage.total_tokens is not None:
        found["totalTokens"] = usage.total_tokens
    return found or None


class AmpTranslator(ClaudeLikeTranslator):
    """Amp's stream, read as Claude Code's (:class:`ClaudeLikeTranslator`), its hot
    lines taken apart from their bytes."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoders), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    def __init__(self, name: str, tools: ToolMap) -> None:
        super().__init__(name, tools)
        self._inner_calls = self._inner._calls
        """What Claude Code's translator keeps of each open call: the fast path keeps
        it as ``start_call`` and ``forget_call`` do, without their calls."""
        self._typed_usage: dict[str, Any] = self._usage
        """:attr:`_usage`, where the fast path keeps a message's :class:`Usage` as it
        was read (:meth:`_summed_usage` reads both kinds)."""

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """:meth:`ClaudeLikeTranslator.fast`, the calls started fast settled first."""
        if self._unread:
            self._settle()
        return super().fast(record, line)

    def _summed_usage(self) -> JSONObject | None:
        """:meth:`ClaudeLikeTranslator._summed_usage`, the usages the fast path kept
        typed (:class:`Usage`, none of them empty) read as :func:`_usage` reads them."""
        total: JSONObject = {}
        for kept in self._typed_usage.values():
            usage = _usage(kept) if kept.__class__ is Usage else kept
            for key, value in (usage or {}).items():
                total[key] = total.get(key, 0) + value
        return total or None

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: an assistant message of one text
        or one ``tool_use``, or a user message of one successful ``tool_result``, read
        into typed structs; Claude Code's partial messages as Claude reads them; any
        other line is declined (decoded in full).

        An assistant message is read here, in the body (two lines in three of a
        tool-heavy run: a method of its own was one more call each)."""
        if not data.startswith(ASSISTANT_START):
            if data.startswith(USER_START):
                return self._result_line(data, line)
            return self._inner.fast_line(data, line)
        try:
            hot = decode_assistant(data)
        except HOT_DECODE_ERRORS:
            return None
        message = hot.message
        if hot.type != "assistant" or message is None or hot.timestamp is not None:
            return None
        content = message.content
        if content is None or len(content) != 1:
            return None
        block = content[0]
        parent = hot.parent_tool_use_id
        model = message.model
        if parent is None and model is not None and self._inner.names_model({"model": model}):
            return None  # the session's model, named here: an event of its own
        block_type = block.type
        if block_type == "text" and parent is None:
            text = block.text
            if text is None:
                return None
            usage = message.usage
            if usage is not None and _said(usage):
                # Kept typed: made a dict only if the run's ``result`` has no usage.
                self._typed_usage[message.id or f"<line {line}>"] = usage
            return "assistant", False, text, None, hot.session_id, None, hot.streamview_recv_ms
        call_id = block.id
        if block_type != "tool_use" or not call_id:
            return None
        given = block.input
        name = block.name or "unknown"
        kind, args, description = call_shape(name, given)
        # What ``start_call`` keeps of it, as Claude Code reads it, made if it is read.
        self._unread[call_id] = (name, given)
        self._calls[call_id] = (name, args)
        usage = message.usage
        if parent is None and usage is not None and _said(usage):
            self._typed_usage[message.id or f"<line {line}>"] = usage
        key = ONE_TARGET_ARG.get(kind)
        if key is None:  # the fold works the target out
            # fmt: off
            fields: tuple[Any, ...] = (
                None, None, call_id, kind, args, None, None, None, None, None, description,
                parent,
            )
            # fmt: on
        else:  # and hands it over, as ``tools.target_of`` finds it: one string argument
            target = args.get(key)
            # fmt: off
            fields = (
                None, None, call_id, kind, args, None, None, None, None, None, description,
                parent, target if target.__class__ is str and target else None,
            )
            # fmt: on
        return "tool_call", "started", fields, None, hot.session_id, None, hot.streamview_recv_ms

    def _result_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`_fast_result` of the typed line."""
        try:
            hot = decode_user(data)
        except HOT_DECODE_ERRORS:
            return None
        message = hot.message
        if hot.type != "user" or message is None or hot.tool_use_result:
            return None
        content = message.content
        if content is None or len(content) != 1:
            return None
        block = content[0]
        call_id = block.tool_use_id
        if (
            block.type != "tool_result"
            or block.is_error is True
            or not call_id
            or call_id in self._done
            or hot.timestamp is not None
            or self._own is not None
        ):
            return None
        self._unread.pop(call_id, None)  # ``forget_call``, whether read or not
        inner_calls = self._inner_calls
        if inner_calls:  # a call Claude Code's translator read (after a line declined)
            inner_calls.pop(call_id, None)
        self._done.add(call_id)
        name, args = self._calls.pop(call_id, _NO_CALL)
        kind = KINDS.get(name) or kind_of(name)  # a known name's without a call
        text = block.content
        if text.__class__ is not str:
            text = result_text(text)
        payload = ended(kind, args, text)  # Amp's tools (its only ToolMap)
        parent = hot.parent_tool_use_id
        fields = (
            None,
            None,
            call_id,
            kind,
            None,
            "success",
            payload,
            None,
            None,
            None,
            None,
            parent,
        )
        return "tool_call", "completed", fields, None, hot.session_id, None, hot.streamview_recv_ms
