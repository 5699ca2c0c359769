"""The ``--json`` summary: one JSON object that scripts and CI rely on.

Keys are never missing: unknown values are ``null``. Keys may be added later; the
ones here keep their meaning.
"""

from __future__ import annotations

from typing import Any

from streamview.core.state import Session, StreamState, ToolCall


def call_summary(call: ToolCall) -> dict[str, Any]:
    """One tool call as the contract shows it."""
    return {
        "call_id": call.call_id,
        "kind": call.kind,
        "target": call.target,
        "status": call.status,
        "summary": call.summary,
        "duration_ms": call.duration_ms,
    }


def session_summary(session: Session) -> dict[str, Any]:
    """One session as the contract shows it."""
    outcome = session.outcome
    return {
        "session_id": session.session_id,
        "agent": session.agent,
        "model": session.model,
        "cwd": session.cwd,
        "permission_mode": session.permission_mode,
        "api_key_source": session.api_key_source,
        "prompt": session.prompt,
        "text": session.text,
        "thinking": session.thinking,
        "tool_calls": [call_summary(call) for call in session.tool_calls],
        "outcome": {
            "status": outcome.status,
            "duration_ms": outcome.duration_ms,
            "request_id": outcome.request_id,
            "usage": outcome.usage,
            "result": outcome.result,
            "cost_usd": outcome.cost_usd,
            "num_turns": outcome.num_turns,
            "message": outcome.message,
        },
    }


def summarize(state: StreamState, process: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole ``--json`` object for a folded stream.

    Args:
        state: A finished state.
        process: ``{"exit_code", "stderr"}`` when streamview ran the agent itself.
    """
    counts = state.counts
    summary: dict[str, Any] = {
        "sessions": [session_summary(session) for session in state.sessions],
        "lines": {
            "total": counts.total,
            "events": counts.events,
            "malformed": counts.malformed,
            "unknown": counts.unknown,
        },
    }
    if process is not None:
        summary["process"] = process
    return summary
