"""``run --otlp``: a live run's spans, sent as its calls finish.

The recorder hands each whole line with its arrival time to :meth:`LiveForwarder.feed`
(the caller's thread only queues it). A thread of the forwarder's own folds the lines,
as a recording of them would be folded (each with its arrival time), and sends each
tool call's span once the call ends. :meth:`LiveForwarder.close`, when the run ends
(also after a signal), sends the calls still open as interrupted and each session's
root span, then waits a short grace for the backend (shorter still after a signal): a
backend that is down or slow never holds the run up, and never changes its exit status.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

import streamview.core.tools as tools
from streamview.core.events import AgentNotice
from streamview.core.model import ToolCall
from streamview.core.otlp_spans import SpanRecord, call_span, session_key, session_spans
from streamview.core.reader import EventReader
from streamview.core.sanitize import one_line
from streamview.core.state import StreamState
from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.send import SpanSender
from streamview.runs.recording import add_timing
from streamview.sources import signals

CLOSE_GRACE = 2.0
"""Seconds the end of a run waits for the backend to take the last spans, at most."""
SIGNAL_GRACE = 0.5
"""The same wait when a signal stopped the run: whoever sent it wants it gone now."""

_END = None


class LiveForwarder:
    """Fold a live run's lines on a thread and send its spans as they finish.

    Args:
        sender: Where the spans go, or the settings to make it from on the forwarder's
            thread (the SDK's import, a quarter of a second, then does not hold up the
            agent's start).
        agent: The dialect to read the stream as (``None``: recognised).
    """

    def __init__(self, sender: SpanSender | OtlpSettings, agent: str | None = None) -> None:
        self._settings = sender if isinstance(sender, OtlpSettings) else sender.settings
        self.sender: SpanSender | None = None if isinstance(sender, OtlpSettings) else sender
        self.content = self._settings.content
        self._unsent = 0
        """Spans there was no sender for (the SDK failed to load)."""
        self._broken: str | None = None
        self.state = StreamState(track_changes=False)
        self._reader = EventReader(agent=agent)
        self._lines: queue.SimpleQueue[tuple[bytes, int] | None] = queue.SimpleQueue()
        self._sent: set[str] = set()
        """``<session key>/<span key>`` of every span sent."""
        self._seen: dict[int, int] = {}
        """Calls of each session (by index) looked at so far."""
        self._open: dict[int, list[ToolCall]] = {}
        """Calls of each session seen still running at the last look."""
        self._closed = False
        self._told = False
        self._finishing = threading.Lock()
        self.words: str | None = None
        """What did not reach the backend, once closed (``None``: every span did)."""
        self.lines = 0
        """Lines fed so far (where the event log places the forwarder's notice)."""
        self._thread = threading.Thread(target=self._work, name="streamview-otlp", daemon=True)
        self._thread.start()

    def feed(self, line: bytes, recv_ms: int) -> None:
        """One whole line of the agent's stdout and when it arrived (queued, not folded)."""
        if not self._closed:
            self.lines += 1
            self._lines.put((line, recv_ms))

    def _work(self) -> None:
        if self.sender is None:
            try:
                self.sender = SpanSender(self._settings)
            except Exception as error:  # a broken SDK: the run goes on, nothing is sent
                self._broken = one_line(str(error), 160) or type(error).__name__
        while True:
            item = self._lines.get()
            if item is _END:
                return
            line, recv_ms = item
            for event in self._reader.feed(add_timing(line, recv_ms)):
                self.state.apply(event)
            if self._lines.empty():  # caught up: send what ended
                self._send_finished()

    def _send_finished(self) -> None:
        """Send the spans of the calls that ended since the last look: only the calls
        still open are looked at again, so a run of 10,000 calls costs no more per line
        than a short one."""
        spans = []
        for session in self.state.sessions:
            seen = self._seen.get(session.index, 0)
            calls = session.tool_calls
            waiting = self._open.setdefault(session.index, [])
            if len(calls) > seen:
                waiting.extend(calls[seen:])
                self._seen[session.index] = len(calls)
            if not waiting:
                continue
            prefix = session_key(session)
            still_open = []
            for call in waiting:
                if call.status == tools.RUNNING:
                    still_open.append(call)
                    continue
                self._sent.add(f"{prefix}/call:{call.call_id}")
                span = call_span(session, call, self.content)
                if span is not None:
                    spans.append(span)
            self._open[session.index] = still_open
        if spans:
            self._send(spans)

    def _send(self, spans: list[SpanRecord]) -> None:
        if self.sender is None:
            self._unsent += len(spans)
        else:
            self.sender.send(spans)

    def close(
        self, settle: Callable[[StreamState], None] | None = None, grace_s: float = CLOSE_GRACE
    ) -> str | None:
        """The run ended: send the rest, wait at most ``grace_s`` for the backend.

        Args:
            settle: Says of the finished state what only the process knows (stopped
                by Ctrl+C, the agent's exit), as the front ends' ``ended_by`` does.
            grace_s: Longest wait for the backend.

        Returns:
            One line saying what was dropped, or ``None`` if every span arrived (or
            it was said already: the first call says it, for stderr).
        """
        self._finish(settle, grace_s)
        if self._told:
            return None
        self._told = True
        return self.words

    def ended_notice(
        self, settle: Callable[[StreamState], None] | None = None, grace_s: float = CLOSE_GRACE
    ) -> AgentNotice | None:
        """Close as :meth:`close` does, without telling stderr; the event log's notice
        of what was dropped (``None`` when every span arrived)."""
        self._finish(settle, grace_s)
        if self.words is None:
            return None
        return AgentNotice(
            line=self.lines, type="streamview", subtype="otlp", topic="session", text=self.words
        )

    def _finish(self, settle: Callable[[StreamState], None] | None, grace_s: float) -> None:
        with self._finishing:  # the reader's thread at the run's end, or the main thread
            if not self._closed:
                self._closed = True
                self._send_rest(settle, grace_s)

    def _send_rest(self, settle: Callable[[StreamState], None] | None, grace_s: float) -> None:
        self._lines.put(_END)
        self._thread.join()
        for event in self._reader.finish():
            self.state.apply(event)
        self.state.finish()
        if settle is not None:
            settle(self.state)
        prefix_of = {session.index: session_key(session) for session in self.state.sessions}
        for session in self.state.sessions:
            prefix = prefix_of[session.index]
            rest = [
                span
                for span in session_spans(session, self.state.notices, self.content)
                if f"{prefix}/{span.key}" not in self._sent
            ]
            self._send(rest)
        if self.sender is None:
            if self._unsent:
                spans = "span" if self._unsent == 1 else "spans"
                self.words = f"--otlp: {self._unsent} {spans} not sent: {self._broken}"
            return
        sig = signals.first()
        if sig is None:
            self.sender.close(grace_s)
        else:  # a signal stopped the run: a hung backend is not waited for
            grace_s = min(grace_s, SIGNAL_GRACE)
            self.sender.close(grace_s, why=f"no answer within {grace_s:g} s of {sig.name}")
        self.words = self.sender.dropped_words()
