"""GitHub Copilot CLI's ``copilot -p ... --output-format json``.

Every line but the last is a session event, as the Copilot SDK's generated
``nodejs/src/generated/session-events.ts`` (github/copilot-sdk) declares them:
``{"type", "data", "id", "timestamp" (ISO 8601), "parentId", "ephemeral"?,
"agentId"?}``. The ones read here:

- ``session.start`` (``sessionId``, ``selectedModel``, ``context.cwd``), often absent
  in ``-p`` runs; ``session.tools_updated`` and ``session.auto_mode_resolved`` name the
  model first (``model``, ``chosenModel``), ``model.call_start`` and
  ``assistant.message`` again.
- ``user.message`` (``content``): the prompt.
- ``assistant.message_delta`` (``messageId``, ``deltaContent``), then the whole
  ``assistant.message`` (``content``, ``toolRequests``, ``outputTokens``).
- ``assistant.reasoning_delta`` (``reasoningId``, ``deltaContent``), then the whole
  ``assistant.reasoning``.
- ``tool.execution_start`` / ``tool.execution_complete``: a call (see
  :mod:`streamview.core.dialects.copilot_tools`); ``parentToolCallId`` names the
  subagent call a call was made under.
- ``assistant.usage`` (``inputTokens``, ``outputTokens``, ``cacheReadTokens``,
  ``cacheWriteTokens``): one model call's usage, summed here (its ``cost`` is a
  billing multiplier, not money; the result's ``premiumRequests`` is kept).
- ``session.error`` / ``session.warning`` / ``session.info`` / ``model.call_failure`` /
  ``abort``: shown as notices.

The last line is ``{"type": "result", "sessionId", "exitCode", "usage":
{"premiumRequests", "totalApiDurationMs", "sessionDurationMs", "codeChanges"}}``.
Records that only track the CLI's own state (MCP servers connecting, skills loaded,
turns starting) are read and show nothing.
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.copilot_tools as tools
import streamview.core.dialects.shapes as shapes
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.copilot_fast import decode_hot
from streamview.core.dialects.copilot_lines import CopilotLines
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

NAME = "copilot"
QUIET = frozenset(
    {
        "session.mcp_server_status_changed",
        "session.mcp_servers_loaded",
        "mcp.tools.list_changed",
        "session.skills_loaded",
        "session.tools_updated",
        "session.auto_mode_resolved",
        "session.background_tasks_changed",
        "session.idle",
        "session.title_changed",
        "session.context_changed",
        "session.usage_info",
        "session.usage_checkpoint",
        "session.shutdown",
        "session.todos_changed",
        "session.plan_changed",
        "session.workspace_file_changed",
        "session.model_change",
        "session.mode_changed",
        "session.truncation",
        "session.compaction_start",
        "session.compaction_complete",
        "pending_messages.modified",
        "model.call_start",
        "assistant.turn_start",
        "assistant.turn_end",
        "assistant.intent",
        "assistant.idle",
        "assistant.message_start",
        "assistant.tool_call_delta",
        "assistant.streaming_delta",
        "assistant.usage",
        "tool.execution_progress",
        "tool.execution_partial_result",
        "tool.user_requested",
        "skill.invoked",
        "subagent.started",
        "subagent.completed",
        "subagent.failed",
        "subagent.selected",
        "subagent.deselected",
        "hook.start",
        "hook.end",
        "hook.progress",
        "permission.requested",
        "permission.completed",
    }
)
"""Records of the CLI's own state: read (the model, the usage), nothing shown."""
_MODEL_KEYS = ("selectedModel", "chosenModel", "newModel", "model")
_USAGE_KEYS = {
    "inputTokens": "inputTokens",
    "outputTokens": "outputTokens",
    "cacheReadTokens": "cacheReadTokens",
    "cacheWriteTokens": "cacheWriteTokens",
    "reasoningTokens": "reasoningTokens",
}


class CopilotTranslator(CopilotLines):
    """One Copilot CLI stream: its model, open calls, streamed texts and usage."""

    _QUIET = QUIET
    _QUIET_TYPES = frozenset(kind.encode() for kind in QUIET)

    def __init__(self) -> None:
        self._session: str | None = None
        self._model: str | None = None
        """The model the records have named so far."""
        self._started = False
        """A ``SessionStarted`` was given (it waits for the model, or for content)."""
        self._calls: dict[str, tuple[str, JSONObject]] = {}
        """Call id to its kind and arguments (the completion names neither)."""
        self._streamed: set[str] = set()
        """Message and reasoning ids whose deltas were shown."""
        self._usage: JSONObject = {}
        """Tokens of every model call (``assistant.usage``), summed. Its ``cost`` is a
        billing multiplier, not money: the run's cost is not in the stream."""
        self._error: str | None = None
        """The last ``session.error``'s message."""
        self._decode = decode_hot
        self._quiet_seen = 0

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Copilot CLI record stands for (see ``Translator``)."""
        kind = record.get("type")
        if not isinstance(kind, str):
            reason = "no 'type' field" if kind is None else "'type' is not a string"
            return [MalformedLine(line, self._session, None, recv_ms, reason=reason)]
        ts = iso_ms(record.get("timestamp")) if record.get("timestamp") is not None else None
        data = shapes.obj(record.get("data"))
        self._learn(kind, data)
        if kind in QUIET:
            return [ThinkingCompleted(line, self._session, ts, recv_ms)]
        events: list[AnyEvent] = []
        if not self._started and (kind in _HANDLERS or kind == "result"):
            self._started = True
            if kind == "session.start":
                self._session = as_str(data.get("sessionId"))
            elif kind == "result":
                self._session = as_str(record.get("sessionId"))
            cwd = as_str(shapes.obj(data.get("context")).get("cwd"))
            events.append(
                SessionStarted(
                    line, self._session, ts, recv_ms, model=self._model, cwd=cwd, agent=NAME
                )
            )
        if kind == "result":
            events.append(self._result(record, line, ts, recv_ms))
            return events
        handler = _HANDLERS.get(kind)
        found = handler(self, data, line, ts, recv_ms) if handler is not None else None
        if not found:
            found = [UnknownRecord(line, self._session, ts, recv_ms, type=kind, record=record)]
        return events + found

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A text or reasoning delta (most of a Copilot run) for the fold's fast path,
        once the session started, keeping what :meth:`translate` keeps of it (its
        message's id, a model it names). Any field of an unusual type goes the long
        way."""
        kind: Any = record.get("type")
        subtype: bool | str
        if kind == "assistant.message_delta":
            fast_kind, subtype, keyed = "assistant", True, "messageId"
        elif kind == "assistant.reasoning_delta":
            fast_kind, subtype, keyed = "thinking", "delta", "reasoningId"
        else:
            return (
                self._fast_whole(kind, record, line)
                if kind.__class__ is str and kind in _FAST_WHOLE
                else None
            )
        data = record.get("data")
        recv = record.get(RECV_KEY)
        if (
            not self._started
            or data.__class__ is not dict
            or (recv is not None and recv.__class__ is not int)
        ):
            return None
        text = data.get("deltaContent")
        if text.__class__ is not str:
            return None
        stamp = record.get("timestamp")
        ts = iso_ms(stamp) if stamp is not None else None
        self._learn(kind, data)
        self._streamed.add(as_str(data.get(keyed)) or "")
        return fast_kind, subtype, text, None, self._session, ts, recv

    def _fast_whole(self, kind: str, record: JSONObject, line: int) -> FastRecord | None:
        """A whole ``assistant.message``, a tool's start or its end with a verdict (the
        lines of a run that are not deltas: the long way, an event each, cost a fifth of
        its fold), as :meth:`translate` reads them, without their event. Anything that
        raises goes the long way, which says so: the translator is changed only once the
        record is read. A quiet record (the CLI's own state: nothing shown, its
        usage summed) is taken too, as :meth:`translate` reads it."""
        data = record.get("data")
        recv = record.get(RECV_KEY)
        if kind in QUIET:
            if not self._started or (recv is not None and recv.__class__ is not int):
                return None
            stamp = record.get("timestamp")
            ts = iso_ms(stamp) if stamp is not None else None
            self._learn(kind, shapes.obj(data))
            return "thinking", "completed", None, None, self._session, ts, recv
        if (
            not self._started
            or data.__class__ is not dict
            or (recv is not None and recv.__class__ is not int)
        ):
            return None
        stamp = record.get("timestamp")
        try:
            ts = iso_ms(stamp) if stamp is not None else None
            if kind == "assistant.message":
                text = data.get("content")
                if text.__class__ is not str:
                    return None
                self._learn(kind, data)
                if not text:  # a message that only asks for tools
                    return "thinking", "completed", None, None, self._session, ts, recv
                return "assistant", False, text, None, self._session, ts, recv
            parent = as_str(data.get("parentToolCallId"))
            call_id = as_str(data.get("toolCallId")) or f"<line {line}>"
            if kind == "tool.execution_start":
                name = as_str(data.get("toolName")) or "unknown"
                call = tools.kind_of(name, as_str(data.get("mcpServerName")), data.get("arguments"))
                args = tools.args_of(call, data)
                started = (None, None, call_id, call, args, None, None, None, None, None)
                fields = (*started, tools.description_of(call, data), parent)
                self._calls[call_id] = (call, args)
                self._learn(kind, data)
                return "tool_call", "started", fields, None, self._session, ts, recv
            success = data.get("success")
            if success is not True and success is not False:
                return None  # no verdict: kept whole, as it came
            call, args = self._calls.get(call_id, ("unknown", {}))
            if success:
                result = data.get("result")
                detailed = as_str(shapes.obj(result).get("detailedContent"))

                def build() -> JSONObject:
                    return tools.success_payload(call, args, result)

                outcome = "success"
                payload = tools.success_said(call, args, detailed, build) or build()
            else:
                outcome, payload = tools.error_outcome(data.get("error"))
        except Exception:  # the long way says what is wrong with it
            return None
        self._calls.pop(call_id, None)
        self._learn(kind, data)
        ended = (None, None, call_id, call, None, outcome, payload, None, None, None, None)
        return "tool_call", "completed", (*ended, parent), None, self._session, ts, recv

    def _learn(self, kind: str, data: JSONObject) -> None:
        """Keep what a record says of the model and the usage."""
        if not self._started or self._model is None:
            for key in _MODEL_KEYS:
                model = as_str(data.get(key))
                if model:
                    self._model = model
                    break
        if kind == "assistant.usage":
            for key, name in _USAGE_KEYS.items():
                count = as_int(data.get(key))
                if count is not None:
                    self._usage[name] = self._usage.get(name, 0) + count

    def _start(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        return [ThinkingCompleted(line, self._session, ts, recv)]

    def _prompt(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        text = as_str(data.get("content"))
        return [PromptSubmitted(line, self._session, ts, recv, text=text)] if text else None

    def _delta(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        text = data.get("deltaContent")
        if not isinstance(text, str):
            return None
        self._streamed.add(as_str(data.get("messageId")) or "")
        return [AssistantMessage(line, self._session, ts, recv, text=text, delta=True)]

    def _message(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        text = data.get("content")
        if not isinstance(text, str):
            return None
        if not text:  # a message that only asks for tools
            return [ThinkingCompleted(line, self._session, ts, recv)]
        # The whole message replaces its deltas (or stands alone when none came).
        return [AssistantMessage(line, self._session, ts, recv, text=text, delta=False)]

    def _thinking_delta(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        text = data.get("deltaContent")
        if not isinstance(text, str):
            return None
        self._streamed.add(as_str(data.get("reasoningId")) or "")
        return [ThinkingDelta(line, self._session, ts, recv, text=text)]

    def _thinking(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        done = ThinkingCompleted(line, self._session, ts, recv)
        text = as_str(data.get("content"))
        if text and (as_str(data.get("reasoningId")) or "") not in self._streamed:
            return [ThinkingDelta(line, self._session, ts, recv, text=text), done]
        return [done]

    def _tool_start(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        name = as_str(data.get("toolName")) or "unknown"
        call_id = as_str(data.get("toolCallId")) or f"<line {line}>"
        kind = tools.kind_of(name, as_str(data.get("mcpServerName")), data.get("arguments"))
        args = tools.args_of(kind, data)
        self._calls[call_id] = (kind, args)
        return [
            ToolCallEvent(
                line,
                self._session,
                ts,
                recv,
                call_id=call_id,
                kind=kind,
                args=args,
                description=tools.description_of(kind, data),
                parent_call_id=as_str(data.get("parentToolCallId")),
            )
        ]

    def _tool_end(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        call_id = as_str(data.get("toolCallId")) or f"<line {line}>"
        kind, args = self._calls.pop(call_id, ("unknown", {}))
        if data.get("success") is True:
            outcome, payload = "success", tools.success_payload(kind, args, data.get("result"))
        elif data.get("success") is False:
            outcome, payload = tools.error_outcome(data.get("error"))
        else:  # no verdict: kept as it came
            outcome, payload = "completed", data
        return [
            ToolCallEvent(
                line,
                self._session,
                ts,
                recv,
                completed=True,
                call_id=call_id,
                kind=kind,
                outcome=outcome,
                payload=payload,
                parent_call_id=as_str(data.get("parentToolCallId")),
            )
        ]

    def _notice(self, data: JSONObject, line: int, ts: int | None, recv: int | None) -> Any:
        """``session.error``/``warning``/``info``, ``model.call_failure``, ``abort``."""
        message = (
            as_str(data.get("message"))
            or as_str(data.get("errorMessage"))
            or as_str(data.get("reason"))
        )
        if message is None:
            return None
        subtype = (
            as_str(data.get("errorType"))
            or as_str(data.get("warningType"))
            or as_str(data.get("infoType"))
            or as_str(data.get("failureKind"))
            or "notice"
        )
        kind = "error" if "errorType" in data else "notice"
        if kind == "error":
            self._error = message
        notice = ConnectionNotice(
            line, self._session, ts, recv, type=kind, subtype=subtype, detail=message
        )
        return [notice]

    def _result(self, record: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        self._session = self._session or as_str(record.get("sessionId"))
        code = as_int(record.get("exitCode"))
        info = shapes.obj(record.get("usage"))
        usage: JSONObject = dict(self._usage)
        premium = info.get("premiumRequests")
        if isinstance(premium, int | float) and not isinstance(premium, bool):
            usage["premiumRequests"] = premium
        changes = info.get("codeChanges")
        if isinstance(changes, dict):
            usage["codeChanges"] = changes
        is_error = code not in (None, 0)
        message = self._error if is_error else None
        return RunResult(
            line,
            self._session,
            ts,
            recv,
            subtype=f"exit {code}" if is_error else "success",
            is_error=is_error,
            duration_ms=as_int(info.get("sessionDurationMs")),
            duration_api_ms=as_int(info.get("totalApiDurationMs")),
            usage=usage or None,
            result=message,
            message=message,
        )


_HANDLERS: dict[str, Any] = {
    "session.start": CopilotTranslator._start,
    "session.resume": CopilotTranslator._start,
    "user.message": CopilotTranslator._prompt,
    "assistant.message_delta": CopilotTranslator._delta,
    "assistant.message": CopilotTranslator._message,
    "assistant.reasoning_delta": CopilotTranslator._thinking_delta,
    "assistant.reasoning": CopilotTranslator._thinking,
    "tool.execution_start": CopilotTranslator._tool_start,
    "tool.execution_complete": CopilotTranslator._tool_end,
    "session.error": CopilotTranslator._notice,
    "session.warning": CopilotTranslator._notice,
    "session.info": CopilotTranslator._notice,
    "model.call_failure": CopilotTranslator._notice,
    "abort": CopilotTranslator._notice,
}
"""Record types that are shown, and what shows them."""
_FAST_WHOLE = QUIET | {"assistant.message", "tool.execution_start", "tool.execution_complete"}
"""Record types besides the deltas :meth:`CopilotTranslator.fast` takes (``_fast_whole``)."""


def detect(record: JSONObject) -> bool:
    """A Copilot CLI session event (a dotted ``type`` with a ``data`` object: one of the
    type names Copilot prints, or any with an ``id`` and a ``timestamp``) or its last
    ``result`` (``exitCode`` and ``sessionId``)."""
    kind = record.get("type")
    if not isinstance(kind, str):
        return False
    if kind == "result":
        return "exitCode" in record and "sessionId" in record and "subtype" not in record
    if "." not in kind or not isinstance(record.get("data"), dict):
        return False
    if kind in _HANDLERS or kind in QUIET:
        # Its own type names: recognised even when a wrapper stripped the timestamps
        # and the ids (``id``, ``parentId``) from the records.
        return True
    return isinstance(record.get("id"), str) and "timestamp" in record


DIALECT = Dialect(
    name=NAME, label="GitHub Copilot CLI", detect=detect, translator=CopilotTranslator
)
