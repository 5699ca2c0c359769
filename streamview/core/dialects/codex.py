"""OpenAI Codex's ``codex exec --json``.

Records (one JSON object a line; ``codex-rs/exec/src/exec_events.rs`` defines them):

- ``thread.started``: ``thread_id``, the session's id (no later record repeats it,
  and none names the model or the working directory).
- ``turn.started``, ``turn.completed`` (``usage``: ``input_tokens``,
  ``cached_input_tokens``, ``output_tokens``), ``turn.failed`` (``error.message``).
  One run may hold several turns; each completed turn is the run's outcome so far.
- ``item.started``, ``item.updated``, ``item.completed``: an ``item`` with an ``id``
  and a ``type``: ``agent_message`` and ``reasoning`` (``text``), ``command_execution``
  (``command``, ``aggregated_output``, ``exit_code``, ``status``: ``in_progress``,
  ``completed``, ``failed``, ``declined``), ``file_change`` (``changes``: ``path`` and
  ``kind`` ``add``/``update``/``delete``), ``mcp_tool_call`` (``server``, ``tool``,
  ``arguments``, ``result``, ``error``), ``web_search`` (``query``), ``todo_list``
  (``items``: ``text``, ``completed``), ``collab_tool_call`` (a subagent), ``plan``,
  ``error`` (a non-fatal error).
- ``error``: a fatal error of the stream (``message``).

Tool items are calls correlated by their item ``id``; an item type nobody knows is a
call of that kind, shown with its raw fields.
"""

from __future__ import annotations

from typing import Any

from streamview.core.dialects.base import Dialect
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    JSONObject,
    MalformedLine,
    RunResult,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallEvent,
    UnknownRecord,
)

NAME = "codex"
TEXT_ITEMS = ("agent_message", "reasoning", "plan", "error")
"""Item types that are text, not calls."""
KINDS = {
    "command_execution": "shell",
    "file_change": "edit",
    "mcp_tool_call": "mcp",
    "web_search": "webSearch",
    "todo_list": "updateTodos",
    "collab_tool_call": "task",
}
"""Codex item types as the kinds every view knows; any other item keeps its type."""


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def args_of(item: JSONObject) -> JSONObject:
    """A tool item's fields in the argument shape of its kind."""
    kind = item.get("type")
    if kind == "command_execution":
        return {"command": item.get("command")}
    if kind == "file_change":
        changes = [c for c in item.get("changes") or [] if isinstance(c, dict)]
        paths = [str(c.get("path")) for c in changes]
        args: JSONObject = {"changes": changes}
        if paths:
            args["path"] = paths[0] if len(paths) == 1 else f"{paths[0]} (+{len(paths) - 1} more)"
        return args
    if kind == "mcp_tool_call":
        return {
            "providerIdentifier": item.get("server"),
            "toolName": item.get("tool"),
            "args": item.get("arguments"),
        }
    if kind == "web_search":
        return {"searchTerm": item.get("query"), "action": item.get("action")}
    if kind == "todo_list":
        todos = [
            {
                "content": todo.get("text"),
                "status": "completed" if todo.get("completed") is True else "pending",
            }
            for todo in item.get("items") or []
            if isinstance(todo, dict)
        ]
        return {"todos": todos}
    if kind == "collab_tool_call":
        return {
            "description": item.get("tool"),
            "prompt": item.get("prompt"),
            "receivers": item.get("receiver_thread_ids"),
        }
    return {k: v for k, v in item.items() if k not in ("id", "type", "status")}


def result_of(item: JSONObject) -> tuple[str, Any]:
    """``(outcome, payload)`` of a completed tool item, as the views read them."""
    kind = item.get("type")
    status = item.get("status")
    if kind == "command_execution":
        if status == "declined":
            return "rejected", {"reason": "declined"}
        payload: JSONObject = {"stdout": _str(item.get("aggregated_output")) or ""}
        code = _int(item.get("exit_code"))
        if code is not None:
            payload["exitCode"] = code
        elif status == "failed":
            return "failure", payload
        return "success", payload
    if kind == "file_change":
        changes = [c for c in item.get("changes") or [] if isinstance(c, dict)]
        message = ", ".join(f"{c.get('kind', 'update')} {c.get('path')}" for c in changes)
        if status == "failed":
            return "failure", {"message": f"patch failed: {message}" if message else "failed"}
        return "success", {"message": message, "changes": changes}
    if kind == "mcp_tool_call":
        error = item.get("error")
        if isinstance(error, dict) or status == "failed":
            text = _str(error.get("message")) if isinstance(error, dict) else None
            return "error", {"message": text or "failed"}
        result = item.get("result")
        content = result.get("content") if isinstance(result, dict) else None
        return "success", {"content": content if isinstance(content, list) else []}
    if kind == "todo_list":
        return "success", {"todos": args_of(item)["todos"]}
    if status == "failed":
        return "failure", {k: v for k, v in item.items() if k not in ("id", "type")}
    return "success", {k: v for k, v in item.items() if k not in ("id", "type")}


class CodexTranslator:
    """One ``codex exec --json`` stream: its thread id, turns and usage so far."""

    def __init__(self) -> None:
        self._thread: str | None = None
        self._turns = 0
        self._usage: dict[str, int] = {}
        self._started: set[str] = set()
        """Tool items seen starting (a file change only ever completes)."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Codex record stands for (see ``Translator``)."""
        kind = record.get("type")
        sid = self._thread
        if not isinstance(kind, str):
            reason = "no 'type' field" if kind is None else "'type' is not a string"
            return [MalformedLine(line, sid, None, recv_ms, reason=reason)]
        events: list[AnyEvent] | None = None
        if kind == "thread.started":
            self._thread = sid = _str(record.get("thread_id"))
            events = [SessionStarted(line, sid, None, recv_ms, agent=NAME)]
        elif kind == "turn.started":
            self._turns += 1
            events = [ThinkingCompleted(line, sid, None, recv_ms)]
        elif kind == "turn.completed":
            events = [self._turn_end(record, line, recv_ms, error=None)]
        elif kind == "turn.failed":
            error = record.get("error")
            message = _str(error.get("message")) if isinstance(error, dict) else None
            events = [self._turn_end(record, line, recv_ms, error=message or "turn failed")]
        elif kind == "error":
            detail = _str(record.get("message"))
            events = [
                ConnectionNotice(
                    line, sid, None, recv_ms, type="error", subtype="fatal", detail=detail
                )
            ]
        elif kind.startswith("item.") and isinstance(record.get("item"), dict):
            events = self._item(kind, record["item"], line, recv_ms)
        if not events:
            return [UnknownRecord(line, sid, None, recv_ms, type=kind, record=record)]
        return events

    def _turn_end(
        self, record: JSONObject, line: int, recv: int | None, error: str | None
    ) -> AnyEvent:
        usage = record.get("usage")
        if isinstance(usage, dict):
            for source, target in (
                ("input_tokens", "inputTokens"),
                ("output_tokens", "outputTokens"),
                ("cached_input_tokens", "cacheReadTokens"),
            ):
                value = _int(usage.get(source))
                if value is not None:
                    self._usage[target] = self._usage.get(target, 0) + value
        return RunResult(
            line,
            self._thread,
            None,
            recv,
            subtype="error" if error is not None else "success",
            is_error=error is not None,
            usage=dict(self._usage) or None,
            num_turns=self._turns or None,
            message=error,
        )

    def _item(
        self, kind: str, item: JSONObject, line: int, recv: int | None
    ) -> list[AnyEvent] | None:
        sid = self._thread
        item_type = _str(item.get("type"))
        item_id = _str(item.get("id")) or f"<line {line}>"
        done = kind == "item.completed"
        if item_type in TEXT_ITEMS:
            text = _str(item.get("text")) or _str(item.get("message")) or ""
            if not done:
                return [ThinkingCompleted(line, sid, None, recv)]  # shown once complete
            if item_type == "reasoning":
                return [
                    ThinkingDelta(line, sid, None, recv, text=text),
                    ThinkingCompleted(line, sid, None, recv),
                ]
            if item_type == "error":
                return [
                    ConnectionNotice(
                        line, sid, None, recv, type="error", subtype="warning", detail=text
                    )
                ]
            return [AssistantMessage(line, sid, None, recv, text=text, delta=False)]
        if item_type is None or kind not in ("item.started", "item.updated", "item.completed"):
            return None
        call_kind = KINDS.get(item_type, item_type)
        events: list[AnyEvent] = []
        if not done or item_id not in self._started:
            self._started.add(item_id)
            events.append(
                ToolCallEvent(
                    line,
                    sid,
                    None,
                    recv,
                    completed=False,
                    call_id=item_id,
                    kind=call_kind,
                    args=args_of(item),
                )
            )
        if done:
            outcome, payload = result_of(item)
            events.append(
                ToolCallEvent(
                    line,
                    sid,
                    None,
                    recv,
                    completed=True,
                    call_id=item_id,
                    kind=call_kind,
                    args=args_of(item),
                    outcome=outcome,
                    payload=payload,
                )
            )
        return events


def detect(record: JSONObject) -> bool:
    """``thread.started``, ``turn.*`` or an ``item.*`` record holding an ``item``."""
    kind = record.get("type")
    if not isinstance(kind, str):
        return False
    if kind in ("thread.started", "turn.started", "turn.completed", "turn.failed"):
        return True
    return kind.startswith("item.") and isinstance(record.get("item"), dict)


DIALECT = Dialect(name=NAME, label="Codex", detect=detect, translator=CodexTranslator)
