"""Runs of token deltas that :func:`~streamview.core.reader._fold` appends to their open
block itself, without :meth:`~streamview.core.state.StreamState.apply_fast`'s call for
each: most of a streaming run's lines are deltas to the block the one before opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamview.core.fields import iso_ms

if TYPE_CHECKING:
    from streamview.core.fast_path import FastRecord
    from streamview.core.model import Session
    from streamview.core.state import StreamState


class DeltaRun:
    """Deltas :func:`_fold` appends to the open text or thinking block itself, one after
    another, and what :meth:`StreamState.apply_fast` would have counted for each, added
    at once by :meth:`end`. A delta continues the run only if ``apply_fast`` would take
    it the same way: of the run's kind, to the newest session (no other
    ``session_id``), its block open (a text block with no thinking open), and no first
    time for the session still to set.

    The run's lines follow each other (any other line ends it), so its deltas' times are
    all it keeps of each: their count and last line follow from them, and only the last
    time there is is worked out (a delta's ISO time may come unread: see
    :func:`~streamview.core.reader._fold`)."""

    __slots__ = (
        "first_line",
        "kind",
        "parts",
        "session",
        "session_id",
        "stamps",
        "subtype",
        "timed",
    )

    def __init__(
        self, session: Session, kind: str, subtype: Any, parts: list[str], line: int
    ) -> None:
        self.session = session
        self.session_id = session.session_id
        self.kind = kind
        """``assistant`` (text deltas) or ``thinking``: the fast records' type."""
        self.subtype = subtype
        """``True`` (a text delta) or ``delta``: the subtype of the run's records."""
        self.parts = parts
        self.timed = session.first_time_ms is not None
        """A delta with a time continues the run only if the session has a first time."""
        self.first_line = line
        """The line of the delta before the run's first (``apply_fast`` took it)."""
        self.stamps: list[int | str | None] = []
        """Each delta's time as ``apply_fast`` would read it (its arrival time, else its
        own): epoch ms, ``None``, or an ISO time not yet read."""

    @classmethod
    def after(cls, state: StreamState, kind: str, subtype: Any, line: int) -> DeltaRun | None:
        """A run to continue after ``apply_fast`` took a delta of ``kind``, if its block
        is open (a text block with no thinking block open: then the next text delta
        closes the thinking, the long way)."""
        session = state.sessions[-1]
        if kind == "thinking":
            block = session.open_thinking
        elif kind == "assistant" and session.open_thinking is None:
            block = session.open_text
        else:
            return None
        if block is None:
            return None
        return cls(session, kind, subtype, block.parts, line)

    def end(self, state: StreamState) -> None:
        """Count the run's deltas as ``apply_fast`` counts each (untracked state), after
        the lines before them the lean fold left to count (``LeanFold.settle_lean``, its
        first delta's among them); those left to count start after them."""
        stamps = self.stamps
        count = len(stamps)
        if not count:
            return
        state.settle_lean(self.first_line)
        state._lean_from = self.first_line + count
        counts = state.counts
        counts.total += count
        counts.events += count
        session = self.session
        session.events += count
        session.last_line = self.first_line + count
        block = session.open_thinking if self.kind == "thinking" else session.open_text
        assert block is not None and block.parts is self.parts
        block.deltas += count
        for stamp in reversed(stamps):  # the last time there is: most often the last's
            when = iso_ms(stamp) if isinstance(stamp, str) else stamp
            if when is not None:
                state.last_event_ms = when
                session.last_time_ms = when
                return


def read_stamp(hot: FastRecord) -> FastRecord:
    """A fast record whose ISO time came unread (a str: a translator's ``raw_stamps``,
    which :func:`~streamview.core.reader._fold` sets), with it read as the dialect would
    have read it (:func:`~streamview.core.fields.iso_ms`)."""
    kind, subtype, text, model_call_id, session_id, stamp, recv = hot
    return kind, subtype, text, model_call_id, session_id, iso_ms(stamp), recv
