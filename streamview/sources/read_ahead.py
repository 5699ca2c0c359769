"""Read an agent's stdout from the moment it starts, each chunk with its arrival time.

``streamview run`` starts the agent before the viewer is up; the viewer's reader
begins once its first frame is drawn, a second or so later. Lines the agent printed
meanwhile waited in the pipe and were all stamped with the moment they were read (a
Kimi run's first 18 lines shared one ``streamview_recv_ms``: its first calls took
``0ms`` when reopened, and a replay rushed through its start). :class:`ReadAhead` reads
them on a thread as they come and keeps each chunk's time until the reader takes over.
"""

from __future__ import annotations

import os
import selectors
import threading
from collections.abc import Callable

from streamview.sources.base import PIPE_CHUNK_SIZE, POLL_SECONDS, now_ms

READ_AHEAD_LIMIT = 16 << 20
"""Bytes read ahead at most; past this the pipe fills and the agent waits, as it would
with nobody reading (a viewer that never took over must not hold the whole run)."""


class ReadAhead:
    """Read ``fd`` on a thread until :meth:`handover`; then the caller reads it.

    Args:
        fd: The pipe (the agent's stdout).
        clock: Arrival stamps (epoch ms).
        limit: Bytes read at most before it stops reading.
    """

    def __init__(
        self, fd: int, clock: Callable[[], int] = now_ms, limit: int = READ_AHEAD_LIMIT
    ) -> None:
        self._fd = fd
        self._clock = clock
        self._limit = limit
        self._chunks: list[tuple[bytes, int]] = []
        self._size = 0
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="streamview-agent-read-ahead", daemon=True
        )
        self._thread.start()

    def _run(self) -> None:
        try:
            self._read()
        except (OSError, ValueError):  # the pipe was closed under it (the run is over)
            return

    def _read(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self._fd, selectors.EVENT_READ)
            while self._size < self._limit:
                ready = selector.select(POLL_SECONDS)
                if self._done.is_set():
                    return  # handed over: the reader reads from here
                if not ready:
                    continue
                try:
                    data = os.read(self._fd, PIPE_CHUNK_SIZE)
                except BlockingIOError:
                    continue
                except OSError:
                    return  # the reader meets the error itself and says so
                if not data:
                    return  # end of output: the reader reads it again
                self._chunks.append((data, self._clock()))
                self._size += len(data)

    def handover(self) -> list[tuple[bytes, int]]:
        """Stop reading ahead; what was read, in order, each chunk with when it came.

        A read under way when this is called is finished and included, so no byte is
        lost between the two readers.
        """
        self._done.set()
        self._thread.join()
        return self._chunks
