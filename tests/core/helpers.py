"""Builders for synthetic stream lines, shaped like the records of the format guide.

Every builder returns one NDJSON line (bytes, ``\\n``-terminated) so tests read like the
stream they describe: ``stream(init(), user("hi"), assistant("hello"), result("hello"))``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from streamview.core import StreamState, fold, summarize
from streamview.core.state import Session, ToolCall

REPO_ROOT = Path(__file__).resolve().parents[2]
CAPTURES = REPO_ROOT / "tests" / "fixtures" / "cursor-real"
"""Real captures of the CLI, copied byte for byte (their sources: SOURCES.md there)."""

SID = "11111111-2222-3333-4444-555555555555"


def capture_files() -> list[Path]:
    """Every real capture (``*.ndjson`` and ``*.jsonl``), sorted (tests/fixtures/cursor-real)."""
    return sorted(p for p in CAPTURES.iterdir() if p.suffix in (".ndjson", ".jsonl"))


def line(record: dict[str, Any]) -> bytes:
    """One NDJSON line."""
    return orjson.dumps(record) + b"\n"


def stream(*lines: bytes) -> bytes:
    """Lines glued into one input."""
    return b"".join(lines)


def init(session_id: str = SID, **extra: Any) -> bytes:
    """A ``system/init`` record."""
    record = {
        "type": "system",
        "subtype": "init",
        "apiKeySource": "login",
        "cwd": "/work/project",
        "session_id": session_id,
        "model": "GPT-5 Mini",
        "permissionMode": "default",
    }
    record.update(extra)
    return line(record)


def user(text: str, session_id: str = SID) -> bytes:
    """A ``user`` record (the prompt)."""
    return line(
        {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": text}]},
            "session_id": session_id,
        }
    )


def assistant(
    text: str,
    model_call_id: str | None = None,
    timestamp_ms: int | None = None,
    session_id: str = SID,
) -> bytes:
    """An ``assistant`` record; which form it is depends on the two optional fields."""
    record: dict[str, Any] = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": session_id,
    }
    if model_call_id is not None:
        record["model_call_id"] = model_call_id
    if timestamp_ms is not None:
        record["timestamp_ms"] = timestamp_ms
    return line(record)


def delta(text: str, timestamp_ms: int = 1_789_000_000_000) -> bytes:
    """A token delta (``--stream-partial-output``): ``timestamp_ms``, no ``model_call_id``."""
    return assistant(text, timestamp_ms=timestamp_ms)


def recap(text: str, model_call_id: str = "mc-0", timestamp_ms: int = 1_789_000_000_001) -> bytes:
    """A recap: the whole segment again, with ``model_call_id``."""
    return assistant(text, model_call_id=model_call_id, timestamp_ms=timestamp_ms)


def flush(text: str) -> bytes:
    """A flush: the text again, with neither ``model_call_id`` nor ``timestamp_ms``."""
    return assistant(text)


def thinking(text: str, session_id: str = SID) -> bytes:
    """A ``thinking/delta`` record."""
    return line(
        {
            "type": "thinking",
            "subtype": "delta",
            "text": text,
            "session_id": session_id,
            "timestamp_ms": 1_789_000_000_000,
        }
    )


def thinking_done(session_id: str = SID) -> bytes:
    """A ``thinking/completed`` record."""
    return line(
        {
            "type": "thinking",
            "subtype": "completed",
            "session_id": session_id,
            "timestamp_ms": 1_789_000_000_000,
        }
    )


def tool(
    subtype: str,
    call_id: str,
    kind: str = "shell",
    args: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    session_id: str = SID,
    first: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    **record_extra: Any,
) -> bytes:
    """A ``tool_call`` record.

    Args:
        subtype: ``started`` or ``completed``.
        call_id: The call's id.
        kind: The tool, without the ``ToolCall`` suffix.
        args: The call's args, left out when ``None``.
        result: The one-key result union, left out when ``None``.
        session_id: The session.
        first: Bookkeeping keys placed BEFORE the ``...ToolCall`` key.
        after: Bookkeeping keys placed after it.
        record_extra: More top-level fields (``timestamp_ms``, ``model_call_id``...).
    """
    body: dict[str, Any] = {}
    if args is not None:
        body["args"] = args
    if result is not None:
        body["result"] = result
    tool_call: dict[str, Any] = dict(first or {})
    tool_call[f"{kind}ToolCall"] = body
    tool_call.update(after or {})
    record: dict[str, Any] = {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": tool_call,
        "session_id": session_id,
    }
    record.update(record_extra)
    return line(record)


def started(
    call_id: str, kind: str = "shell", args: dict[str, Any] | None = None, **kw: Any
) -> bytes:
    """A ``tool_call/started`` record."""
    return tool("started", call_id, kind, args=args, **kw)


def completed(
    call_id: str,
    kind: str = "shell",
    result: dict[str, Any] | None = None,
    args: dict[str, Any] | None = None,
    **kw: Any,
) -> bytes:
    """A ``tool_call/completed`` record."""
    return tool("completed", call_id, kind, args=args, result=result, **kw)


def result(
    text: str = "",
    is_error: bool = False,
    session_id: str = SID,
    **extra: Any,
) -> bytes:
    """A ``result/success`` record."""
    record: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "duration_ms": 1234,
        "duration_api_ms": 1200,
        "is_error": is_error,
        "result": text,
        "session_id": session_id,
        "request_id": "req-1",
    }
    record.update(extra)
    return line(record)


def full_fold(chunks: Iterable[bytes]) -> StreamState:
    """Fold into a state that keeps everything (a viewer's state, not ``--json``'s)."""
    return fold(chunks, StreamState(track_changes=False))


def fold_bytes(data: bytes, chunk_size: int | None = None) -> StreamState:
    """Fold ``data`` whole, or cut into chunks of ``chunk_size`` bytes, keeping everything."""
    if chunk_size is None:
        return full_fold([data])
    return full_fold(data[i : i + chunk_size] for i in range(0, len(data), chunk_size))


def only_session(data: bytes) -> Session:
    """Fold ``data`` and return its one session (fails if there is not exactly one)."""
    state = full_fold([data])
    assert len(state.sessions) == 1, [s.session_id for s in state.sessions]
    return state.sessions[0]


def summary(data: bytes) -> dict[str, Any]:
    """The ``--json`` object for ``data``, folded the way ``--json`` folds."""
    return summarize(fold([data]))


def one_call(*lines: bytes) -> ToolCall:
    """Fold a run made of these lines and return its only tool call."""
    session = only_session(stream(init(), user("go"), *lines, result("done")))
    assert len(session.tool_calls) == 1, session.tool_calls
    return session.tool_calls[0]
