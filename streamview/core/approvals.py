"""Permission questions and their answers: which tool call a request asks about,
and what the person (or the policy) said, kept on the call (``approved``,
``rejected: reason``) even when the answer comes before the call itself."""

from __future__ import annotations

from typing import Any

import streamview.core.tools as tools
from streamview.core.events import InteractionQuery
from streamview.core.model import Session, ToolCall


def query_id(event: InteractionQuery) -> Any:
    """Requests and responses carry the same ``query_type`` and ``id``."""
    return (event.query_type, event.query_id)


def apply_query(session: Session, event: InteractionQuery) -> ToolCall | None:
    """Fold a permission request or response into ``session``.

    Returns:
        The call whose approval changed (for change tracking), else ``None``.
    """
    call_id = event.tool_call_id
    key = query_id(event) if event.query_id is not None else None
    if event.subtype == "request":
        if call_id is not None:
            if key is not None:
                session.queries[key] = call_id
            if event.args is not None:
                call = session.calls_by_id.get(call_id)
                if call is not None and call.args is None:
                    call.args = event.args
                    call.target = tools.target_of(call.kind, call.args)
                elif call is None:
                    session.pending_args[call_id] = event.args
        return None
    if call_id is None and key is not None:
        call_id = session.queries.get(key)
    if event.approved is None or call_id is None:
        return None
    if event.approved:
        verdict = "approved"
    else:
        verdict = f"rejected: {event.reason}" if event.reason else "rejected"
    call = session.calls_by_id.get(call_id)
    if call is None:
        session.pending_approval[call_id] = verdict
        return None
    call.approval = verdict
    return call
