"""OpenAI Codex's ``codex exec --json``.

Records (one JSON object a line; ``codex-rs/exec/src/exec_events.rs``):

- ``thread.started``: ``thread_id`` (the session's id: ``codex exec resume`` takes it).
  No model, no working directory and no prompt are printed.
- ``turn.started``, then ``turn.completed`` with the thread's ``usage`` so far
  (``input_tokens``, ``cached_input_tokens``, ``output_tokens``, lately
  ``reasoning_output_tokens``; given the names Cursor's usage has) or ``turn.failed``
  with an ``error.message``. A resumed thread has several turns in one stream.
- ``item.started`` / ``item.updated`` / ``item.completed`` carry an ``item`` (``id``,
  ``type`` and that type's fields): ``agent_message`` (the answer, whole),
  ``reasoning`` (a summary of the model's thinking), ``command_execution``,
  ``file_change``, ``mcp_tool_call``, ``web_search``, ``todo_list`` (tool calls,
  correlated by the item ``id``), ``error`` (a non-fatal notice), ``plan``.
- ``item.plan.delta`` (``item_id``, ``delta``): a plan's text as it grows, shown as
  the answer grows until the complete ``plan`` item replaces it.
- ``request_user_input`` (``call_id``, ``questions``): the model asks the user; a call
  of the table (``askQuestion``) and a notice that the run waits for input.
- ``error``: a stream error; ``Reconnecting... n/m`` ones are retries, others fatal.

Builds of late September 2025 spelled the item type ``item_type`` and the answer
``assistant_message``: both are read. Older builds printed ``{"id", "msg"}`` records
(a different protocol): they are kept as unknown records, shown, never dropped.
"""

from __future__ import annotations

import re
from typing import Any

import streamview.core.dialects.codex_tools as tools
import streamview.core.notices as notices
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.codex_fast import (
    ITEM_START,
    TURN_STARTED,
    TURN_STARTED_LINE,
    change_record,
    command_result,
    decode_item_line,
)
from streamview.core.dialects.codex_tools import SCRIPTS
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
from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord
from streamview.core.fields import as_str
from streamview.core.notices import notice

NAME = "codex"
_RETRY = re.compile(r"\AReconnecting\.{0,3}\s*(\d+)\s*/\s*(\d+)")
_TEXT_ITEMS = frozenset({"agent_message", "assistant_message", "plan"})
_USAGE_NAMES = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "cached_input_tokens": "cacheReadTokens",
    "cache_write_input_tokens": "cacheWriteTokens",
    "reasoning_output_tokens": "reasoningTokens",
}


class CodexTranslator:
    """One Codex stream, remembering its thread id, its turns and the open items' text."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoders), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    def __init__(self) -> None:
        self._thread: str | None = None
        """The ``thread_id``: every event of the stream carries it as its session id."""
        self._turns = 0
        """Turns completed or failed so far."""
        self._texts: dict[str, str] = {}
        """Text shown so far of each message or reasoning item still growing."""
        self._failed: str | None = None
        """The message of a fatal ``error`` already reported for the open turn."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Codex record stands for (see ``Translator``)."""
        kind = record.get("type")
        sid = self._thread
        if not isinstance(kind, str):
            legacy = record.get("msg")
            if isinstance(legacy, dict):  # pre-0.44 ``{"id", "msg": {"type": ...}}``
                inner = as_str(legacy.get("type")) or "?"
                return [
                    UnknownRecord(
                        line, sid, None, recv_ms, type="msg", subtype=inner, record=record
                    )
                ]
            reason = "no 'type' field" if kind is None else "'type' is not a string"
            return [MalformedLine(line, sid, None, recv_ms, reason=reason)]
        events: list[AnyEvent] | None = None
        if kind == "item.plan.delta":
            events = self._plan_delta(record, line, recv_ms)
        elif kind.startswith("item."):
            item = record.get("item")
            if isinstance(item, dict):
                events = self._item(kind[5:], item, line, recv_ms)
        elif kind == "request_user_input":
            events = self._asks(record, line, recv_ms)
        elif kind == "thread.started":
            events = [self._started(record, line, recv_ms)]
        elif kind == "turn.started":
            self._failed = None
            # A turn's start has nothing to show; closing open thinking is all it means.
            events = [ThinkingCompleted(line, sid, None, recv_ms)]
        elif kind == "turn.completed":
            events = [self._turn_end(record, line, recv_ms, None)]
        elif kind == "turn.failed":
            error = record.get("error")
            message = as_str(error.get("message")) if isinstance(error, dict) else None
            if self._failed is not None and message in (None, self._failed):
                # The ``error`` just before said it (and counted the turn).
                events = [ThinkingCompleted(line, sid, None, recv_ms)]
            else:
                events = [self._turn_end(record, line, recv_ms, message or "turn failed")]
        elif kind == "error":
            events = [self._error(record, line, recv_ms)]
        if not events:
            return [UnknownRecord(line, sid, None, recv_ms, type=kind, record=record)]
        return events

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A tool item's start or end (most of a Codex run) for the fold's fast path.

        Messages and reasoning too, growing as :meth:`_grown` says; errors stay on the
        slow path.
        """
        kind = record.get("type")
        if kind.__class__ is not str or not kind.startswith("item."):
            if kind == "turn.started" and len(record) == 1:
                return self._turn_started()
            return None
        item = record.get("item")
        recv = record.get(RECV_KEY)
        if item.__class__ is not dict or (recv is not None and recv.__class__ is not int):
            return None
        phase = kind[5:]
        item_kind = tools.item_type(item)
        if item_kind in _TEXT_ITEMS or item_kind == "reasoning":
            thinking, done = item_kind == "reasoning", phase == "completed"
            return self._grown(item.get("text"), item.get("id"), thinking, done, line, recv)
        if phase == "completed":
            done = True
        elif phase == "started" or phase == "updated":
            done = False
        else:
            return None
        if item_kind == "error":
            return None
        try:
            args = tools.args_of(item_kind, item)
            outcome, payload = tools.result_of(item_kind, item) if done else (None, None)
        except Exception:
            return None  # translate turns this into an unreadable record
        item_id = item.get("id")
        call_id = item_id if item_id.__class__ is str and item_id else f"<line {line}>"
        return self._call(call_id, tools.kind_of(item_kind), args, outcome, payload, done, recv)

    def _call(
        self,
        call_id: str,
        kind: str,
        args: Any,
        outcome: Any,
        payload: Any,
        done: bool,
        recv: int | None,
    ) -> FastRecord:
        """The fast record of a call item begun or done (``fast`` and ``fast_line``)."""
        sid = self._thread
        fields = (sid, None, call_id, kind, args, outcome, payload, None, None, None, None, None)
        return "tool_call", "completed" if done else "started", fields, None, sid, None, recv

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: a command or a text item read from
        its bytes (:mod:`.codex_fast`), any other line declined (decoded in full).

        Runs once a line of most of a run: the commands and the reasoning are read here
        in the body itself (a call costs what the rest of a short item costs)."""
        if data[:14] != ITEM_START:  # a slice compared: a third of ``startswith``'s cost
            if data in (TURN_STARTED, TURN_STARTED_LINE):
                return self._turn_started()
            return None
        try:
            hot = decode_item_line(data)
        except HOT_DECODE_ERRORS:
            return None
        item = hot.item
        phase = hot.type  # compared, not looked up: a method call costs three compares
        if phase == "item.completed":
            done = True
        elif phase == "item.started" or phase == "item.updated":
            done = False
        else:
            return None  # another phase: :meth:`fast` reads it from the dict
        if item is None:
            return None
        item_kind = item.type
        if item_kind is None:
            item_kind = item.item_type
        sid = self._thread
        if item_kind == "command_execution":
            item_id = item.id or f"<line {line}>"
            command = item.command or ""
            try:
                script = SCRIPTS[command]  # script_of's kept answer, without its call
            except KeyError:
                script = tools.script_of(command)
            cwd = item.cwd
            args: JSONObject
            if script == command:  # in the order codex_tools.args_of writes them
                args = (
                    {"command": script}
                    if cwd is None
                    else {"command": script, "workingDirectory": cwd}
                )
            elif cwd is None:
                args = {"command": script, "shellCommand": command}
            else:
                args = {"command": script, "shellCommand": command, "workingDirectory": cwd}
            # The twelve fields spelled out (a tuple built by unpacking goes through a
            # list; eleven the fold pads, a second tuple); the last five (model call,
            # start and end times, description, parent call): Codex has none. And a
            # thirteenth: the target, as tools.target_of gives it (the fold's work else).
            ended, said = command_result(item) if done else (None, None)
            fields: tuple[Any, ...] = (
                sid,
                None,
                item_id,
                "shell",
                args,
                ended,
                said,
                None,
                None,
                None,
                None,
                None,
                script or None,
            )
            phase = "completed" if done else "started"
            return "tool_call", phase, fields, None, sid, None, hot.streamview_recv_ms
        if item_kind == "reasoning" and done and not self._texts:
            # Complete reasoning with no text shown before: what :meth:`_grown` says.
            text = item.text
            if text:
                return "thinking", "whole", text, None, sid, None, hot.streamview_recv_ms
            return "thinking", "completed", None, None, sid, None, hot.streamview_recv_ms
        if item_kind == "file_change":
            return change_record(item, done, line, sid, hot.streamview_recv_ms)
        if item_kind in _TEXT_ITEMS or item_kind == "reasoning":
            thinking, recv = item_kind == "reasoning", hot.streamview_recv_ms
            return self._grown(item.text, item.id, thinking, done, line, recv)
        return None

    def _turn_started(self) -> FastRecord:
        """A turn's start as Codex prints it (no other field): it closes open thinking
        (:meth:`translate`'s ``ThinkingCompleted``), and no fatal error is told yet."""
        self._failed = None
        return "thinking", "completed", None, None, self._thread, None, None

    def _grown(
        self, text: Any, item_id: Any, thinking: bool, done: bool, line: int, recv: int | None
    ) -> FastRecord:
        """A message or reasoning item: its new text as a delta while it grows; the
        complete message replaces what its deltas built, complete reasoning closes (a
        ``whole`` thinking record: the new text, then the block closes). Nothing new
        (or a rewrite, which the complete item will carry) shows nothing: it only
        closes open thinking."""
        sid = self._thread
        if text.__class__ is not str:
            text = ""
        if item_id.__class__ is not str or not item_id:
            item_id = f"<line {line}>"
        shown = self._texts.pop(item_id, "") if done else self._texts.get(item_id, "")
        if thinking:
            new = text[len(shown) :] if text.startswith(shown) else text
            if done:
                if new:
                    return "thinking", "whole", new, None, sid, None, recv
                return "thinking", "completed", None, None, sid, None, recv
            self._texts[item_id] = text
            if new:
                return "thinking", "delta", new, None, sid, None, recv
            return "thinking", "completed", None, None, sid, None, recv
        if done:
            return "assistant", False, text, None, sid, None, recv
        self._texts[item_id] = text
        if text.startswith(shown) and len(text) > len(shown):
            return "assistant", True, text[len(shown) :], None, sid, None, recv
        return "thinking", "completed", None, None, sid, None, recv

    def _plan_delta(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent] | None:
        """``item.plan.delta``: the plan's text as it grows, shown as the answer grows;
        the complete ``plan`` item replaces what the deltas built."""
        item_id, delta = as_str(record.get("item_id")), as_str(record.get("delta"))
        if item_id is None or delta is None:
            return None
        self._texts[item_id] = self._texts.get(item_id, "") + delta
        return [AssistantMessage(line, self._thread, None, recv, text=delta, delta=True)]

    def _asks(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        """``request_user_input``: the model's question, a call of the table, and a
        notice that the run waits for an answer a headless run cannot give."""
        questions = record.get("questions")
        questions = questions if isinstance(questions, list) else []
        first = questions[0] if questions and isinstance(questions[0], dict) else {}
        title = as_str(first.get("question")) or as_str(first.get("header")) or "a question"
        call_id = as_str(record.get("call_id")) or f"<line {line}>"
        said = f"asks for input: {notices.text_of(title) or 'a question'}"
        return [
            ToolCallEvent(
                line,
                self._thread,
                None,
                recv,
                call_id=call_id,
                kind="askQuestion",
                args={"title": title, "questions": questions},
            ),
            notice(record, line, self._thread, None, recv, notices.INPUT, said, notices.WAITING),
        ]

    def _started(self, record: JSONObject, line: int, recv: int | None) -> AnyEvent:
        thread = as_str(record.get("thread_id"))
        if thread is not None and thread == self._thread:
            # ``codex exec resume`` of the same thread: its next turn, same session.
            return ThinkingCompleted(line, thread, None, recv)
        self._thread = thread or self._thread
        return SessionStarted(
            line,
            self._thread,
            None,
            recv,
            model=as_str(record.get("model")),
            cwd=as_str(record.get("cwd")),
            agent=NAME,
            extra={k: v for k, v in record.items() if k not in ("type", "thread_id")},
        )

    def _turn_end(
        self,
        record: JSONObject,
        line: int,
        recv: int | None,
        failure: str | None,
        subtype: str = "turn_failed",
    ) -> AnyEvent:
        self._turns += 1
        return RunResult(
            line,
            self._thread,
            None,
            recv,
            subtype="success" if failure is None else subtype,
            is_error=failure is not None,
            usage=usage_of(record.get("usage")),
            num_turns=self._turns,
            message=failure,
        )

    def _error(self, record: JSONObject, line: int, recv: int | None) -> AnyEvent:
        message = as_str(record.get("message")) or "error"
        retry = _RETRY.match(message)
        if retry:
            return ConnectionNotice(
                line,
                self._thread,
                None,
                recv,
                type="retry",
                subtype="reconnecting",
                attempt=int(retry.group(1)),
                detail=message,
            )
        self._failed = message
        return self._turn_end(record, line, recv, message, "error")

    def _item(self, phase: str, item: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        sid = self._thread
        item_kind = tools.item_type(item)
        item_id = as_str(item.get("id")) or f"<line {line}>"
        done = phase == "completed"
        if item_kind in _TEXT_ITEMS:
            return self._grow(item, False, done, line, recv)
        if item_kind == "reasoning":
            return self._grow(item, True, done, line, recv)
        if item_kind == "error":
            message = as_str(item.get("message")) or "error"
            return [
                ConnectionNotice(
                    line, sid, None, recv, type="error", subtype="warning", detail=message
                )
            ]
        if phase not in ("started", "updated", "completed"):
            return []
        kind = tools.kind_of(item_kind)
        args = tools.args_of(item_kind, item)
        if not done:
            return [ToolCallEvent(line, sid, None, recv, call_id=item_id, kind=kind, args=args)]
        outcome, payload = tools.result_of(item_kind, item)
        return [
            ToolCallEvent(
                line,
                sid,
                None,
                recv,
                completed=True,
                call_id=item_id,
                kind=kind,
                args=args,
                outcome=outcome,
                payload=payload,
            )
        ]

    def _grow(
        self, item: JSONObject, thinking: bool, done: bool, line: int, recv: int | None
    ) -> list[AnyEvent]:
        """A message or reasoning item as events (what :meth:`_grown` says happens)."""
        grown = self._grown(item.get("text"), item.get("id"), thinking, done, line, recv)
        kind, subtype, text, _, sid, _, _ = grown
        if kind == "assistant":
            return [AssistantMessage(line, sid, None, recv, text=text, delta=subtype)]
        if subtype == "completed":
            return [ThinkingCompleted(line, sid, None, recv)]
        events: list[AnyEvent] = [ThinkingDelta(line, sid, None, recv, text=text)]
        if subtype == "whole":
            events.append(ThinkingCompleted(line, sid, None, recv))
        return events


def usage_of(usage: Any) -> JSONObject | None:
    """A turn's ``usage`` in the names every front end reads (Cursor's), others kept.

    It is the thread's running total, not the turn's own (openai/codex issue #17539;
    a wrapper's live capture, fullsend-ai/fullsend PR #6924): the last one counts, never
    a sum.
    """
    if not isinstance(usage, dict):
        return None
    renamed: JSONObject = {}
    for key, value in usage.items():
        if key.__class__ is not str:  # a decoded record's keys are; str() of one is itself
            key = str(key)
        renamed[_USAGE_NAMES.get(key, key)] = value
    return renamed


def detect(record: JSONObject) -> bool:
    """``thread.started``, ``turn.*``, or an ``item.*`` record holding an ``item``."""
    kind = record.get("type")
    if not isinstance(kind, str):
        return False
    if kind in ("thread.started", "turn.started", "turn.completed", "turn.failed"):
        return True
    return kind.startswith("item.") and isinstance(record.get("item"), dict)


DIALECT = Dialect(name=NAME, label="Codex", detect=detect, translator=CodexTranslator)
