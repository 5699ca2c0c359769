"""Bytes in, normalized events out: the pipeline behind ``--events`` and ``read_events``.

:class:`EventStream` reads one stream with the :class:`EventReader` (framing, the
stream's dialect, its records as events), folds each event into a
:class:`StreamState` (the fold of the viewer, ``--print`` and ``--json``) and lets the
:class:`~streamview.core.normalizer.Normalizer` say what it changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamview.core.normalized as n
from streamview.core.dialects import DETECT_WINDOW
from streamview.core.event_fast import fast_line_of, feed_fast
from streamview.core.events import AnyEvent
from streamview.core.exit_status import exit_code_for
from streamview.core.fast_normalizer import FastNormalizer
from streamview.core.framing import Restart
from streamview.core.reader import EventReader
from streamview.core.state import StreamState

WARM_UP_LINES = 2 * DETECT_WINDOW
"""Lines of a chunk read one at a time, the long way, while the fast path may not be
taken yet (:meth:`EventStream.feed`); the rest of the chunk is then read whole."""


class EventStream:
    """Bytes in, normalized events out: one stream read from its start.

    ``start()`` first, ``feed()`` each chunk as it arrives, then ``finish()`` at the end
    of input, ``process_exit()`` (``streamview run``) and ``end()`` last.

    Args:
        agent: A dialect's name to read the stream as; ``None`` or ``auto`` recognises it.
    """

    def __init__(self, agent: str | None = None) -> None:
        self.reader = EventReader(agent=agent)
        self.state = StreamState(track_changes=False)
        self._forced = self.reader.dialect.name if self.reader.dialect is not None else None
        self.normalizer = FastNormalizer(self.state, self._dialect)
        self.received = 0
        """Bytes fed so far."""

    def _dialect(self) -> str | None:
        dialect = self.reader.dialect
        return dialect.name if dialect is not None else None

    def start(self) -> n.StreamStart:
        """The first event."""
        return n.StreamStart(line=None, time_ms=None, agent=self._forced)

    def feed(self, chunk: bytes, recv_ms: int | None = None) -> list[n.NormalizedEvent]:
        """The events the lines ``chunk`` completes stand for."""
        self.received += len(chunk)
        if recv_ms is None and chunk.__class__ is not Restart:
            fast = fast_line_of(self.reader)
            if fast is not None:
                return feed_fast(self.reader, self.state, self.normalizer, chunk, *fast)
            return self._warm_up(chunk)
        return self._apply(self.reader.feed(chunk, recv_ms))

    def _warm_up(self, chunk: bytes) -> list[n.NormalizedEvent]:
        """A chunk read before the fast path may be taken (the stream's first): its
        first lines the long way, one at a time, until the dialect is known (the first
        line, usually), then the rest the fast way. The first 1 MiB chunk is a sixth
        of a 10k-event file: read whole the long way, it cost a tenth of the run."""
        reader = self.reader
        out: list[n.NormalizedEvent] = []
        head = 0
        for _ in range(WARM_UP_LINES):
            end = chunk.find(b"\n", head)
            if end < 0:
                break
            out.extend(self._apply(reader.feed(chunk[head : end + 1])))
            head = end + 1
            fast = fast_line_of(reader)
            if fast is not None:
                rest = chunk[head:]
                if rest:
                    out.extend(feed_fast(reader, self.state, self.normalizer, rest, *fast))
                return out
        if head < len(chunk):
            out.extend(self._apply(reader.feed(chunk[head:] if head else chunk)))
        return out

    def _apply(self, events: list[AnyEvent]) -> list[n.NormalizedEvent]:
        out: list[n.NormalizedEvent] = []
        apply = self.state.apply
        handle = self.normalizer.handle
        for event in events:
            out.extend(handle(event, apply(event)))
        self.normalizer.forget_told()
        return out

    def finish(
        self, settle: Callable[[StreamState], None] | None = None
    ) -> list[n.NormalizedEvent]:
        """End of input: the last line, then the end of every session (``settle`` first
        says of the finished state what only the process knows: ``streamview run``)."""
        out = self._apply(self.reader.finish())
        self.state.counts.blank += self.reader.blank_lines
        self.reader.blank_lines = 0
        self.state.finish()
        if settle is not None:
            settle(self.state)
        out.extend(self.normalizer.close())
        return out

    @property
    def exit_code(self) -> int:
        """The exit status the stream alone gives (0 the last session succeeded)."""
        return exit_code_for(self.state)

    @staticmethod
    def process_exit(summary: dict[str, Any]) -> n.ProcessExit:
        """``streamview run``: the agent's process ended (its ``ProcessSource.summary()``)."""
        code = summary.get("exit_code")
        return n.ProcessExit(
            line=None,
            time_ms=None,
            exit_code=code if isinstance(code, int) else None,
            interrupted=bool(summary.get("interrupted")),
            lingered=bool(summary.get("lingered")),
            stderr=str(summary.get("stderr") or ""),
        )

    def end(self, exit_code: int | None = None, error: str | None = None) -> n.StreamEnd:
        """The last event.

        Args:
            exit_code: The status streamview exits with, if not the stream's own.
            error: Why the input could not be read to its end.
        """
        counts = self.state.counts
        return n.StreamEnd(
            line=None,
            time_ms=None,
            lines=n.LineCounts(
                total=counts.total,
                events=counts.events,
                malformed=counts.malformed,
                unknown=counts.unknown,
                blank=counts.blank,
            ),
            sessions=len(self.state.sessions),
            exit_code=self.exit_code if exit_code is None else exit_code,
            error=error,
        )
