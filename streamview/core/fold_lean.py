"""The fold's hot records applied with their line counts left for later: what
:func:`~streamview.core.reader._fold` does where nothing watches the state line by line.

A session and the line counts are ``msgspec`` structs: setting one of their fields costs
about three times a plain attribute's (CPython does not specialise a struct's
``__setattr__``), and :meth:`~streamview.core.state.StreamState.apply_fast` set five of
them a line (``counts.total`` and ``events``, the session's ``events``, ``last_line``
and ``last_time_ms``). :meth:`LeanFold.apply_lean` sets none of them: every line from
:attr:`~LeanFold._lean_from` is one it applied, so :meth:`LeanFold.settle_lean`
counts them at once, from their line numbers, before anything else happens to the
state (another line's event, a new session, a run of deltas' count, the chunk's end).
"""

from __future__ import annotations

from collections.abc import Callable

from streamview.core.fast_path import FastRecord
from streamview.core.model import TEXT, THINKING, Block, LineCounts, Session


class LeanFold:
    """:class:`~streamview.core.state.StreamState`'s fast records with their counting
    left for later (a mixin; for a state that tracks no changes)."""

    sessions: list[Session]
    counts: LineCounts
    last_event_ms: int | None
    _lean_from: int
    """The last line counted: every line after it up to the one being applied was
    applied by :meth:`apply_lean` and is not counted yet."""
    _lean_when: int | None
    """The last time (epoch ms) of those lines, if any had one: the state's and their
    session's last time once they are counted."""
    _lean_extra: int
    """Events those lines made beyond one each (a whole thinking block: two)."""
    _session_for: Callable[[str | None, int, bool], Session]
    _close_thinking: Callable[[Session], None]
    _thinking_text: Callable[[Session, str, int], None]
    _assistant_text: Callable[..., None]
    _call_record: Callable[..., None]

    def settle_lean(self, upto: int) -> None:
        """Count the lines :meth:`apply_lean` applied up to line ``upto`` (each an event
        of the newest session, as :meth:`apply_fast` counts it); the next line not
        counted is the one after ``upto``."""
        count = upto - self._lean_from
        self._lean_from = upto
        if count > 0:
            counts = self.counts
            counts.total += count
            counts.events += count
            session = self.sessions[-1]
            session.events += count + self._lean_extra
            self._lean_extra = 0
            session.last_line = upto
            when = self._lean_when
            if when is not None:
                self._lean_when = None
                self.last_event_ms = when
                session.last_time_ms = when

    def skip_lean(self, line: int) -> None:
        """Line ``line`` goes another way (its events counted as they are applied, or
        a blank line): count the lines :meth:`apply_lean` applied before it."""
        if line - 1 != self._lean_from:  # (most often another line or a run came last)
            self.settle_lean(line - 1)
        self._lean_from = line

    def apply_lean(self, fast: FastRecord, line: int) -> bool | None:
        """:meth:`~streamview.core.state.StreamState.apply_fast` of a state that tracks no
        changes, its line counted later (:meth:`settle_lean`): the lines from the one
        after :attr:`_lean_from` up to ``line`` must all be this method's."""
        kind, subtype, text, model_call_id, session_id, timestamp, recv = fast
        sessions = self.sessions
        if sessions:
            session = sessions[-1]
            if session_id is not None and session_id != session.session_id:
                self.settle_lean(line - 1)  # the lines before are the newest session's
                session = self._session_for(session_id, line, False)
        else:
            session = self._session_for(session_id, line, False)
        when = timestamp if recv is None else recv
        if when is not None:
            self._lean_when = when
            if session.first_time_ms is None:
                session.first_time_ms = when
        if kind == "assistant":
            block = session.open_text  # a delta to the open text: most of a run's lines
            if session.open_thinking is None:
                if subtype is True and block is not None:
                    block.parts.append(text)
                    block.deltas += 1
                    return True
                if subtype is False and block is None:
                    # A whole answer with nothing open (opencode's texts): its own block,
                    # as _assistant_text makes it.
                    session.blocks.append(Block(TEXT, line, [text]))
                    return None
            self._assistant_text(session, text, line, model_call_id, timestamp, subtype)
            return subtype is True or None
        if kind == "tool_call":
            self._call_record(session, line, timestamp, recv, subtype == "completed", text)
        elif kind == "answer_call":  # a whole answer, then a call starts: two events
            said, fields = text
            if session.open_text is None and session.open_thinking is None:
                session.blocks.append(Block(TEXT, line, [said]))  # as _assistant_text would
            else:
                self._assistant_text(session, said, line, model_call_id, timestamp, False)
            self._lean_extra += 1
            self._call_record(session, line, timestamp, recv, False, fields)
        elif text is None:  # thinking completed
            if session.open_thinking is not None:
                self._close_thinking(session)
        elif subtype == "whole" and session.open_thinking is None:
            # Thinking told whole (Codex's reasoning): the block opened and closed at
            # once, as _thinking_text and _close_thinking leave it. Two events.
            session.blocks.append(Block(THINKING, line, [text], False, None, 0, 1))  # 1 delta
            self._lean_extra += 1
        else:  # a thinking delta
            self._thinking_text(session, text, line)
            if subtype == "whole":  # and the block closes: a second event
                self._close_thinking(session)
                self._lean_extra += 1
            else:
                return subtype == "delta" or None
        return None
