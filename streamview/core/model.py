"""What the fold builds: sessions, their transcript blocks, tool calls and outcome.

Plain data, no behaviour beyond derived properties; :class:`streamview.core.state.StreamState`
fills it in, and every front end reads it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

import msgspec

import streamview.core.tools as tools
from streamview.core.events import (
    AgentNotice,
    ConnectionNotice,
    Event,
    JSONObject,
    RunResult,
    UnknownRecord,
)

TEXT = "text"
THINKING = "thinking"
TOOL = "tool"
PROMPT = "prompt"
NOTICE = "notice"

RUNNING = "running"
SUCCESS = "success"
ERROR = "error"
INCOMPLETE = "incomplete"


class Block(msgspec.Struct, gc=False):
    """One piece of a session's transcript, in the order things happened.

    Text and thinking blocks grow by ``parts``; a recap or flush replaces them, which
    bumps ``revision`` so a view that appended parts knows to start over.

    Not tracked by the garbage collector (``gc=False``: 16 bytes less each, and a
    2 GB session holds millions): a block refers to no object that refers back.
    """

    kind: str
    """``text``, ``thinking``, ``tool``, ``prompt`` or ``notice``."""
    line: int
    """Line number of the event that opened the block."""
    parts: list[str] = msgspec.field(default_factory=list)
    open: bool = False
    """Still growing (deltas arriving)."""
    call_index: int | None = None
    """For a ``tool`` block: index into :attr:`Session.tool_calls`."""
    revision: int = 0
    """Bumped whenever ``parts`` is replaced rather than appended to."""
    deltas: int = 0
    """How many token deltas built this block (0 for a complete segment)."""

    @property
    def text(self) -> str:
        """The block's text (joins and caches the parts)."""
        parts = self.parts
        if parts.__class__ is not list:  # the viewer moved it to a file (core.block_spill)
            read = getattr(parts, "block_text", None)
            if read is not None:
                return cast(str, read(self))
        if len(parts) > 1:
            joined = "".join(parts)
            parts[:] = [joined]
            return joined
        return parts[0] if parts else ""


LEAN_TOOL_BLOCK = Block(TOOL, 0)
"""Every ``tool`` block of a lean fold (compact, tracking no changes: ``--json``), shared:
nothing there reads a tool block but for its kind (and ``--json``'s sweep puts this one
in place of a closed one anyway)."""


class ToolCall(msgspec.Struct, gc=False):
    """One tool call, correlated across its ``started`` and ``completed`` records.

    Not tracked by the garbage collector, as :class:`Block` (its values are strings,
    numbers and the record's own JSON: nothing refers back to it).
    """

    index: int
    """0-based position in first-seen order."""
    call_id: str
    kind: str
    args: JSONObject | None = None
    target: str | None = None
    status: str = tools.RUNNING
    summary: str | None = None
    outcome: str | None = None
    """Key of the result union (``success``, ``rejected``...)."""
    model_call_id: str | None = None
    description: str | None = None
    started_line: int | None = None
    completed_line: int | None = None
    started_at_ms: int | None = None
    completed_at_ms: int | None = None
    start_ts: int | None = None
    end_ts: int | None = None
    start_recv: int | None = None
    end_recv: int | None = None
    approval: str | None = None
    """What an ``interaction_query`` said about the call, if anything."""
    parent_call_id: str | None = None
    """The subagent (``task``) call this call was made under, if any."""
    lines_added: int | None = None
    """Lines an edit added (a write's lines created), where its result says."""
    lines_removed: int | None = None
    """Lines an edit removed, where its result says."""
    exit_code: int | None = None
    """A shell call's exit status, where its result says."""

    def complete(self, outcome: str | None, payload: Any) -> None:
        """Take what a completed record's result says: status, summary and the numbers
        a run's summary adds up (lines changed, exit status); the payload is not kept."""
        kind = self.kind
        self.outcome = outcome
        if payload.__class__ is tools.Said:
            if payload.kind == kind:
                self.status, self.summary = payload.status, payload.summary
                self.lines_added, self.lines_removed, self.exit_code = payload.numbers
                return
            payload = payload.build()
        self.status = tools.status_of(kind, outcome, payload)
        self.summary = tools.summary_of(kind, outcome, payload)
        self.lines_added, self.lines_removed, self.exit_code = tools.numbers_of(kind, payload)

    @property
    def duration_ms(self) -> int | None:
        """Duration from the call's own times, else event times, else arrival times."""
        start, end = self.started_at_ms, self.completed_at_ms
        if start is not None and end is not None and end >= start:
            return end - start
        start, end = self.start_ts, self.end_ts
        if start is not None and end is not None and end >= start:
            return end - start
        start, end = self.start_recv, self.end_recv
        if start is not None and end is not None and end >= start:
            return end - start
        return None

    @property
    def start_ms(self) -> int | None:
        """Start time on the arrival clock first (epoch ms), for live elapsed timers.

        The call's own ``startedAtMs`` comes from the agent's machine, perhaps long ago
        (a capture piped in for a demo): arrival time is what "now" is comparable to.
        """
        return self.start_recv or self.started_at_ms or self.start_ts

    @property
    def is_open(self) -> bool:
        """Still running."""
        return self.status == tools.RUNNING


class Outcome(msgspec.Struct):
    """How a session ended."""

    status: str = RUNNING
    """``running`` while live; then ``success``, ``error`` or ``incomplete``."""
    duration_ms: int | None = None
    duration_api_ms: int | None = None
    request_id: str | None = None
    usage: JSONObject | None = None
    result: str | None = None
    subtype: str | None = None
    line: int | None = None
    cost_usd: float | None = None
    """What the run cost, where the agent says."""
    num_turns: int | None = None
    message: str | None = None
    """An error outcome's own message."""

    def take(self, event: RunResult) -> None:
        """Record what a ``result`` says: how the run ended, what it took."""
        self.status = ERROR if event.is_error or event.subtype != "success" else SUCCESS
        self.duration_ms = event.duration_ms
        self.duration_api_ms = event.duration_api_ms
        self.request_id = event.request_id
        self.usage = event.usage
        self.result = event.result
        self.subtype = event.subtype
        self.line = event.line
        self.cost_usd = event.total_cost_usd
        self.num_turns = event.num_turns
        self.message = event.message


class Session(msgspec.Struct):
    """One run of the agent: from ``system/init`` to its ``result`` (or the end)."""

    index: int
    session_id: str | None = None
    agent: str | None = None
    """The dialect's name (``cursor``, ``claude``...), from ``system/init``."""
    model: str | None = None
    cwd: str | None = None
    permission_mode: str | None = None
    api_key_source: str | None = None
    init_extra: JSONObject = msgspec.field(default_factory=dict)
    no_final_record: str | None = None
    """Its agent prints no final record (what its dialect says of that): its end is
    judged by its last turn (:meth:`StreamState.finish`)."""
    prompt: str | None = None
    blocks: list[Block] = msgspec.field(default_factory=list)
    """The transcript, in order. The fold only appends to it, reads its length and its
    items; the viewer packs the closed ones (a
    :class:`~streamview.core.block_columns.PackedBlocks`, which makes a block when one
    is asked for): read it as a sequence, copy it with ``copy()``."""
    tool_calls: list[ToolCall] = msgspec.field(default_factory=list)
    calls_by_id: dict[str, ToolCall] = msgspec.field(default_factory=dict)
    outcome: Outcome = msgspec.field(default_factory=Outcome)
    first_line: int = 0
    last_line: int = 0
    first_time_ms: int | None = None
    last_time_ms: int | None = None
    events: int = 0
    open_text: Block | None = None
    open_thinking: Block | None = None
    queries: dict[Any, str] = msgspec.field(default_factory=dict)
    """``interaction_query`` id to the ``toolCallId`` it asked about."""
    pending_args: dict[str, JSONObject] = msgspec.field(default_factory=dict)
    pending_approval: dict[str, str] = msgspec.field(default_factory=dict)
    live_mark: str | None = None
    """The last live mark a notice set (``rate limited``, ``compacting``, ``retrying
    (attempt 2)``), ``None`` once one cleared it; :attr:`mark` says if it still holds."""
    mark_events: int = 0
    """:attr:`events` as of the last notice that set or kept :attr:`live_mark`."""

    @property
    def text(self) -> str:
        """The assistant's answer: every text segment, in order (the run's result when
        it has none)."""
        text = "".join(self.text_pieces())
        if not text and self.outcome.result:
            return self.outcome.result
        return text

    def text_pieces(self) -> Iterator[str]:
        """:attr:`text`'s pieces in order, never joined (``--json`` writes a 2 GB
        session's a MB at a time): each segment's parts, a blank line between two
        segments unless the first ends in one (a newline if it ends in one)."""
        last: str | None = None  # the previous segment's last two characters
        for parts in _parts_of(self.blocks, TEXT):
            if len(parts) == 1:  # most segments (a moved block's text, a whole message)
                tail = parts[0]
                if not tail:
                    continue
                if last is not None and not last.endswith("\n\n"):
                    yield "\n" if last.endswith("\n") else "\n\n"
                yield tail
                last = tail[-2:]
                continue
            if not any(parts):
                continue
            if last is not None and not last.endswith("\n\n"):
                yield "\n" if last.endswith("\n") else "\n\n"
            tail = ""
            for part in parts:
                if part:
                    yield part
                    tail = part[-2:] if len(part) > 1 else (tail + part)[-2:]
            last = tail

    @property
    def thinking(self) -> str:
        """All thinking blocks, separated by blank lines."""
        return "".join(self.thinking_pieces())

    def thinking_pieces(self) -> Iterator[str]:
        """:attr:`thinking`'s pieces in order, never joined."""
        first = True
        for parts in _parts_of(self.blocks, THINKING):
            if parts:
                if not first:
                    yield "\n\n"
                first = False
                yield from parts

    @property
    def turn_complete(self) -> bool:
        """Its last turn is whole: an answer after the last tool result, no call open."""
        if running_calls(self.tool_calls):
            return False
        for block in reversed(self.blocks):
            if block.kind == TEXT:
                return bool(block.text.strip())
            if block.kind in (TOOL, PROMPT):
                return False
        return False

    @property
    def open_calls(self) -> list[ToolCall]:
        """Calls still running."""
        return running_calls(self.tool_calls)

    @property
    def mark(self) -> str | None:
        """What holds right now and a person should see live, if anything: the live mark,
        while only notices followed it. The model's output (text, thinking, a call),
        the run's result or any other record ends it; the fold pays nothing for that."""
        mark = self.live_mark
        return mark if mark is not None and self.mark_events == self.events else None

    @property
    def finished(self) -> bool:
        """A ``result`` arrived, or the stream ended."""
        return self.outcome.status != RUNNING


def running_calls(calls: Sequence[ToolCall]) -> list[ToolCall]:
    """The calls of ``calls`` still running, in order (a session's packed calls,
    :class:`~streamview.core.call_columns.CallColumns`, say which without reading every
    call)."""
    running = getattr(calls, "running", None)
    if running is not None:
        return cast(list[ToolCall], running())
    running = tools.RUNNING  # once, not a global and an attribute a call (50k in Kimi's)
    return [call for call in calls if call.status == running]


def _parts_of(blocks: list[Block], kind: str) -> Iterator[list[str]]:
    """The ``parts`` of each ``kind`` block, in order. A block whose text ``--json``
    moved out of memory (:mod:`streamview.core.text_store`: its parts are a shared,
    empty stand-in) gives it back, read again in the order the blocks were moved."""
    moved: Iterator[str] = iter(())
    spilled: object = None  # the stand-in whose texts ``moved`` reads
    for block in blocks:
        if block.kind == kind:
            parts = block.parts
            if parts.__class__ is not list:  # a SpilledParts, or the viewer's InTheFile
                if parts is spilled:  # one stand-in for every moved block: no getattr
                    yield [next(moved)]
                    continue
                read = getattr(parts, "block_text", None)
                if read is not None:
                    yield [read(block)]
                    continue
                if spilled is None:
                    moved = cast(Any, parts).texts()
                    spilled = parts
                parts = [next(moved)]
            yield parts


class LineCounts(msgspec.Struct):
    """Every non-blank input line is exactly one of events, malformed or unknown.

    A line some dialect reads as several events (a message with two tool calls) is
    counted once, by its first event.
    """

    total: int = 0
    events: int = 0
    malformed: int = 0
    unknown: int = 0
    blank: int = 0
    """Empty or whitespace-only lines: not counted in ``total``."""
    restarts: int = 0
    """Times a followed file was truncated or replaced (its notices say which)."""


class Changes(msgspec.Struct):
    """What :meth:`StreamState.apply` changed since the last :meth:`take_changes`."""

    sessions: set[int] = msgspec.field(default_factory=set)
    """Sessions whose header or outcome changed (new sessions included)."""
    transcript: set[int] = msgspec.field(default_factory=set)
    calls: set[tuple[int, int]] = msgspec.field(default_factory=set)
    """``(session index, call index)`` of calls added or updated."""
    log: bool = False
    """A malformed line or unknown record was added."""
    events: int = 0

    def __bool__(self) -> bool:
        return bool(self.sessions or self.transcript or self.calls or self.log or self.events)


def has_run(session: Session) -> bool:
    """Something of a run happened: more than notices (unknown records) before an init.

    A CLI may print records of its own (hooks, warnings) before ``system/init``: they
    belong to the run they precede, not to one of their own.
    """
    if session.events == 0:
        return False
    return (
        session.prompt is not None
        or bool(session.tool_calls)
        or any(block.kind != NOTICE for block in session.blocks)
        or session.outcome.status != RUNNING
    )


def describe_notice(event: Event) -> str:
    """One line saying what a connection notice, an agent's notice or an unknown record is."""
    if isinstance(event, ConnectionNotice):
        text = f"{event.type}/{event.subtype}"
        if event.attempt is not None:
            text += f" (attempt {event.attempt})"
        if event.detail:
            text += f": {event.detail}"
        return text
    if isinstance(event, UnknownRecord):
        name = event.type + (f"/{event.subtype}" if event.subtype else "")
        return f"unknown record {name} (line {event.line})"
    if isinstance(event, AgentNotice):
        return event.text or (event.type + (f"/{event.subtype}" if event.subtype else ""))
    return type(event).__name__
