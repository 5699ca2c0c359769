"""Fold events into an account of the run: sessions, transcript, tool calls, outcome.

:class:`StreamState` is the one mutable object. Front ends feed it events with
:meth:`StreamState.apply`, call :meth:`StreamState.finish` at end of input, and (the
TUI) drain :meth:`StreamState.take_changes` to learn what to repaint.
"""

from __future__ import annotations

from typing import Any

import streamview.core.tools as tools
from streamview.core.endings import say_why_it_ended, settle
from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    Event,
    InteractionQuery,
    MalformedLine,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import FastRecord
from streamview.core.fold_calls import CallFold
from streamview.core.fold_lean import LeanFold
from streamview.core.fold_notices import NoticeFold
from streamview.core.model import (
    ERROR,
    INCOMPLETE,
    NOTICE,
    PROMPT,
    RUNNING,
    SUCCESS,
    TEXT,
    THINKING,
    TOOL,
    Block,
    Changes,
    LineCounts,
    Outcome,
    Session,
    ToolCall,
    describe_notice,
    has_run,
    running_calls,
)

__all__ = [
    "ERROR",
    "INCOMPLETE",
    "NOTICE",
    "PROMPT",
    "RUNNING",
    "SUCCESS",
    "TEXT",
    "THINKING",
    "TOOL",
    "Block",
    "Changes",
    "LineCounts",
    "Outcome",
    "Session",
    "StreamState",
    "ToolCall",
    "describe_notice",
]


class StreamState(CallFold, NoticeFold, LeanFold):
    """The account of a stream, built one event at a time.

    Args:
        track_changes: Record what each event changed, for views that repaint
            incrementally. Off for one-shot front ends (``--json``).
        compact: Keep only what a summary needs, so a long run fits in little
            memory: closed blocks' fragments are joined, finished calls with a
            target drop their arguments (``args`` is ``{}``) and keep no
            ``model_call_id``, ``description`` or ``parent_call_id``. For one-shot
            front ends; a viewer keeps all. Compact and tracking no changes, the
            fold is lean: its calls are numbered 0 and keep no line numbers (a
            finished one's ``completed_line`` is 0), their blocks one shared block
            (:data:`~streamview.core.model.LEAN_TOOL_BLOCK`), as ``--json``'s
            sweep (:mod:`~streamview.core.text_store`) used to leave them.
    """

    def __init__(self, track_changes: bool = True, compact: bool = False) -> None:
        self.sessions: list[Session] = []
        self.counts = LineCounts()
        self.malformed: list[MalformedLine] = []
        self.unknown: list[UnknownRecord] = []
        self.notices: list[Event] = []
        """Connection and retry notices and the agent's own notices, in order."""
        self.ended = False
        """The input reached its end."""
        self.last_event_ms: int | None = None
        self._counted_line = 0
        """The line :meth:`apply` last counted: a line of several events counts once."""
        self._lean_from = 0
        self._lean_when: int | None = None
        self._lean_extra = 0
        self._track = track_changes
        self._compact = compact
        self._lean = compact and not track_changes
        self._strings: dict[str, str] = {}
        self._changes = Changes()

    @property
    def current(self) -> Session | None:
        """The newest session."""
        return self.sessions[-1] if self.sessions else None

    def take_changes(self) -> Changes:
        """Return what changed since the last call, and start a new record."""
        changes, self._changes = self._changes, Changes()
        return changes

    def note_blank_line(self) -> None:
        """Count an empty line (not an event, not malformed)."""
        self.counts.blank += 1

    def apply(self, event: AnyEvent) -> Session | None:
        """Apply the stream's next event; return the session it landed in (``None`` for a
        malformed line)."""
        counts, kind = self.counts, type(event)
        inferred = kind is SessionStarted and event.inferred  # type: ignore[union-attr]
        first = event.line != self._counted_line and not inferred
        if first:
            self._counted_line = event.line
            counts.total += 1
        changes = self._changes
        track = self._track
        if track:
            changes.events += 1
        when = event.recv_ms if event.recv_ms is not None else event.timestamp_ms
        if when is not None:
            self.last_event_ms = when
        if isinstance(event, MalformedLine):
            counts.malformed += first
            self.malformed.append(event)
            if track:
                changes.log = True
            return None
        starts = kind is SessionStarted and not inferred
        session = self._session_for(event.session_id, event.line, starts)
        session.events += 1
        session.last_line = event.line
        if when is not None:
            if session.first_time_ms is None:
                session.first_time_ms = when
            session.last_time_ms = when
        handler = _HANDLERS.get(kind)
        if handler is None:
            counts.unknown += first
            assert isinstance(event, UnknownRecord)
            self.unknown.append(event)  # the event log's, never the transcript's
            if track:
                changes.log = True
            return session
        counts.events += first
        handler(self, session, event)
        return session

    def apply_fast(self, fast: FastRecord, line: int) -> bool | None:
        """Apply a hot record a dialect took apart itself (:data:`FastRecord`: what a
        translator's ``fast`` or ``fast_line`` gave for 1-based ``line``), exactly as its
        events would be applied. Token deltas are most of a long run: building an event
        for each costs more than decoding its line.

        Returns ``True`` for a text delta (``subtype`` ``True``) or a thinking delta
        (``delta``), which leave their block open: the next delta of the kind may go to
        it (:func:`~streamview.core.reader._fold`'s runs); else ``None``."""
        kind, subtype, text, model_call_id, session_id, timestamp, recv = fast
        counts = self.counts
        counts.total += 1
        counts.events += 1
        track = self._track
        if track:
            self._changes.events += 1
        sessions = self.sessions
        if sessions:
            session = sessions[-1]
            if session_id is not None and session_id != session.session_id:
                session = self._session_for(session_id, line, False)
        else:
            session = self._session_for(session_id, line, False)
        session.events += 1
        session.last_line = line
        when = timestamp if recv is None else recv
        if when is not None:
            self.last_event_ms = when
            if session.first_time_ms is None:
                session.first_time_ms = when
            session.last_time_ms = when
        if kind == "assistant":
            block = session.open_text  # a delta to the open text: most of a run's lines
            if subtype is True and block is not None and session.open_thinking is None:
                block.parts.append(text)
                block.deltas += 1
                if track:
                    self._changes.transcript.add(session.index)
                return True
            if subtype is False and block is None and session.open_thinking is None:
                # A whole answer with nothing open (opencode's texts): its own block, as
                # _assistant_text makes it.
                session.blocks.append(Block(TEXT, line, [text]))
                if track:
                    self._changes.transcript.add(session.index)
                return None
            self._assistant_text(session, text, line, model_call_id, timestamp, subtype)
            return subtype is True or None
        elif kind == "tool_call":
            self._call_record(session, line, timestamp, recv, subtype == "completed", text)
        elif kind == "answer_call":  # a whole answer, then a call starts: two events
            said, fields = text
            if session.open_text is None and session.open_thinking is None:
                session.blocks.append(Block(TEXT, line, [said]))  # as _assistant_text would
                if track:
                    self._changes.transcript.add(session.index)
            else:
                self._assistant_text(session, said, line, model_call_id, timestamp, False)
            session.events += 1
            if track:
                self._changes.events += 1
            self._call_record(session, line, timestamp, recv, False, fields)
        elif text is None:  # thinking completed
            if session.open_thinking is not None:
                self._close_thinking(session)
        elif subtype == "whole" and session.open_thinking is None:
            # Thinking told whole (Codex's reasoning): the block opened and closed at
            # once, as _thinking_text and _close_thinking leave it. Two events.
            session.blocks.append(Block(THINKING, line, [text], deltas=1))
            session.events += 1
            if track:
                self._changes.events += 1
                self._changes.transcript.add(session.index)
        else:  # a thinking delta
            self._thinking_text(session, text, line)
            if subtype == "whole":  # and the block closes: a second event
                self._close_thinking(session)
                session.events += 1
                if track:
                    self._changes.events += 1
            else:
                return subtype == "delta" or None
        return None

    def finish(self) -> None:
        """End of input: open calls are interrupted, sessions settled (:func:`settle`)."""
        self.ended = True
        for session in self.sessions:
            self._close_session(session)

    def ended_because(self, reason: str | None) -> None:
        """After :meth:`finish`: why the input ended (:func:`say_why_it_ended`)."""
        if say_why_it_ended(self.current, reason) and self._track:
            self._changes.sessions.add(len(self.sessions) - 1)

    def _session_for(self, new_id: str | None, line: int, starts_run: bool) -> Session:
        """The session an event lands in, opening a new one when a run starts.

        Args:
            new_id: The event's ``session_id``.
            line: The event's line number.
            starts_run: The event is a ``system/init``.
        """
        current = self.current
        if (
            current is None
            or (starts_run and (current.model is not None or has_run(current)))
            or (
                new_id is not None
                and current.session_id is not None
                and new_id != current.session_id
            )
        ):
            if current is not None:
                self._close_session(current)
            current = Session(index=len(self.sessions), session_id=new_id, first_line=line)
            self.sessions.append(current)
            if self._track:
                self._changes.sessions.add(current.index)
        elif current.session_id is None and new_id is not None:
            current.session_id = new_id
            if self._track:
                self._changes.sessions.add(current.index)
        return current

    def _close_session(self, session: Session) -> None:
        self._close_text(session)
        self._close_thinking(session)
        for call in running_calls(session.tool_calls):  # packed calls never run
            if call.status == tools.RUNNING:
                call.status = tools.INTERRUPTED
                call.summary = call.summary or "no completion before the stream ended"
                if self._track:
                    self._changes.calls.add((session.index, call.index))
        settle(session)
        if self._track:
            self._changes.sessions.add(session.index)
            self._changes.transcript.add(session.index)

    def _touch_transcript(self, session: Session) -> None:
        if self._track:
            self._changes.transcript.add(session.index)

    def _close_text(self, session: Session) -> None:
        block = session.open_text
        if block is not None:
            block.open = False
            session.open_text = None
            if self._compact and len(block.parts) > 1:
                block.parts = ["".join(block.parts)]
            self._touch_transcript(session)

    def _close_thinking(self, session: Session) -> None:
        block = session.open_thinking
        if block is not None:
            block.open = False
            session.open_thinking = None
            if self._compact and len(block.parts) > 1:
                block.parts = ["".join(block.parts)]
            self._touch_transcript(session)

    def _on_init(self, session: Session, event: SessionStarted) -> None:
        if event.inferred:  # what the stream says elsewhere: only what is not known yet
            session.agent = session.agent or event.agent
            session.model = session.model or event.model
            if self._track:
                self._changes.sessions.add(session.index)
            return
        session.model = event.model
        session.agent = event.agent or session.agent
        session.cwd = event.cwd
        session.permission_mode = event.permission_mode
        session.api_key_source = event.api_key_source
        session.init_extra = event.extra
        session.no_final_record = event.no_final_record or session.no_final_record
        if self._track:
            self._changes.sessions.add(session.index)

    def _on_prompt(self, session: Session, event: PromptSubmitted) -> None:
        self._close_text(session)
        self._close_thinking(session)
        if session.prompt is None:
            session.prompt = event.text
            if self._track:
                self._changes.sessions.add(session.index)
        session.blocks.append(Block(PROMPT, event.line, parts=[event.text]))
        self._touch_transcript(session)

    def _on_assistant(self, session: Session, event: AssistantMessage) -> None:
        """Apply the assistant-text rules of the format guide.

        A message with ``model_call_id`` (a recap, or a complete segment before a tool
        call) or with neither ``model_call_id`` nor ``timestamp_ms`` (a flush, or the
        turn's last complete segment) replaces what the deltas of the open segment
        built, or is a segment of its own when no deltas are open. A message with
        ``timestamp_ms`` and no ``model_call_id`` is a token delta. Fragments are never
        compared with each other: repeated tokens are real.
        """
        self._assistant_text(
            session, event.text, event.line, event.model_call_id, event.timestamp_ms, event.delta
        )

    def _assistant_text(
        self,
        session: Session,
        text: str,
        line: int,
        model_call_id: str | None,
        timestamp_ms: int | None,
        delta: bool | None = None,
    ) -> None:
        """The rules of :meth:`_on_assistant`, from the message's fields."""
        if session.open_thinking is not None:
            self._close_thinking(session)
        block = session.open_text
        if delta if delta is not None else (model_call_id is None and timestamp_ms is not None):
            if block is None:
                block = Block(TEXT, line, open=True)
                session.blocks.append(block)
                session.open_text = block
            block.parts.append(text)
            block.deltas += 1
        elif block is not None:
            block.parts = [text]
            block.revision += 1
            block.open = False
            session.open_text = None
        else:
            session.blocks.append(Block(TEXT, line, parts=[text]))
        if self._track:
            self._changes.transcript.add(session.index)

    def _on_thinking(self, session: Session, event: ThinkingDelta) -> None:
        self._thinking_text(session, event.text, event.line)

    def _thinking_text(self, session: Session, text: str, line: int) -> None:
        """Append a thinking delta to the open thinking block, opening one if needed."""
        block = session.open_thinking
        if block is None:
            block = Block(THINKING, line, open=True)
            session.blocks.append(block)
            session.open_thinking = block
        block.parts.append(text)
        block.deltas += 1
        if self._track:
            self._changes.transcript.add(session.index)

    def _on_thinking_done(self, session: Session, event: ThinkingCompleted) -> None:
        self._close_thinking(session)

    def _on_result(self, session: Session, event: RunResult) -> None:
        self._close_text(session)
        self._close_thinking(session)
        session.outcome.take(event)
        if self._track:
            self._changes.sessions.add(session.index)


_HANDLERS: dict[type, Any] = {
    SessionStarted: StreamState._on_init,
    PromptSubmitted: StreamState._on_prompt,
    AssistantMessage: StreamState._on_assistant,
    ThinkingDelta: StreamState._on_thinking,
    ThinkingCompleted: StreamState._on_thinking_done,
    ToolCallEvent: StreamState._on_tool,
    InteractionQuery: StreamState._on_query,
    ConnectionNotice: StreamState._on_connection,
    AgentNotice: StreamState._on_notice,
    RunResult: StreamState._on_result,
}
