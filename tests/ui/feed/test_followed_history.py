"""A followed file's lines that were there before it was opened keep their own times.

Stamping them with the time they were read made every call of a live session file
opened from ``streamview sessions`` start at ``+0:00`` (seen in tmux: six calls of a
Claude session, minutes apart, all ``+0:00``). Lines written after the file was opened
are stamped when they arrive, as before.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from streamview.core.events import AnyEvent
from streamview.core.state import StreamState
from streamview.sources.base import FileSource
from streamview.ui.feed.reader import Feed

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "claude" / "short.jsonl"
ARRIVED = 1_900_000_000_000
"""The clock the feed stamps arrivals with: far from any time in the fixture."""


def drained(feed: Feed, until: object, deadline: float = 20.0) -> list[AnyEvent]:
    """Events until ``until(events)`` holds (or the deadline passes)."""
    events: list[AnyEvent] = []
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        events += feed.drain().events
        if until(events):  # type: ignore[operator]
            return events
        threading.Event().wait(0.02)
    raise AssertionError(f"condition not reached; {len(events)} events")


def test_old_lines_keep_their_own_times_and_new_lines_are_stamped(tmp_path: Path) -> None:
    lines = FIXTURE.read_bytes().splitlines(keepends=True)
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join(lines[:-1]))
    feed = Feed(FileSource(path, follow=True), clock=lambda: ARRIVED)
    feed.start()
    try:
        old = drained(feed, lambda events: any(e.line == len(lines) - 1 for e in events))
        assert all(event.recv_ms is None for event in old)
        with path.open("ab") as handle:
            handle.write(lines[-1])
        new = drained(feed, lambda events: any(e.line == len(lines) for e in events))
    finally:
        feed.stop()
    assert {event.recv_ms for event in new if event.line == len(lines)} == {ARRIVED}
    state = StreamState()
    for event in old:
        state.apply(event)
    (session,) = state.sessions
    first, second = session.tool_calls[:2]
    assert first.start_recv is None and first.start_ms == first.start_ts
    assert session.first_time_ms is not None and first.start_ms is not None
    assert first.start_ms - session.first_time_ms > 1_000  # not "+0:00"
    assert second.start_ms is not None and second.start_ms > first.start_ms
