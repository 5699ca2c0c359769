"""What an agent prints about its own work, in words every front end shows the same way.

A dialect turns such a record (Claude Code's ``system/hook_started``, a
``rate_limit_event``, Codex's ``request_user_input``, Cursor's
``system/task_notification``...) into an :class:`~streamview.core.events.AgentNotice`:
a topic, one line saying what it means, and, for the states a person should see
live, the status-bar mark it sets or clears. The fold keeps notices for the event
log and never paints them into the transcript.
"""

from __future__ import annotations

from typing import Any

from streamview.core.events import AgentNotice, JSONObject

HOOK = "hook"
"""A hook the user configured ran (started, printed, finished)."""
RATE_LIMIT = "rate_limit"
"""The account's rate limits: allowed, near the limit, or limited."""
RETRY = "retry"
"""The CLI retries a request (an API error, a lost connection)."""
STATUS = "status"
"""The CLI's own state changed (requesting, idle, a permission mode)."""
COMPACTION = "compaction"
"""The context is being, or was, compacted."""
TASK = "task"
"""A subagent's or a background command's task started, progressed or ended."""
SESSION = "session"
"""Facts about the session: commands, goals, summaries, persisted files."""
MODEL = "model"
"""The model changed (a fallback after an error or a refusal)."""
INPUT = "input"
"""The agent asked for something a headless run cannot give (an answer, an approval)."""
PROGRESS = "progress"
"""A running call or the thinking reports progress."""
OUTPUT = "output"
"""Text the CLI printed outside the answer (a command's output, a banner)."""

TOPICS = (
    HOOK,
    RATE_LIMIT,
    RETRY,
    STATUS,
    COMPACTION,
    TASK,
    SESSION,
    MODEL,
    INPUT,
    PROGRESS,
    OUTPUT,
)
"""Every topic, in the order the README's record tables use."""

COMPACTING = "compacting"
RATE_LIMITED = "rate limited"
RETRYING = "retrying"
WAITING = "waiting for input"
CLEAR = ""
"""An :attr:`~streamview.core.events.AgentNotice.mark` that ends the current one."""


def text_of(value: Any, limit: int = 200) -> str | None:
    """A string field's first non-blank line, cut to ``limit`` characters; else ``None``.

    The text is still the stream's: front ends sanitize it before painting.
    """
    if not isinstance(value, str):
        return None
    for line in value.splitlines():
        line = line.strip()
        if line:
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return None


def notice(
    record: JSONObject,
    line: int,
    session_id: str | None,
    timestamp_ms: int | None,
    recv_ms: int | None,
    topic: str,
    text: str,
    mark: str | None = None,
    chatter: bool = False,
) -> AgentNotice:
    """The notice one record stands for (see :class:`AgentNotice` for the fields).

    Args:
        record: The record; its ``type`` and ``subtype`` are kept (not the rest: the
            event log reads the whole line from the input when it is opened).
        line: Its 1-based line number.
        session_id: The session it belongs to, if it says.
        timestamp_ms: Its own time, if it has one.
        recv_ms: When it arrived, if a live source stamped it.
        topic: One of :data:`TOPICS`.
        text: What it means, in one line.
        mark: The status-bar mark it sets (``""`` clears it).
        chatter: Frequent bookkeeping that ``--print`` leaves out.
    """
    kind = record.get("type")
    subtype = record.get("subtype")
    return AgentNotice(
        line,
        session_id,
        timestamp_ms,
        recv_ms,
        type=kind if isinstance(kind, str) else "?",
        subtype=subtype if isinstance(subtype, str) else None,
        topic=topic,
        text=text,
        mark=mark,
        chatter=chatter,
    )


def record_name(event: AgentNotice) -> str:
    """``system/hook_started``: the record's type and subtype, as the README lists them."""
    return event.type + (f"/{event.subtype}" if event.subtype else "")
