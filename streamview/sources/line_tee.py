"""Cut an agent's output into whole lines for whatever keeps them.

The process source tees what the agent prints here as it reads it; the sink (a
recording, in :mod:`streamview.runs.recording`) is handed in from above, so a source
never knows where its lines are kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from streamview.sources.base import now_ms


class LineSink(Protocol):
    """Where whole lines go, each with its arrival time (epoch ms)."""

    def write(self, line: bytes, recv_ms: int) -> None: ...

    def close(self) -> None: ...


class LineTee:
    """Cut chunks into complete raw lines and hand each to a :class:`LineSink`
    (a :class:`streamview.runs.recording.Recorder`).

    Lines keep their bytes exactly, ``\\r`` and ``\\n`` included; a line's arrival
    time is when the chunk that completed it arrived.
    """

    def __init__(self, recorder: LineSink, clock: Callable[[], int] = now_ms) -> None:
        self.recorder = recorder
        self._clock = clock
        self._pending = bytearray()
        self._pending_ms = 0

    def feed(self, chunk: bytes, recv_ms: int | None = None) -> None:
        """Record the lines ``chunk`` completes; keep the rest for later.

        Args:
            chunk: Bytes as they came.
            recv_ms: When they came (epoch ms), if they were read earlier; else now.
        """
        if not chunk:
            return
        recv_ms = self._clock() if recv_ms is None else recv_ms
        self._pending_ms = recv_ms
        start = 0
        end = chunk.find(b"\n")
        while end >= 0:
            if self._pending:
                self._pending += chunk[start : end + 1]
                line = bytes(self._pending)
                self._pending.clear()
            else:
                line = chunk[start : end + 1]
            self.recorder.write(line, recv_ms)
            start = end + 1
            end = chunk.find(b"\n", start)
        self._pending += chunk[start:]

    def finish(self) -> None:
        """Record a last line that had no newline, then close the recording."""
        if self._pending:
            self.recorder.write(bytes(self._pending), self._pending_ms)
            self._pending.clear()
        self.recorder.close()
