"""The part of the fold that keeps what the agent says about its own work.

Connection and retry notices, and the agent's own notices (hooks, rate limits,
compaction, tasks: :class:`~streamview.core.events.AgentNotice`), go to the event log
(:attr:`StreamState.notices`); a retry is also a line of the transcript, as it has
always been, but an agent's notice never is. What holds right now and a person should
see live (rate limited, compacting, retrying) is the session's
:attr:`~streamview.core.model.Session.live_mark`, which the status bar shows.
"""

from __future__ import annotations

from streamview.core.events import AgentNotice, ConnectionNotice, Event
from streamview.core.model import (
    NOTICE,
    Block,
    Changes,
    LineCounts,
    Session,
    describe_notice,
)


class NoticeFold:
    """:class:`~streamview.core.state.StreamState`'s handlers of notices (a mixin)."""

    notices: list[Event]
    counts: LineCounts
    _track: bool
    _changes: Changes

    def _mark(self, session: Session, mark: str | None) -> None:
        """Set what the status bar shows live for ``session`` (``None``: nothing)."""
        session.mark_events = session.events
        if session.live_mark != mark:
            session.live_mark = mark
            if self._track:
                self._changes.sessions.add(session.index)

    def _keep(self, session: Session) -> None:
        """A notice that says nothing of the mark: one that holds still holds (nothing
        but this notice came after the one that set it)."""
        if session.live_mark is not None and session.mark_events == session.events - 1:
            session.mark_events = session.events

    def _notice(self, session: Session, event: Event) -> None:
        """A connection notice's line in the transcript."""
        session.blocks.append(Block(NOTICE, event.line, parts=[describe_notice(event)]))
        if self._track:
            self._changes.transcript.add(session.index)

    def _on_connection(self, session: Session, event: ConnectionNotice) -> None:
        self.notices.append(event)
        if event.type == "input" and event.subtype in ("truncated", "replaced"):
            self.counts.restarts += 1
        self._notice(session, event)
        if event.type in ("retry", "connection"):
            attempt = f" (attempt {event.attempt})" if event.attempt is not None else ""
            self._mark(session, f"retrying{attempt}")
        else:
            self._keep(session)

    def _on_notice(self, session: Session, event: AgentNotice) -> None:
        self.notices.append(event)  # the event log's: the transcript holds the answer
        if event.mark is not None:
            self._mark(session, event.mark or None)
        else:
            self._keep(session)
        if self._track:
            self._changes.log = True
