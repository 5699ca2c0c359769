"""The status line: is the run streaming, silent, finished or broken, and the counts.

Silence is normal (context compaction gives 25-40 s of it), so an idle run says how
long it has been quiet and which calls are still open, instead of looking hung.
"""

from __future__ import annotations

import re
from typing import ClassVar

import msgspec
from msgspec.structs import replace
from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.widget import Widget

from streamview.core import tools
from streamview.core.call_reading import status_counts
from streamview.core.formatting import counted, describe_call, format_duration, format_usage
from streamview.core.sanitize import one_line
from streamview.core.state import ERROR, INCOMPLETE, RUNNING, SUCCESS, LineCounts, Session

TROUBLE_STATUSES = (tools.REJECTED, tools.FAILED, tools.ERROR)
"""Call statuses the status line counts beside a run's outcome, in this order."""
IDLE_AFTER_MS = 2_000
"""Quiet for longer than this, a live run shows "idle" instead of "streaming"."""


class StatusInfo(msgspec.Struct):
    """Everything the status line shows, computed by the app."""

    session: Session | None = None
    counts: LineCounts = msgspec.field(default_factory=LineCounts)
    live: bool = False
    ended: bool = False
    """The input reached its end."""
    error: str | None = None
    """Reading the input failed."""
    idle_ms: int | None = None
    """Since the last event, for live sources."""
    rate: float | None = None
    """Input lines per second lately."""
    bytes_read: int = 0
    loading: float | None = None
    """Share of the file read, while only a preview of its start and end is shown."""
    unseen: bool = False
    """The transcript is paused and new content arrived below."""
    following: bool = True
    search: str | None = None
    """``"foo" 2/5`` while a search is active."""
    playback: str | None = None
    """Playback paused before the end of the run: where (shown instead of "streaming")."""
    replaying: str | None = None
    """A playback playing: said instead of "● streaming" (``▶ replaying at 2x``)."""
    failure: str | None = None
    """The agent failed without a result: why (its exit code and stderr), as the outcome."""
    marks: tuple[str, ...] = ()
    """Lasting notes on the right (``✂ recording cut: disk full``), never hidden."""
    stopped: str | None = None
    """streamview stopped the agent before its result: how (``stopped (Ctrl+C)``), said
    as the outcome of a stream that then ended without one."""


def _seconds(ms: int) -> str:
    """Whole seconds: ``12s``, ``3m05s``, ``1h02m``."""
    seconds = ms // 1000
    return f"{seconds}s" if seconds < 60 else format_duration(seconds * 1000)


def describe_state(info: StatusInfo) -> tuple[str, str]:
    """The left part of the status line and its style class suffix.

    Returns:
        ``(text, kind)`` where kind is ``success``, ``error``, ``warning``, ``live``
        or ``idle``.
    """
    session = info.session
    if info.error:
        return (f"✗ {one_line(info.error, 200)}", "error")
    if info.loading is not None:
        return (f"loading {info.loading:.0%} · showing the start and end of the file", "live")
    if info.failure and (session is None or session.outcome.status in (INCOMPLETE, RUNNING)):
        return (f"✗ {one_line(info.failure, 200)}", "error")
    if session is None:
        if info.ended:
            return ("input is empty" if info.bytes_read == 0 else "no session in input", "warning")
        return ("waiting for input…" if info.live else "reading…", "idle")
    outcome = session.outcome
    if outcome.status == SUCCESS:
        parts = ["✓ success"]
        if outcome.duration_ms is not None:
            parts[0] += f" in {format_duration(outcome.duration_ms)}"
        if outcome.line is None and outcome.message:
            # No record said so: how its agent's runs end (``ended: Kimi prints...``).
            parts[0] = f"✓ {one_line(outcome.message, 80)}"
        troubles = call_troubles(session)
        parts.extend(troubles)
        parts.extend(run_costs(session))
        usage = format_usage(outcome.usage)
        if usage:
            parts.append(usage)
        # A success whose calls were refused or failed is worth a second look.
        return (" · ".join(parts), "warning" if troubles else "success")
    if outcome.status == ERROR:
        text = f"✗ {one_line(outcome.subtype or 'error', 30)}"
        if outcome.duration_ms is not None:
            text += f" after {format_duration(outcome.duration_ms)}"
        message = outcome.result or outcome.message
        if message:
            text += f" · {one_line(message, 200)}"
        extra = [*call_troubles(session), *run_costs(session)]
        if extra:
            text += " · " + " · ".join(extra)
        return (text, "error")
    if outcome.status == INCOMPLETE:
        interrupted = status_counts(session.tool_calls).get(tools.INTERRUPTED, 0)
        if info.stopped:  # streamview stopped it: that is the ending, not a mystery
            said = one_line(info.stopped, 80)
            text = f"■ {said}"
            if interrupted:
                text += f" · {interrupted} call{'s' if interrupted != 1 else ''} interrupted"
            return (text, "warning")
        said = one_line(outcome.message, 80) if outcome.message else ""
        text = f"⚠ {said or 'stream ended without a result'}"
        if interrupted:
            text += f" · {interrupted} call{'s' if interrupted != 1 else ''} interrupted"
        return (text, "warning")
    open_calls = session.open_calls
    if info.playback is not None:
        return (info.playback, "idle")
    if not info.live:
        return (f"reading… {counted(info.counts.total, 'line')}", "live")
    if session.mark:  # what the agent says holds now: rate limited, compacting...
        text = f"⚠ {one_line(session.mark, 80)}"
        if info.idle_ms is not None and info.idle_ms >= IDLE_AFTER_MS:
            text += f" · idle {_seconds(info.idle_ms)} since last event"
        return (text, "warning")
    if info.idle_ms is not None and info.idle_ms >= IDLE_AFTER_MS:
        text = f"idle {_seconds(info.idle_ms)} since last event"
        if info.replaying:
            text = f"{info.replaying} · {text}"
        if open_calls:
            count = len(open_calls)
            text += f" · {count} call{'s' if count != 1 else ''} open: "
            text += ", ".join(describe_call(call, 40) for call in open_calls[:2])
            if count > 2:
                text += ", …"
        return (text, "idle")
    text = info.replaying or "● streaming"
    if info.rate is not None:
        text += f" · {info.rate:,.0f} lines/s"
    return (text, "live")


SEPARATOR = " · "
"""Between the pieces of the state's text."""
GIVEN_UP_FIRST = (
    re.compile(r"[\d,]+ cache (read|write)"),
    re.compile(r"[\d,]+ (in|out)"),
    re.compile(r"\d+ turns?"),
)
"""Pieces a narrow bar gives up, one at a time from the end, in this order: cache
counts, then the tokens out and in, then the turns. The outcome (first) and the cost
are kept."""


def fit_state(text: str, room: int) -> str:
    """``text`` in ``room`` cells: whole pieces given up (:data:`GIVEN_UP_FIRST`),
    then the longest middle piece (an error's message, the troubled calls) shortened,
    so the outcome and the cost stay in view; ellipsis at the end only as a last resort.
    """
    pieces = text.split(SEPARATOR)
    for pattern in GIVEN_UP_FIRST:
        while cell_len(SEPARATOR.join(pieces)) > room:
            given = [n for n, piece in enumerate(pieces) if n and pattern.fullmatch(piece)]
            if not given:
                break
            del pieces[given[-1]]
    over = cell_len(SEPARATOR.join(pieces)) - room
    middle = [n for n in range(1, len(pieces)) if not pieces[n].startswith("$")]
    if over > 0 and middle:
        longest = max(middle, key=lambda n: cell_len(pieces[n]))
        keep = cell_len(pieces[longest]) - over - 1
        if keep >= 8:  # still says something
            pieces[longest] = set_cell_size(pieces[longest], keep).rstrip() + "…"
    return SEPARATOR.join(pieces)


def call_troubles(session: Session) -> list[str]:
    """``4 of 5 calls rejected, 1 failed``: calls that did not do their job."""
    total = len(session.tool_calls)
    counted = status_counts(session.tool_calls)  # from the columns of a packed session
    pieces: list[str] = []
    for status in TROUBLE_STATUSES:
        number = counted.get(status)
        if number and not pieces:
            noun = "call" if total == 1 else "calls"
            pieces.append(f"{number} of {total} {noun} {status}")
        elif number:
            pieces[0] += f", {number} {status}"  # one piece: the bar is narrow
    return pieces


def run_costs(session: Session) -> list[str]:
    """``$0.0421``, ``3 turns``: what the agent says the run cost, when it says it."""
    outcome = session.outcome
    pieces = []
    if outcome.cost_usd is not None:
        pieces.append(
            f"${outcome.cost_usd:.4f}" if outcome.cost_usd < 1 else f"${outcome.cost_usd:.2f}"
        )
    if outcome.num_turns is not None:
        pieces.append(f"{outcome.num_turns} turn{'s' if outcome.num_turns != 1 else ''}")
    return pieces


def describe_counts(info: StatusInfo) -> list[tuple[str, str]]:
    """The right part: ``(text, style kind)`` pieces, malformed and unknown never hidden."""
    counts = info.counts
    pieces: list[tuple[str, str]] = [(mark, "bad") for mark in info.marks]
    if info.search:
        pieces.append((info.search, "search"))
    if info.unseen:
        pieces.append(("▼ new content (f)", "unseen"))
    elif not info.following:
        pieces.append(("paused (f)", "unseen"))
    # Input lines, as the file has them; the playback bar counts events (a line may
    # hold several: a message with two tool calls).
    pieces.append((counted(counts.total, "line"), "count"))
    session = info.session
    open_calls = len(session.open_calls) if session is not None else 0
    if open_calls:
        pieces.append((f"{open_calls} open", "count"))
    bad = []
    if counts.malformed:
        bad.append(f"{counts.malformed:,} malformed")
    if counts.unknown:
        bad.append(f"{counts.unknown:,} unknown")
    if counts.restarts:
        bad.append(f"file truncated/replaced: {counts.restarts:,}")
    if bad:
        pieces.append((" · ".join(bad) + " (l)", "bad"))
    return pieces


class StatusBar(Widget):
    """One line: the run's state on the left, counts on the right."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "status-bar--success",
        "status-bar--error",
        "status-bar--warning",
        "status-bar--live",
        "status-bar--idle",
        "status-bar--count",
        "status-bar--bad",
        "status-bar--unseen",
        "status-bar--search",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.info = StatusInfo()
        self._shown: tuple[object, ...] = ()
        """What the line said when it was last painted."""
        self._failure: str | None = None
        self._marks: tuple[str, ...] = ()
        self._stopped: str | None = None

    def set_notes(
        self, failure: str | None, marks: tuple[str, ...] = (), stopped: str | None = None
    ) -> None:
        """Keep saying, whatever the app shows next, why the agent failed (as the
        outcome, while the stream has none), that it was stopped (``stopped (Ctrl+C)``)
        and ``marks`` (a cut recording)."""
        self._failure, self._marks, self._stopped = failure, marks, stopped
        self.show(self.info)

    def show(self, info: StatusInfo) -> None:
        """Show ``info`` (no repaint when the line would read the same)."""
        notes = (self._failure, self._marks, self._stopped)
        if (info.failure, info.marks, info.stopped) != notes:
            info = replace(info, failure=self._failure, marks=self._marks, stopped=self._stopped)
        self.info = info
        shown = (describe_state(info), describe_counts(info))
        if shown != self._shown:
            self._shown = shown
            self.refresh()

    @property
    def text(self) -> str:
        """The line as plain text (for tests and logs)."""
        left, _kind = describe_state(self.info)
        right = "  ".join(piece for piece, _ in describe_counts(self.info))
        return f"{left}  {right}"

    def render(self) -> Text:
        """Left part, then the counts pushed to the right edge."""
        width = max(10, self.content_region.width)
        left_text, kind = describe_state(self.info)
        right = Text(no_wrap=True)
        for number, (piece, piece_kind) in enumerate(describe_counts(self.info)):
            if number:
                right.append("  ")
            right.append(piece, self.get_component_rich_style(f"status-bar--{piece_kind}"))
        room = width - right.cell_len - 2
        if room < 20:
            # A long right part (a search's note) is cut rather than hidden: it is news.
            right.truncate(max(0, width - 22), overflow="ellipsis")
            room = width - right.cell_len - 2
        left = Text(
            fit_state(left_text, room),
            style=self.get_component_rich_style(f"status-bar--{kind}"),
            no_wrap=True,
            overflow="ellipsis",
        )
        left.truncate(room, overflow="ellipsis")
        left.pad_right(width - left.cell_len - right.cell_len)
        return left + right
