"""Short human forms of a run's numbers and statuses, shared by every front end.

The printer, the exports and the viewer all say ``✓``, ``4.2s`` and ``7,120 in`` the
same way because they all ask this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import streamview.core.tools as tools
from streamview.core.sanitize import one_line

if TYPE_CHECKING:
    from streamview.core.state import ToolCall

STATUS_MARK = {
    tools.RUNNING: "…",
    tools.SUCCEEDED: "✓",
    tools.FAILED: "✗",
    tools.REJECTED: "⊘",
    tools.ERROR: "!",
    tools.COMPLETED: "•",
    tools.INTERRUPTED: "⚠",
}
"""The symbol shown beside each tool-call status."""

_MANY = {"entry": "entries", "process": "processes", "match": "matches"}


def counted(count: int, word: str) -> str:
    """``1 line``, ``2,048 lines``, ``0 entries``: a count and its noun, agreeing."""
    return f"{count:,} {word if count == 1 else _MANY.get(word, word + 's')}"


def format_duration(ms: int | None) -> str:
    """``850ms``, ``4.2s``, ``3m05s``, ``1h02m``; ``""`` when unknown."""
    if ms is None:
        return ""
    if ms < 1000:
        return f"{ms}ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, second = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{second:02d}s"
    hours, minute = divmod(minutes, 60)
    return f"{hours}h{minute:02d}m"


def format_elapsed(ms: int) -> str:
    """A running call's time so far: ``<1s``, then as :func:`format_duration` says it
    (``4.2s``, ``3m05s``). Its timer moves once a second: a count of milliseconds would
    be too precise, and ``0ms`` reads as a call that took no time."""
    return "<1s" if ms < 1000 else format_duration(ms)


def format_usage(usage: Mapping[str, object] | None) -> str:
    """``7,120 in · 354 out · 36,864 cache read`` from a ``usage`` object.

    Input and output are shown even when zero; cache counts only when not.
    """
    if not usage:
        return ""
    parts = []
    for key, label in (
        ("inputTokens", "in"),
        ("outputTokens", "out"),
        ("cacheReadTokens", "cache read"),
        ("cacheWriteTokens", "cache write"),
    ):
        value = usage.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and (value or key[0] != "c"):
            parts.append(f"{value:,} {label}")
    return " · ".join(parts)


def format_offset(ms: int | None) -> str:
    """``+0:07``, ``+1:23``, ``+1:02:03``: time since a session started; ``""`` unknown."""
    if ms is None:
        return ""
    seconds = max(ms, 0) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"+{hours}:{minutes:02d}:{seconds:02d}" if hours else f"+{minutes}:{seconds:02d}"


def format_clock(epoch_ms: int | None) -> str:
    """``14:03:22`` in local time; ``""`` when unknown."""
    if epoch_ms is None:
        return ""
    import time

    return time.strftime("%H:%M:%S", time.localtime(epoch_ms / 1000))


def describe_call(call: ToolCall, limit: int = 120) -> str:
    """``shell `pytest -x` `` / ``read src/app.py``: kind and target, one line."""
    target = one_line(call.target, limit) if call.target else ""
    if call.kind == "shell" and target:
        target = f"`{target}`"
    return f"{one_line(call.kind, 60)} {target}".rstrip()
