"""``--print``: one readable line per thing that happens, as it happens.

Like the CLI's own text mode, but it says what the agent did: the session, the
prompt, the answer as it grows (whole lines at a time), each tool call when it starts
and when it ends, and the outcome. Nothing from the stream is written raw: every
string goes through :func:`streamview.core.sanitize.clean`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import msgspec

from streamview.core import tools
from streamview.core.dialects import label_of
from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    MalformedLine,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.formatting import (
    STATUS_MARK,
    describe_call,
    format_duration,
    format_offset,
    format_usage,
)
from streamview.core.sanitize import clean, one_line
from streamview.core.state import INCOMPLETE, RUNNING, Block, Session, StreamState, ToolCall


class Output(Protocol):
    """Where the printer writes: a text file, or a guard around one
    (:class:`streamview.cli.output.GuardedOutput`)."""

    def write(self, text: str, /) -> int:
        """Write ``text``."""
        ...

    def flush(self) -> None:
        """Hand what was written on."""
        ...


class _Shown(msgspec.Struct):
    """How much of one text or thinking block has been printed.

    Kept in pieces so that a growing block costs the printer the size of each delta,
    not the size of the whole block again and again.
    """

    revision: int
    """The block's ``revision`` when this was last brought up to date."""
    deltas: int
    """The block's ``deltas`` count then: one more means one more delta appended."""
    printed: list[str] = msgspec.field(default_factory=list)
    pending: list[str] = msgspec.field(default_factory=list)
    """Appended after ``printed``, not written yet (no line end so far)."""
    finished: bool = False
    """The block is closed and everything of it has been written."""


class Printer:
    """Write one line per happening of a stream to a text file.

    Args:
        out: Where to write (stdout, usually).
        state: The state the events are applied to; the printer reads it for context.
    """

    def __init__(self, out: Output, state: StreamState, times: bool = False) -> None:
        self.out = out
        self.state = state
        self.times = times
        """Start each line with the time since its session started (``--time``)."""
        self._shown: dict[int, _Shown] = {}
        """Per text or thinking block (by id): what has been written of it so far."""
        self._settled: dict[int, int] = {}
        """Per session (by index): blocks before this position need no more writing."""
        self._announced: int | None = None
        """Index of the last session whose header was printed."""

    def write(self, line: str) -> None:
        """Write one line (already clean), after its time when asked for (``+1:23``)."""
        if self.times:
            session = self.state.current
            start = session.first_time_ms if session is not None else None
            now = self.state.last_event_ms
            offset = format_offset(now - start) if start is not None and now is not None else ""
            line = f"{offset:>7} {line}"
        self.out.write(line + "\n")

    def handle(self, event: AnyEvent, session: Session | None) -> None:
        """Print what ``event`` (already applied to the state) means."""
        if isinstance(event, MalformedLine):
            self.write(f"?? line {event.line}: {event.reason}: {one_line(event.text, 160)}")
            return
        assert session is not None
        if isinstance(event, AgentNotice | UnknownRecord) or (
            isinstance(event, SessionStarted) and event.inferred
        ):
            # Printed under the session the next record announces: hooks before an
            # init belong to the session it opens, not to one of their own.
            self._aside(event, session)
            return
        if isinstance(event, ThinkingCompleted) and session.index != self._announced:
            # Nothing to print (a dialect's record of the CLI's own state, read and
            # quiet): it must not announce a session its init is still to name.
            return
        if session.index != self._announced:
            # A new session_id starts a session without system/init: announce it too.
            self._announced = session.index
            if not isinstance(event, SessionStarted):
                self._session(session)
        if isinstance(event, SessionStarted):
            self._session(session)
        elif isinstance(event, PromptSubmitted):
            self._flush_blocks(session)
            self.write(f"> {one_line(event.text, 400)}")
        elif isinstance(event, AssistantMessage):
            if not self._grew(session.open_text, event.text, self._write_text):
                self._text(session)
        elif isinstance(event, ThinkingDelta):
            if not self._grew(session.open_thinking, event.text, self._write_thinking):
                self._thinking_lines(session, final=False)
        elif isinstance(event, ThinkingCompleted):
            self._thinking_lines(session, final=True)
        elif isinstance(event, ToolCallEvent):
            self._flush_blocks(session)
            call = session.calls_by_id.get(event.call_id)
            # A result the fold dropped (its dialect ignores a repeat) ended no call.
            if call is not None and (not event.completed or call.completed_line == event.line):
                self._call(call, event.completed)
        elif isinstance(event, ConnectionNotice):
            self.write(
                f"~~ {one_line(event.type)}/{one_line(event.subtype)}"
                + (f" attempt {event.attempt}" if event.attempt is not None else "")
                + (f": {one_line(event.detail)}" if event.detail else "")
            )
        elif isinstance(event, RunResult):
            self._flush_blocks(session)
            self._outcome(session)

    def _aside(self, event: AnyEvent, session: Session) -> None:
        """What the agent says about its own work, an unknown record, or a fact the
        stream gives outside its ``init`` (a model first named by a message)."""
        if isinstance(event, UnknownRecord):
            name = one_line(event.type) + (f"/{one_line(event.subtype)}" if event.subtype else "")
            self.write(f"?? line {event.line}: unknown record {name}")
        elif isinstance(event, AgentNotice):
            if not event.chatter:
                self.write(f"~~ {one_line(event.text, 240)}")
        elif isinstance(event, SessionStarted) and event.model and self._announced == session.index:
            self.write(f"== model {one_line(event.model, 120)}")  # the header lacked it

    def finish(self) -> None:
        """After :meth:`StreamState.finish`: flush text, report interrupted calls, and the
        outcome of each session no record ended."""
        for session in self.state.sessions:
            self._flush_blocks(session)
            for call in session.tool_calls:
                if call.status == tools.INTERRUPTED:
                    self.write(f"{STATUS_MARK[call.status]} {describe_call(call)} · interrupted")
            outcome = session.outcome
            if outcome.line is None and outcome.status != RUNNING:
                # No record told it: the stream ended (incomplete), or the agent's
                # runs end without one and this one's last turn was whole.
                self._outcome(session)

    def _session(self, session: Session) -> None:
        parts = [f"session {one_line(session.session_id or '?', 40)}"]
        if session.agent is not None:
            parts.append(one_line(label_of(session.agent) or session.agent or "", 40))
        for value in (session.model, session.cwd, session.permission_mode, session.api_key_source):
            if value:
                parts.append(one_line(value, 120))
        self.write("== " + " · ".join(parts))

    def _text(self, session: Session) -> None:
        for block in session.blocks[-3:]:
            if block.kind == "text":
                self._emit(block, self._write_text, final=not block.open, corrections=True)

    def _thinking_lines(self, session: Session, final: bool) -> None:
        for block in session.blocks[-3:]:
            if block.kind == "thinking":
                self._emit(block, self._write_thinking, final=final or not block.open)

    def _write_text(self, fresh: str) -> None:
        for line in clean(fresh).rstrip("\n").split("\n"):
            self.write(f"   {line}")

    def _write_thinking(self, fresh: str) -> None:
        for line in clean(fresh).strip("\n").split("\n"):
            if line.strip():
                self.write(f"  ~ {line}")

    def _grew(self, block: Block | None, piece: str, writer: Callable[[str], None]) -> bool:
        """Print what one delta added to an open block, without re-reading the block.

        Returns:
            ``False`` when the event did not just append ``piece`` to a block already
            being printed (a recap, a flush, a new block): the caller compares the
            whole block instead.
        """
        if block is None or not block.open:
            return False
        shown = self._shown.get(id(block))
        if shown is None or shown.revision != block.revision or block.deltas != shown.deltas + 1:
            return False
        shown.deltas = block.deltas
        shown.pending.append(piece)
        if "\n" not in piece:
            return True
        waiting = "".join(shown.pending)
        cut = waiting.rfind("\n") + 1
        writer(waiting[:cut])
        shown.printed.append(waiting[:cut])
        shown.pending = [waiting[cut:]] if cut < len(waiting) else []
        return True

    def _emit(
        self,
        block: Block,
        writer: Callable[[str], None],
        final: bool,
        corrections: bool = False,
    ) -> None:
        """Print what is new in ``block``: whole lines while it is open, all when final."""
        key = id(block)
        shown = self._shown.get(key)
        if shown is not None and shown.finished:
            return
        printed = "".join(shown.printed) if shown is not None else ""
        text = block.text
        if not text.startswith(printed):
            if corrections:
                # A recap or flush corrected what the deltas said: show the corrected text.
                self.write("   (corrected)")
            printed = ""
        fresh = text[len(printed) :]
        if not final:
            fresh = fresh[: fresh.rfind("\n") + 1]
        if fresh:
            writer(fresh)
        done = printed + fresh
        self._shown[key] = _Shown(
            revision=block.revision,
            deltas=block.deltas,
            printed=[done],
            pending=[text[len(done) :]] if len(done) < len(text) else [],
            finished=final and not block.open,
        )

    def _flush_blocks(self, session: Session) -> None:
        """Write what is left of every block, from the first one not yet settled."""
        blocks = session.blocks
        settled = True
        for position in range(self._settled.get(session.index, 0), len(blocks)):
            block = blocks[position]
            if block.kind in ("text", "thinking"):
                shown = self._shown.get(id(block))
                if shown is None or not shown.finished:
                    writer = self._write_text if block.kind == "text" else self._write_thinking
                    self._emit(block, writer, final=True, corrections=block.kind == "text")
                    shown = self._shown[id(block)]
                settled = settled and shown.finished
            if settled:
                # Blocks are only appended, and a finished one never changes again.
                self._settled[session.index] = position + 1

    def _call(self, call: ToolCall, completed: bool) -> None:
        # A subagent's call is indented under the task call it was made for.
        nest = "   " if call.parent_call_id else ""
        if not completed:
            self.write(f"{nest}-> {describe_call(call)}")
            return
        parts = [f"{nest}{STATUS_MARK.get(call.status, '•')} {describe_call(call)}", call.status]
        if call.summary and call.summary != call.status:
            parts.append(one_line(call.summary, 160))
        duration = format_duration(call.duration_ms)
        if duration:
            parts.append(duration)
        self.write(" · ".join(parts))

    def _outcome(self, session: Session) -> None:
        outcome = session.outcome
        if outcome.status == INCOMPLETE:
            open_calls = sum(1 for c in session.tool_calls if c.status == tools.INTERRUPTED)
            noun = "call" if open_calls == 1 else "calls"
            extra = f", {open_calls} {noun} interrupted" if open_calls else ""
            said = one_line(outcome.message, 200) if outcome.message else ""
            self.write(f"!! incomplete: {said or 'stream ended without a result'}{extra}")
            return
        parts = [f"== {outcome.status}"]
        duration = format_duration(outcome.duration_ms)
        if duration:
            parts.append(f"in {duration}")
        usage = format_usage(outcome.usage)
        if usage:
            parts.append(usage)
        if outcome.num_turns is not None:
            parts.append(f"{outcome.num_turns} turn{'s' if outcome.num_turns != 1 else ''}")
        if outcome.cost_usd is not None:
            parts.append(f"${outcome.cost_usd:.4f}")
        if outcome.message and outcome.message != outcome.result:
            parts.append(one_line(outcome.message, 200))
        answered = any(b.kind == "text" and b.text.strip() for b in session.blocks)
        if not answered and outcome.result:
            # No assistant record (``--output-format json``): the result is the answer.
            for line in clean(outcome.result).rstrip("\n").split("\n"):
                self.write(f"   {line}")
        self.write(" · ".join(parts))
