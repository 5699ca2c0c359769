"""The end of an agent's stderr, collected on a thread while it runs.

The reason a run failed is usually in the last lines the agent wrote to stderr; only
the last ``limit`` bytes are kept, so a chatty agent costs bounded memory.
"""

from __future__ import annotations

import threading
import time
from typing import IO

from streamview.sources.base import PIPE_CHUNK_SIZE


class StderrTail:
    """The last ``limit`` bytes of a stream, read on a daemon thread."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._data = bytearray()
        self._lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.moved_at = time.monotonic()
        """``time.monotonic()`` when the stream last brought bytes."""

    def start(self, stream: IO[bytes]) -> None:
        """Read ``stream`` until it ends, on a thread of its own."""
        self.thread = threading.Thread(
            target=self._collect, args=(stream,), name="streamview-agent-stderr", daemon=True
        )
        self.thread.start()

    def reading(self) -> bool:
        """The thread still reads (the stream is open)."""
        return self.thread is not None and self.thread.is_alive()

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the stream to end."""
        if self.thread is not None:
            self.thread.join(timeout)

    def data(self) -> bytes:
        """What was kept, as written."""
        with self._lock:
            return bytes(self._data)

    def _collect(self, stream: IO[bytes]) -> None:
        while True:
            try:
                chunk = stream.read1(PIPE_CHUNK_SIZE)  # type: ignore[attr-defined]
            except (OSError, ValueError):
                return
            if not chunk:
                return
            with self._lock:
                self.moved_at = time.monotonic()
                self._data += chunk
                if len(self._data) > self.limit:
                    del self._data[: len(self._data) - self.limit]
