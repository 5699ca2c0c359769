"""A followed session file read on a thread into a fold, as the viewer reads it (shared
by the tests of followed sessions with subagents)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.sources.nested_follow import NestedFollowSource
from streamview.sources.session_files import session_source_for

DEADLINE = 15.0
Calls = list[tuple[str, str, str | None]]
"""Each call's id, status and the call it is nested under."""


class Follower:
    """``path`` followed (``session_source_for(path, follow=True)``) into a fold."""

    def __init__(self, path: Path) -> None:
        source = session_source_for(path, follow=True)
        assert isinstance(source, NestedFollowSource)
        self.state = StreamState(track_changes=False)
        self.reader = EventReader()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.source = source
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for chunk in self.source.chunks(self.stop):
            with self.lock:
                for event in self.reader.feed(chunk):
                    self.state.apply(event)

    def calls(self) -> Calls:
        """The first session's calls so far."""
        with self.lock:
            found = self.state.sessions[0].tool_calls if self.state.sessions else []
            return [(c.call_id, c.status, c.parent_call_id) for c in found]

    def wait(self, done: Callable[[Calls], bool]) -> None:
        """Wait (up to :data:`DEADLINE`) until ``done(calls)``."""
        end = time.monotonic() + DEADLINE
        while not done(self.calls()) and time.monotonic() < end:
            time.sleep(0.02)
        assert done(self.calls()), self.calls()
