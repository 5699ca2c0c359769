"""Claude Code's ``claude -p --output-format stream-json --verbose``.

Records (one JSON object a line):

- ``system/init``: ``session_id``, ``model``, ``cwd``, ``tools``, ``mcp_servers``,
  ``permissionMode``, ``apiKeySource``; ``system/api_retry`` is a retry notice.
- ``assistant``: ``message.content`` holds ``text``, ``thinking`` and ``tool_use``
  blocks (usually one block a record). A ``tool_use`` starts a call whose id is the
  block's ``id``.
- ``user``: ``tool_result`` blocks complete calls by ``tool_use_id`` (``is_error``
  for failures and refused permissions), with the record's ``tool_use_result``
  holding Claude Code's structured account of the result; a plain string is a prompt.
- ``stream_event`` (``--include-partial-messages``): the API's own stream events;
  ``content_block_delta`` text and thinking deltas grow the transcript live, and the
  complete ``assistant`` record that follows replaces what they built.
- ``result``: the run's outcome (``success``, ``error_max_turns``,
  ``error_during_execution``), ``total_cost_usd``, ``num_turns``, durations, usage,
  ``permission_denials``.

Records with a ``parent_tool_use_id`` come from a subagent working for that ``Task``
call: their calls carry it as ``parent_call_id``.

Everything else Claude Code prints is about its own work (hooks, status, rate limits,
compaction, tasks...): :mod:`.claude_records` says what each means. The model comes
from ``init``, else from the first assistant message (or ``message_start``) naming it.
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.claude_tools as tools
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude_fast import fast_line, fast_message, fast_result
from streamview.core.dialects.claude_records import ClaudeRecords, recognises
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
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
from streamview.core.fast_path import FastRecord
from streamview.core.fields import as_int, as_str, iso_ms

NAME = "claude"
_INIT_KEYS = frozenset(
    {"type", "subtype", "session_id", "model", "cwd", "permissionMode", "apiKeySource"}
)


class ClaudeTranslator:
    """One Claude Code stream, remembering each call's tool and the open partial text."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoders), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    def __init__(self) -> None:
        self._calls: dict[str, tuple[str, JSONObject]] = {}
        """Call id to its tool name and arguments (kept for the result's shape)."""
        self._denied: set[str] = set()
        """Calls whose result said they were refused (the ``result`` lists them again)."""
        self._streamed_thinking = False
        """Thinking deltas arrived; the complete thinking block only closes them."""
        self._model: str | None = None
        """The model the stream named so far (``init``, else an assistant message)."""
        self._records = ClaudeRecords()
        """Records about Claude Code's own work (hooks, rate limits, tasks...)."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Claude Code record stands for (see ``Translator``)."""
        kind = record.get("type")
        sid = record.get("session_id")
        if sid.__class__ is not str:
            sid = None
        stamp = record.get("timestamp")
        ts = None if stamp is None else iso_ms(stamp)
        if kind == "stream_event":  # most of a run with partial messages: first
            streamed = self._stream_event(record, line, sid, ts, recv_ms)
            if streamed:
                return streamed
        if not isinstance(kind, str):
            return [
                MalformedLine(
                    line,
                    sid,
                    None,
                    recv_ms,
                    reason="no 'type' field" if kind is None else "'type' is not a string",
                )
            ]
        subtype = as_str(record.get("subtype"))
        events: list[AnyEvent] | None = None
        if kind == "system" and subtype == "init":
            events = [self._init(record, line, sid, ts, recv_ms)]
        elif kind == "system" and subtype == "api_retry":
            events = [
                ConnectionNotice(
                    line,
                    sid,
                    ts,
                    recv_ms,
                    type="retry",
                    subtype=subtype,
                    attempt=as_int(record.get("attempt")),
                    detail=as_str(record.get("error")) or as_str(str(record.get("error_status"))),
                )
            ]
        elif kind == "assistant":
            events = self._assistant(record, line, sid, ts, recv_ms)
        elif kind == "user":
            events = self._user(record, line, sid, ts, recv_ms)
        elif kind == "result":
            events = self._result(record, line, sid, ts, recv_ms)
        else:
            events = self._records.translate(record, line, sid, ts, recv_ms)
        if not events:
            return [
                UnknownRecord(line, sid, ts, recv_ms, type=kind, subtype=subtype, record=record)
            ]
        return events

    def _init(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> AnyEvent:
        self._model = as_str(record.get("model")) or self._model
        return SessionStarted(
            line,
            sid,
            ts,
            recv,
            model=as_str(record.get("model")),
            cwd=as_str(record.get("cwd")),
            permission_mode=as_str(record.get("permissionMode")),
            api_key_source=as_str(record.get("apiKeySource")),
            agent=NAME,
            extra={k: v for k, v in record.items() if k not in _INIT_KEYS},
        )

    def _assistant(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            return None
        parent = as_str(record.get("parent_tool_use_id"))
        events: list[AnyEvent] = self._named_model(message, parent, line, sid, ts, recv)
        for block in content:
            block_type = block.get("type") if isinstance(block, dict) else None
            if block_type == "text" and isinstance(block.get("text"), str):
                text = block["text"]
                if parent is not None:
                    # A subagent's narration is not the answer: shown as its reasoning.
                    events.append(ThinkingDelta(line, sid, ts, recv, text=text))
                    events.append(ThinkingCompleted(line, sid, ts, recv))
                    continue
                # Replaces what this block's deltas built (never shown twice).
                events.append(AssistantMessage(line, sid, ts, recv, text=text, delta=False))
            elif block_type == "thinking":
                text = as_str(block.get("thinking")) or ""
                if not self._streamed_thinking and text:
                    events.append(ThinkingDelta(line, sid, ts, recv, text=text))
                events.append(ThinkingCompleted(line, sid, ts, recv))
                self._streamed_thinking = False
            elif block_type == "redacted_thinking":
                events.append(ThinkingCompleted(line, sid, ts, recv))
            elif block_type in ("tool_use", "server_tool_use"):
                events.append(self._started(block, line, sid, ts, recv, parent))
            else:
                events.append(
                    UnknownRecord(
                        line,
                        sid,
                        ts,
                        recv,
                        type="assistant",
                        subtype=str(block_type) if block_type is not None else None,
                        record=record,
                    )
                )
        if not events:  # an empty message: nothing to show, but the line is read
            events.append(ThinkingCompleted(line, sid, ts, recv))
        return events

    def _named_model(
        self,
        message: Any,
        parent: str | None,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
    ) -> list[AnyEvent]:
        """The model an assistant message names (:meth:`names_model`), as an event."""
        if parent is not None or not isinstance(message, dict) or not self.names_model(message):
            return []
        self._model = model = message["model"]
        return [SessionStarted(line, sid, ts, recv, model=model, agent=NAME, inferred=True)]

    def _started(
        self,
        block: JSONObject,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
        parent: str | None,
    ) -> AnyEvent:
        name, call_id, args = self.start_call(block, line, sid, recv, parent)
        return ToolCallEvent(
            line,
            sid,
            ts,
            recv,
            completed=False,
            call_id=call_id,
            kind=tools.kind_of(name),
            args=args,
            description=tools.description_of(name, block.get("input")),
            parent_call_id=parent,
        )

    def _user(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        parent = as_str(record.get("parent_tool_use_id"))
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            return None
        events: list[AnyEvent] = []
        texts: list[str] = []
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                structured = record.get("tool_use_result") if len(results) == 1 else None
                events.append(self._completed(block, structured, line, sid, ts, recv, parent))
            elif block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
        if texts and parent is None:
            events.append(PromptSubmitted(line, sid, ts, recv, text="\n".join(texts)))
        elif texts:
            # A subagent's prompt: the Task call's ``prompt`` argument holds it too.
            events.append(ThinkingCompleted(line, sid, ts, recv))
        return events or None

    def _completed(
        self,
        block: JSONObject,
        structured: Any,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
        parent: str | None,
    ) -> AnyEvent:
        call_id = as_str(block.get("tool_use_id")) or f"<line {line}>"
        name, args = self._calls.pop(call_id, ("", {}))
        kind = tools.kind_of(name) if name else "unknown"
        text = tools.result_text(block.get("content"))
        outcome: str
        payload: Any
        if block.get("is_error") is True:
            outcome, payload = tools.error_outcome(kind, text)
            if outcome == "rejected":
                self._denied.add(call_id)
        else:
            outcome, payload = "success", tools.success_payload(kind, args, text, structured)
        return ToolCallEvent(
            line,
            sid,
            ts,
            recv,
            completed=True,
            call_id=call_id,
            kind=kind,
            outcome=outcome,
            payload=payload,
            parent_call_id=parent,
        )

    def names_model(self, message: JSONObject) -> bool:
        """Whether a session's (no subagent's) assistant ``message`` names a model not
        named yet (no ``init``, or one without); ``<synthetic>`` (an API error) is none."""
        model = as_str(message.get("model"))
        return self._model is None and model is not None and not model.startswith("<")

    def start_call(
        self, block: JSONObject, line: int, sid: str | None, recv: int | None, parent: str | None
    ) -> tuple[str, str, JSONObject]:
        """A ``tool_use`` block begun, kept for its result: its name, call id and args."""
        name = as_str(block.get("name")) or "unknown"
        call_id = as_str(block.get("id")) or f"<line {line}>"
        self._calls[call_id] = (name, tools.args_of(name, block.get("input")))
        return name, call_id, self._calls[call_id][1]

    def forget_call(self, call_id: str) -> None:
        """A call whose result a translator around this one read itself: ended here too."""
        self._calls.pop(call_id, None)

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A text or thinking delta of the partial messages, an assistant message of
        one text or call, or a call's successful result, for the fold's fast path."""
        kind = record.get("type")
        if kind != "stream_event":
            if kind == "assistant":
                return fast_message(self, record, line)
            if kind == "user":
                return fast_result(self, record, line)
            return None
        event = record.get("event")
        if event.__class__ is not dict or event.get("type") != "content_block_delta":
            return None
        delta = event.get("delta")
        recv = record.get(RECV_KEY)
        if delta.__class__ is not dict or (recv is not None and recv.__class__ is not int):
            return None
        return self._delta(
            delta.get("type"),
            delta.get("text"),
            delta.get("thinking"),
            record.get("parent_tool_use_id"),
            record.get("session_id"),
            record.get("timestamp"),
            recv,
        )

    fast_line = fast_line  # claude_fast.fast_line: a delta read from its bytes

    def _delta(
        self,
        delta_type: Any,
        text: Any,
        thinking: Any,
        parent: Any,
        sid: Any,
        stamp: Any,
        recv: int | None,
    ) -> FastRecord | None:
        """A ``content_block_delta``'s fast record, from its fields (as
        :meth:`_stream_event` reads them); ``None`` for any other delta."""
        subtype: bool | str
        if delta_type == "text_delta":
            if parent is not None:
                return None
            kind, subtype, value = "assistant", True, text
        elif delta_type == "thinking_delta":
            self._streamed_thinking = True
            kind, subtype, value = "thinking", "delta", thinking
        else:
            return None
        return (
            kind,
            subtype,
            value if value.__class__ is str and value else "",
            None,
            sid if sid.__class__ is str else None,
            None if stamp is None else iso_ms(stamp),
            recv,
        )

    def _stream_event(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        event = record.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return None
        if event["type"] == "message_start" and self._model is None:
            named = self._named_model(
                event.get("message"), as_str(record.get("parent_tool_use_id")), line, sid, ts, recv
            )
            if named:  # and the line's own (silent) event, which counts it
                return [*named, ThinkingCompleted(line, sid, ts, recv)]
        if event["type"] == "content_block_delta":
            delta = event.get("delta")
            delta_type = delta.get("type") if isinstance(delta, dict) else None
            if delta_type == "text_delta" and isinstance(delta, dict):
                if record.get("parent_tool_use_id") is None:
                    text = as_str(delta.get("text")) or ""
                    return [AssistantMessage(line, sid, ts, recv, text=text, delta=True)]
            elif delta_type == "thinking_delta" and isinstance(delta, dict):
                self._streamed_thinking = True
                text = as_str(delta.get("thinking")) or ""
                return [ThinkingDelta(line, sid, ts, recv, text=text)]
        # The stream's bookkeeping (message and block starts and stops, tool input
        # fragments, signatures): the complete records that follow say it all.
        # Nothing to show; closing an open thinking block is all a block edge means.
        return [ThinkingCompleted(line, sid, ts, recv)]

    def _result(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        events: list[AnyEvent] = []
        denials = record.get("permission_denials")
        for denial in denials if isinstance(denials, list) else []:
            call_id = as_str(denial.get("tool_use_id")) if isinstance(denial, dict) else None
            if call_id is None:
                continue
            if call_id in self._denied:
                continue  # its result already said it was refused
            name = as_str(denial.get("tool_name")) or ""
            events.append(
                ToolCallEvent(
                    line,
                    sid,
                    ts,
                    recv,
                    completed=True,
                    call_id=call_id,
                    kind=tools.kind_of(name) if name else "unknown",
                    args=tools.args_of(name, denial.get("tool_input")),
                    outcome="rejected",
                    payload={"reason": "permission denied"},
                )
            )
        errors = record.get("errors")
        messages = [e for e in errors if isinstance(e, str)] if isinstance(errors, list) else []
        result = as_str(record.get("result"))
        is_error = record.get("is_error") is True
        message = "\n".join(messages) or (result if is_error else None)
        usage = record.get("usage")
        cost = record.get("total_cost_usd")
        events.append(
            RunResult(
                line,
                sid,
                ts,
                recv,
                subtype=as_str(record.get("subtype")) or "success",
                is_error=is_error,
                duration_ms=as_int(record.get("duration_ms")),
                duration_api_ms=as_int(record.get("duration_api_ms")),
                result=result,
                usage=usage if isinstance(usage, dict) else None,
                total_cost_usd=float(cost)
                if isinstance(cost, int | float) and not isinstance(cost, bool)
                else None,
                num_turns=as_int(record.get("num_turns")),
                message=message,
            )
        )
        return events


def _has_block(record: JSONObject, block_type: str) -> bool:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == block_type for block in content
    )


def detect(record: JSONObject) -> bool:
    """Claude Code's ``system/init`` (with ``tools`` or ``mcp_servers``), a record only
    Claude Code prints (a hook, a ``rate_limit_event``...), a ``stream_event``, an
    ``assistant`` message using a tool, or a ``tool_result``."""
    kind = record.get("type")
    if kind == "system" and record.get("subtype") == "init":
        return "tools" in record or "mcp_servers" in record
    if recognises(record):
        return True
    if kind == "stream_event":
        return isinstance(record.get("event"), dict)
    if kind == "assistant":
        return _has_block(record, "tool_use")
    if kind == "user":
        return _has_block(record, "tool_result")
    return False


DIALECT = Dialect(name=NAME, label="Claude Code", detect=detect, translator=ClaudeTranslator)
