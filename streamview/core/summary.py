"""The ``--json`` summary: one JSON object that scripts and CI rely on.

Keys are never missing: unknown values are ``null``. Keys may be added later; the
ones here keep their meaning.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

import msgspec

from streamview.core.events import AgentNotice, ConnectionNotice
from streamview.core.notices import record_name
from streamview.core.sanitize import escape_json_unsafe, json_for_terminal
from streamview.core.shared_kinds import shared_kind
from streamview.core.state import TEXT, THINKING, Session, StreamState, ToolCall
from streamview.core.summary_text import text_json
from streamview.core.text_store import TextSpill
from streamview.core.usage import normalized_usage


def call_summary(call: ToolCall) -> dict[str, Any]:
    """One tool call as the contract shows it: ``kind`` in the shared words (as
    ``--events`` has it), ``name`` the tool as streamview names it (``ls``, or the
    agent's own name for a tool it does not map)."""
    return {
        "call_id": call.call_id,
        "kind": shared_kind(call.kind),
        "name": call.kind,
        "target": call.target,
        "status": call.status,
        "summary": call.summary,
        "duration_ms": call.duration_ms,
    }


class _CallRow(msgspec.Struct, gc=False):
    """:func:`call_summary`'s object, its keys in its order: msgspec builds and writes
    a thousand of them in half the time of as many dicts through orjson, the same bytes
    (C0 controls as ``\\n`` or ``\\u0000``, the rest raw, as orjson)."""

    call_id: str
    kind: str
    name: str
    target: str | None
    status: str
    summary: str | None
    duration_ms: int | None


_ROWS = msgspec.json.Encoder()
_KIND = attrgetter("kind")
_DURATION = attrgetter("duration_ms")
_INT64 = (-(1 << 63), (1 << 64) - 1)
"""The integers orjson writes (past them json_for_terminal's fallback writes the piece)."""


def _calls_json(calls: list[ToolCall]) -> bytes:
    """``json_for_terminal`` of :func:`call_summary` of each of ``calls``, as a list."""
    # A run has a few kinds: each one's shared kind looked up once, not a call a row.
    kinds = {kind: shared_kind(kind) for kind in set(map(_KIND, calls))}
    rows: list[_CallRow] = []
    append = rows.append
    for call in calls:
        # ToolCall.duration_ms, without a property's call a row (a third of the row)
        start, end = call.started_at_ms, call.completed_at_ms
        if start is None or end is None or not end >= start:
            start, end = call.start_ts, call.end_ts
            if start is None or end is None or not end >= start:
                start, end = call.start_recv, call.end_recv
                if start is None or end is None or not end >= start:
                    start = end = None
        kind = call.kind
        append(
            _CallRow(
                call.call_id,
                kinds[kind],
                kind,
                call.target,
                call.status,
                call.summary,
                None if end is None else end - start,  # type: ignore[operator]
            )
        )
    low, high = _INT64
    # The durations other than None and 0, their least and greatest found in C.
    durations = list(filter(None, map(_DURATION, rows)))
    try:
        if durations and (min(durations) < low or max(durations) > high):
            raise OverflowError  # orjson would refuse it: the fallback's bytes
        data = _ROWS.encode(rows)
    except (TypeError, OverflowError, UnicodeEncodeError):  # a str subclass, a surrogate
        return json_for_terminal(_call_summaries(calls))
    return escape_json_unsafe(data)


def _call_summaries(calls: list[ToolCall]) -> list[dict[str, Any]]:
    """:func:`call_summary` of each of ``calls``, in one loop (a function call less a
    call: a tenth of writing a tool-heavy run's summary)."""
    kind_of = shared_kind
    return [
        {
            "call_id": call.call_id,
            "kind": kind_of(call.kind),
            "name": call.kind,
            "target": call.target,
            "status": call.status,
            "summary": call.summary,
            "duration_ms": call.duration_ms,
        }
        for call in calls
    ]


def usage_summary(usage: dict[str, Any] | None) -> dict[str, int | None]:
    """What a run used, in the same keys for every agent (``--events``' ``usage``):
    ``input_tokens``, ``output_tokens``, ``cache_read_tokens``, ``cache_write_tokens``,
    ``reasoning_tokens``; ``null`` when the agent does not say. ``usage_raw`` keeps the
    agent's own object."""
    return normalized_usage(usage)


def session_summary(session: Session) -> dict[str, Any]:
    """One session as the contract shows it."""
    return {
        **session_summary_head(session),
        "text": session.text,
        "thinking": session.thinking,
        "tool_calls": [call_summary(call) for call in session.tool_calls],
        "outcome": session_summary_outcome(session),
    }


def session_summary_head(session: Session) -> dict[str, Any]:
    """What :func:`session_summary` says before the session's text."""
    return {
        "session_id": session.session_id,
        "agent": session.agent,
        "model": session.model,
        "cwd": session.cwd,
        "permission_mode": session.permission_mode,
        "api_key_source": session.api_key_source,
        "prompt": session.prompt,
    }


def session_summary_outcome(session: Session) -> dict[str, Any]:
    """:func:`session_summary`'s ``outcome``."""
    outcome = session.outcome
    return {
        "status": outcome.status,
        "duration_ms": outcome.duration_ms,
        "request_id": outcome.request_id,
        "usage": usage_summary(outcome.usage),
        "usage_raw": outcome.usage,
        "result": outcome.result,
        "cost_usd": outcome.cost_usd,
        "num_turns": outcome.num_turns,
        "message": outcome.message,
    }


def summarize(state: StreamState, process: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole ``--json`` object for a folded stream.

    Args:
        state: A finished state.
        process: ``{"exit_code", "stderr"}`` when streamview ran the agent itself.
    """
    return {
        "sessions": [session_summary(session) for session in state.sessions],
        **summary_tail(state, process),
    }


def summary_tail(state: StreamState, process: dict[str, Any] | None = None) -> dict[str, Any]:
    """What :func:`summarize` says after the sessions, in its order."""
    counts = state.counts
    tail: dict[str, Any] = {
        "lines": {
            "total": counts.total,
            "events": counts.events,
            "malformed": counts.malformed,
            "unknown": counts.unknown,
        },
        "notices": notice_counts(state),
    }
    if process is not None:
        tail["process"] = process
    return tail


def notice_counts(state: StreamState) -> dict[str, int]:
    """How many of each record the agent printed about its own work (``system/hook_started``:
    2, ``rate_limit_event``: 1...) and of each connection notice, in first-seen order."""
    counted: dict[str, int] = {}
    for event in state.notices:
        if isinstance(event, AgentNotice):
            name = record_name(event)
        elif isinstance(event, ConnectionNotice):
            name = f"{event.type}/{event.subtype}" if event.subtype else event.type
        else:
            continue
        counted[name] = counted.get(name, 0) + 1
    return counted


def summary_json(
    state: StreamState, process: dict[str, Any] | None = None, spill: TextSpill | None = None
) -> Iterator[bytes]:
    """:func:`summarize` as one line of JSON, in pieces: a session at a time.

    A long run's summary is written without ever holding all of it (the whole
    object, its JSON, the JSON as text): the ``--json`` of a million events peaked at
    230 MB doing that. The pieces join to what
    ``json_for_terminal(summarize(state, process))`` gives, byte for byte unless a
    session holds what orjson cannot write (a lone surrogate, a huge integer): that
    session is then written by the escaping fallback, the same value in other bytes.
    ``spill``: where the fold moved closed blocks' text, if it did (its JSON is copied).
    """
    yield b'{"sessions":['
    for index, session in enumerate(state.sessions):
        if index:
            yield b","
        yield from session_json(session, spill)
    tail = json_for_terminal(summary_tail(state, process))
    yield b"]," + tail[1:]


CALLS_PER_PIECE = 1000
"""Tool calls written in one piece of :func:`session_json`."""


def session_json(session: Session, spill: TextSpill | None = None) -> Iterator[bytes]:
    """:func:`session_summary` as JSON, in pieces: its text a segment at a time and its
    calls a thousand at a time, so a session of a 2 GB file is never held whole (its
    text joined, a dict per call, the JSON of all of it: 500 MB more at the peak).

    The pieces join to ``json_for_terminal(session_summary(session))``, byte for byte
    unless a piece holds what orjson cannot write (that piece is then written by the
    escaping fallback: the same value in other bytes).
    """
    yield json_for_terminal(session_summary_head(session))[:-1] + b',"text":"'
    yield from text_json(session, TEXT, spill)
    yield b'","thinking":"'
    yield from text_json(session, THINKING, spill)
    yield b'","tool_calls":['
    calls = session.tool_calls
    for start in range(0, len(calls), CALLS_PER_PIECE):
        piece = _calls_json(calls[start : start + CALLS_PER_PIECE])
        yield piece[1:-1] if not start else b"," + piece[1:-1]
    yield b"]," + json_for_terminal({"outcome": session_summary_outcome(session)})[1:]
