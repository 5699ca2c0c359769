"""The normalized events of one block or tool call, built from what the fold holds:
what :class:`~streamview.core.normalizer.Normalizer` and its fast path
(:mod:`streamview.core.event_fast`) tell alike."""

from __future__ import annotations

import streamview.core.normalized as n
from streamview.core import tools
from streamview.core.events import JSONObject
from streamview.core.model import ToolCall
from streamview.core.shared_kinds import OTHER, SHARED_KINDS

HEAVY_ARGS = frozenset(("edit", "write"))
"""Tools whose arguments hold a whole file: let go once the call's start is told."""
VERSION = n.VERSION
"""Every event's ``v``, given: a struct whose every field is given fills in no default
(msgspec: ~10 % of a small event's construction)."""
LET_GO: JSONObject = {}
"""A told call's arguments, let go: one empty dict, never changed (the fold replaces a
call's ``args``, never fills them in place)."""


def delta(
    thinking: bool, session: int, block: int, text: str, line: int | None, when: int | None
) -> n.TextDelta | n.ThinkingDelta:
    """Text appended to a block of the answer or of the reasoning."""
    kind = n.ThinkingDelta if thinking else n.TextDelta
    return kind(v=VERSION, line=line, time_ms=when, session=session, block=block, text=text)


def done(
    thinking: bool,
    session: int,
    block: int,
    text: str,
    corrected: bool,
    line: int | None,
    when: int | None,
) -> n.TextDone | n.ThinkingDone:
    """A block of the answer or of the reasoning is complete."""
    kind = n.ThinkingDone if thinking else n.TextDone
    return kind(
        v=VERSION,
        line=line,
        time_ms=when,
        session=session,
        block=block,
        text=text,
        corrected=corrected,
    )


def start(
    session: int, call: ToolCall, line: int | None, when: int | None, out: list[n.NormalizedEvent]
) -> None:
    """Tell a call's start. An edit's or a write's arguments are let go (a whole file,
    while the call runs): the fold reads them again only if others come. A call's other
    arguments stay until its end is told: a result that brings the same again
    (Cursor's) is then the fold's plain case, not a call to target again."""
    name = call.kind
    out.append(
        n.ToolStart(
            v=VERSION,
            line=line if call.started_line is None else call.started_line,
            time_ms=when,
            session=session,
            call=call.index,
            call_id=call.call_id,
            kind=SHARED_KINDS.get(name, OTHER),  # shared_kind, without its call
            name=name,
            target=call.target,
            parent_call_id=call.parent_call_id,
        )
    )
    if name in HEAVY_ARGS and call.target is not None:
        call.args = LET_GO


def end(
    session: int, call: ToolCall, line: int | None, when: int | None, out: list[n.NormalizedEvent]
) -> None:
    """Tell a call's end; its arguments are let go (the fold's target stays)."""
    status = call.status
    name = call.kind
    out.append(
        n.ToolEnd(
            v=VERSION,
            line=line,
            time_ms=when,
            session=session,
            call=call.index,
            call_id=call.call_id,
            kind=SHARED_KINDS.get(name, OTHER),  # shared_kind, without its call
            name=name,
            target=call.target,
            parent_call_id=call.parent_call_id,
            status=status if status in tools.STATUSES else tools.COMPLETED,  # type: ignore[arg-type]
            summary=call.summary,
            duration_ms=call.duration_ms,
        )
    )
    if call.target is not None:
        call.args = LET_GO
