"""Cursor's records about its own work, as :class:`~streamview.core.events.AgentNotice`.

The print-mode emitter of ``cursor-agent`` (``7470.index.js`` of ``2026.09.15-d2fe57e``,
as dungle-scrubs/harness-cli-normalizer's probe of its bundle lists it) writes, beside
the conversation, ``system/task_notification`` (a background task ended),
``system/background_shell_timeout`` (the turn ended and background commands still
running were stopped) and a plain ``text`` record. None is part of the answer: each
goes to the event log.
"""

from __future__ import annotations

import streamview.core.notices as notices
from streamview.core.events import AnyEvent, JSONObject
from streamview.core.fields import as_str, common_fields
from streamview.core.notices import notice, text_of


def _said(record: JSONObject, *keys: str) -> str | None:
    for key in keys:
        text = text_of(record.get(key))
        if text:
            return text
    return None


def system(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    """A ``system`` record other than ``init``: Cursor's notice of its own work."""
    sid, ts = common_fields(record)
    subtype = as_str(record.get("subtype")) or "?"
    detail = _said(record, "summary", "message", "text", "description", "status")
    if subtype == "task_notification":
        text = "background task finished" + (f": {detail}" if detail else "")
        return notice(record, line, sid, ts, recv, notices.TASK, text)
    if subtype == "background_shell_timeout":
        text = "the turn ended: background commands still running were stopped"
        return notice(
            record, line, sid, ts, recv, notices.TASK, text + (f" ({detail})" if detail else "")
        )
    text = f"system/{subtype}" + (f": {detail}" if detail else "")
    return notice(record, line, sid, ts, recv, notices.STATUS, text)


def text(record: JSONObject, line: int, recv: int | None) -> AnyEvent:
    """A ``text`` record: text the CLI printed outside an assistant message."""
    sid, ts = common_fields(record)
    said = _said(record, "text", "content", "message")
    return notice(record, line, sid, ts, recv, notices.OUTPUT, f"text: {said}" if said else "text")
