"""``--redact``: a source whose lines are redacted before anything reads them.

The one boundary redaction needs: the viewer, ``--json``, ``--events`` and every
export read a source, so wrapping it here redacts them all, and any export added later.
"""

from __future__ import annotations

import contextlib
import getpass
import queue
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

from streamview.core.events import AgentNotice
from streamview.core.redact import LineFilter, Redactor
from streamview.sources.base import Source


def make_redactor(names: bool = False) -> Redactor:
    """The redactor of this machine: its home directory, and with ``names`` its user
    and host names (``--redact-names``)."""
    home = str(Path.home())
    found: dict[str, str] = {}
    if names:
        with contextlib.suppress(KeyError, OSError):
            found["user"] = getpass.getuser()
        host = socket.gethostname()
        found["host"] = host
        short = host.split(".")[0]
        if short != host:
            found["host-short"] = short
    return Redactor(home=(home,) if home not in ("/", "") else (), names=found)


class RedactingSource(Source):
    """``inner``'s bytes with every line redacted (held back until its line ends)."""

    def __init__(self, inner: Source, redactor: Redactor) -> None:
        self.inner = inner
        self.redactor = redactor
        self.label = inner.label
        self.live = inner.live
        self._lines = 0

    @property
    def history(self) -> bool:
        """The inner source's: its chunk was there before it opened."""
        return self.inner.history

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield the inner source's chunks, redacted line by line."""
        lines = LineFilter(self.redactor)
        for chunk in self._arrivals(stop, lines) if self.inner.live else self.inner.chunks(stop):
            if chunk is None:  # held delta lines waited long enough
                out = lines.expire()
            else:
                self.arrived_ms = self.inner.arrived_ms
                out = lines.feed(chunk)
                if self.inner.live:  # a steady trickle of deltas is not held longer
                    out += lines.expire()
            self._lines += out.count(b"\n")
            if out:
                yield out
        rest = lines.finish()
        if rest:
            yield rest

    def _arrivals(self, stop: threading.Event, lines: LineFilter) -> Iterator[bytes | None]:
        """A live source's chunks, read in a thread, with ``None`` whenever held delta
        lines are due (a quiet stream must not keep the end of an answer back)."""
        arrived: queue.Queue[bytes | BaseException | None] = queue.Queue(maxsize=64)

        def read() -> None:
            try:
                for chunk in self.inner.chunks(stop):
                    arrived.put(chunk)
            except BaseException as error:  # raised again in the reader
                arrived.put(error)
            else:
                arrived.put(None)

        threading.Thread(target=read, name="redact-read", daemon=True).start()
        while True:
            wait = lines.waiting()
            try:
                item = arrived.get(timeout=wait)
            except queue.Empty:
                yield None
                continue
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    def ended_notice(self) -> AgentNotice | None:
        """What was redacted, for the viewer's event log."""
        return AgentNotice(
            line=self._lines, type="streamview", subtype="redact", topic="session",
            text=self.redactor.report(),
        )  # fmt: skip

    @property
    def path(self) -> Path | None:
        """``None``: a view must not re-read the file, whose lines are not redacted."""
        return None
