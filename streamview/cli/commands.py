"""The commands of ``streamview`` (``run``, ``runs``...): the first word tells one from a
FILE to view before any parser is built (:mod:`streamview.cli.parsers` builds them)."""

from __future__ import annotations

COMMANDS = {
    "run": "start an agent, watch it and record the run",
    "runs": "list the runs `streamview run` recorded (--open N opens one, --prune AGE)",
    "last": "open the latest recorded run, or run N (takes the viewer's options)",
    "export": "send recorded runs to a tracing backend (--otlp: OpenTelemetry)",
    "redact": "write a recording with its secrets redacted (redact IN > OUT)",
    "sessions": "every run on this machine: agents' sessions, recordings, --dir jobs",
}
"""The words that start a command rather than name a FILE to view, and what each does."""
