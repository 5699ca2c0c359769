"""The normalizer of ``--events``' fast path: what :func:`~streamview.core.event_fast.feed_fast`
asks of the :class:`~streamview.core.normalizer.Normalizer` besides what every line asks.

A line the fast path applied (``apply_lean``: no event) is told from what it changed in
the fold: the first delta of a block and the line that closes it without sweeping the
transcript, a call's start and end, a block told whole; the output is the same byte for
byte as the long way's (``tests/events/test_golden.py``, ``tests/events/test_told_fast.py``).
"""

from __future__ import annotations

import streamview.core.normalized as n
import streamview.core.told_events as tell
from streamview.core.events import AnyEvent
from streamview.core.model import RUNNING, TEXT, THINKING, TOOL, Block, Session
from streamview.core.normalizer import Normalizer, _Shown


class FastNormalizer(Normalizer):
    """The :class:`~streamview.core.normalizer.Normalizer` of the fast path: what
    :func:`feed_fast` asks of it besides what every line asks."""

    told_session: Session | None = None
    """The newest session when its facts were last found as told (:meth:`tell_fast`)."""
    told_id: str | None = None
    """Its ``session_id`` then (a record may name the session later)."""

    def opened(self, session: Session, before: int, thinking: bool, text: str) -> _Shown | None:
        """After ``apply_lean`` applied a delta that may have opened a block after the
        ``before`` blocks of ``session``: the block told as :meth:`handle_fast` tells it,
        and what was told of it returned (the caller writes the delta, ``text``), when
        that is all the line changed in what is told: ``session`` still the newest, its
        facts as told, its ``before`` blocks told whole and one more, open, of the
        delta's kind, holding the delta. Else ``None``, nothing told: the line is
        :meth:`handle_fast`'s."""
        index = session.index
        blocks = session.blocks
        if len(blocks) != before + 1 or self._settled.get(index, 0) != before:
            return None
        block = blocks[before]
        if (
            not block.open
            or block.kind != (THINKING if thinking else TEXT)
            or block.text != text
            or not self._still_told(session)
        ):
            return None
        shown = self._shown[(index, before)] = _Shown(block.revision, block.deltas, [text])
        return shown

    def closed(
        self,
        session: Session,
        position: int,
        block: Block,
        shown: _Shown,
        line: int,
        when: int | None,
        out: list[n.NormalizedEvent],
    ) -> bool:
        """After ``apply_lean`` applied the line that ended a run of deltas to ``block``
        (at ``position``, the last of ``session``, every block before it told whole;
        ``shown``: what was told of it): whether that line only closed the block, then
        told as :meth:`_block` tells a block told in deltas that closed (what the line
        added, its end); else nothing is told."""
        index = session.index
        blocks = session.blocks
        if (
            block.open
            or len(blocks) != position + 1
            or blocks[position] is not block
            or self._settled.get(index, 0) != position
            or not self._still_told(session)
        ):
            return False
        thinking = block.kind == THINKING
        text = block.text
        corrected = shown.corrected
        if shown.revision != block.revision or shown.deltas != block.deltas:
            told = "".join(shown.told)  # the line replaced the text (a whole message)
            if text.startswith(told):
                fresh = text[len(told) :]
                if fresh:
                    out.append(tell.delta(thinking, index, position, fresh, line, when))
            else:
                corrected = True  # a recap replaced what the deltas said
        out.append(tell.done(thinking, index, position, text, corrected, line, when))
        self._settled[index] = position + 1
        self._shown.pop((index, position), None)
        return True

    def handle_fast(
        self,
        session: Session,
        line: int,
        when: int | None,
        ended: str | None,
        out: list[n.NormalizedEvent] | None = None,
    ) -> list[n.NormalizedEvent]:
        """:meth:`Normalizer.handle_fast`, its transcript swept only when a block is
        left to tell (a call's result adds none) and the session's facts compared
        without building them twice; the events appended to ``out`` when given (the
        list returned)."""
        if out is None:
            out = []
        if not self._as_told(session):
            out.extend(super().handle_fast(session, line, when, ended))
            return out
        self.told_fast(session, line, when, ended, out)
        return out

    def tell_fast(
        self,
        session: Session,
        line: int,
        when: int | None,
        ended: str | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        """:meth:`handle_fast` for a line :func:`feed_fast` applied to ``session``, the
        newest, with the facts of the session last found as told remembered: a fast
        record that names no other session changes none of them (the long way may:
        :func:`feed_fast` forgets them then, and at each chunk's start)."""
        if session is self.told_session and session.session_id == self.told_id:
            self.told_fast(session, line, when, ended, out)
        elif self._as_told(session):
            self.told_session, self.told_id = session, session.session_id
            self.told_fast(session, line, when, ended, out)
        else:
            self.told_session = None
            self.handle_fast(session, line, when, ended, out)

    def _told(
        self,
        session: Session,
        event: AnyEvent | None,
        line: int,
        when: int | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        """:meth:`Normalizer._told` for a line of the long way: the session's facts
        compared field by field, as told (not built to be compared), and its transcript
        swept only when it has a block not yet told whole."""
        index = session.index
        facts = self._facts
        if index < len(facts):
            told = facts[index]
            if (
                told[0] == session.session_id
                and told[2] == session.model
                and told[3] == session.cwd
                and told[4] == session.permission_mode
                and told[1] == (session.agent or self._agent())
            ):
                if self._settled.get(index, 0) < len(session.blocks):
                    self._sweep(session, event, line, when, out)
                return
        super()._told(session, event, line, when, out)

    def told_fast(
        self,
        session: Session,
        line: int,
        when: int | None,
        ended: str | None,
        out: list[n.NormalizedEvent],
    ) -> None:
        """:meth:`handle_fast` for ``session``, the newest, whose facts are as told: the
        blocks the line added told one by one while each is what most lines add (a
        call's start, a block told whole that no delta told, the close of a block
        told in deltas), the rest by :meth:`_sweep`; then the call ``ended`` ends."""
        index = session.index
        blocks = session.blocks
        count = len(blocks)
        settled = self._settled
        position = settled.get(index, 0)
        if position < count:
            shown_of = self._shown
            append = out.append
            while position < count:
                block = blocks[position]
                kind = block.kind
                if kind == TOOL:
                    call_index = block.call_index
                    if call_index is None or (index, call_index) in self._started:
                        break
                    # Settled at once: _started is only asked of blocks not settled.
                    tell.start(index, session.tool_calls[call_index], line, when, out)
                elif kind in (TEXT, THINKING):
                    if block.open:
                        break
                    shown = shown_of.get((index, position))
                    if shown is None:  # told whole, at once: no delta told it
                        text = block.text
                        thinking = kind == THINKING
                        if text:
                            append(tell.delta(thinking, index, position, text, line, when))
                        append(tell.done(thinking, index, position, text, False, line, when))
                    elif shown.finished:
                        del shown_of[(index, position)]
                    elif shown.revision == block.revision and shown.deltas == block.deltas:
                        text = block.text  # told in deltas, all of them: its end
                        corrected = shown.corrected
                        append(
                            tell.done(
                                kind == THINKING, index, position, text, corrected, line, when
                            )
                        )
                        del shown_of[(index, position)]
                    else:
                        break
                position += 1
            settled[index] = position
            if position < count:
                self._sweep(session, None, line, when, out)
        if ended is not None:
            call = session.calls_by_id.get(ended)
            if call is not None and call.status != RUNNING:
                self._end_call(session, call, line, when, out)

    def _still_told(self, session: Session) -> bool:
        """:meth:`_as_told`, from what :meth:`tell_fast` last found when ``session`` is
        still that newest session under the same id (the facts a fast record cannot
        change): a block's first delta and its close ask it, and comparing the facts
        asked the dialect's name through two calls."""
        if (
            session is self.told_session
            and session.session_id == self.told_id
            and self.state.sessions[-1] is session
        ):
            return True
        return self._as_told(session)

    def _as_told(self, session: Session) -> bool:
        """Whether ``session``, the newest, was announced and its facts are as told."""
        index = session.index
        facts = self._facts
        if self.state.sessions[-1] is not session or index >= len(facts):
            return False
        told = facts[index]  # compared field by field, as _facts builds them
        return (
            told[0] == session.session_id
            and told[2] == session.model
            and told[3] == session.cwd
            and told[4] == session.permission_mode
            and told[1] == (session.agent or self._agent())
        )
