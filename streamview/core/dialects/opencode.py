"""opencode's ``opencode run --format json`` (and Kilo's ``kilo run --format json``).

Records (one JSON object a line), as ``packages/opencode/src/cli/cmd/run.ts`` of
sst/opencode writes them: ``{"type", "timestamp" (epoch ms), "sessionID", ...}`` and

- ``step_start``: ``part`` (a ``step-start`` part: ``messageID``, ``snapshot``): a model
  step begins.
- ``text``: ``part`` (a ``text`` part, written once, when it is finished): the answer.
- ``reasoning``: ``part`` (a ``reasoning`` part, with ``--thinking``): what the model
  thought.
- ``tool_use``: ``part`` (a ``tool`` part whose ``state.status`` is ``completed`` or
  ``error``: ``input``, ``output``, ``metadata``, ``error``, ``time.start``/``end``): a
  finished call. Calls are only printed once they end.
- ``step_finish``: ``part`` (a ``step-finish`` part: ``reason``, ``cost``, ``tokens``
  with ``input``, ``output``, ``reasoning``, ``cache.read``/``write``): a step ends; a
  ``reason`` other than ``tool-calls`` ends the turn.
- ``error``: ``error`` (``name``, ``data.message``): the session failed.

A ``tool_use`` of the ``invalid`` tool is a call the model could not make (a tool it
may not use, arguments that do not fit): a failed call. A step that finishes with
reason ``unknown`` is the run's end only if no step follows it. A wrapper that logs
several ``opencode run`` one after another gives a record of a new ``sessionID``: each
is a run of its own.
- ``done``: ``reason``, ``rejected`` (newer builds): the session went idle.

No model, no working directory and no prompt are printed. Kilo's CLI is a fork that
prints the same stream, with nothing in it to tell the two apart: it is read as
opencode's, and named Kilo when ``--agent kilo`` says so.
"""

from __future__ import annotations

from typing import Any

import msgspec

import streamview.core.dialects.opencode_tools as tools
import streamview.core.dialects.shapes as shapes
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.opencode_fast import (
    StepLine,
    StepStart,
    TextLine,
    decode_hot_line,
    decode_raw_line,
    tool_fields,
)
from streamview.core.dialects.opencode_tools import success_said
from streamview.core.dialects.opencode_totals import BATCH, RunTotals
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
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
from streamview.core.fields import as_int, as_str

NAME = "opencode"
KILO = "kilo"
_TYPES = frozenset({"step_start", "step_finish", "text", "reasoning", "tool_use", "error", "done"})
_TURN_GOES_ON = frozenset({"tool-calls", "tool_calls"})
_HUGE = 2**1000
"""Past this an integer cost is no float: the long way says so."""
_SUCCESS = frozenset({"stop", "end_turn", "end-turn", "unknown"})
_INVALID = "invalid"
"""opencode's tool for a call it could not make (``packages/opencode/src/tool/invalid.ts``:
its output says the arguments were invalid, or the tool is unavailable)."""


class OpenCodeTranslator:
    """One opencode stream, keeping the run's token and cost totals."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoders), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    REPEATED_RESULT = "new call"  # see streamview.core.repeated_results

    def __init__(self, agent: str = NAME) -> None:
        self._agent = agent
        """The name sessions are given (``opencode`` or ``kilo``)."""
        self._session: str | None = None
        """The ``sessionID`` of the first record (the session announced)."""
        self._started_ms: int | None = None
        """The first record's ``timestamp``: the run's duration is counted from it."""
        self._totals = RunTotals()
        """Tokens (Cursor's key names) and cost of every finished step, summed."""
        self._error: tuple[str, str] | None = None
        """The last ``error`` record's name and message."""
        self._ended = False
        """The turn's outcome was given (a ``done`` after it says nothing new)."""
        self._held: tuple[int, int | None, int | None] | None = None
        """A step that finished with reason ``unknown`` (line, timestamp, arrival): the
        run's outcome only if no step follows it (a ``done`` or the end of input)."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one opencode record stands for (see ``Translator``)."""
        kind = record.get("type")
        if not isinstance(kind, str):
            reason = "no 'type' field" if kind is None else "'type' is not a string"
            return [MalformedLine(line, self._session, None, recv_ms, reason=reason)]
        ts = as_int(record.get("timestamp"))
        events: list[AnyEvent] = []
        here = as_str(record.get("sessionID"))
        another = self._session is not None and here is not None and here != self._session
        held, self._held = self._held, None
        if held is not None and (another or kind != "step_start"):
            # No step followed the step that ended with "unknown": it ended the run.
            events.append(self._result(line, held[1], held[2], "unknown"))
        if another:  # a wrapper logged another `opencode run`: a run of its own
            self._next_run()
        if self._session is None and kind in _TYPES:
            self._session = as_str(record.get("sessionID"))
            self._started_ms = ts
            events.append(SessionStarted(line, self._session, ts, recv_ms, agent=self._agent))
        sid = self._session
        part = record.get("part")
        part = part if isinstance(part, dict) else {}
        found: list[AnyEvent] | None = None
        if kind == "text" and isinstance(part.get("text"), str):
            found = [AssistantMessage(line, sid, ts, recv_ms, text=part["text"], delta=False)]
        elif kind == "tool_use" and isinstance(part.get("state"), dict):
            found = [self._tool(part, line, ts, recv_ms)]
        elif kind == "step_start":
            self._ended = False
            found = [ThinkingCompleted(line, sid, ts, recv_ms)]  # nothing to show
        elif kind == "step_finish":
            found = self._step_finish(part, line, ts, recv_ms)
        elif kind == "reasoning" and isinstance(part.get("text"), str):
            found = [
                ThinkingDelta(line, sid, ts, recv_ms, text=part["text"]),
                ThinkingCompleted(line, sid, ts, recv_ms),
            ]
        elif kind == "error":
            found = [self._failed(record.get("error"), line, ts, recv_ms)]
        elif kind == "done":
            if self._ended:  # the last step's end or an error said how the run went
                found = [ThinkingCompleted(line, sid, ts, recv_ms)]
            else:
                found = [self._result(line, ts, recv_ms, as_str(record.get("reason")) or "idle")]
        if not found:
            events.append(UnknownRecord(line, sid, ts, recv_ms, type=kind, record=record))
        else:
            events.extend(found)
        return events

    def end(self, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """No step followed a step that finished with reason ``unknown``: that was the
        run's end (its line's outcome, given now)."""
        held, self._held = self._held, None
        if held is None:
            return []
        return [self._result(held[0], held[1], held[2], "unknown")]

    def _next_run(self) -> None:
        """A record of another session: a wrapper logged another ``opencode run``."""
        self._session = self._started_ms = self._error = None
        self._totals = RunTotals()
        self._ended = False

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A step's start, its text part, a finished call or a step that called tools
        (an opencode run but its last step) for the fold's fast path, in the run already
        started, as :meth:`translate` reads them (no step waits to be called the run's
        end). Any field of an unusual type, or a
        record of another session, goes the long way."""
        kind = record.get("type")
        if kind != "text" and kind != "step_start" and kind != "tool_use" and kind != "step_finish":
            return None
        sid = self._session
        here = record.get("sessionID")
        ts = record.get("timestamp")
        recv = record.get(RECV_KEY)
        if (
            sid is None
            or self._held is not None
            or (here is not None and here != sid)
            or (ts is not None and ts.__class__ is not int)
            or (recv is not None and recv.__class__ is not int)
        ):
            return None
        if kind == "step_start":
            self._ended = False
            return "thinking", "completed", None, None, sid, ts, recv
        part = record.get("part")
        if part.__class__ is not dict:
            return None
        if kind == "tool_use":  # the finished call, without the event's dispatch
            if part.get("state").__class__ is not dict:
                return None
            try:
                fields = self._tool_fields(part, line, summarised=True)
            except Exception:  # the long way says what is wrong with it
                return None
            return "tool_call", "completed", fields, None, sid, ts, recv
        if kind == "step_finish":
            # A step that called tools (most of them): its totals, and nothing to show.
            reason = part.get("reason")
            cost = part.get("cost")
            if (
                reason.__class__ is not str
                or reason not in _TURN_GOES_ON
                or (cost.__class__ is int and not -_HUGE < cost < _HUGE)  # float() raises
            ):
                return None
            self._add_totals(part)
            return "thinking", "completed", None, None, sid, ts, recv
        text = part.get("text")
        if text.__class__ is not str:
            return None
        return "assistant", False, text, None, sid, ts, recv

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: a step's start, its text, a call that
        completed or a step that called tools, read from its bytes (:mod:`.opencode_fast`,
        one decoder for the four); any other line is declined (decoded in full)."""
        hot: Any  # one of opencode_fast.HotLine's four, told apart by class
        try:
            hot = decode_hot_line(data)
        except msgspec.ValidationError:  # a call's input that is not flat, say
            try:
                hot = decode_raw_line(data)
            except HOT_DECODE_ERRORS:
                return None
        except HOT_DECODE_ERRORS:
            return None
        sid = self._session
        here = hot.sessionID
        if sid is None or self._held is not None or (here is not None and here != sid):
            return None
        kind = hot.__class__
        if kind is StepStart:
            self._ended = False
            return "thinking", "completed", None, None, sid, hot.timestamp, hot.streamview_recv_ms
        part = hot.part
        if part is None:
            return None
        if kind is TextLine:
            text = part.text
            if text is None:
                return None
            return "assistant", False, text, None, sid, hot.timestamp, hot.streamview_recv_ms
        if kind is StepLine:
            reason = part.reason  # _TURN_GOES_ON's two, compared (no hash of a new str)
            if reason != "tool-calls" and reason != "tool_calls":
                return None
            kept = self._totals.kept  # the run's totals: this step added with the next batch
            kept.append(part)
            if len(kept) >= BATCH:
                self._totals.settle()
            return "thinking", "completed", None, None, sid, hot.timestamp, hot.streamview_recv_ms
        try:
            fields = tool_fields(part, line)
        except Exception:  # the long way says what is wrong with it
            return None
        if fields is None:
            return None
        ts = hot.timestamp
        return "tool_call", "completed", fields, None, sid, ts, hot.streamview_recv_ms

    def _tool(self, part: JSONObject, line: int, ts: int | None, recv: int | None) -> ToolCallEvent:
        """A finished ``tool`` part: the call, started and ended, from one record."""
        _, _, call_id, kind, args, outcome, payload, _, start, end, description, _ = (
            self._tool_fields(part, line)
        )
        # One event, started and ended: a view re-reading the call reads this line only.
        return ToolCallEvent(
            line,
            self._session,
            ts,
            recv,
            completed=True,
            call_id=call_id,
            kind=kind,
            args=args,
            outcome=outcome,
            payload=payload,
            started_at_ms=start,
            completed_at_ms=end,
            description=description,
        )

    def _tool_fields(
        self, part: JSONObject, line: int, summarised: bool = False
    ) -> tuple[Any, ...]:
        """A finished ``tool`` part's call, as the fold's fast path takes a tool record
        (:func:`~streamview.core.tool_record.event_fields`' shape), no event built.

        ``summarised``: a read, grep or command that succeeded is summarised without its
        payload (:func:`~.opencode_fast.success_said`), for the fold only: a view
        re-reads the record."""
        state: JSONObject = part["state"]
        name = as_str(part.get("tool")) or "unknown"
        call_id = as_str(part.get("callID")) or as_str(part.get("id")) or f"<line {line}>"
        kind = tools.kind_of(name)
        tool_input = state.get("input")
        args = tools.args_of(name, tool_input)
        times = shapes.obj(state.get("time"))
        start, end = as_int(times.get("start")), as_int(times.get("end"))
        status = state.get("status")
        outcome: str
        payload: Any
        if status == "completed" and name == _INVALID:
            # The model called a tool it may not use, or with arguments that do not fit
            # (opencode's `invalid` tool says which): the call failed.
            said = as_str(state.get("output")) or as_str(shapes.obj(args).get("error"))
            outcome, payload = "failure", {"message": said or "invalid tool call"}
        elif status == "completed":
            output = as_str(state.get("output")) or ""
            metadata = state.get("metadata")
            payload = success_said(kind, args, output, metadata) if summarised else None
            if payload is None:
                payload = tools.success_payload(kind, args, output, metadata)
            outcome = "success"
        elif status == "error":
            outcome, payload = tools.error_outcome(state.get("error"))
        else:  # a status this reader does not know: kept as it came
            outcome, payload = str(status), state
        description = tools.description_of(name, tool_input)
        return (
            None,
            None,
            call_id,
            kind,
            args,
            outcome,
            payload,
            None,
            start,
            end,
            description,
            None,
        )

    def _add_totals(self, part: JSONObject) -> None:
        """A finished step's tokens and cost, added to the run's."""
        tokens = part.get("tokens")
        if isinstance(tokens, dict):
            cache = shapes.obj(tokens.get("cache"))
            self._totals.add_tokens(
                as_int(tokens.get("input")),
                as_int(tokens.get("output")),
                as_int(tokens.get("reasoning")),
                as_int(cache.get("read")),
                as_int(cache.get("write")),
            )
        cost = part.get("cost")
        if isinstance(cost, int | float) and not isinstance(cost, bool):
            self._totals.add_cost(float(cost))

    def _step_finish(
        self, part: JSONObject, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        self._add_totals(part)
        reason = as_str(part.get("reason")) or "unknown"
        if reason in _TURN_GOES_ON:
            return [ThinkingCompleted(line, self._session, ts, recv)]
        if reason == "unknown" and self._error is None:
            # Another step may follow (a provider that gives no reason for a tool-call
            # step): the outcome waits for the next record, or the end of input.
            self._held = (line, ts, recv)
            return [ThinkingCompleted(line, self._session, ts, recv)]
        self._error = None if reason in _SUCCESS else self._error
        return [self._result(line, ts, recv, reason)]

    def _failed(self, error: Any, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        info: JSONObject = error if isinstance(error, dict) else {}
        data = shapes.obj(info.get("data"))
        name = as_str(info.get("name")) or "error"
        message = as_str(data.get("message")) or as_str(info.get("message")) or name
        self._error = (name, message)
        return self._result(line, ts, recv, name)

    def _result(self, line: int, ts: int | None, recv: int | None, reason: str) -> AnyEvent:
        """The outcome so far: an error if one was printed, else how the turn ended."""
        self._ended = True
        duration = None
        if ts is not None and self._started_ms is not None and ts >= self._started_ms:
            duration = ts - self._started_ms
        message: str | None = None
        if self._error is not None:
            subtype, message = self._error
            is_error = True
        else:
            is_error = reason not in _SUCCESS and reason != "idle"
            subtype = reason if is_error else "success"
        totals = self._totals
        cost = totals.cost
        return RunResult(
            line,
            self._session,
            ts,
            recv,
            subtype=subtype,
            is_error=is_error,
            duration_ms=duration,
            usage=dict(totals.usage) or None,
            total_cost_usd=None if cost is None else round(cost, 8),
            result=message,
            message=message,
        )


def detect(record: JSONObject) -> bool:
    """An opencode record: one of its types, a string ``sessionID`` and a numeric
    ``timestamp``, with a ``part`` object (``error`` and ``done`` have none).

    No other dialect's records have ``sessionID`` spelled so; Gemini CLI's
    ``tool_use`` has a ``tool_id`` and an ISO ``timestamp``.
    """
    kind = record.get("type")
    if kind not in _TYPES or not isinstance(record.get("sessionID"), str):
        return False
    if kind in ("error", "done"):
        return True
    return isinstance(record.get("part"), dict)


def _kilo() -> OpenCodeTranslator:
    return OpenCodeTranslator(KILO)


DIALECT = Dialect(name=NAME, label="opencode", detect=detect, translator=OpenCodeTranslator)
KILO_DIALECT = Dialect(
    name=KILO, label="Kilo Code CLI", detect=lambda record: False, translator=_kilo
)
"""Kilo's stream is opencode's: never recognised from it, chosen with ``--agent kilo``."""
