"""A run as OpenTelemetry spans: a pure mapping from the fold's state to plain data.

One trace per session. Its root span is the agent's run (``invoke_agent``); each tool
call is a child span (``execute_tool``), a subagent's calls are children of the call
that started them, and the agent's notices (a retry, a rate limit, a compaction, a
hook) are events of the root span. Names follow the OpenTelemetry GenAI semantic
conventions (``gen_ai.*``), with the OpenInference attributes Phoenix and Langfuse
read (``openinference.span.kind``, ``session.id``, ``input.value``/``output.value``).

Times come from the stream: a recording's arrival times, else the records' own times;
never from when the export runs. A stream that says no time at all (Claude Code's,
Codex's) is placed before an anchor its caller gives (the recording's last change),
lasting what its result says, its calls placed by line, and its root span says
``streamview.timing = estimated``. Ids are derived from the session and call ids, so
sending the same run twice gives the same spans (a backend keeps one of each).

Content (the prompt, the answer, a call's arguments and result) is sent only when
asked for (``content=True``); whatever is sent is cleaned of terminal escapes
(:func:`~streamview.core.sanitize.clean`) and capped (:data:`CONTENT_LIMIT`).

The OpenTelemetry SDK is not imported here: :mod:`streamview.fronts.otlp` turns these
records into the SDK's spans and sends them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import streamview.core.tools as tools
from streamview.core.events import AgentNotice, ConnectionNotice, Event
from streamview.core.model import ERROR, INCOMPLETE, RUNNING, Session, ToolCall
from streamview.core.normalized import shared_kind
from streamview.core.sanitize import clean, dumps_for_terminal, one_line
from streamview.core.usage import usage_count

if TYPE_CHECKING:
    from streamview.core.state import StreamState

CONTENT_LIMIT = 16_000
"""Characters of one content attribute (a prompt, an answer, arguments, a result)."""
NAME_LIMIT = 200
"""Characters of a name-like attribute (a target, a model, a notice's text)."""

OK = "ok"
FAILED = "error"
UNSET = "unset"

_FAILED_CALLS = frozenset({tools.FAILED, tools.ERROR, tools.REJECTED, tools.INTERRUPTED})
"""Call statuses that make its span's status an error."""

_DEPTH = 64
"""Levels of a call's arguments sent, at most."""

AttributeValue = str | int | float | bool


@dataclass(frozen=True, slots=True)
class SpanEvent:
    """Something that happened during a span (a retry, a rate limit, a hook)."""

    name: str
    time_ns: int
    attributes: dict[str, AttributeValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SpanRecord:
    """One span, as plain data: what the SDK's span is made from."""

    name: str
    trace_id: int
    """128-bit trace id (one per session)."""
    span_id: int
    """64-bit span id."""
    parent_id: int | None
    """The parent span's id; ``None`` for the root."""
    start_ns: int
    end_ns: int
    attributes: dict[str, AttributeValue]
    status: str = UNSET
    """``ok``, ``error`` or ``unset``."""
    status_message: str | None = None
    events: tuple[SpanEvent, ...] = ()
    key: str = ""
    """What the span stands for (``root`` or ``call:<id>``), unique in its trace."""


def capped(text: str, limit: int = CONTENT_LIMIT) -> str:
    """``text`` cleaned of terminal escapes, and cut to ``limit`` with a marker saying
    how much was left out."""
    head = clean(text[: limit + 1])
    if len(text) <= limit and len(head) <= limit:
        return head
    left_out = max(len(text) - limit, 1)
    return head[:limit] + f"… [{left_out} more characters not sent]"


def _id(text: str, bits: int) -> int:
    """A non-zero id of ``bits`` bits derived from ``text`` (a zero id is invalid)."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[: bits // 8], "big") or 1


def session_key(session: Session) -> str:
    """What identifies a session across exports: its id, else where and when it began."""
    if session.session_id:
        return f"session:{session.session_id}"
    return f"anonymous:{session.agent}:{session.first_time_ms}:{session.first_line}"


def trace_id_of(session: Session) -> int:
    """The session's trace id (128 bits), the same every time it is sent."""
    return _id("streamview/trace/" + session_key(session), 128)


def span_id_of(session: Session, key: str) -> int:
    """The id (64 bits) of the span ``key`` (``root``, ``call:<id>``) of a session."""
    return _id(f"streamview/span/{session_key(session)}/{key}", 64)


def _ns(ms: int) -> int:
    return ms * 1_000_000


def call_times(call: ToolCall) -> tuple[int, int] | None:
    """A call's start and end (epoch ms) from one clock: arrival times first (a
    recording's), then the call's own, then its records'; ``None`` when unknown."""
    for start, end in (
        (call.start_recv, call.end_recv),
        (call.started_at_ms, call.completed_at_ms),
        (call.start_ts, call.end_ts),
    ):
        if start is not None:
            return start, end if end is not None and end >= start else start
    return None


def stream_times(session: Session) -> tuple[int, int] | None:
    """A session's start and end (epoch ms) as its stream says them, covering its
    calls; ``None`` when the stream says no time at all."""
    points: list[int] = []
    if session.first_time_ms is not None:
        points.append(session.first_time_ms)
    if session.last_time_ms is not None:
        points.append(session.last_time_ms)
    for call in session.tool_calls:
        times = call_times(call)
        if times is not None:
            points.extend(times)
    return (min(points), max(points)) if points else None


@dataclass(frozen=True, slots=True)
class Window:
    """When a session ran (epoch ms), and whether the stream said so or it is estimated."""

    start_ms: int
    end_ms: int
    estimated: bool = False
    """The stream holds no time (Claude Code's, Codex's): the session ends at the
    anchor its caller gave (a recording's last change) and lasted what its result
    says; its calls are placed by line between the two."""

    def at_line(self, line: int | None, first: int, last: int) -> int:
        """The time of ``line`` of a session of lines ``first``..``last``, by line."""
        if line is None or last <= first:
            return self.start_ms
        share = min(max((line - first) / (last - first), 0.0), 1.0)
        return self.start_ms + round((self.end_ms - self.start_ms) * share)


def session_window(session: Session, anchor_ms: int | None = None) -> Window | None:
    """When the session ran: :func:`stream_times`, else ending at ``anchor_ms`` and
    lasting its result's ``duration_ms`` (estimated); ``None`` when neither is known."""
    times = stream_times(session)
    if times is not None:
        return Window(*times)
    if anchor_ms is None:
        return None
    lasted = session.outcome.duration_ms
    lasted = lasted if lasted is not None and lasted > 0 else 0
    return Window(anchor_ms - lasted, anchor_ms, estimated=True)


def _call_window(session: Session, call: ToolCall, window: Window) -> tuple[int, int]:
    times = call_times(call)
    if times is not None:
        return times
    first, last = session.first_line, session.last_line or session.first_line
    start = window.at_line(call.started_line or call.completed_line, first, last)
    end = window.at_line(call.completed_line or last, first, last)
    return start, max(start, end)


def _put(attributes: dict[str, AttributeValue], name: str, value: object) -> None:
    if value is None or value == "":
        return
    if isinstance(value, str):
        attributes[name] = one_line(value, NAME_LIMIT)
    elif isinstance(value, bool | int | float):
        attributes[name] = value


def _cleaned(value: object, depth: int = 0) -> object:
    """A JSON value with every string cleaned of escapes (JSON's ``\\u001b`` decodes
    back to one), cut below :data:`_DEPTH` levels."""
    if isinstance(value, str):
        return clean(value)
    if depth >= _DEPTH and isinstance(value, dict | list):
        return "…"
    if isinstance(value, dict):
        return {clean(str(k)): _cleaned(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_cleaned(item, depth + 1) for item in value]
    return value


def _put_id(attributes: dict[str, AttributeValue], name: str, value: str | None) -> None:
    """An id as it is (Cursor's call ids hold a newline), cleaned of escapes and capped."""
    if value:
        attributes[name] = clean(value[:NAME_LIMIT])


def _usage(attributes: dict[str, AttributeValue], session: Session) -> None:
    usage = session.outcome.usage
    given = usage_count(usage, "input_tokens")
    taken = usage_count(usage, "output_tokens")
    _put(attributes, "gen_ai.usage.input_tokens", given)
    _put(attributes, "gen_ai.usage.output_tokens", taken)
    _put(attributes, "llm.token_count.prompt", given)
    _put(attributes, "llm.token_count.completion", taken)
    if given is not None or taken is not None:
        attributes["llm.token_count.total"] = (given or 0) + (taken or 0)
    for name in ("cache_read_tokens", "cache_write_tokens", "reasoning_tokens"):
        _put(attributes, f"streamview.usage.{name}", usage_count(usage, name))
    cost = session.outcome.cost_usd
    _put(attributes, "streamview.cost_usd", cost)


def root_span(
    session: Session,
    notices: Sequence[Event] = (),
    content: bool = False,
    window: Window | None = None,
) -> SpanRecord | None:
    """The session's ``invoke_agent`` span; ``None`` when no time is known for it.

    Args:
        session: A session of the fold (finished, or still running: its end is then
            the last time seen).
        notices: The fold's notices (:attr:`StreamState.notices`): those within the
            session's lines become the span's events.
        content: Add the prompt and the answer (``input.value``, ``output.value``).
        window: When it ran (default: :func:`session_window` of the stream alone).
    """
    window = window or session_window(session)
    if window is None:
        return None
    times = (window.start_ms, window.end_ms)
    agent = session.agent or "agent"
    attributes: dict[str, AttributeValue] = {
        "gen_ai.operation.name": "invoke_agent",
        "openinference.span.kind": "AGENT",
        "streamview.tool_calls": len(session.tool_calls),
        "streamview.timing": "estimated" if window.estimated else "stream",
    }
    _put(attributes, "gen_ai.agent.name", agent)
    _put(attributes, "gen_ai.request.model", session.model)
    _put(attributes, "llm.model_name", session.model)
    _put_id(attributes, "gen_ai.conversation.id", session.session_id)
    _put_id(attributes, "session.id", session.session_id)
    _put(attributes, "streamview.cwd", session.cwd)
    outcome = session.outcome
    _put(attributes, "streamview.outcome", outcome.status)
    _put(attributes, "streamview.outcome.subtype", outcome.subtype)
    _put(attributes, "streamview.num_turns", outcome.num_turns)
    _usage(attributes, session)
    if content:
        if session.prompt:
            attributes["input.value"] = capped(session.prompt)
            attributes["input.mime_type"] = "text/plain"
        answer = session.text
        if answer:
            attributes["output.value"] = capped(answer)
            attributes["output.mime_type"] = "text/plain"
    status, message = OK, None
    if outcome.status in (ERROR, INCOMPLETE):
        status = FAILED
        message = one_line(outcome.message or outcome.subtype or outcome.status, NAME_LIMIT)
    elif outcome.status == RUNNING:
        status = UNSET
    return SpanRecord(
        name=f"invoke_agent {one_line(agent, 60)}",
        trace_id=trace_id_of(session),
        span_id=span_id_of(session, "root"),
        parent_id=None,
        start_ns=_ns(times[0]),
        end_ns=_ns(times[1]),
        attributes=attributes,
        status=status,
        status_message=message,
        events=tuple(_notice_events(session, notices, window, content)),
        key="root",
    )


def call_span(
    session: Session, call: ToolCall, content: bool = False, window: Window | None = None
) -> SpanRecord | None:
    """A tool call's ``execute_tool`` span; ``None`` when no time is known for it.

    Its parent is the subagent call it was made under, else the session's root. A
    call the stream gives no time is placed by its lines within ``window``.
    """
    window = window or session_window(session)
    if window is None:
        return None
    times = _call_window(session, call, window)
    attributes: dict[str, AttributeValue] = {
        "gen_ai.operation.name": "execute_tool",
        "openinference.span.kind": "TOOL",
        "gen_ai.tool.type": "function",
        "streamview.tool.status": call.status,
    }
    _put(attributes, "gen_ai.tool.name", call.kind)
    _put(attributes, "tool.name", call.kind)
    _put(attributes, "streamview.tool.kind", shared_kind(call.kind))
    _put_id(attributes, "gen_ai.tool.call.id", call.call_id)
    _put(attributes, "streamview.tool.target", call.target)
    _put_id(attributes, "session.id", session.session_id)
    if content:
        if call.args:
            attributes["input.value"] = capped(dumps_for_terminal(_cleaned(call.args)))
            attributes["input.mime_type"] = "application/json"
        if call.summary:
            attributes["output.value"] = capped(call.summary)
            attributes["output.mime_type"] = "text/plain"
    status, message = UNSET, None
    if call.status in _FAILED_CALLS:
        status = FAILED
        message = one_line(f"{call.status}: {call.summary}" if call.summary else call.status)
    elif call.status != tools.RUNNING:
        status = OK
    parent = session.calls_by_id.get(call.parent_call_id) if call.parent_call_id else None
    parent_key = f"call:{parent.call_id}" if parent is not None else "root"
    key = f"call:{call.call_id}"
    return SpanRecord(
        name=f"execute_tool {one_line(call.kind, 60)}",
        trace_id=trace_id_of(session),
        span_id=span_id_of(session, key),
        parent_id=span_id_of(session, parent_key),
        start_ns=_ns(times[0]),
        end_ns=_ns(times[1]),
        attributes=attributes,
        status=status,
        status_message=message,
        key=key,
    )


def _notice_events(
    session: Session, notices: Sequence[Event], window: Window, content: bool
) -> Iterable[SpanEvent]:
    """The notices within the session's lines, as span events (in order)."""
    first, last = session.first_line, session.last_line or session.first_line
    for notice in notices:
        if not first <= notice.line <= last:
            continue
        when = notice.recv_ms if notice.recv_ms is not None else notice.timestamp_ms
        if when is None:
            when = window.at_line(notice.line, first, last)
        moment = _ns(min(max(when, window.start_ms), window.end_ms))
        attributes: dict[str, AttributeValue] = {"streamview.line": notice.line}
        if isinstance(notice, AgentNotice):
            name = notice.topic
            _put(attributes, "streamview.notice.type", notice.type)
            _put(attributes, "streamview.notice.subtype", notice.subtype)
            if content:
                _put(attributes, "streamview.notice.text", notice.text)
        elif isinstance(notice, ConnectionNotice):
            name = notice.type
            _put(attributes, "streamview.notice.subtype", notice.subtype)
            _put(attributes, "streamview.notice.attempt", notice.attempt)
            if content:
                _put(attributes, "streamview.notice.text", notice.detail)
        else:
            continue
        yield SpanEvent(one_line(name, 60), moment, attributes)


def session_spans(
    session: Session,
    notices: Sequence[Event] = (),
    content: bool = False,
    window: Window | None = None,
) -> list[SpanRecord]:
    """Every span of a session: its calls' spans, then its root span (none when no
    time is known for it: see :func:`session_window`)."""
    window = window or session_window(session)
    if window is None:
        return []
    spans = [call_span(session, call, content, window) for call in session.tool_calls]
    spans.append(root_span(session, notices, content, window))
    return [span for span in spans if span is not None]


def spans_of(
    state: StreamState, content: bool = False, anchor_ms: int | None = None
) -> list[SpanRecord]:
    """Every span of every session of a folded stream (:func:`session_spans`).

    Args:
        state: The fold.
        content: Send prompts, answers, arguments and results.
        anchor_ms: For a stream that says no time: when it ended (a recording's last
            change). Its last session ends then, an earlier one when the next began.
    """
    windows: list[Window | None] = []
    for session in reversed(state.sessions):
        window = session_window(session, anchor_ms)
        windows.append(window)
        if window is not None:
            anchor_ms = window.start_ms
    spans: list[SpanRecord] = []
    for session, window in zip(state.sessions, reversed(windows), strict=True):
        if window is not None:
            spans.extend(session_spans(session, state.notices, content, window))
    return spans
