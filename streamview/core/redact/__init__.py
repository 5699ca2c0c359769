"""Redaction for sharing a run: secrets found with gitleaks' rules become
``[REDACTED:kind]``, the home directory ``~``, and optionally the user and host names.

Applied at one boundary, the line source (:class:`LineFilter`): every NDJSON line is
decoded, each JSON string redacted and the line encoded again, so every surface
downstream (the viewer, ``--events``, ``--json``, every export) shows only redacted
text without knowing it. Standard library and orjson only, like the rest of the core.
"""

from __future__ import annotations

import time

from streamview.core.redact.deltas import HOLD_SECONDS, DeltaJoiner
from streamview.core.redact.redactor import Redactor, marker, report


class LineFilter:
    """Redacts a stream of byte chunks line by line, holding back a line until its
    line break (or the end) arrives, and the last lines of a run of deltas (a secret
    streamed in pieces, :mod:`~streamview.core.redact.deltas`) until the run ends, more
    come or :data:`HOLD_SECONDS` pass (:meth:`expire`)."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self._pending = b""
        self._deltas = DeltaJoiner(redactor)
        self._held_since = 0.0

    def feed(self, chunk: bytes) -> bytes:
        """The complete lines of what has arrived, redacted, with their line breaks."""
        data = self._pending + chunk
        cut = data.rfind(b"\n")
        if cut < 0:
            self._pending = data
            return b""
        self._pending = data[cut + 1 :]
        out: list[bytes] = []
        holding = self._deltas.holding
        for line in data[:cut].split(b"\n"):
            ending = b"\r\n" if line.endswith(b"\r") else b"\n"
            out.extend(self._deltas.line(line[: len(line) - len(ending) + 1], ending))
        if self._deltas.holding and not holding:
            self._held_since = time.monotonic()
        return b"".join(out)

    def expire(self, now: float | None = None) -> bytes:
        """The held delta lines once they waited :data:`HOLD_SECONDS` (else nothing)."""
        if not self._deltas.holding:
            return b""
        if (time.monotonic() if now is None else now) - self._held_since < HOLD_SECONDS:
            return b""
        return b"".join(self._deltas.release())

    def waiting(self) -> float | None:
        """Seconds until :meth:`expire` lets held lines through (``None``: none held)."""
        if not self._deltas.holding:
            return None
        return max(0.0, self._held_since + HOLD_SECONDS - time.monotonic())

    def finish(self) -> bytes:
        """The held lines, and the last line when the input did not end with a break."""
        out = self._deltas.flush()
        rest, self._pending = self._pending, b""
        if not rest:
            return b"".join(out)
        ending = b"\r" if rest.endswith(b"\r") else b""
        out.append(self.redactor.line(rest[: len(rest) - len(ending)]) + ending)
        return b"".join(out)


def redact_bytes(data: bytes, redactor: Redactor) -> bytes:
    """A whole recording redacted."""
    lines = LineFilter(redactor)
    return lines.feed(data) + lines.finish()


__all__ = ["LineFilter", "Redactor", "marker", "redact_bytes", "report"]
