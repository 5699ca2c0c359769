"""Redaction for sharing a run: secrets found with gitleaks' rules become
``[REDACTED:kind]``, the home directory ``~``, and optionally the user and host names.

Applied at one boundary, the line source (:class:`LineFilter`): every NDJSON line is
decoded, each JSON string redacted and the line encoded again, so every surface
downstream (the viewer, ``--events``, ``--json``, every export) shows only redacted
text without knowing it. Standard library and orjson only, like the rest of the core.
"""

from __future__ import annotations

from streamview.core.redact.redactor import Redactor, marker, report


class LineFilter:
    """Redacts a stream of byte chunks line by line, holding back a line until its
    line break (or the end) arrives."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self._pending = b""

    def feed(self, chunk: bytes) -> bytes:
        """The complete lines of what has arrived, redacted, with their line breaks."""
        data = self._pending + chunk
        cut = data.rfind(b"\n")
        if cut < 0:
            self._pending = data
            return b""
        self._pending = data[cut + 1 :]
        out = []
        for line in data[:cut].split(b"\n"):
            ending = b"\r" if line.endswith(b"\r") else b""
            out.append(self.redactor.line(line[: len(line) - len(ending)]) + ending)
        return b"\n".join(out) + b"\n"

    def finish(self) -> bytes:
        """The last line, when the input did not end with a line break."""
        rest, self._pending = self._pending, b""
        if not rest:
            return b""
        ending = b"\r" if rest.endswith(b"\r") else b""
        return self.redactor.line(rest[: len(rest) - len(ending)]) + ending


def redact_bytes(data: bytes, redactor: Redactor) -> bytes:
    """A whole recording redacted."""
    lines = LineFilter(redactor)
    return lines.feed(data) + lines.finish()


__all__ = ["LineFilter", "Redactor", "marker", "redact_bytes", "report"]
