"""Agents whose stream is Claude Code's, with their own name and tools (Qwen Code, Amp).

Qwen Code's ``--output-format stream-json`` and Amp's ``--stream-json`` print Claude
Code's records (``system/init``, ``assistant`` and ``user`` messages with ``tool_use``
and ``tool_result`` blocks, ``stream_event`` partial messages, ``result``), but name
their tools differently and say some things their own way. A
:class:`ClaudeLikeTranslator` reads the stream with Claude Code's translator (so what
Claude Code's dialect learns, these learn too) and rewrites what differs: the agent's
name in ``SessionStarted``, each call's kind, arguments and result through the agent's
:class:`ToolMap`, and an error ``result`` whose message is not where Claude Code puts it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.claude import ClaudeTranslator
from streamview.core.dialects.claude_fast import one_result
from streamview.core.dialects.claude_tools import args_of as claude_args_of
from streamview.core.dialects.claude_tools import result_text
from streamview.core.events import (
    AnyEvent,
    JSONObject,
    RunResult,
    SessionStarted,
    ToolCallEvent,
)
from streamview.core.fast_path import FastRecord
from streamview.core.fields import as_str
from streamview.core.tools import Said


class ToolMap(msgspec.Struct, frozen=True):
    """How one agent's tools are shown: its names and arguments in streamview's kinds."""

    kind_of: Callable[[str], str]
    """A tool name's kind (``read``, ``shell``, ``mcp``...), or the name itself."""
    args_of: Callable[[str, Any], JSONObject]
    """A ``tool_use`` block's ``input`` in the argument shape of the tool's kind."""
    description_of: Callable[[str, Any], str | None]
    """What the model said a call is for, if its input says it."""
    error_outcome: Callable[[str, str], tuple[str, JSONObject]]
    """``(outcome, payload)`` of a ``tool_result`` with ``is_error: true`` (kind, text)."""
    success_payload: Callable[[str, JSONObject, str], JSONObject]
    """The ``success`` payload of a call (kind, arguments, result text)."""
    success_said: Callable[[str, JSONObject, str], Said | None] = lambda *_: None
    """That payload's summary counted from the text (kind, arguments, result text),
    where the agent's tools count one without the payload (the fold's fast path)."""


Rewrite = Callable[[JSONObject, int, str | None, int | None], list[AnyEvent] | None]
"""An agent's own reading of a record Claude Code's translator does not know."""


def _blocks(record: JSONObject, block_type: str, key: str) -> dict[str, JSONObject]:
    """The record's content blocks of ``block_type``, by their ``key`` (an id)."""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    found: dict[str, JSONObject] = {}
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == block_type:
            ident = block.get(key)
            if isinstance(ident, str):
                found[ident] = block
    return found


_USAGE_KEYS = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "cache_read_input_tokens": "cacheReadTokens",
    "cache_creation_input_tokens": "cacheWriteTokens",
    "total_tokens": "totalTokens",
}
"""Anthropic's ``usage`` keys and the ones the header and ``--json`` read (Cursor's)."""


_USAGE_PAIRS = tuple(_USAGE_KEYS.items())


def usage_of(usage: Any) -> JSONObject | None:
    """An Anthropic-style ``usage`` object with Cursor's key names, or ``None``."""
    if not isinstance(usage, dict):
        return None
    found: JSONObject = {}
    for key, name in _USAGE_PAIRS:
        value = usage.get(key)
        if value.__class__ is int or (isinstance(value, int) and value.__class__ is not bool):
            found[name] = value
    return found or None


def error_message(record: JSONObject) -> str | None:
    """An error ``result``'s message: ``error.message`` (Qwen) or ``error`` (Amp)."""
    error = record.get("error")
    if isinstance(error, dict):
        return as_str(error.get("message"))
    return as_str(error)


class ClaudeLikeTranslator:
    """One stream of a Claude-like agent (see the module's docstring).

    Args:
        name: The agent's dialect name (``SessionStarted.agent``).
        tools: How the agent's tools are shown.
        own: The agent's reading of records Claude Code's translator leaves unknown
            (Qwen's ``system/model_fallback``...), tried first: it wins over Claude's.
        init_keys: ``system/init`` keys shown elsewhere than in its extra fields.
    """

    fast_line_ended = True
    """:meth:`fast_line` is Claude Code's, which reads a line with its ``\\n`` still on."""

    def __init__(
        self,
        name: str,
        tools: ToolMap,
        own: Rewrite | None = None,
        init_keys: frozenset[str] = frozenset(),
    ) -> None:
        self._inner = ClaudeTranslator()
        self._name = name
        self._tools = tools
        self._own = own
        self._init_keys = init_keys
        self._calls: dict[str, tuple[str, JSONObject]] = {}
        """Call id to its tool name and arguments (in the kind's shape)."""
        self._done: set[str] = set()
        """Calls already completed (a ``result``'s permission denials repeat some)."""
        self._usage: dict[str, JSONObject] = {}
        """Each assistant message's usage, by message id (or line), for a ``result``
        that carries none (Amp's)."""
        self._unread: dict[str, tuple[str, Any]] = {}
        """Calls the fast path started, each its name and input, whose Claude Code
        reading (``start_call``'s arguments) is not made yet: most calls end on the fast
        path, which forgets them unread; :meth:`translate` reads the rest first
        (:meth:`_settle`)."""

    def _settle(self) -> None:
        """Give Claude Code's translator what ``start_call`` would have kept of each
        call the fast path started, in the order they started, before it reads a
        record itself."""
        inner_calls = self._inner._calls
        for call_id, (name, given) in self._unread.items():
            inner_calls[call_id] = (name, claude_args_of(name, given))
        self._unread.clear()

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one record stands for (see ``Translator``)."""
        if self._unread:
            self._settle()
        kind = record.get("type")
        if self._own is not None and kind != "assistant":
            # The agent's own reading of a record wins over Claude Code's: Qwen's
            # ``system/model_fallback`` has other fields than Claude's of that name.
            own = self._own(record, line, as_str(record.get("session_id")), recv_ms)
            if own:
                return own
        events = self._inner.translate(record, line, recv_ms)
        if kind == "assistant":
            self._note_usage(record, line)
        out: list[AnyEvent] = []
        for event in events:
            if isinstance(event, ToolCallEvent):
                rewritten = self._call(event, record)
                if rewritten is not None:
                    out.append(rewritten)
            elif isinstance(event, SessionStarted):
                out.append(self._init(event, record))
            elif isinstance(event, RunResult):
                out.append(self._result(event, record))
            else:
                out.append(event)
        return out or events[-1:]

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A partial message's text or thinking delta, as Claude Code reads it, or a
        call's result (:meth:`_fast_result`)."""
        kind = record.get("type")
        if kind == "user":
            return self._fast_result(record, line)
        if kind == "assistant":
            return self._fast_message(record, line)
        return self._inner.fast(record, line)

    def _fast_message(self, record: JSONObject, line: int) -> FastRecord | None:
        """An ``assistant`` record of one text or one ``tool_use`` block (two thirds of a
        tool-heavy run) for the fold's fast path, as :meth:`translate` reads it. A
        subagent's text, a model not yet named, a time stamp go the long way."""
        message: Any = record.get("message")
        content = message.get("content") if message.__class__ is dict else None
        if content.__class__ is not list or len(content) != 1:
            return None
        block = content[0]
        recv = record.get(RECV_KEY)
        if (
            block.__class__ is not dict
            or record.get("timestamp") is not None
            or (recv is not None and recv.__class__ is not int)
        ):
            return None
        parent = as_str(record.get("parent_tool_use_id"))
        if parent is None and self._inner.names_model(message):
            return None  # the session's model, named here: an event of its own
        sid = record.get("session_id")
        if sid.__class__ is not str:
            sid = None
        block_type = block.get("type")
        if block_type == "text" and parent is None:
            text = block.get("text")
            if text.__class__ is not str:
                return None
            if message.get("usage") is not None:  # none: nothing to note (most calls)
                self._note_usage(record, line)
            return "assistant", False, text, None, sid, None, recv
        call_id = block.get("id")
        if block_type != "tool_use" or call_id.__class__ is not str or not call_id:
            return None
        tools = self._tools
        name = as_str(block.get("name")) or "unknown"
        given = block.get("input")
        args = tools.args_of(name, given)
        kind = tools.kind_of(name)
        description = tools.description_of(name, given)
        self._unread[call_id] = (name, given)  # Claude Code's reading, made if it is read
        self._calls[call_id] = (name, args)
        if message.get("usage") is not None:
            self._note_usage(record, line)
        fields = (None, None, call_id, kind, args, None, None, None, None, None, description)
        return "tool_call", "started", (*fields, parent), None, sid, None, recv

    def _fast_result(self, record: JSONObject, line: int) -> FastRecord | None:
        """A ``user`` record of one successful ``tool_result`` (a third of a tool-heavy
        run) for the fold's fast path, as :meth:`translate` reads it, its payload
        summarised from the text where the agent's tools can (``ToolMap.success_said``).
        Claude Code's own reading of the result, which :meth:`_call` replaces, is not
        made. Anything else (an error, Claude Code's ``tool_use_result``, a time stamp,
        a call already ended) goes the long way."""
        taken = None if "tool_use_result" in record else one_result(record)
        if taken is None:
            return None
        block, call_id, recv = taken
        if call_id in self._done or record.get("timestamp") is not None:
            return None
        sid = record.get("session_id")
        if sid.__class__ is not str:
            sid = None
        if self._own is not None and self._own(record, line, sid, recv):
            return None
        parent = as_str(record.get("parent_tool_use_id"))
        self._unread.pop(call_id, None)  # ``forget_call``, whether read or not
        self._inner.forget_call(call_id)
        self._done.add(call_id)
        name, args = self._calls.pop(call_id, ("", {}))
        tools = self._tools
        kind = tools.kind_of(name) if name else "unknown"
        text = result_text(block.get("content"))
        payload = tools.success_said(kind, args, text) or tools.success_payload(kind, args, text)
        fields = (None, None, call_id, kind, None, "success", payload, None, None, None, None)
        return "tool_call", "completed", (*fields, parent), None, sid, None, recv

    @property
    def fast_line(self) -> Callable[[bytes, int], FastRecord | None]:
        """:meth:`fast` for a line not yet decoded, as Claude Code reads it: Claude's
        own method (the fold looks it up once; a method of this class calling it was
        one more Python call on 9 lines in 10 of a Qwen run, issue 30.8)."""
        return self._inner.fast_line

    def _init(self, event: SessionStarted, record: JSONObject) -> SessionStarted:
        mode = as_str(record.get("permission_mode")) or event.permission_mode
        extra = {k: v for k, v in event.extra.items() if k not in self._init_keys}
        return replace(event, agent=self._name, permission_mode=mode, extra=extra)

    def _call(self, event: ToolCallEvent, record: JSONObject) -> ToolCallEvent | None:
        tools = self._tools
        call_id = event.call_id
        if not event.completed:
            block = _blocks(record, "tool_use", "id").get(call_id) or {}
            name = as_str(block.get("name")) or "unknown"
            given = block.get("input")
            args = tools.args_of(name, given)
            self._calls[call_id] = (name, args)
            return replace(
                event,
                kind=tools.kind_of(name),
                args=args,
                description=tools.description_of(name, given),
            )
        if call_id in self._done:
            return None  # a result's permission denial repeats a call already shown ended
        self._done.add(call_id)
        result = _blocks(record, "tool_result", "tool_use_id").get(call_id)
        if result is None:  # a ``result``'s permission denial: the call was refused
            denial = next(
                (
                    d
                    for d in record.get("permission_denials") or []
                    if isinstance(d, dict) and d.get("tool_use_id") == call_id
                ),
                {},
            )
            name = as_str(denial.get("tool_name")) or ""
            return replace(
                event,
                kind=tools.kind_of(name) if name else "unknown",
                args=tools.args_of(name, denial.get("tool_input")),
            )
        name, args = self._calls.pop(call_id, ("", {}))
        kind = tools.kind_of(name) if name else "unknown"
        text = result_text(result.get("content"))
        if result.get("is_error") is True:
            outcome, payload = tools.error_outcome(kind, text)
        else:
            outcome, payload = "success", tools.success_payload(kind, args, text)
        return replace(event, kind=kind, outcome=outcome, payload=payload)

    def _note_usage(self, record: JSONObject, line: int) -> None:
        message = record.get("message")
        if not isinstance(message, dict) or record.get("parent_tool_use_id") is not None:
            return
        usage = usage_of(message.get("usage"))
        if usage:
            self._usage[as_str(message.get("id")) or f"<line {line}>"] = usage

    def _summed_usage(self) -> JSONObject | None:
        total: JSONObject = {}
        for usage in self._usage.values():
            for key, value in usage.items():
                total[key] = total.get(key, 0) + value
        return total or None

    def _result(self, event: RunResult, record: JSONObject) -> RunResult:
        usage = usage_of(record.get("usage")) or self._summed_usage()
        self._usage.clear()
        message = event.message
        if event.is_error and not message:
            message = error_message(record)
        return replace(event, usage=usage, message=message, result=event.result or message)
