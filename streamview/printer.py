"""``--print``: one readable line per thing that happens, as it happens.

Like the CLI's own text mode, but it says what the agent did: the session, the
prompt, the answer as it grows (whole lines at a time), each tool call when it starts
and when it ends, and the outcome. Nothing from the stream is written raw: every
string goes through :func:`streamview.core.sanitize.clean`.
"""

from __future__ import annotations

from typing import TextIO

from streamview.core import tools
from streamview.core.events import (
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
from streamview.core.sanitize import clean, one_line
from streamview.core.state import INCOMPLETE, Block, Session, StreamState, ToolCall

STATUS_MARK = {
    tools.RUNNING: "…",
    tools.SUCCEEDED: "✓",
    tools.FAILED: "✗",
    tools.REJECTED: "⊘",
    tools.ERROR: "!",
    tools.COMPLETED: "•",
    tools.INTERRUPTED: "⚠",
}


def format_duration(ms: int | None) -> str:
    """``850ms``, ``4.2s``, ``3m05s``, ``1h02m``; ``""`` when unknown."""
    if ms is None:
        return ""
    if ms < 1000:
        return f"{ms}ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, second = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{second:02d}s"
    hours, minute = divmod(minutes, 60)
    return f"{hours}h{minute:02d}m"


def format_usage(usage: dict[str, object] | None) -> str:
    """``7,120 in · 354 out · 36,864 cached`` from a ``usage`` object."""
    if not usage:
        return ""
    parts = []
    for key, label in (
        ("inputTokens", "in"),
        ("outputTokens", "out"),
        ("cacheReadTokens", "cache read"),
        ("cacheWriteTokens", "cache write"),
    ):
        value = usage.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and (value or key[0] != "c"):
            parts.append(f"{value:,} {label}")
    return " · ".join(parts)


def describe_call(call: ToolCall, limit: int = 120) -> str:
    """``shell `pytest -x` `` / ``read src/app.py``: kind and target, one line."""
    target = one_line(call.target, limit) if call.target else ""
    if call.kind == "shell" and target:
        target = f"`{target}`"
    return f"{one_line(call.kind, 60)} {target}".rstrip()


class Printer:
    """Write one line per happening of a stream to a text file.

    Args:
        out: Where to write (stdout, usually).
        state: The state the events are applied to; the printer reads it for context.
    """

    def __init__(self, out: TextIO, state: StreamState) -> None:
        self.out = out
        self.state = state
        self._printed: dict[int, str] = {}
        """Per open text block (by id): what has been written of it so far."""
        self._pending: dict[int, str] = {}
        self._thinking: dict[int, str] = {}
        self._announced: int | None = None
        """Index of the last session whose header was printed."""

    def write(self, line: str) -> None:
        """Write one line (already clean)."""
        self.out.write(line + "\n")

    def handle(self, event: AnyEvent, session: Session | None) -> None:
        """Print what ``event`` (already applied to the state) means."""
        if isinstance(event, MalformedLine):
            self.write(f"?? line {event.line}: {event.reason}: {one_line(event.text, 160)}")
            return
        assert session is not None
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
            self._text(session)
        elif isinstance(event, ThinkingDelta | ThinkingCompleted):
            self._thinking_lines(session, final=isinstance(event, ThinkingCompleted))
        elif isinstance(event, ToolCallEvent):
            self._flush_blocks(session)
            call = session.calls_by_id.get(event.call_id)
            if call is not None:
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
        elif isinstance(event, UnknownRecord):
            name = one_line(event.type) + (f"/{one_line(event.subtype)}" if event.subtype else "")
            self.write(f"?? line {event.line}: unknown record {name}")

    def finish(self) -> None:
        """After :meth:`StreamState.finish`: flush text, report interrupted calls and sessions."""
        for session in self.state.sessions:
            self._flush_blocks(session)
            for call in session.tool_calls:
                if call.status == tools.INTERRUPTED:
                    self.write(f"{STATUS_MARK[call.status]} {describe_call(call)} · interrupted")
            if session.outcome.status == INCOMPLETE:
                self._outcome(session)

    def _session(self, session: Session) -> None:
        parts = [f"session {one_line(session.session_id or '?', 40)}"]
        for value in (session.model, session.cwd, session.permission_mode, session.api_key_source):
            if value:
                parts.append(one_line(value, 120))
        self.write("== " + " · ".join(parts))

    def _text(self, session: Session) -> None:
        for block in session.blocks[-3:]:
            if block.kind == "text":
                self._emit_text(block)

    def _emit_text(self, block: Block) -> None:
        key = id(block)
        printed = self._printed.get(key, "")
        text = block.text
        if not text.startswith(printed):
            # A recap or flush corrected what the deltas said: show the corrected text.
            self.write("   (corrected)")
            printed = ""
        fresh = text[len(printed) :]
        if block.open:
            cut = fresh.rfind("\n")
            if cut < 0:
                return
            fresh = fresh[: cut + 1]
        if fresh:
            for line in clean(fresh).rstrip("\n").split("\n"):
                self.write(f"   {line}")
            self._printed[key] = printed + fresh
        if not block.open:
            self._printed[key] = text

    def _thinking_lines(self, session: Session, final: bool) -> None:
        for block in session.blocks[-3:]:
            if block.kind != "thinking":
                continue
            key = id(block)
            printed = self._thinking.get(key, "")
            text = block.text
            fresh = text[len(printed) :]
            if block.open and not final:
                cut = fresh.rfind("\n")
                if cut < 0:
                    continue
                fresh = fresh[: cut + 1]
            for line in clean(fresh).strip("\n").split("\n"):
                if line.strip():
                    self.write(f"  ~ {line}")
            self._thinking[key] = printed + fresh

    def _flush_blocks(self, session: Session) -> None:
        for block in session.blocks:
            if block.kind == "text" and self._printed.get(id(block)) != block.text:
                saved_open = block.open
                block.open = False
                self._emit_text(block)
                block.open = saved_open
            elif block.kind == "thinking" and self._thinking.get(id(block)) != block.text:
                self._thinking_lines(session, final=True)

    def _call(self, call: ToolCall, completed: bool) -> None:
        if not completed:
            self.write(f"-> {describe_call(call)}")
            return
        parts = [f"{STATUS_MARK.get(call.status, '•')} {describe_call(call)}", call.status]
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
            extra = f", {open_calls} call(s) interrupted" if open_calls else ""
            self.write(f"!! incomplete: stream ended without a result{extra}")
            return
        parts = [f"== {outcome.status}"]
        duration = format_duration(outcome.duration_ms)
        if duration:
            parts.append(f"in {duration}")
        usage = format_usage(outcome.usage)
        if usage:
            parts.append(usage)
        answered = any(b.kind == "text" and b.text.strip() for b in session.blocks)
        if not answered and outcome.result:
            # No assistant record (``--output-format json``): the result is the answer.
            for line in clean(outcome.result).rstrip("\n").split("\n"):
                self.write(f"   {line}")
        self.write(" · ".join(parts))
