"""A subagent's own account read inside its parent's: what it did, nested under the
call that started it (Codex's ``spawn_agent``, Gemini CLI's ``invoke_agent``, Cursor's
``Subagent``, opencode's ``task``).

The source hands each line of a child's file (or rows) on with that call's id under
``parent_tool_use_id``. The child is read by a translator of its own (it has its own
calls, its own turns and its own running usage), and its events are made the parent's
as a headless stream's subagent is: its calls carry the call as their
``parent_call_id``, its words are reasoning shown under the call (not the person's
prompt, not the session's answer), and its session, turns and usage stay its own (the
parent's usage is the parent's).
"""

from __future__ import annotations

import msgspec

from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    AssistantMessage,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallEvent,
)


def nested_events(
    events: list[AnyEvent],
    call: str,
    thread: str | None,
    noun: str = "subagent thread",
    record: str = "session_meta",
) -> list[AnyEvent]:
    """A child thread's ``events`` as its parent thread's, under the spawn ``call``
    (the Gemini CLI session dialect nests its subagents' sessions so too).

    Args:
        events: What the child's own translator made of one of its lines.
        call: The spawn call it works for.
        thread: The parent thread's id (the session the events belong to).
        noun: What the child is called in the notice of its start.
        record: The record type that notice names (the child's first record).
    """
    out: list[AnyEvent] = []
    for event in events:
        if isinstance(event, SessionStarted):
            if not event.inferred:
                out.append(
                    AgentNotice(
                        event.line, thread, event.timestamp_ms, event.recv_ms,
                        type=record, subtype="subagent", topic="task",
                        text=f"{noun} {event.session_id} started for {call}"
                        if event.session_id
                        else f"{noun} started for {call}",
                        chatter=True,
                    )
                )  # fmt: skip
            continue
        if isinstance(event, RunResult | PromptSubmitted):
            continue  # the child's turn and prompt: the spawn call holds them
        if isinstance(event, AssistantMessage):
            stamp = (event.line, thread, event.timestamp_ms, event.recv_ms)
            out.append(ThinkingDelta(*stamp, text=event.text))
            out.append(ThinkingCompleted(*stamp))
            continue
        if isinstance(event, ToolCallEvent):
            out.append(
                msgspec.structs.replace(
                    event, session_id=thread, parent_call_id=event.parent_call_id or call
                )
            )
            continue
        out.append(msgspec.structs.replace(event, session_id=thread))
    return out
