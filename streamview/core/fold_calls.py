"""The part of the fold that correlates tool calls: a call's start and its result,
paired by ``call_id``, and the approval or question that concerns it.

A call opens a ``TOOL`` block in the transcript where it started; its record in
:attr:`~streamview.core.model.Session.tool_calls` gathers what later records say of it
(arguments, target, outcome, timing). A result seen again for a finished call follows
:mod:`~streamview.core.repeated_results`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamview.core.approvals as approvals
import streamview.core.repeated_results as repeated_results
import streamview.core.tools as tools
from streamview.core.events import InteractionQuery, JSONObject, ToolCallEvent
from streamview.core.model import LEAN_TOOL_BLOCK, TOOL, Block, Changes, Session, ToolCall
from streamview.core.tools import REJECTED, RUNNING, Said

_NO_ARGS: JSONObject = {}  # a compact state's finished calls' arguments: never changed
NO_PARTS: list[str] = []
"""Every tool block's ``parts``, shared, never grown (56 bytes a call: 32 MB in 2 GB)."""
SHARED_STRINGS = 1 << 16
"""Targets and summaries kept to share, by a lean fold, ``--json``'s spill and the
viewer's release of arguments (a dict entry costs about 40 bytes: 3 MB at most)."""


class CallFold:
    """:class:`~streamview.core.state.StreamState`'s handlers of tool calls (a mixin)."""

    _track: bool
    _compact: bool
    _lean: bool
    """Compact and tracking no changes (``--json``): a call is made as ``--json`` keeps it
    (:meth:`_settle`), its block the shared :data:`~.model.LEAN_TOOL_BLOCK`."""
    _strings: dict[str, str]
    """A lean fold's one copy of each finished call's target and summary seen (up to
    :data:`SHARED_STRINGS`): the same file read again and again, ``exit 0``."""
    _changes: Changes
    _close_text: Callable[[Session], None]
    _close_thinking: Callable[[Session], None]
    _touch_transcript: Callable[[Session], None]

    def _on_tool(self, session: Session, event: ToolCallEvent) -> None:
        self._tool(
            session,
            event.line,
            event.timestamp_ms,
            event.recv_ms,
            event.completed,
            event.call_id,
            event.kind,
            event.args,
            event.outcome,
            event.payload,
            event.model_call_id,
            event.started_at_ms,
            event.completed_at_ms,
            event.description,
            event.parent_call_id,
        )

    def _tool(
        self,
        session: Session,
        line: int,
        timestamp_ms: int | None,
        recv_ms: int | None,
        completed: bool,
        call_id: str,
        kind: str,
        args: JSONObject | None,
        outcome: str | None,
        payload: Any,
        model_call_id: str | None,
        started_at_ms: int | None,
        completed_at_ms: int | None,
        description: str | None,
        parent_call_id: str | None = None,
    ) -> None:
        """The rules of :meth:`_on_tool`, from the event's fields."""
        call = session.calls_by_id.get(call_id)
        if call is not None and call.completed_line is not None:  # a repeat: its rule
            call = repeated_results.call_for(session, call_id, completed)
            if call is repeated_results.IGNORED:
                return
        retarget = False
        if call is None:
            if session.open_text is not None:
                self._close_text(session)
            if session.open_thinking is not None:
                self._close_thinking(session)
            calls = session.tool_calls
            if self._lean:
                call = ToolCall(0, call_id, kind)
                session.blocks.append(LEAN_TOOL_BLOCK)
            else:
                call = ToolCall(len(calls), call_id, kind)
                session.blocks.append(Block(TOOL, line, NO_PARTS, call_index=call.index))
            calls.append(call)
            session.calls_by_id[call_id] = call
            if session.pending_approval:
                approval = session.pending_approval.pop(call_id, None)
                if approval is not None:
                    call.approval = approval
            self._touch_transcript(session)
        elif call.kind == "unknown" and kind != "unknown":
            call.kind, retarget = kind, True
        if args is not None:  # the same args again (a start, then its result): same target
            retarget = retarget or not args or args != call.args
            call.args = args
        elif call.args is None:
            call.args = session.pending_args.pop(call_id, None)
        if retarget or call.target is None:
            call.target = tools.target_of(call.kind, call.args)
        if not self._compact:  # what only a view shows
            call.model_call_id = call.model_call_id or model_call_id
            call.description = call.description or description
            call.parent_call_id = call.parent_call_id or parent_call_id
        if started_at_ms is not None:
            call.started_at_ms = started_at_ms
        if completed:
            call.completed_line = line
            call.completed_at_ms = completed_at_ms or call.completed_at_ms
            call.end_ts = timestamp_ms
            call.end_recv = recv_ms
            call.complete(outcome, payload)
            if call.status == tools.REJECTED and call.approval and call.summary == "rejected":
                call.summary = call.approval
            if self._compact and call.target is not None:
                # Later records only recompute the target when they bring new args.
                call.args = _NO_ARGS
            if self._lean:
                self._settle(call)
        else:
            if not self._lean:  # a lean fold keeps no line numbers
                call.started_line = line
            call.start_ts = timestamp_ms
            call.start_recv = recv_ms
        if self._track:
            self._changes.calls.add((session.index, call.index))

    def _call_record(
        self,
        session: Session,
        line: int,
        timestamp_ms: int | None,
        recv_ms: int | None,
        completed: bool,
        fields: Any,
    ) -> None:
        """A fast ``tool_call`` record's call (``fields``: the twelve of
        :data:`~.fast_path.FastRecord`, eleven without ``parent_call_id``, or thirteen
        with the call's target last, as :func:`~.tools.target_of` gives it, where the
        dialect worked it out already), by :meth:`_tool`'s rules, in one call: a new
        call with its arguments and no approval waiting (most starts), a call first
        seen completed with its arguments (opencode's), and the first result of a
        running call whose kind, arguments and target are known, bringing no arguments
        or the same again (most results), are built or finished here; a repeat, an
        approval waiting, a result that names the kind of an ``unknown`` call, one with
        other arguments or for a call without any goes :meth:`_tool`'s way."""
        size = len(fields)
        if size == 12:
            (
                _,
                _,
                call_id,
                kind,
                args,
                outcome,
                payload,
                model_call_id,
                started_at_ms,
                completed_at_ms,
                description,
                parent_call_id,
            ) = fields
        elif size == 13:  # and the target (a starred name would build a list)
            (
                _,
                _,
                call_id,
                kind,
                args,
                outcome,
                payload,
                model_call_id,
                started_at_ms,
                completed_at_ms,
                description,
                parent_call_id,
                _,
            ) = fields
        elif size == 11:  # no parent call named (Cursor's fields)
            (
                _,
                _,
                call_id,
                kind,
                args,
                outcome,
                payload,
                model_call_id,
                started_at_ms,
                completed_at_ms,
                description,
            ) = fields
            parent_call_id = None
        else:
            self._tool(session, line, timestamp_ms, recv_ms, completed, *fields[2:])
            return
        call = session.calls_by_id.get(call_id)
        if call is None and args is not None and not session.pending_approval:
            # A new call with its arguments: built in one go, started or ended.
            if session.open_text is not None:
                self._close_text(session)
            if session.open_thinking is not None:
                self._close_thinking(session)
            calls = session.tool_calls
            lean = self._lean
            index = 0 if lean else len(calls)  # a lean fold numbers no call
            compact = self._compact
            if compact:  # what only a view shows is not kept
                model_call_id = description = parent_call_id = None
            target = fields[12] if size == 13 else tools.target_of(kind, args)
            # Every field up to the last one set, in order: positional arguments are what
            # a struct takes fastest (no keyword looked up by name).
            if completed and lean and payload.__class__ is Said and payload.kind == kind:
                # As complete() and _settle() would leave it, made whole: a struct's field
                # set afterwards costs three times a slot's (no specialised __setattr__).
                strings = self._strings  # each shared as _share would (no call a string)
                summary = payload.summary
                if target is not None:
                    if len(strings) < SHARED_STRINGS:
                        target = strings.setdefault(target, target)
                    else:
                        target = strings.get(target, target)
                    args = _NO_ARGS
                if summary is not None:
                    if len(strings) < SHARED_STRINGS:
                        summary = strings.setdefault(summary, summary)
                    else:
                        summary = strings.get(summary, summary)
                added, removed, code = payload.numbers
                call = ToolCall(
                    0,
                    call_id,
                    kind,
                    args,
                    target,
                    payload.status,
                    summary,
                    outcome,
                    None,
                    None,
                    None,
                    0,
                    started_at_ms,
                    completed_at_ms or None,
                    None,
                    timestamp_ms,
                    None,
                    recv_ms,
                    None,
                    None,
                    added,
                    removed,
                    code,
                )
            elif completed:
                call = ToolCall(
                    index,
                    call_id,
                    kind,
                    args,
                    target,
                    RUNNING,
                    None,
                    None,
                    model_call_id,
                    description,
                    None,
                    0 if lean else line,
                    started_at_ms,
                    completed_at_ms or None,
                    None,
                    timestamp_ms,
                    None,
                    recv_ms,
                    None,
                    parent_call_id,
                )
                call.complete(outcome, payload)
                if compact and target is not None:
                    call.args = _NO_ARGS
                if lean:
                    self._settle(call)
            else:
                call = ToolCall(
                    index,
                    call_id,
                    kind,
                    args,
                    target,
                    RUNNING,
                    None,
                    None,
                    model_call_id,
                    description,
                    None if lean else line,
                    None,
                    started_at_ms,
                    None,
                    timestamp_ms,
                    None,
                    recv_ms,
                    None,
                    None,
                    parent_call_id,
                )
            calls.append(call)
            session.calls_by_id[call_id] = call
            session.blocks.append(
                LEAN_TOOL_BLOCK if lean else Block(TOOL, line, NO_PARTS, False, index)
            )
            if self._track:
                self._changes.transcript.add(session.index)
                self._changes.calls.add((session.index, index))
            return
        if (
            not completed
            or call is None
            or call.completed_line is not None
            or call.target is None
            or (call.kind == "unknown" and kind != "unknown")
            or (call.args is None if args is None else args != call.args)
        ):
            self._tool(
                session,
                line,
                timestamp_ms,
                recv_ms,
                completed,
                call_id,
                kind,
                args,
                outcome,
                payload,
                model_call_id,
                started_at_ms,
                completed_at_ms,
                description,
                parent_call_id,
            )
            return
        # The first result of a running call.
        if self._lean and payload.__class__ is Said and payload.kind == call.kind:
            self._lean_result(call, timestamp_ms, recv_ms, outcome, payload, started_at_ms)
            call.completed_at_ms = completed_at_ms or call.completed_at_ms
            return
        if not self._compact:  # what only a view shows
            call.model_call_id = call.model_call_id or model_call_id
            call.description = call.description or description
            call.parent_call_id = call.parent_call_id or parent_call_id
        if args is not None:  # the same args again (Cursor's; a call with a target has some)
            call.args = args
        if started_at_ms is not None:
            call.started_at_ms = started_at_ms
        call.completed_line = line
        call.completed_at_ms = completed_at_ms or call.completed_at_ms
        call.end_ts = timestamp_ms
        call.end_recv = recv_ms
        if payload.__class__ is Said and payload.kind == call.kind:
            # What ToolCall.complete takes from a summary of the call's own kind (most
            # results), without the call to it.
            call.outcome = outcome
            status = call.status = payload.status
            call.summary = payload.summary
            call.lines_added, call.lines_removed, call.exit_code = payload.numbers
        else:
            call.complete(outcome, payload)
            status = call.status
        if status == REJECTED and call.approval and call.summary == "rejected":
            call.summary = call.approval
        if self._compact:  # its target is known: later records bring new args or none
            call.args = _NO_ARGS
            if self._lean:
                self._settle(call)
        if self._track:
            self._changes.calls.add((session.index, call.index))

    def _lean_result(
        self,
        call: ToolCall,
        timestamp_ms: int | None,
        recv_ms: int | None,
        outcome: str | None,
        said: Said,
        started_at_ms: int | None,
    ) -> None:
        """:meth:`_call_record`'s first result of a running call, by a lean fold, summarised
        as the call's kind (a :class:`~.tools.Said`): the call as ``--json`` keeps it,
        only the fields that change set (a struct's field set costs three times a slot's,
        and setting one to the ``None`` it holds changes nothing)."""
        if started_at_ms is not None:
            call.started_at_ms = started_at_ms
        call.completed_line = 0  # finished (settle: no line numbers kept)
        if call.started_line is not None:
            call.started_line = None
        if timestamp_ms is not None or call.end_ts is not None:
            call.end_ts = timestamp_ms
        if recv_ms is not None or call.end_recv is not None:
            call.end_recv = recv_ms
        call.outcome = outcome
        status = call.status = said.status
        summary = said.summary
        added, removed, code = said.numbers
        if added is not None or call.lines_added is not None:
            call.lines_added = added
        if removed is not None or call.lines_removed is not None:
            call.lines_removed = removed
        if code is not None or call.exit_code is not None:
            call.exit_code = code
        if status == REJECTED and call.approval and summary == "rejected":
            summary = call.approval
        strings = self._strings
        target = call.target
        if target is not None:  # (it is: a call without one goes _tool's way)
            shared = _share(strings, target)
            if shared is not target:
                call.target = shared
        call.summary = summary if summary is None else _share(strings, summary)
        call.args = _NO_ARGS  # its target is known: later records bring new args or none

    def _settle(self, call: ToolCall) -> None:
        """A lean fold's finished call as ``--json`` keeps it (:func:`settle`)."""
        settle(call, self._strings)

    def _on_query(self, session: Session, event: InteractionQuery) -> None:
        call = approvals.apply_query(session, event)
        if call is not None and self._track:
            self._changes.calls.add((session.index, call.index))


def settle(call: ToolCall, strings: dict[str, str]) -> None:
    """A finished call as ``--json`` keeps it: no line numbers (the fold asks only
    whether it has its result: ``completed_line`` 0 says so; small ints are shared, a
    large one is 28 bytes), its target and summary shared (:func:`share_strings`)."""
    call.completed_line = 0
    call.started_line = None
    share_strings(call, strings)


def share_strings(call: ToolCall, strings: dict[str, str]) -> None:
    """``call``'s target and summary become the copy of an equal one already seen in
    ``strings`` (which keeps up to :data:`SHARED_STRINGS`): the same file read again
    and again, ``exit 0``."""
    room = len(strings) < SHARED_STRINGS  # (as _share does, without its call)
    text = call.target
    if text is not None:
        shared = strings.setdefault(text, text) if room else strings.get(text, text)
        if shared is not text:
            call.target = shared
        room = len(strings) < SHARED_STRINGS
    text = call.summary
    if text is not None:
        shared = strings.setdefault(text, text) if room else strings.get(text, text)
        if shared is not text:
            call.summary = shared


def _share(strings: dict[str, str], text: str) -> str:
    """The copy of ``text`` already in ``strings``, else ``text`` (kept there while
    ``strings`` holds fewer than :data:`SHARED_STRINGS`)."""
    if len(strings) < SHARED_STRINGS:
        return strings.setdefault(text, text)
    return strings.get(text, text)
