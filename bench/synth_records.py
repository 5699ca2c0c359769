"""Pure builders of the Cursor CLI's stream-json records, each a dict in the key order
the CLI prints (``init_record``, ``assistant_record``, ``tool_call_started_record``,
``result_record``, ...)."""

from __future__ import annotations

from synth_wire import DEFAULT_ENDPOINT, JSON


def init_record(
    session_id: str,
    cwd: str,
    model: str,
    *,
    api_key_source: str = "login",
    permission_mode: str = "default",
) -> JSON:
    """Build ``system/init``.

    Args:
        session_id: The session UUID.
        cwd: Absolute working directory.
        model: Display name such as ``Composer 2.5 Fast`` or ``GPT-5 Mini``.
        api_key_source: ``env``, ``flag`` or ``login``.
        permission_mode: ``default``, ``bypassPermissions``, ...

    Returns:
        The record.
    """
    return {
        "type": "system",
        "subtype": "init",
        "apiKeySource": api_key_source,
        "cwd": cwd,
        "session_id": session_id,
        "model": model,
        "permissionMode": permission_mode,
    }


def user_record(session_id: str, text: str) -> JSON:
    """Build the ``user`` record that echoes the prompt."""
    return {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "text", "text": text}]},
        "session_id": session_id,
    }


def assistant_record(
    session_id: str,
    text: str,
    *,
    model_call_id: str | None = None,
    timestamp_ms: int | None = None,
) -> JSON:
    """Build an ``assistant`` record.

    A segment before a tool call (or a recap) carries ``model_call_id`` and
    ``timestamp_ms``; a token delta carries only ``timestamp_ms``; the final segment
    and the end-of-turn flush carry neither.

    Args:
        session_id: The session UUID.
        text: The text of this record.
        model_call_id: Id of the model call the segment belongs to.
        timestamp_ms: Epoch ms.

    Returns:
        The record.
    """
    rec: JSON = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": session_id,
    }
    if model_call_id is not None:
        rec["model_call_id"] = model_call_id
    if timestamp_ms is not None:
        rec["timestamp_ms"] = timestamp_ms
    return rec


def thinking_delta_record(session_id: str, text: str, timestamp_ms: int) -> JSON:
    """Build ``thinking/delta``."""
    return {
        "type": "thinking",
        "subtype": "delta",
        "text": text,
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def thinking_completed_record(session_id: str, timestamp_ms: int) -> JSON:
    """Build ``thinking/completed``, which closes one thinking block."""
    return {
        "type": "thinking",
        "subtype": "completed",
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def tool_call_started_record(
    session_id: str,
    call_id: str,
    kind: str,
    args: JSON,
    *,
    started_at_ms: int,
    timestamp_ms: int,
    model_call_id: str | None,
    description: str | None = None,
) -> JSON:
    """Build ``tool_call/started``.

    Args:
        session_id: The session UUID.
        call_id: Opaque call id (may hold a newline).
        kind: Key of the tool, e.g. ``shellToolCall``.
        args: The tool's arguments.
        started_at_ms: When the tool began, serialised as a string like the CLI.
        timestamp_ms: Epoch ms of the record.
        model_call_id: Model call that asked for the tool (omitted when None).
        description: Shell calls put a ``description`` beside ``args``.

    Returns:
        The record.
    """
    body: JSON = {"args": args}
    if description is not None:
        body["description"] = description
    rec: JSON = {
        "type": "tool_call",
        "subtype": "started",
        "call_id": call_id,
        "tool_call": {
            kind: body,
            "hookAdditionalContexts": [],
            "toolCallId": call_id,
            "startedAtMs": str(started_at_ms),
        },
    }
    if model_call_id is not None:
        rec["model_call_id"] = model_call_id
    rec["session_id"] = session_id
    rec["timestamp_ms"] = timestamp_ms
    return rec


def tool_call_completed_record(
    session_id: str,
    call_id: str,
    kind: str,
    args: JSON | None,
    result: JSON,
    *,
    started_at_ms: int,
    completed_at_ms: int,
    timestamp_ms: int,
    model_call_id: str | None,
    description: str | None = None,
) -> JSON:
    """Build ``tool_call/completed``.

    Args:
        session_id: The session UUID.
        call_id: Opaque call id, the same as on ``started``.
        kind: Key of the tool, e.g. ``readToolCall``.
        args: Arguments, or None to omit them (rejected calls do).
        result: The one-key result union (``success``, ``failure``, ``rejected``,
            ``error``), possibly with siblings such as ``isBackground``.
        started_at_ms: When the tool began.
        completed_at_ms: When it ended.
        timestamp_ms: Epoch ms of the record (real ones precede ``completedAtMs``).
        model_call_id: Model call that asked for the tool (omitted when None).
        description: Shell description beside ``args``/``result``.

    Returns:
        The record.
    """
    body: JSON = {}
    if args is not None:
        body["args"] = args
    body["result"] = result
    if description is not None and args is not None:
        body["description"] = description
    rec: JSON = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": call_id,
        "tool_call": {
            kind: body,
            "hookAdditionalContexts": [],
            "toolCallId": call_id,
            "startedAtMs": str(started_at_ms),
            "completedAtMs": str(completed_at_ms),
        },
    }
    if model_call_id is not None:
        rec["model_call_id"] = model_call_id
    rec["session_id"] = session_id
    rec["timestamp_ms"] = timestamp_ms
    return rec


def response_type_for(query_type: str) -> str:
    """Map a query type to its response key (``webFetchRequestQuery`` -> ``...Response``)."""
    return query_type.removesuffix("Query") + "Response"


def interaction_request_record(
    session_id: str, query_type: str, query_id: int, body: JSON, timestamp_ms: int
) -> JSON:
    """Build ``interaction_query/request`` (an approval prompt).

    Args:
        session_id: The session UUID.
        query_type: E.g. ``webFetchRequestQuery`` or ``askQuestionInteractionQuery``.
        query_id: Sequence number of the query within the run.
        body: Value stored under ``query[query_type]``.
        timestamp_ms: Epoch ms.

    Returns:
        The record.
    """
    return {
        "type": "interaction_query",
        "subtype": "request",
        "query_type": query_type,
        "query": {"id": query_id, query_type: body},
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def interaction_response_record(
    session_id: str, query_type: str, query_id: int, body: JSON, timestamp_ms: int
) -> JSON:
    """Build ``interaction_query/response``.

    Args:
        session_id: The session UUID.
        query_type: The request's query type.
        query_id: The request's id.
        body: E.g. ``{"approved": {}}`` or ``{"rejected": {"reason": "User Rejected"}}``.
        timestamp_ms: Epoch ms.

    Returns:
        The record.
    """
    return {
        "type": "interaction_query",
        "subtype": "response",
        "query_type": query_type,
        "response": {"id": query_id, response_type_for(query_type): body},
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def connection_reconnecting_record(
    session_id: str, timestamp_ms: int, attempt: int, endpoint_url: str = DEFAULT_ENDPOINT
) -> JSON:
    """Build ``connection/reconnecting``: the CLI lost its backend."""
    return {
        "type": "connection",
        "subtype": "reconnecting",
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
        "attempt": attempt,
        "endpoint_url": endpoint_url,
    }


def retry_starting_record(
    session_id: str, timestamp_ms: int, attempt: int, *, is_resume: bool = True
) -> JSON:
    """Build ``retry/starting``: the CLI resumes after a lost connection."""
    return {
        "type": "retry",
        "subtype": "starting",
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
        "attempt": attempt,
        "is_resume": is_resume,
    }


def usage_dict(
    input_tokens: int, output_tokens: int, cache_read_tokens: int, cache_write_tokens: int = 0
) -> JSON:
    """Build the cumulative ``usage`` object of a result."""
    return {
        "inputTokens": input_tokens,
        "outputTokens": output_tokens,
        "cacheReadTokens": cache_read_tokens,
        "cacheWriteTokens": cache_write_tokens,
    }


def result_record(
    session_id: str,
    *,
    duration_ms: int,
    result: str,
    request_id: str,
    usage: JSON | None,
    duration_api_ms: int | None = None,
    is_error: bool = False,
) -> JSON:
    """Build ``result/success``, the record that ends a turn.

    Args:
        session_id: The session UUID.
        duration_ms: Wall time of the run.
        result: All assistant text concatenated with no separator.
        request_id: UUID of the request (the prefix of every ``model_call_id``).
        usage: Cumulative usage, or None for older builds that had none.
        duration_api_ms: Defaults to ``duration_ms``, as real builds print.
        is_error: Never true in captures, but the field exists.

    Returns:
        The record.
    """
    rec: JSON = {
        "type": "result",
        "subtype": "success",
        "duration_ms": duration_ms,
        "duration_api_ms": duration_ms if duration_api_ms is None else duration_api_ms,
        "is_error": is_error,
        "result": result,
        "session_id": session_id,
        "request_id": request_id,
    }
    if usage is not None:
        rec["usage"] = usage
    return rec
