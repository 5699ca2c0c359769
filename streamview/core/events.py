"""The events a Cursor agent stream is made of, as frozen values.

Every input line becomes exactly one of these: a known record, an
:class:`UnknownRecord` (valid JSON of a type streamview does not know yet) or a
:class:`MalformedLine` (anything else). Nothing is dropped and nothing raises.
"""

from __future__ import annotations

from typing import Any

import msgspec

JSONObject = dict[str, Any]


class Event(msgspec.Struct, frozen=True):
    """Fields every event has."""

    line: int
    """1-based line number in the input."""
    session_id: str | None = None
    """The record's ``session_id``, when it has one."""
    timestamp_ms: int | None = None
    """The record's own ``timestamp_ms`` (epoch ms), when it has one."""
    recv_ms: int | None = None
    """When the line arrived (epoch ms): from a recording, or stamped by a live source."""


class SessionStarted(Event, frozen=True):
    """``system/init``: a run begins."""

    model: str | None = None
    cwd: str | None = None
    permission_mode: str | None = None
    api_key_source: str | None = None
    agent: str | None = None
    """The dialect's name (``cursor``, ``claude``, ``codex``, ``gemini``)."""
    extra: JSONObject = msgspec.field(default_factory=dict)
    """Fields of the record streamview does not interpret (``tools``, ...)."""
    inferred: bool = False
    """Not a ``system/init``: what the stream says of its session elsewhere (the dialect
    it was recognised as, the model an assistant message names). It fills in what the
    session does not know yet and never starts a run of its own."""
    no_final_record: str | None = None
    """The agent prints no final record: the words its dialect says of a run that ended
    without one (``Kimi prints no final record``); see ``Dialect.no_final_record``."""


class PromptSubmitted(Event, frozen=True):
    """``user``: the prompt."""

    text: str = ""


class AssistantMessage(Event, frozen=True):
    """``assistant``: a complete segment, a token delta, a recap or a flush.

    Which one it is depends on ``model_call_id`` and on what came before; see
    :mod:`streamview.core.transcript`.
    """

    text: str = ""
    model_call_id: str | None = None
    delta: bool | None = None
    """``True`` a token delta, ``False`` a complete segment (replacing the open deltas);
    ``None``: Cursor's rules decide from ``model_call_id`` and ``timestamp_ms``."""


class ThinkingDelta(Event, frozen=True):
    """``thinking/delta``: a fragment of the model's reasoning."""

    text: str = ""


class ThinkingCompleted(Event, frozen=True):
    """``thinking/completed``: the current thinking block ends."""


class ToolCallEvent(Event, frozen=True):
    """``tool_call/started`` or ``tool_call/completed``."""

    completed: bool = False
    call_id: str = ""
    kind: str = "unknown"
    """The tool's name: the ``...ToolCall`` key without its suffix, or a function name."""
    args: JSONObject | None = None
    """The call's arguments, ``None`` when the record has none."""
    outcome: str | None = None
    """The key of the one-key ``result`` union (``success``, ``rejected``, ...)."""
    payload: Any = None
    """The value under that key."""
    model_call_id: str | None = None
    started_at_ms: int | None = None
    completed_at_ms: int | None = None
    description: str | None = None
    """A ``description`` that sat beside ``args`` (shell calls)."""
    parent_call_id: str | None = None
    """The subagent (``task``) call this call was made under, if any."""


class InteractionQuery(Event, frozen=True):
    """``interaction_query``: approval traffic for a tool call."""

    subtype: str = ""
    query_type: str | None = None
    query_id: int | str | None = None
    """The ``id`` pairing a request with its response."""
    tool_call_id: str | None = None
    args: JSONObject | None = None
    approved: bool | None = None
    """For a response: ``True`` approved, ``False`` rejected, ``None`` unknown."""
    reason: str | None = None


class ConnectionNotice(Event, frozen=True):
    """``connection/*`` or ``retry/*``: the CLI lost its backend and retries."""

    type: str = "connection"
    subtype: str = ""
    attempt: int | None = None
    detail: str | None = None


class AgentNotice(Event, frozen=True):
    """A record the agent prints about its own work, not about the answer: a hook ran,
    a rate-limit warning, a status change, a compaction, a subagent's task...

    It goes to the event log (and ``--print``), never into the transcript; ``mark``
    says what the status bar shows while it holds.
    """

    type: str = ""
    """The record's ``type``."""
    subtype: str | None = None
    """The record's ``subtype``, if any."""
    topic: str = "status"
    """What it is about (:mod:`streamview.core.notices`): ``hook``, ``rate_limit``,
    ``retry``, ``status``, ``compaction``, ``task``, ``session``, ``model``..."""
    text: str = ""
    """One line saying what it means (it quotes the stream: sanitize before painting)."""
    mark: str | None = None
    """What the status bar shows live while this holds (``rate limited``,
    ``compacting``); ``""`` clears the mark; ``None`` leaves it as it is."""
    chatter: bool = False
    """Frequent bookkeeping (a token meter, a progress tick): the event log keeps it,
    ``--print`` does not print it."""


class RunResult(Event, frozen=True):
    """``result``: the turn is over (or, for an agent that prints no final record, the
    plain line it prints when it gives up)."""

    subtype: str = "success"
    is_error: bool = False
    duration_ms: int | None = None
    duration_api_ms: int | None = None
    result: str | None = None
    request_id: str | None = None
    usage: JSONObject | None = None
    total_cost_usd: float | None = None
    """What the run cost, where the agent says (Claude Code)."""
    num_turns: int | None = None
    """Turns the run took, where the agent says."""
    message: str | None = None
    """An error outcome's own message (``turn.failed``, ``error_max_turns``...)."""


class UnknownRecord(Event, frozen=True):
    """A JSON object with a ``type`` (or ``subtype``) streamview does not know."""

    type: str = ""
    subtype: str | None = None
    record: JSONObject = msgspec.field(default_factory=dict)


class MalformedLine(Event, frozen=True):
    """A line that is not a JSON object with a string ``type``."""

    reason: str = ""
    raw: bytes = b""
    """The line's bytes as received (possibly cut to a display limit)."""
    raw_size: int = 0
    """The line's full size in bytes."""

    @property
    def text(self) -> str:
        """The raw bytes decoded for display, invalid UTF-8 replaced."""
        return self.raw.decode("utf-8", "replace")


KnownEvent = (
    SessionStarted
    | PromptSubmitted
    | AssistantMessage
    | ThinkingDelta
    | ThinkingCompleted
    | ToolCallEvent
    | InteractionQuery
    | ConnectionNotice
    | AgentNotice
    | RunResult
)
AnyEvent = KnownEvent | UnknownRecord | MalformedLine
