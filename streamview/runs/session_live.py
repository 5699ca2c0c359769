"""What each live run is doing now, kept up to date as its file grows.

The sessions list shows, for each live run, one short phrase: thinking, running a tool
(which, on what, for how long), waiting for the person, idle for a while, finished.
Each run followed here keeps a :class:`LiveState` (a few fields) and the offset it has
read to, never its blocks: each poll reads only the bytes the file grew by, parses
them with the stream's own dialect (:class:`~streamview.core.reader.EventReader`) and
folds the events into the state, so memory does not grow with the run's length (but
for the few ids a dialect keeps to pair records).

What the records allow, and no more:

- a call is running from its start to its result; a call that asks the person
  (Claude's ``AskUserQuestion`` and ``ExitPlanMode``, Codex's ``request_user_input``,
  Gemini's ``ask_user``...) or an approval asked and not answered (Cursor's
  ``interaction_query``) is *waiting for the person*. A permission prompt that the
  file does not record (Claude Code writes nothing until the call's result) is not
  guessed: the call shows as running (Codex keeps its approval requests out of the
  rollout too: ``should_persist_event_msg`` in ``codex-rs/core/src/rollout/policy.rs``);
- a prompt, a thought, an answer or a call's end with no call open: *thinking*, until
  the file has been quiet :data:`IDLE_SECONDS`, then *idle* for as long as it has;
- the end of a turn (Claude's ``turn_duration``, Codex's ``task_complete``, a headless
  ``result``): *finished* ✓, or ✗ when it says it failed or was stopped.

Session files are written in bursts: a torn last line is left for the next poll (the
offset stays before it); a file that shrinks or is replaced is read again from its
tail; Gemini CLI's older whole-file JSON, rewritten on every change, is read whole and
only the messages that are new or changed are folded (so nothing counts twice).

No UI library is imported: the list only shows what :class:`LiveTracker` says.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    AssistantMessage,
    InteractionQuery,
    PromptSubmitted,
    RunResult,
    ThinkingDelta,
    ToolCallEvent,
)
from streamview.core.reader import EventReader
from streamview.core.sanitize import one_line
from streamview.core.tools import target_of

THINKING = "thinking"
TOOL = "tool"
WAITING = "waiting"
DONE = "done"
FAILED = "failed"
UNKNOWN = "unknown"
IDLE = "idle"
"""Phases. :data:`IDLE` is never kept: :meth:`LiveState.phase_at` says it of a run
thinking (or not understood) whose file has been quiet :data:`IDLE_SECONDS`."""
ATTENTION = frozenset({DONE, FAILED, WAITING})
"""Phases a person is told of when a run enters them (a mark, a bell)."""
IDLE_SECONDS = 20.0
"""A run thinking with no write for this long is said to be idle."""
FIRST_READ_BYTES = 256 << 10
"""Bytes of a run's end read when it is first seen (its first line too): what it is
doing now is in its last records."""
READ_LIMIT = 4 << 20
"""Bytes read from a run at one poll at most (the rest at the next)."""
QUIET_TURN_SECONDS = 600.0
"""A turn not ended keeps its run live this long after its file's last write."""
RESET_LINES = 500
"""Lines a run's dialect reads before it is started afresh (when no call is open, so
nothing waits for a pairing it held): the ids a dialect keeps to pair records would
otherwise grow with the run's length."""
OPEN_CALLS_LIMIT = 32
"""Calls kept open at most (the oldest forgotten): a run that never says a call ended
cannot grow the state."""
ASKING = frozenset(
    {"askquestion", "askuserquestion", "askuser", "exitplanmode", "requestuserinput", "question"}
)
"""Tools that ask the person something (their names lowercased, ``_`` and ``-`` gone):
while one is open the run waits for the person."""


@dataclass(frozen=True)
class OpenCall:
    """A call started and not ended."""

    call_id: str
    name: str
    target: str | None
    since: float
    asks: bool


@dataclass(frozen=True)
class LiveState:
    """What a live run is doing, as far as its records say.

    Attributes:
        phase: :data:`THINKING`, :data:`DONE`, :data:`FAILED` or :data:`UNKNOWN`;
            open calls and approvals asked (below) come first.
        since: Epoch seconds the phase began.
        grew: Epoch seconds the file last grew (or was first read).
        calls: The calls open, oldest first.
        asked: Approvals asked and not answered (their ids).
        why: What a failed turn said (``interrupted``...).
    """

    phase: str = UNKNOWN
    since: float = 0.0
    grew: float = 0.0
    calls: tuple[OpenCall, ...] = ()
    asked: tuple[str, ...] = ()
    why: str | None = None

    def phase_at(self, now: float) -> str:
        """The phase shown at ``now``: waiting, a tool, or the kept phase (idle when a
        thinking or not understood run has been quiet :data:`IDLE_SECONDS`)."""
        if self.asked or any(call.asks for call in self.calls):
            return WAITING
        if self.calls:
            return TOOL
        if self.phase in (THINKING, UNKNOWN) and now - self.grew >= IDLE_SECONDS:
            return IDLE
        return self.phase

    def text(self, now: float, width: int = 200) -> str:
        """One short phrase: ``thinking 4s``, ``shell: npm test 12s``, ``needs you:
        AskUserQuestion``, ``idle 45s``, ``✓ finished``, ``✗ interrupted``; empty
        when nothing is known yet. What the stream said is cleaned onto one line, and
        a call's target is cut so that the phrase fits ``width`` with its duration."""
        phase = self.phase_at(now)
        if phase == WAITING:
            asking = next((call for call in reversed(self.calls) if call.asks), None)
            what = asking.name if asking is not None else "an approval"
            return f"needs you: {one_line(what, max(width - 11, 1))}"
        if phase == TOOL:
            call = self.calls[-1]
            name, took = one_line(call.name, width // 2), duration(now - call.since)
            room = width - len(name) - len(took) - 3
            target = one_line(call.target, max(room, 1)) if call.target and room > 1 else ""
            return f"{name}: {target} {took}" if target else f"{name} {took}"
        if phase == THINKING:
            return f"thinking {duration(now - self.since)}"
        if phase == IDLE:
            return f"idle {duration(now - self.grew)}"
        if phase == DONE:
            return "✓ finished"
        if phase == FAILED:
            return f"✗ {one_line(self.why or 'failed', max(width - 2, 1))}"
        return ""


def still_going(state: LiveState, now: float) -> bool:
    """Whether a run stays live however long its file has been quiet: a call running,
    the person asked, or a turn not ended (a model thinking long, a turn that ended
    without saying so) for up to :data:`QUIET_TURN_SECONDS` (so its end is news)."""
    if state.phase_at(now) in (TOOL, WAITING):
        return True
    return state.phase == THINKING and now - state.grew < QUIET_TURN_SECONDS


def duration(seconds: float) -> str:
    """``4s``, ``2m05s``, ``1h12m`` (never negative: a clock behind says ``0s``)."""
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def _when(event: AnyEvent, fallback: float) -> float:
    stamp = event.timestamp_ms
    return stamp / 1000 if stamp else fallback


def _asks(name: str) -> bool:
    return name.lower().replace("_", "").replace("-", "") in ASKING


def apply(state: LiveState, event: AnyEvent, now: float) -> LiveState:
    """``state`` after one event (events that say nothing of the phase leave it)."""
    when = _when(event, now)
    if isinstance(event, ToolCallEvent):
        calls = tuple(call for call in state.calls if call.call_id != event.call_id)
        if not event.completed:
            target = target_of(event.kind, event.args)
            started = event.started_at_ms / 1000 if event.started_at_ms else when
            call = OpenCall(event.call_id, event.kind, target, started, _asks(event.kind))
            calls = (*calls, call)[-OPEN_CALLS_LIMIT:]
            return replace(state, calls=calls)
        if calls == state.calls:
            return state  # a call whose start was before what was read
        if calls:
            return replace(state, calls=calls)
        return replace(state, calls=(), phase=THINKING, since=when)
    if isinstance(event, PromptSubmitted):
        return LiveState(THINKING, when, state.grew)
    if isinstance(event, ThinkingDelta | AssistantMessage):  # not ThinkingCompleted:
        # dialects also send it to count a line that says nothing new (a header again)
        if state.phase == THINKING:
            return state
        return replace(state, phase=THINKING, since=when, why=None)
    if isinstance(event, RunResult):
        failed = event.is_error
        why = (event.subtype if event.subtype not in ("", "success") else None) if failed else None
        return LiveState(FAILED if failed else DONE, when, state.grew, why=why)
    if isinstance(event, AgentNotice) and event.subtype == "turn_aborted":
        return LiveState(FAILED, when, state.grew, why="aborted")
    if isinstance(event, InteractionQuery) and event.query_id is not None:
        key = str(event.query_id)
        asked = tuple(each for each in state.asked if each != key)
        if event.subtype == "request":
            asked = (*asked, key)[-OPEN_CALLS_LIMIT:]
        return replace(state, asked=asked)
    return state


@dataclass(frozen=True)
class Change:
    """A run entered a phase a person is told of (:data:`ATTENTION`)."""

    path: Path
    phase: str
    text: str


class _Followed:
    """One run's file as read so far: its offset, its reader, its state."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.identity: tuple[int, int] | None = None
        self.stamp: tuple[int, int] = (-1, -1)
        self.reader = EventReader()
        self.state = LiveState()
        self.whole: bool | None = None
        """A file read whole on each change (Gemini CLI's older JSON); ``None``: not
        known yet."""
        self.sent: dict[str, int] = {}
        """A whole file's records folded so far: their ids and their bytes' hash."""
        self.skipping = False
        """The next bytes read end a line too long to fold."""
        self.header = b""
        """The file's first line (Gemini's header names its dialect), fed again to a
        reader started afresh."""
        self.fed = 0
        """Lines fed to the reader since it started."""

    def restart(self) -> None:
        self.offset = 0
        self.reader = EventReader()
        self.state = LiveState()
        self.sent = {}
        self.skipping = False
        self.fed = 0
        self.header = b""

    def grow(self, now: float) -> bool:
        """Fold what the file grew by; whether it was read for the first time.

        Raises:
            OSError: The file cannot be read.
        """
        status = os.stat(self.path)
        identity = (status.st_dev, status.st_ino)
        stamp = (status.st_size, status.st_mtime_ns)
        first = self.identity is None
        if stamp == self.stamp and not first:
            return False
        if not first and (identity != self.identity or status.st_size < self.offset):
            self.restart()  # replaced or truncated: read again from its tail
            first = True
        self.identity, self.stamp = identity, stamp
        if self.whole is None:
            from streamview.sources.session_source import is_whole_gemini

            self.whole = self.path.suffix == ".json" and is_whole_gemini(self.path)
        data = self._whole_data() if self.whole else self._new_lines(status.st_size, first)
        if data:
            if first and not self.header and not self.whole:
                line = data[: data.find(b"\n") + 1]
                self.header = line if len(line) <= 64 << 10 else b""
            self._renew_reader()
            for event in self.reader.feed(data):
                self.state = apply(self.state, event, now)
            self.fed += data.count(b"\n")
        self.state = replace(self.state, grew=status.st_mtime)
        return first

    def _renew_reader(self) -> None:
        """A fresh reader once :data:`RESET_LINES` were read and no call is open."""
        if self.whole or self.fed < RESET_LINES or self.state.calls or self.state.asked:
            return
        self.reader = EventReader()
        self.fed = 0
        if self.header:
            self.reader.feed(self.header)  # its events were folded when first read

    def _new_lines(self, size: int, first: bool) -> bytes:
        """The whole lines the file grew by (a torn last line is left for the next
        read); on a first read, its first line and its last :data:`FIRST_READ_BYTES`."""
        with self.path.open("rb") as file:
            head = b""
            if first and size > FIRST_READ_BYTES:
                line = file.readline(64 << 10)
                head = line if line.endswith(b"\n") else b""  # the header a dialect knows
                file.seek(size - FIRST_READ_BYTES)
                cut = file.readline(FIRST_READ_BYTES)  # the tail starts inside a line
                self.offset = size - FIRST_READ_BYTES + len(cut)
            file.seek(self.offset)
            data = file.read(READ_LIMIT)
        if self.skipping:  # the rest of a line longer than READ_LIMIT
            newline = data.find(b"\n")
            if newline < 0:
                self.offset += len(data)
                return head
            self.offset += newline + 1
            data = data[newline + 1 :]
            self.skipping = False
        end = data.rfind(b"\n") + 1
        if end == 0 and len(data) >= READ_LIMIT:  # one line too long to fold: skipped
            self.offset += len(data)
            self.skipping = True
            return head
        self.offset += end
        return head + data[:end]

    def _whole_data(self) -> bytes:
        """A rewritten file's records that are new or changed since the last read."""
        from streamview.sources.session_source import gemini_records

        records = gemini_records(self.path)
        if records is None:  # caught half-written: read at the next change
            self.stamp = (-1, -1)
            return b""
        out: list[bytes] = []
        for key, line in records:
            digest = hash(line)
            if self.sent.get(key) != digest:
                self.sent[key] = digest
                out.append(line + b"\n")
        return b"".join(out)


class LiveTracker:
    """The live state of each run it is given, kept as their files grow.

    Call :meth:`poll` every fraction of a second with the runs that are live; runs no
    longer given are forgotten.
    """

    def __init__(self) -> None:
        self._runs: dict[Path, _Followed] = {}

    def poll(self, paths: Iterable[Path], now: float | None = None) -> list[Change]:
        """Read what each run's file grew by.

        Returns:
            The runs that entered a phase a person is told of (:data:`ATTENTION`) at
            this poll; a run seen for the first time says nothing (its past is not news).
        """
        now = time.time() if now is None else now
        changes: list[Change] = []
        wanted = set()
        for path in paths:
            wanted.add(path)
            followed = self._runs.get(path) or _Followed(path)
            before = followed.state.phase_at(now)
            try:
                first = followed.grow(now)
            except OSError:  # gone or unreadable: the list says so, not this
                self._runs.pop(path, None)
                continue
            self._runs[path] = followed
            after = followed.state.phase_at(now)
            if not first and after != before and after in ATTENTION:
                changes.append(Change(path, after, followed.state.text(now)))
        for gone in self._runs.keys() - wanted:
            del self._runs[gone]
        return changes

    def state(self, path: Path) -> LiveState | None:
        """The run's state, if it is followed."""
        followed = self._runs.get(path)
        return followed.state if followed is not None else None

    def offset(self, path: Path) -> int | None:
        """Bytes of the run's file read so far (its whole lines), if it is followed."""
        followed = self._runs.get(path)
        return followed.offset if followed is not None else None

    def __len__(self) -> int:
        return len(self._runs)
