"""Cline's CLI with ``--json`` (``cline -y --json "..."``; older builds ``-F json``).

Each line is one of the task's ``ClineMessage`` objects (``src/shared/
ExtensionMessage.ts`` of cline/cline), after an opening ``{"type": "task_started",
"taskId"}``: ``type`` (``say`` or ``ask``), the ``say`` or ``ask`` kind, ``text``,
``ts`` (epoch ms; a message's identity: a message streamed while it grows is printed
again with the same ``ts``, ``partial: true`` until the last time), ``reasoning``,
and in newer builds ``modelInfo`` (``providerId``, ``modelId``, ``mode``). Read here:

- ``say`` ``task`` (the prompt), ``user_feedback``; ``text``, ``reasoning``,
  ``completion_result`` (the final answer: the run's outcome). A task's first
  ``text``, before the model was asked, is the prompt (Cline 1.x says the task so).
- A stream of several tasks (a new ``taskId``; without one, a task said after a
  ``completion_result``: Cline 1.x's plan, then act) holds a run per task.
- ``say``/``ask`` ``tool`` (see :mod:`streamview.core.dialects.cline_tools`),
  ``command`` then ``command_output``, ``use_mcp_server`` then
  ``mcp_server_response``: calls.
- ``say`` ``api_req_started`` (``text``: JSON with ``tokensIn``, ``tokensOut``,
  ``cacheReads``, ``cacheWrites``, ``cost``, updated as the request ends):
  summed into the run's usage and cost.
- ``say`` ``error``, ``api_req_retried``, ``ask`` ``api_req_failed``,
  ``mistake_limit_reached``: notices (the last error is the run's, if it ends without
  a ``completion_result``).
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.cline_tools as tools
import streamview.core.dialects.shapes as shapes
import streamview.core.notices as notices
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.cline_fast import (
    FAST_CALLS,
    FastCalls,
    GrowingText,
    nothing_shown,
    said_fields,
)
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
from streamview.core.fields import as_int, as_str

NAME = "cline"
_OWN_WORK: dict[str, tuple[str, str]] = {
    "hook_event": (notices.HOOK, "hook"),
    "agent_event": (notices.STATUS, "agent"),
}
"""Cline 2.x records about its own work: their topic and how the event log names them."""
_OWN_WORK_NAMES = ("hookName", "hook_name", "name", "event", "eventType", "status", "message")
QUIET = frozenset(
    {
        "checkpoint_created",
        "task_progress",
        "api_req_finished",
        "deleted_api_reqs",
        "resume_task",
        "resume_completed_task",
        "completion_result_ask",
        "load_mcp_documentation",
        "hook_status",
        "conditional_rules_applied",
    }
)
"""Kinds of message about Cline's own bookkeeping: read, nothing shown."""
_NOTICES = {
    "error": "error",
    "api_req_failed": "error",
    "mistake_limit_reached": "error",
    "api_req_retried": "retry",
    "shell_integration_warning": "warning",
    "diff_error": "warning",
    "clineignore_error": "warning",
    "info": "notice",
}
_USAGE = {
    "tokensIn": "inputTokens",
    "tokensOut": "outputTokens",
    "cacheReads": "cacheReadTokens",
    "cacheWrites": "cacheWriteTokens",
}


class ClineTranslator(GrowingText, FastCalls):
    """One Cline stream: the task, its growing messages, the open command, the usage."""

    def __init__(self) -> None:
        self._task: str | None = None
        self._started = False
        self._prompt: tuple[int, int | None, str] | None = None
        """The ``task`` message seen before the session could be named (line, ts, text)."""
        self._shown: dict[str, dict[int, str]] = nothing_shown()
        """Text shown so far of each growing message, by its kind, then its ``ts`` (an
        int key: a ``(ts, kind)`` tuple was hashed twice a line, a fifth of
        :meth:`fast_line`'s own time)."""
        self._command: tuple[str, str] | None = None
        """The open command's call id and its output so far."""
        self._mcp: str | None = None
        """The open MCP call's id (its response names nothing)."""
        self._requests: dict[int, JSONObject] = {}
        """Each API request's last usage, by its ``ts``."""
        self._first_ms: int | None = None
        self._error: str | None = None
        self._asked = False
        """The task's prompt is known (a ``task`` message, or its first ``text``)."""
        self._spoke = False
        """The model was asked (an ``api_req_started``): a ``text`` is its answer now."""
        self._done = False
        """The task's ``completion_result`` was said: a new task may follow."""
        self._growing: bytes | None = None
        self._growing_ts = 0

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Cline message stands for (see ``Translator``)."""
        self.settle()  # what fast_line read, told before any other line is
        kind = record.get("type")
        if not isinstance(kind, str):
            reason = "no 'type' field" if kind is None else "'type' is not a string"
            return [MalformedLine(line, self._task, None, recv_ms, reason=reason)]
        ts = as_int(record.get("ts"))
        if ts is not None and self._first_ms is None:
            self._first_ms = ts
        if kind == "task_started":
            task = as_str(record.get("taskId")) or self._task
            if task != self._task and self._started:
                self._next_task()  # another task of the stream: its usage is its own
                self._started = False
            self._task = task
            return [ThinkingCompleted(line, self._task, ts, recv_ms)]
        what = as_str(record.get(kind)) if kind in ("say", "ask") else None
        if what is None and kind in _OWN_WORK:
            return [self._own_work(kind, record, line, ts, recv_ms)]
        if what is None:
            return [UnknownRecord(line, self._task, ts, recv_ms, type=kind, record=record)]
        if record.get("partial") is True:
            self._spoke = True  # a message that grows is the model's: the task is said whole
        asks = kind == "say" and (
            what == "task" or (what == "text" and (self._done or not (self._spoke or self._asked)))
        )
        if asks and record.get("partial") is not True:
            return self._asked_task(record, line, ts, recv_ms)
        events: list[AnyEvent] = []
        if not self._started:
            events += self._start(record, line, ts, recv_ms)
        if what not in ("command_output",) and self._command is not None:
            self._command = None  # a command's output ends when something else is said
        found = self._message(kind, what, record, line, ts, recv_ms)
        if not found:
            found = [
                UnknownRecord(line, self._task, ts, recv_ms, type=kind, subtype=what, record=record)
            ]
        if events and len(found) == 1 and isinstance(found[0], ThinkingCompleted):
            return events  # the session's start says enough for a quiet record
        return events + found

    def _own_work(
        self, kind: str, record: JSONObject, line: int, ts: int | None, recv_ms: int | None
    ) -> AnyEvent:
        """Cline 2.x's ``hook_event``/``agent_event``: what the CLI says of its own work,
        a line of the event log (no capture shows their fields yet: the first that
        names something is quoted)."""
        named = next(
            (text for key in _OWN_WORK_NAMES if (text := notices.text_of(record.get(key)))),
            None,
        )
        topic, label = _OWN_WORK[kind]
        text = f"{label}: {named}" if named else label
        return notices.notice(record, line, self._task, ts, recv_ms, topic, text)

    def _asked_task(
        self, record: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        """The person's task: a task's first ``text`` (Cline says it first) or its
        ``task``. After a task's completion it starts a run of its own (plan, then act)."""
        text = as_str(record.get("text")) or ""
        another = self._done
        if another:
            self._next_task()
            self._first_ms = ts
        self._asked = True
        if another or not self._started:
            self._prompt = (line, ts, text)
            if another:  # said at once: the run before it is over
                return self._start(record, line, ts, recv)
            return [ThinkingCompleted(line, self._task, ts, recv)]
        return [PromptSubmitted(line, self._task, ts, recv, text=text)]

    def _next_task(self) -> None:
        """Forget what the task before said: a new one starts."""
        self._prompt = self._command = self._mcp = self._error = self._first_ms = None
        self._shown, self._requests = nothing_shown(), {}
        self._asked = self._spoke = self._done = False

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A growing answer's next print (``say`` ``text``, ``partial: true``: most of
        a Cline run) for the fold's fast path: what is new in it, as a delta, or all
        of it when it was rewritten; as :meth:`translate` reads it once the session
        started. Its last print (not ``partial``) too, once the model was asked or
        spoke (else it may be the person's task); an API request's start
        (:meth:`_fast_request`); a command or a tool call (:meth:`fast_call`). Any
        field of an unusual type goes the long way."""
        self.settle()  # what fast_line read, told before any other line is
        if not self._started or record.get("type") != "say":
            return None
        what = record.get("say")
        if what != "text":
            if what == "api_req_started":
                return self._fast_request(record)
            return self.fast_call(what, record) if what in FAST_CALLS else None
        partial = record.get("partial") is True
        if not partial and (self._done or not (self._spoke or self._asked)):
            return None
        said = said_fields(record)
        if said is None:
            return None
        text, ts, recv = said
        if not partial:
            return self.whole_text(text, ts, recv)
        if ts is not None and self._first_ms is None:
            self._first_ms = ts
        self._spoke = True
        self._command = None  # a command's output ends when something else is said
        fresh, replaces = self._grown(ts, "text", text, partial)
        if fresh or replaces:
            return "assistant", not replaces, fresh, None, self._task, ts, recv
        return "thinking", "completed", None, None, self._task, ts, recv

    def whole_text(self, text: str, ts: int | None, recv: int | None) -> FastRecord | None:
        """A text's last print (``say`` ``text``, not ``partial``), its fields read, as
        :meth:`fast` takes it: ``None`` unless the model was asked or spoke (else it
        may be the person's task)."""
        if self._done or not (self._spoke or self._asked):
            return None
        if ts is not None and self._first_ms is None:
            self._first_ms = ts
        self._command = None  # a command's output ends when something else is said
        fresh, replaces = self._grown(ts, "text", text, False)
        if fresh or replaces:
            return "assistant", not replaces, fresh, None, self._task, ts, recv
        return "thinking", "completed", None, None, self._task, ts, recv

    def _fast_request(self, record: JSONObject) -> FastRecord | None:
        """An API request's start (``say`` ``api_req_started``, one a model call), as
        :meth:`translate` reads it once the session started: its usage kept, nothing
        shown."""
        ts = record.get("ts")
        recv = record.get(RECV_KEY)
        if (ts is not None and ts.__class__ is not int) or (
            recv is not None and recv.__class__ is not int
        ):
            return None
        return self.request_said(ts, recv, record.get("text"))

    def request_said(self, ts: int | None, recv: int | None, text: Any) -> FastRecord:
        """:meth:`_fast_request` of a record whose ``ts`` and arrival were read already
        (``fast_line``'s decoder types them)."""
        if ts is not None and self._first_ms is None:
            self._first_ms = ts
        self._spoke = True
        self._command = None
        self._api_request(ts, tools.decode(text))
        return "thinking", "completed", None, None, self._task, ts, recv

    def _start(
        self, record: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        self._started = True
        model = as_str(shapes.obj(record.get("modelInfo")).get("modelId"))
        events: list[AnyEvent] = [
            SessionStarted(line, self._task, ts, recv, model=model, agent=NAME)
        ]
        if self._prompt is not None:
            # Shown now, at this line: events go forward line by line (the ``task``
            # line itself was read as the session's quiet start).
            _, when, text = self._prompt
            events.append(PromptSubmitted(line, self._task, when, recv, text=text))
        return events

    def _grown(self, ts: int | None, what: str, text: str, partial: bool) -> tuple[str, bool]:
        """``(text to show, replaces)``: the new end of a growing message, or all of it
        when it was rewritten (``replaces``)."""
        shown = self._shown[what]
        key = ts or 0
        before = shown.get(key, "")
        if partial:
            shown[key] = text
        else:
            shown.pop(key, None)
        if text.startswith(before):
            return text[len(before) :], False
        return text, True

    def _message(
        self, kind: str, what: str, record: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        sid = self._task
        text = as_str(record.get("text")) or ""
        partial = record.get("partial") is True
        if what in ("text", "completion_result") and kind == "say":
            fresh, replaces = self._grown(ts, what, text, partial)
            events: list[AnyEvent] = []
            if fresh or replaces:
                events.append(AssistantMessage(line, sid, ts, recv, text=fresh, delta=not replaces))
            if what == "completion_result" and not partial:
                events.append(self._result(line, ts, recv))
            return events or [ThinkingCompleted(line, sid, ts, recv)]
        if what == "reasoning":
            fresh, _ = self._grown(ts, what, text, partial)
            events = [ThinkingDelta(line, sid, ts, recv, text=fresh)] if fresh else []
            return events + ([] if partial else [ThinkingCompleted(line, sid, ts, recv)])
        if what in ("task", "user_feedback"):
            return [PromptSubmitted(line, sid, ts, recv, text=text)]
        if what == "tool":
            return self._tool(tools.decode(text), line, ts, recv, partial)
        if what == "command":
            return self._command_start(text, line, ts, recv, partial)
        if what == "command_output":
            return self._command_output(text, line, ts, recv)
        if what == "use_mcp_server":
            return self._mcp_start(tools.decode(text), line, ts, recv, partial)
        if what == "mcp_server_response":
            return self._mcp_end(text, line, ts, recv)
        if what == "api_req_started":
            self._spoke = True
            self._api_request(ts, tools.decode(text))
            return [ThinkingCompleted(line, sid, ts, recv)]
        if what in ("followup", "plan_mode_respond"):
            info = tools.decode(text)
            question = as_str(info.get("question")) or as_str(info.get("response")) or text
            return [AssistantMessage(line, sid, ts, recv, text=question, delta=False)]
        if what in _NOTICES:
            detail = text or None
            if _NOTICES[what] == "error":
                self._error = detail or what
            return [
                ConnectionNotice(
                    line, sid, ts, recv, type=_NOTICES[what], subtype=what, detail=detail
                )
            ]
        if what in QUIET or what == "completion_result":  # ``ask``: the CLI ends there
            return [ThinkingCompleted(line, sid, ts, recv)]
        return None

    def _tool(
        self, info: JSONObject, line: int, ts: int | None, recv: int | None, partial: bool
    ) -> list[AnyEvent] | None:
        if not info:
            return None
        kind, args, payload = tools.call_of(info)
        call_id = f"cline-{ts}"
        if partial:  # the call as the model is still writing it
            return [
                ToolCallEvent(line, self._task, ts, recv, call_id=call_id, kind=kind, args=args)
            ]
        # Printed when done: started and ended in one event (a view re-reads this line).
        return [
            ToolCallEvent(
                line,
                self._task,
                ts,
                recv,
                completed=True,
                call_id=call_id,
                kind=kind,
                args=args,
                outcome="success",
                payload=payload,
            )
        ]

    def _command_start(
        self, text: str, line: int, ts: int | None, recv: int | None, partial: bool
    ) -> list[AnyEvent]:
        call_id = f"cline-{ts}"
        if not partial:
            self._command = (call_id, "")
        args: JSONObject = {"command": text}
        return [ToolCallEvent(line, self._task, ts, recv, call_id=call_id, kind="shell", args=args)]

    def _command_output(
        self, text: str, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        if self._command is None:
            return None
        call_id, before = self._command
        output = f"{before}\n{text}" if before else text
        self._command = (call_id, output)
        payload = shapes.shell_payload(output)
        return [
            ToolCallEvent(
                line,
                self._task,
                ts,
                recv,
                completed=True,
                call_id=call_id,
                kind="shell",
                outcome="success",
                payload=payload,
            )
        ]

    def _mcp_start(
        self, info: JSONObject, line: int, ts: int | None, recv: int | None, partial: bool
    ) -> list[AnyEvent] | None:
        if not info:
            return None
        kind, args = tools.mcp_call(info)
        call_id = f"cline-{ts}"
        if not partial:
            self._mcp = call_id
        return [ToolCallEvent(line, self._task, ts, recv, call_id=call_id, kind=kind, args=args)]

    def _mcp_end(
        self, text: str, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        if self._mcp is None:
            return None
        call_id, self._mcp = self._mcp, None
        payload = shapes.mcp_payload(text)
        return [
            ToolCallEvent(
                line,
                self._task,
                ts,
                recv,
                completed=True,
                call_id=call_id,
                kind="mcp",
                outcome="success",
                payload=payload,
            )
        ]

    def _api_request(self, ts: int | None, info: JSONObject) -> None:
        usage: JSONObject = {}
        for key, name in _USAGE.items():
            count = as_int(info.get(key))
            if count is not None:
                usage[name] = count
        cost = info.get("cost")
        if isinstance(cost, int | float) and not isinstance(cost, bool):
            usage["cost"] = float(cost)
        if usage:  # the latest account of a request replaces the earlier one
            self._requests[ts or 0] = usage

    def _result(self, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        self._done = True
        usage: JSONObject = {}
        cost: float | None = None
        for request in self._requests.values():
            for key, value in request.items():
                if key == "cost":
                    cost = (cost or 0.0) + value
                else:
                    usage[key] = usage.get(key, 0) + value
        duration = None
        if ts is not None and self._first_ms is not None and ts >= self._first_ms:
            duration = ts - self._first_ms
        return RunResult(
            line,
            self._task,
            ts,
            recv,
            subtype="success",
            duration_ms=duration,
            usage=usage or None,
            total_cost_usd=None if cost is None else round(cost, 8),
        )


def detect(record: JSONObject) -> bool:
    """Cline's opening ``task_started`` (a ``taskId``), or a ``say``/``ask`` message
    (its kind under the key its ``type`` names, a numeric ``ts``)."""
    kind = record.get("type")
    if kind == "task_started":
        return "taskId" in record
    if kind in ("say", "ask"):
        return isinstance(record.get(kind), str) and isinstance(record.get("ts"), int)
    return False


DIALECT = Dialect(name=NAME, label="Cline", detect=detect, translator=ClineTranslator)
