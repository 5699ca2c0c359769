"""Claude Code's records about its own work: hooks, rate limits, status, compaction, tasks.

Claude Code 2.1.x prints, beside the conversation (``system/init``, ``assistant``,
``user``, ``stream_event``, ``result``), records about what it is doing: the ``system``
subtypes and top-level types of the SDK's message union (``SDKMessage`` of
``@anthropic-ai/claude-agent-sdk``; the list and what each means is in
``tests/fixtures/dialects/claude/SOURCES.md``). Each becomes an
:class:`~streamview.core.events.AgentNotice` saying what it means, with the status-bar
mark a person should see live (compacting, rate limited). A task that is a call (its
``tool_use_id``) is named by its line: the call is the row of the table.

A ``system`` record of a subtype not listed here is still Claude Code's own notice: it
is shown by name with its text, never as an unknown record. A new top-level type is
unknown until it is listed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import streamview.core.notices as notices
from streamview.core.events import AnyEvent, ConnectionNotice, JSONObject
from streamview.core.fields import as_int, as_str
from streamview.core.notices import notice, text_of

Said = tuple[str, str, "str | None", bool]
"""``(topic, text, mark, chatter)``: what a record means (see ``AgentNotice``)."""


def _name(record: JSONObject, *keys: str) -> str:
    for key in keys:
        value = text_of(record.get(key), 120)
        if value:
            return value
    return "?"


def _hook(record: JSONObject) -> Said:
    name = _name(record, "hook_name", "hook_event")
    subtype = record.get("subtype")
    if subtype == "hook_started":
        return notices.HOOK, f"hook {name} started", None, False
    output = text_of(record.get("output")) or text_of(record.get("stderr"))
    if subtype == "hook_progress":
        return notices.HOOK, f"hook {name}: {output or 'running'}", None, True
    outcome = as_str(record.get("outcome")) or "finished"
    code = as_int(record.get("exit_code"))
    text = f"hook {name} {outcome}" + (f" (exit {code})" if code is not None else "")
    if output and outcome != "success":
        text += f": {output}"
    return notices.HOOK, text, None, False


def _when(epoch: Any) -> str | None:
    """A reset time (epoch seconds) as ``14:00 UTC`` (the clock is the reader's own)."""
    seconds = as_int(epoch)
    if seconds is None or not 0 < seconds < 1 << 40:
        return None
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _rate_limit(record: JSONObject) -> Said:
    info = record.get("rate_limit_info")
    info = info if isinstance(info, dict) else {}
    status = as_str(info.get("status")) or "?"
    window = (as_str(info.get("rateLimitType")) or "").replace("_", " ")
    used = info.get("utilization")
    parts = [window + " window" if window else ""]
    if isinstance(used, int | float) and not isinstance(used, bool):
        parts.append(f"{used:.0%} used" if used <= 1 else f"{used:g}% used")
    resets = _when(info.get("resetsAt"))
    if resets:
        parts.append(f"resets {resets}")
    detail = ", ".join(part for part in parts if part)
    detail = f" ({detail})" if detail else ""
    if status == "rejected":
        mark = notices.RATE_LIMITED + (f" until {resets}" if resets else "")
        return notices.RATE_LIMIT, f"rate limited{detail}", mark, False
    if status == "allowed_warning":
        return notices.RATE_LIMIT, f"rate-limit warning{detail}", None, False
    # Printed once a turn while all is well: the mark of an earlier limit is over.
    return notices.RATE_LIMIT, f"rate limit {status}{detail}", notices.CLEAR, True


def _status(record: JSONObject) -> Said:
    status = record.get("status")
    mode = as_str(record.get("permissionMode"))
    if as_str(record.get("compact_result")) == "failed":
        error = text_of(record.get("compact_error")) or "no reason given"
        return notices.COMPACTION, f"compaction failed: {error}", notices.CLEAR, False
    if status == "compacting":
        return notices.COMPACTION, "compacting the context", notices.COMPACTING, False
    if mode and status is None:
        return notices.STATUS, f"permission mode: {mode}", None, False
    if status is None:
        return notices.STATUS, "status: idle", notices.CLEAR, True
    return notices.STATUS, f"status: {text_of(status, 60) or '?'}", notices.CLEAR, True


def _compacted(record: JSONObject) -> Said:
    meta = record.get("compact_metadata")
    meta = meta if isinstance(meta, dict) else {}
    trigger = as_str(meta.get("trigger")) or "?"
    before, after = as_int(meta.get("pre_tokens")), as_int(meta.get("post_tokens"))
    sizes = f", {before:,} tokens" if before is not None else ""
    if before is not None and after is not None:
        sizes += f" → {after:,}"
    return notices.COMPACTION, f"context compacted ({trigger}{sizes})", notices.CLEAR, False


def _task_usage(record: JSONObject) -> str:
    usage = record.get("usage")
    if not isinstance(usage, dict):
        return ""
    tools, tokens = as_int(usage.get("tool_uses")), as_int(usage.get("total_tokens"))
    parts = [
        f"{tools} tool uses" if tools is not None else "",
        f"{tokens:,} tokens" if tokens else "",
    ]
    joined = ", ".join(part for part in parts if part)
    return f" ({joined})" if joined else ""


def _task(record: JSONObject) -> Said:
    subtype = record.get("subtype")
    task = _name(record, "task_id")
    call = as_str(record.get("tool_use_id"))
    of = f" of call {call}" if call else ""
    what = _name(record, "description", "workflow_name", "subagent_type", "task_type")
    if subtype == "task_started":
        kind = as_str(record.get("subagent_type")) or as_str(record.get("task_type"))
        return (
            notices.TASK,
            f"task {task}{of} started: {what}" + (f" [{kind}]" if kind else ""),
            None,
            False,
        )
    if subtype == "task_progress":
        last = as_str(record.get("last_tool_name"))
        text = f"task {task}: {what}{_task_usage(record)}" + (f", last {last}" if last else "")
        return notices.TASK, text, None, True
    if subtype == "task_updated":
        patch = record.get("patch")
        patch = patch if isinstance(patch, dict) else {}
        status = as_str(patch.get("status")) or "updated"
        error = text_of(patch.get("error"))
        return notices.TASK, f"task {task} {status}" + (f": {error}" if error else ""), None, True
    status = as_str(record.get("status")) or "ended"
    summary = text_of(record.get("summary"))
    text = f"task {task}{of} {status}{_task_usage(record)}" + (f": {summary}" if summary else "")
    return notices.TASK, text, None, False


def _plain(
    topic: str, label: str, *keys: str, chatter: bool = False
) -> Callable[[JSONObject], Said]:
    """A record said as ``label`` and the first of its text fields it has."""

    def said(record: JSONObject) -> Said:
        for key in keys:
            text = text_of(record.get(key))
            if text:
                return topic, f"{label}: {text}", None, chatter
        return topic, label, None, chatter

    return said


def _model_change(record: JSONObject) -> Said:
    original, fallback = as_str(record.get("original_model")), as_str(record.get("fallback_model"))
    reason = as_str(record.get("trigger")) or as_str(record.get("api_refusal_category"))
    if fallback:
        text = f"model fallback: {original or '?'} → {fallback}"
    else:
        text = f"model {original or '?'} refused, no fallback"
    return notices.MODEL, text + (f" ({reason})" if reason else ""), None, False


def _goal(record: JSONObject) -> Said:
    value = record.get("value")
    if not isinstance(value, dict):
        return notices.SESSION, "goal cleared", None, False
    condition = text_of(value.get("condition")) or "?"
    rounds = as_int(value.get("iterations"))
    reason = text_of(value.get("last_reason"))
    text = f"goal: {condition}" + (f" (iteration {rounds})" if rounds is not None else "")
    return notices.SESSION, text + (f": {reason}" if reason else ""), None, False


def _autocompact(record: JSONObject) -> Said:
    value = record.get("value")
    value = value if isinstance(value, dict) else {}
    if value.get("enabled") is False:
        return notices.COMPACTION, "auto-compaction off", None, True
    threshold, window = as_int(value.get("threshold")), as_int(value.get("effective_window"))
    at = f" at {threshold:,} of {window:,} tokens" if threshold and window else ""
    return notices.COMPACTION, f"auto-compaction on{at}", None, True


def _compact_progress(record: JSONObject) -> Said:
    event = record.get("event")
    phase = as_str(event.get("type")) if isinstance(event, dict) else None
    if phase == "compact_end":
        return notices.COMPACTION, "compaction finished", notices.CLEAR, False
    return notices.COMPACTION, f"compaction: {phase or '?'}", notices.COMPACTING, False


def _commands(record: JSONObject) -> Said:
    commands = record.get("commands")
    count = f" ({len(commands)})" if isinstance(commands, list) else ""
    return notices.SESSION, f"slash commands changed{count}", None, True


def _tool_progress(record: JSONObject) -> Said:
    name = _name(record, "tool_name")
    seconds = record.get("elapsed_time_seconds")
    took = (
        f" {seconds:.0f}s"
        if isinstance(seconds, int | float) and not isinstance(seconds, bool)
        else ""
    )
    return notices.PROGRESS, f"{name} call {_name(record, 'tool_use_id')} running{took}", None, True


def _control(record: JSONObject) -> Said:
    request = record.get("request")
    request = request if isinstance(request, dict) else {}
    kind = as_str(request.get("subtype")) or "request"
    tool = as_str(request.get("tool_name"))
    if kind == "can_use_tool":
        return notices.INPUT, f"asks to approve {tool or 'a call'}", notices.WAITING, False
    return notices.INPUT, f"control request: {kind}", None, False


_SYSTEM: dict[str, Callable[[JSONObject], Said]] = {
    "hook_started": _hook,
    "hook_progress": _hook,
    "hook_response": _hook,
    "status": _status,
    "compact_boundary": _compacted,
    "task_started": _task,
    "task_progress": _task,
    "task_updated": _task,
    "task_notification": _task,
    "task_summary": _plain(notices.PROGRESS, "working on", "detail", chatter=True),
    "post_turn_summary": _plain(notices.SESSION, "turn summary", "status_detail", "needs_action"),
    "commands_changed": _commands,
    "session_state_changed": _plain(notices.STATUS, "session", "state", chatter=True),
    "thinking_tokens": _plain(notices.PROGRESS, "thinking", "estimated_tokens", chatter=True),
    "informational": _plain(notices.OUTPUT, "note", "content"),
    "notification": _plain(notices.OUTPUT, "notification", "text"),
    "local_command_output": _plain(notices.OUTPUT, "command output", "content"),
    "permission_denied": _plain(notices.INPUT, "denied without asking", "message", "tool_name"),
    "model_fallback": _model_change,
    "model_refusal_fallback": _model_change,
    "model_refusal_no_fallback": _model_change,
    "stop_hook_summary": _plain(notices.HOOK, "stop hooks ran", "hook_label", "stop_reason"),
    "files_persisted": _plain(notices.SESSION, "files persisted", "processed_at", chatter=True),
    "memory_saved": _plain(notices.SESSION, "memories saved", "verb"),
    "memory_recall": _plain(notices.SESSION, "memories recalled", "mode"),
    "plugin_install": _plain(notices.SESSION, "plugin install", "status", "name"),
    "turn_duration": _plain(notices.PROGRESS, "turn took (ms)", "duration_ms", chatter=True),
    "elicitation_complete": _plain(notices.INPUT, "MCP elicitation complete", "mcp_server_name"),
    "mirror_error": _plain(notices.SESSION, "transcript mirror failed", "error"),
    "agents_killed": _plain(notices.TASK, "background agents stopped"),
    "away_summary": _plain(notices.SESSION, "while away", "content"),
    "scheduled_task_fire": _plain(notices.TASK, "scheduled task fired", "content"),
    "permission_retry": _plain(notices.RETRY, "retrying after a permission change", "content"),
    "worker_shutting_down": _plain(notices.SESSION, "worker shutting down", "reason"),
    "control_request_progress": _plain(
        notices.PROGRESS, "request progress", "status", chatter=True
    ),
}
"""``system`` subtypes (besides ``init`` and the retries) and what each means."""

_TOP: dict[str, Callable[[JSONObject], Said]] = {
    "rate_limit_event": _rate_limit,
    "active_goal": _goal,
    "autocompact_state": _autocompact,
    "compact_progress": _compact_progress,
    "tool_progress": _tool_progress,
    "tool_use_summary": _plain(notices.PROGRESS, "calls summarised", "summary"),
    "auth_status": _plain(notices.SESSION, "authentication", "error", "output", chatter=True),
    "prompt_suggestion": _plain(
        notices.SESSION, "suggested next prompt", "suggestion", chatter=True
    ),
    "keep_alive": _plain(notices.PROGRESS, "keep-alive", chatter=True),
    "control_request": _control,
    "control_response": _plain(notices.INPUT, "control response", chatter=True),
    "control_cancel_request": _plain(notices.INPUT, "control request cancelled"),
    "transcript_mirror": _plain(notices.SESSION, "transcript written", "filePath", chatter=True),
    "conversation_reset": _plain(notices.SESSION, "conversation reset", "new_conversation_id"),
    "tombstone": _plain(notices.SESSION, "a message was withdrawn", chatter=True),
    "attachment": _plain(notices.SESSION, "attachment", chatter=True),
    "os_notification": _plain(notices.OUTPUT, "notification", "message"),
    "api_metrics": _plain(notices.PROGRESS, "API metrics", chatter=True),
    "stream_mode": _plain(notices.PROGRESS, "stream mode", "mode", chatter=True),
    "response_length": _plain(notices.PROGRESS, "response length", "delta", chatter=True),
    "set_in_progress_tool_use_ids": _plain(notices.PROGRESS, "calls in progress", chatter=True),
    "interruptible_tool_in_progress": _plain(notices.PROGRESS, "interruptible call", chatter=True),
    "hint_clears": _plain(notices.SESSION, "context hints cleared", chatter=True),
    "command_lifecycle": _plain(notices.SESSION, "queued command", "state", chatter=True),
    "apply_flag_settings": _plain(notices.SESSION, "settings changed", chatter=True),
    "set_expanded_view": _plain(notices.SESSION, "view hint", "expanded_view", chatter=True),
    "open_message_selector": _plain(notices.SESSION, "message selector opened", chatter=True),
    "refusal_continuation": _plain(notices.MODEL, "refusal continuation", "phase"),
}
"""Top-level types besides the conversation's, and what each means."""


_SHARED = frozenset({"task_notification"})
"""``system`` subtypes another agent prints too (Cursor's ``task_notification``)."""


def recognises(record: JSONObject) -> bool:
    """A record only Claude Code prints: one of its ``system`` subtypes (a hook, a
    status, a compaction...) or top-level types (``rate_limit_event``...). A stream cut
    before its ``init``, or whose hooks come first, is recognised from it."""
    kind = record.get("type")
    if kind == "system":
        subtype = record.get("subtype")
        return subtype in _SYSTEM and subtype not in _SHARED
    return isinstance(kind, str) and kind in _TOP


def _other_system(record: JSONObject) -> Said:
    """A ``system`` subtype not listed: still Claude Code's own notice, said by name."""
    label = f"system/{as_str(record.get('subtype')) or '?'}"
    text = text_of(record.get("content")) or text_of(record.get("message"))
    return notices.STATUS, f"{label}: {text}" if text else label, None, False


class ClaudeRecords:
    """One stream's records about Claude Code's own work, as events.

    A task (``system/task_*``) is a line of the event log. One with a ``tool_use_id``
    is the work of that call, already a row of the table (a ``Task`` subagent, a
    background ``Bash``): the line names the call. One without (a monitor, a
    workflow) is no call of the model's, and is not made one: a row opened mid-answer
    would cut the answer in two.
    """

    def translate(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        """The events of a record of this module's kinds; ``None`` for any other."""
        kind = record.get("type")
        subtype = as_str(record.get("subtype"))
        if kind == "system" and subtype == "api_error":
            return [_api_error(record, line, sid, ts, recv)]
        said: Callable[[JSONObject], Said] | None
        if kind == "system":
            said = _SYSTEM.get(subtype or "", _other_system)
        else:
            said = _TOP.get(kind) if isinstance(kind, str) else None
        if said is None:
            return None
        topic, text, mark, chatter = said(record)
        return [notice(record, line, sid, ts, recv, topic, text, mark, chatter)]


def _api_error(
    record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
) -> ConnectionNotice:
    """``system/api_error``: the retry banner's twin of ``api_retry``."""
    error = record.get("error")
    detail = None
    if isinstance(error, dict):
        detail = text_of(error.get("formatted")) or text_of(error.get("message"))
    return ConnectionNotice(
        line,
        sid,
        ts,
        recv,
        type="retry",
        subtype="api_error",
        attempt=as_int(record.get("retry_attempt")),
        detail=detail,
    )
