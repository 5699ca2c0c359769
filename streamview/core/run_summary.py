"""A run's end, summed up: what the viewer's summary screen shows and the exports begin with.

:func:`run_summary` is a pure function of the fold's state: the outcome and how long the
run took, the files it changed with their +/- lines, the commands it ran with their exit
status, the calls that failed or were refused, the tokens it used and what it cost. The
text in it is the stream's, as the fold holds it: each surface makes it safe its own way
(``safe_text`` in the viewer, escaping in the exports).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamview.core.tools as tools
from streamview.core.formatting import counted, format_duration
from streamview.core.model import INCOMPLETE, RUNNING, Session
from streamview.core.state import StreamState, ToolCall
from streamview.core.usage import normalized_usage

CHANGING_KINDS = frozenset({"edit", "write", "delete"})
"""Tool kinds whose target is a file the run changed."""
FAILED_STATUSES = frozenset({tools.FAILED, tools.ERROR, tools.REJECTED, tools.INTERRUPTED})
"""Statuses the summary counts as a call that failed or was refused."""
_TOKEN_LABELS = (
    ("input_tokens", "in"),
    ("output_tokens", "out"),
    ("cache_read_tokens", "cache read"),
    ("cache_write_tokens", "cache write"),
    ("reasoning_tokens", "reasoning"),
)


@dataclass(frozen=True)
class FileChange:
    """One file the run changed, its calls added up."""

    path: str
    """Relative to the session's directory when it lies below it."""
    added: int | None
    """Lines added, ``None`` when no call on it said."""
    removed: int | None
    """Lines removed, ``None`` when no call on it said."""
    calls: int
    """Edit, write and delete calls on it."""
    kinds: tuple[str, ...]
    """Those calls' kinds, each once, in first-seen order."""


@dataclass(frozen=True)
class CallRef:
    """A tool call the summary names: a command, a failure."""

    session: int
    """0-based index of its session."""
    index: int
    """0-based index of the call in its session."""
    kind: str
    target: str | None
    status: str
    summary: str | None
    exit_code: int | None
    duration_ms: int | None


@dataclass(frozen=True)
class RunSummary:
    """What a finished (or running) run comes to."""

    outcome: str
    """The last session's ``success``, ``error``, ``incomplete`` or ``running``."""
    message: str | None
    """What the run said of its end: an error's message, why it is incomplete."""
    duration_ms: int | None
    """The agent's own figure summed over sessions, else the span of event times."""
    sessions: int
    calls: int
    files: tuple[FileChange, ...]
    commands: tuple[CallRef, ...]
    failed: tuple[CallRef, ...]
    """Calls that failed, errored, were refused or interrupted, in order."""
    tokens: dict[str, int | None]
    """Normalized token counts (``input_tokens``...) summed over sessions; ``None``
    where no session said."""
    cost_usd: float | None

    @property
    def added(self) -> int:
        """Lines added over every file."""
        return sum(change.added or 0 for change in self.files)

    @property
    def removed(self) -> int:
        """Lines removed over every file."""
        return sum(change.removed or 0 for change in self.files)

    def usage_text(self) -> str:
        """``34,214 in · 600 out · 104,196 cache read · $0.1250``; ``""`` when unknown."""
        parts = [
            f"{self.tokens[name]:,} {label}"
            for name, label in _TOKEN_LABELS
            if self.tokens.get(name)
        ]
        if self.cost_usd is not None:
            parts.append(f"${self.cost_usd:.4f}")
        return " · ".join(parts)

    def headline(self) -> str:
        """``success in 4.2s · 12 calls · 2 failed · 3 files +40 -7``: one line."""
        parts = [
            self.outcome
            + (f" in {format_duration(self.duration_ms)}" if self.duration_ms is not None else "")
        ]
        parts.append(counted(self.calls, "call"))
        if self.failed:
            parts.append(f"{len(self.failed):,} failed or refused")
        if self.files:
            parts.append(f"{counted(len(self.files), 'file')} +{self.added:,} -{self.removed:,}")
        if self.sessions > 1:
            parts.append(counted(self.sessions, "session"))
        return " · ".join(parts)


@dataclass
class _Tally:
    added: int | None = None
    removed: int | None = None
    calls: int = 0
    kinds: list[str] = field(default_factory=list)


def call_ref(session: Session, call: ToolCall) -> CallRef:
    """What a summary keeps of one call (its list rows and the CI summary's table)."""
    return CallRef(
        session.index,
        call.index,
        call.kind,
        call.target,
        call.status,
        call.summary,
        call.exit_code,
        call.duration_ms,
    )


def _add(total: int | None, value: int | None) -> int | None:
    return value if total is None else total + (value or 0)


def _session_duration(session: Session) -> int | None:
    if session.outcome.duration_ms is not None:
        return session.outcome.duration_ms
    first, last = session.first_time_ms, session.last_time_ms
    return last - first if first is not None and last is not None and last >= first else None


def run_summary(state: StreamState) -> RunSummary:
    """Sum up a folded stream: every session's calls, usage and time.

    Args:
        state: The fold, finished or not (a live run's summary says ``running``).
    """
    files: dict[str, _Tally] = {}
    commands: list[CallRef] = []
    failed: list[CallRef] = []
    tokens: dict[str, int | None] = dict.fromkeys(normalized_usage(None))
    cost: float | None = None
    duration: int | None = None
    calls = 0
    for session in state.sessions:
        calls += len(session.tool_calls)
        for call in session.tool_calls:
            if call.kind in CHANGING_KINDS and call.target:
                path = tools.relative_path(call.target, session.cwd)
                tally = files.setdefault(path, _Tally())
                tally.added = _add(tally.added, call.lines_added)
                tally.removed = _add(tally.removed, call.lines_removed)
                tally.calls += 1
                if call.kind not in tally.kinds:
                    tally.kinds.append(call.kind)
            if call.kind == "shell":
                commands.append(call_ref(session, call))
            if call.status in FAILED_STATUSES:
                failed.append(call_ref(session, call))
        for name, value in normalized_usage(session.outcome.usage).items():
            tokens[name] = _add(tokens[name], value)
        if session.outcome.cost_usd is not None:
            cost = (cost or 0.0) + session.outcome.cost_usd
        duration = _add(duration, _session_duration(session))
    last = state.sessions[-1] if state.sessions else None
    outcome = last.outcome.status if last is not None else (INCOMPLETE if state.ended else RUNNING)
    message = last.outcome.message if last is not None else None
    if last is not None and outcome == INCOMPLETE and not message:
        message = "the stream ended without a result"
    return RunSummary(
        outcome=outcome,
        message=message,
        duration_ms=duration,
        sessions=len(state.sessions),
        calls=calls,
        files=tuple(
            FileChange(path, t.added, t.removed, t.calls, tuple(t.kinds))
            for path, t in files.items()
        ),
        commands=tuple(commands),
        failed=tuple(failed),
        tokens=tokens,
        cost_usd=cost,
    )
