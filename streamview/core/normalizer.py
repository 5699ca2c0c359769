"""The fold's account of a stream, told as normalized events while it is read.

:class:`EventStream` is the whole pipeline behind ``streamview --events`` and
:func:`streamview.read_events`: bytes go through the :class:`EventReader` (framing,
the stream's dialect, its records turned into :mod:`streamview.core.events`), each
event is applied to a :class:`StreamState` (the same fold as the viewer, ``--print``
and ``--json``), and :class:`Normalizer` says what the event changed in the state's
terms (:mod:`streamview.core.normalized`). Nothing here knows any agent: a dialect
added beside the others is read the same way.
"""

from __future__ import annotations

from collections.abc import Callable

import streamview.core.normalized as n
import streamview.core.told_events as tell
from streamview.core import tools
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    MalformedLine,
    PromptSubmitted,
    RunResult,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.events import ThinkingDelta as ThinkingEvent
from streamview.core.model import (
    NOTICE,
    PROMPT,
    RUNNING,
    TEXT,
    THINKING,
    TOOL,
    Block,
    Session,
    ToolCall,
)
from streamview.core.state import StreamState
from streamview.core.usage import usage_count

FREE_AFTER = 64
"""Blocks told whole before the open session's told blocks are let go, at once."""
FREED_BLOCKS = {kind: Block(kind, 0) for kind in (TEXT, THINKING, TOOL, PROMPT, NOTICE)}
"""What stands for a block told whole and let go, by its kind (:func:`has_run` asks)."""
FREED_CALL = ToolCall(-1, "", "freed", status=tools.COMPLETED)
"""What stands for a call whose end was told and let go (finished: never interrupted)."""
_TURN_KINDS = (TEXT, TOOL, PROMPT)

_Facts = tuple[str | None, str | None, str | None, str | None, str | None]


def _facts(session: Session, agent: str | None) -> _Facts:
    return (
        session.session_id,
        session.agent or agent,
        session.model,
        session.cwd,
        session.permission_mode,
    )


class _Shown:
    """What has been told of one text or thinking block.

    A plain class with slots, not a dataclass: making a dataclass (its ``__init__``,
    ``__repr__`` and ``__eq__`` compiled, the class made twice for its slots) was a
    fifth of ``--events``' imports of its own; nothing compares or prints one."""

    __slots__ = ("corrected", "deltas", "finished", "revision", "told")

    def __init__(
        self,
        revision: int,
        deltas: int,
        told: list[str] | None = None,
        corrected: bool = False,
        finished: bool = False,
    ) -> None:
        self.revision = revision
        self.deltas = deltas
        self.told: list[str] = [] if told is None else told
        """The text told in deltas so far, in pieces."""
        self.corrected = corrected
        self.finished = finished


TOLD_WHOLE = _Shown(-1, -1, finished=True)  # of every block told whole: read only


class Normalizer:
    """Turn each event applied to a state into the normalized events it stands for.

    Args:
        state: The state every event is applied to before :meth:`handle` sees it.
        agent: The stream's dialect, when known (also a session its records do not name).
    """

    def __init__(self, state: StreamState, agent: Callable[[], str | None]) -> None:
        self.state = state
        self._agent = agent
        self._facts: list[_Facts] = []
        """What ``session.start``/``session.update`` last said of each session."""
        self._closed = 0
        """Sessions before this index are told to their end."""
        self._settled: dict[int, int] = {}
        """Per session: blocks before this position need nothing more told."""
        self._shown: dict[tuple[int, int], _Shown] = {}
        self._started: set[tuple[int, int]] = set()
        self._ended: set[tuple[int, int]] = set()
        self._outcomes: set[int] = set()
        self._forgotten = 0
        """Sessions before this index were told whole and let go (:meth:`forget_told`)."""
        self._freed: dict[int, int] = {}
        """Per open session: blocks before this position were let go (:meth:`_free_told`)."""

    def handle(self, event: AnyEvent, session: Session | None) -> list[n.NormalizedEvent]:
        """The normalized events one applied event stands for, in order."""
        out: list[n.NormalizedEvent] = []
        when = event.recv_ms if event.recv_ms is not None else event.timestamp_ms
        if isinstance(event, MalformedLine):
            text = event.text
            out.append(
                n.Malformed(
                    line=event.line,
                    time_ms=when,
                    reason=event.reason,
                    raw=text[: n.RAW_LIMIT],
                    raw_size=event.raw_size,
                )
            )
            return out
        assert session is not None
        index = session.index
        line = event.line
        self._told(session, event, line, when, out)
        kind = type(event)
        if kind is ToolCallEvent:
            assert isinstance(event, ToolCallEvent)
            call = session.calls_by_id.get(event.call_id)
            if call is not None and event.completed and call.status != RUNNING:
                self._end_call(session, call, line, when, out)
        elif kind is PromptSubmitted:
            assert isinstance(event, PromptSubmitted)
            out.append(n.Prompt(line=line, time_ms=when, session=index, text=event.text))
        elif kind is RunResult:
            self._outcome(session, line, when, out)
        elif kind is ConnectionNotice:
            assert isinstance(event, ConnectionNotice)
            out.append(
                n.Notice(
                    line=line,
                    time_ms=when,
                    session=index,
                    notice=event.type,
                    subtype=event.subtype,
                    attempt=event.attempt,
                    detail=event.detail,
                )
            )
        elif kind is UnknownRecord:
            assert isinstance(event, UnknownRecord)
            out.append(
                n.Unknown(
                    line=line,
                    time_ms=when,
                    session=index,
                    record_type=event.type,
                    subtype=event.subtype,
                )
            )
        return out

    def handle_fast(
        self, session: Session, line: int, when: int | None, ended: str | None
    ) -> list[n.NormalizedEvent]:
        """:meth:`handle` for a record applied with ``apply_fast`` (``ended``: the id of
        the call it completes, if it does): the same events."""
        out: list[n.NormalizedEvent] = []
        self._told(session, None, line, when, out)
        if ended is not None:
            call = session.calls_by_id.get(ended)
            if call is not None and call.status != RUNNING:
                self._end_call(session, call, line, when, out)
        return out

    def _told(
        self,
        session: Session,
        event: AnyEvent | None,
        line: int,
        when: int | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        """What changed in the session's facts and transcript (every record's part)."""
        index = session.index
        if index >= len(self._facts):
            self._announce(session, line, when, out)
        else:
            facts = _facts(session, self._agent())
            if facts != self._facts[index]:
                self._facts[index] = facts
                out.append(_session_event(n.SessionUpdate, facts, index, line, when))
        self._sweep(session, event, line, when, out)

    def told_by_deltas(self, session: Session, block: Block) -> _Shown | None:
        """The fast path of :class:`~streamview.core.event_stream.EventStream`, asked
        before a delta is applied straight to ``block``, the session's last: what was
        told of it, if a delta to it is all the line changes in what is told (the
        session announced, every block before it told whole, the block told delta by
        delta so far); else ``None`` and the line goes the long way."""
        index = session.index
        position = len(session.blocks) - 1
        if index != len(self._facts) - 1 or self._settled.get(index, 0) != position:
            return None
        shown = self._shown.get((index, position))
        if (
            shown is None
            or shown.finished
            or shown.revision != block.revision
            or shown.deltas != block.deltas
        ):
            return None
        return shown

    def close(self) -> list[n.NormalizedEvent]:
        """After :meth:`StreamState.finish`: the end of every session not yet told."""
        out: list[n.NormalizedEvent] = []
        for session in self.state.sessions[self._closed :]:
            self._close(session, out)
        self._closed = len(self.state.sessions)
        return out

    def forget_told(self) -> None:
        """Let go of what the sessions told to their end hold: their blocks and calls in
        the state, and what was remembered of them here. The fold writes only to the
        newest session, and nothing more is told of one the fold closed: a stream read
        this way (``--events``, :func:`streamview.read_events`) keeps one session in
        memory, not the whole run."""
        closed = self._closed
        sessions = self.state.sessions
        if len(sessions) > closed:
            self._free_told(sessions[-1])
        if closed <= self._forgotten:
            return
        for session in self.state.sessions[self._forgotten : closed]:
            session.blocks = []
            session.tool_calls = []
            session.calls_by_id = {}
            session.open_text = session.open_thinking = None
            session.queries, session.pending_args, session.pending_approval = {}, {}, {}
            session.prompt = session.outcome.result = None  # told; the answer can be long
            self._settled.pop(session.index, None)
            self._freed.pop(session.index, None)
        self._shown = {key: shown for key, shown in self._shown.items() if key[0] >= closed}
        self._started = {key for key in self._started if key[0] >= closed}
        self._ended = {key for key in self._ended if key[0] >= closed}
        self._forgotten = closed

    def _free_told(self, session: Session) -> None:
        """Let go of what the open session told whole: settled blocks become one of
        :data:`FREED_BLOCKS`, calls whose end was told :data:`FREED_CALL` (positions and
        indexes kept: a pointer each). The last text, tool or prompt block stays whole:
        :attr:`Session.turn_complete` judges the session's end by it."""
        index = session.index
        blocks = session.blocks
        limit = self._settled.get(index, 0)
        start = self._freed.get(index, 0)
        if limit - start < FREE_AFTER:
            return
        for position in range(limit - 1, start - 1, -1):
            if blocks[position].kind in _TURN_KINDS:
                limit = position
                break
        calls = session.tool_calls
        by_id = session.calls_by_id
        ended = self._ended
        for position in range(start, limit):
            block = blocks[position]
            blocks[position] = FREED_BLOCKS.get(block.kind, block)
            call_index = block.call_index
            if call_index is None or (index, call_index) not in ended:
                continue
            call = calls[call_index]
            if by_id.get(call.call_id) is call:
                del by_id[call.call_id]
            calls[call_index] = FREED_CALL
            ended.discard((index, call_index))
            self._started.discard((index, call_index))
        self._freed[index] = limit

    # -- sessions ---------------------------------------------------------------------

    def _announce(
        self, session: Session, line: int, when: int | None, out: list[n.NormalizedEvent]
    ) -> None:
        """A new session: the end of those before it (the fold closed them), then its start."""
        for earlier in self.state.sessions[self._closed : session.index]:
            self._close(earlier, out)
        self._closed = session.index
        facts = _facts(session, self._agent())
        self._facts.append(facts)
        out.append(_session_event(n.SessionStart, facts, session.index, line, when))

    def _close(self, session: Session, out: list[n.NormalizedEvent]) -> None:
        """Everything left to tell of a session the fold closed: its blocks, its open
        calls (interrupted), and its outcome (incomplete) if no result told one."""
        self._sweep(session, None, None, None, out)
        for call in session.tool_calls:
            if call is FREED_CALL:
                continue
            if (session.index, call.index) not in self._ended and call.status != RUNNING:
                self._end_call(session, call, None, None, out)
        if session.index not in self._outcomes and session.outcome.status != RUNNING:
            self._outcome(session, None, None, out)

    def _outcome(
        self, session: Session, line: int | None, when: int | None, out: list[n.NormalizedEvent]
    ) -> None:
        outcome = session.outcome
        usage = outcome.usage
        self._outcomes.add(session.index)
        if usage is not None or outcome.cost_usd is not None:
            out.append(
                n.Usage(
                    line=line,
                    time_ms=when,
                    session=session.index,
                    cost_usd=outcome.cost_usd,
                    raw=usage,
                    input_tokens=usage_count(usage, "input_tokens"),
                    output_tokens=usage_count(usage, "output_tokens"),
                    cache_read_tokens=usage_count(usage, "cache_read_tokens"),
                    cache_write_tokens=usage_count(usage, "cache_write_tokens"),
                    reasoning_tokens=usage_count(usage, "reasoning_tokens"),
                )
            )
        out.append(
            n.Outcome(
                line=line,
                time_ms=when,
                session=session.index,
                status=outcome.status,  # type: ignore[arg-type]
                subtype=outcome.subtype,
                duration_ms=outcome.duration_ms,
                num_turns=outcome.num_turns,
                cost_usd=outcome.cost_usd,
                message=outcome.message,
                result=outcome.result,
            )
        )

    # -- transcript -------------------------------------------------------------------

    def _sweep(
        self,
        session: Session,
        event: AnyEvent | None,
        line: int | None,
        when: int | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        """Tell what changed in the session's transcript, in its order: text and
        thinking that grew or closed, calls that appeared."""
        index = session.index
        blocks = session.blocks
        settled = True
        for position in range(self._settled.get(index, 0), len(blocks)):
            block = blocks[position]
            kind = block.kind
            if kind in (TEXT, THINKING):
                finished = self._block(session, position, block, event, line, when, out)
                settled = settled and finished
            elif kind == TOOL and block.call_index is not None:
                key = (index, block.call_index)
                if key not in self._started:
                    self._started.add(key)
                    tell.start(index, session.tool_calls[block.call_index], line, when, out)
            if settled:
                self._settled[index] = position + 1
                self._shown.pop((index, position), None)

    def _block(
        self,
        session: Session,
        position: int,
        block: Block,
        event: AnyEvent | None,
        line: int | None,
        when: int | None,
        out: list[n.NormalizedEvent],
    ) -> bool:
        """Tell what is new in one text or thinking block; ``True`` once it is told whole."""
        key = (session.index, position)
        shown = self._shown.get(key)
        if shown is not None and shown.finished:
            return True
        thinking = block.kind == THINKING
        if (
            shown is not None
            and block.open
            and shown.revision == block.revision
            and block.deltas == shown.deltas + 1
            and type(event) is (ThinkingEvent if thinking else AssistantMessage)
        ):
            # One delta appended to a block being told: the event's text is what is new.
            shown.deltas = block.deltas
            piece: str = event.text
            if piece:
                shown.told.append(piece)
                out.append(tell.delta(thinking, session.index, position, piece, line, when))
            return False
        text = block.text
        corrected = shown.corrected if shown is not None else False  # else: as told, no join
        if shown is None or shown.revision != block.revision or shown.deltas != block.deltas:
            told = "".join(shown.told) if shown is not None else ""
            if text.startswith(told):
                fresh = text[len(told) :]
                if fresh:
                    out.append(tell.delta(thinking, session.index, position, fresh, line, when))
            else:
                corrected = True  # a recap replaced what the deltas said
        if not block.open:
            out.append(tell.done(thinking, session.index, position, text, corrected, line, when))
            self._shown[key] = TOLD_WHOLE
            return True
        self._shown[key] = _Shown(block.revision, block.deltas, [text], corrected)
        return False

    def _end_call(
        self,
        session: Session,
        call: ToolCall,
        line: int | None,
        when: int | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        key = (session.index, call.index)
        if key in self._ended and call.completed_line != line:  # not a result that replaced
            return
        self._ended.add(key)
        tell.end(session.index, call, line, when, out)


def _session_event(
    kind: type[n.SessionStart] | type[n.SessionUpdate],
    facts: _Facts,
    session: int,
    line: int | None,
    when: int | None,
) -> n.SessionStart | n.SessionUpdate:
    session_id, agent, model, cwd, permission_mode = facts
    return kind(
        line=line,
        time_ms=when,
        session=session,
        session_id=session_id,
        agent=agent,
        model=model,
        cwd=cwd,
        permission_mode=permission_mode,
    )
