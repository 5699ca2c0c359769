"""``streamview sessions``' description and options (argparse only: every start reads
them, so nothing of the list itself is imported here)."""

from __future__ import annotations

import argparse

SESSIONS_DESCRIPTION = """\
Every run on this machine, newest activity first: the interactive sessions of Claude
Code (~/.claude/projects, or $CLAUDE_CONFIG_DIR), Codex (~/.codex/sessions, or
$CODEX_HOME), Gemini CLI (~/.gemini/tmp), Cursor (~/.cursor/projects/*/agent-transcripts)
and opencode (~/.local/share/opencode), the runs `streamview run` recorded, and the
NDJSON files of each --dir folder. In a terminal: a list to filter by typing, Enter opens
a run in the viewer (following it if live), Escape there comes back; a live run says
what it is doing now (thinking, a tool on its target, needs you, idle, finished), a run
that finishes or needs you is marked and rings the bell once (sessions_bell = false in
settings.toml: no bell), ctrl+l shows only the live runs. On a pipe: one line
per run (tab-separated); with --json, one JSON object per run. Files are only read (at
most their first 64 KB and last 256 KB): calls, errors and tokens are given for small
files whose agent streamview recognises, else shown as -."""


def add_sessions_options(sessions: argparse.ArgumentParser) -> None:
    """``streamview sessions``' options."""
    sessions.add_argument("--json", action="store_true", help="one JSON object per run")
    sessions.add_argument(
        "--agent", metavar="NAME", help="only this agent's runs (claude, codex...: a part)"
    )
    sessions.add_argument("--project", metavar="TEXT", help="only runs whose directory holds TEXT")
    sessions.add_argument(
        "--grep", metavar="TEXT", help="only runs whose title, project or path holds TEXT"
    )
    sessions.add_argument(
        "--dir",
        action="append",
        default=[],
        metavar="DIR",
        help="also list the NDJSON files of DIR (one per job); may be repeated",
    )
    sessions.add_argument(
        "--live-seconds",
        type=float,
        default=30.0,
        metavar="S",
        help="a run whose file changed in the last S seconds is live (default 30)",
    )
    sessions.add_argument("--theme", metavar="THEME", help="a Textual theme for the list")
    add_watch_options(sessions)


def add_watch_options(sessions: argparse.ArgumentParser) -> None:
    """``--watch`` and the ``--otlp`` options it sends with."""
    from streamview.cli.otlp import add_otlp_options

    sessions.add_argument(
        "--watch",
        action="store_true",
        help="no list: send every run on this machine to a tracing backend as it happens "
        "(with --otlp) until Ctrl+C or SIGTERM; a state file under XDG_STATE_HOME keeps "
        "a restart from losing or repeating a span; runs already quiet at the first "
        "watch are not sent (export --otlp sends those)",
    )
    sessions.add_argument(
        "--interval",
        type=float,
        default=1.0,
        metavar="S",
        help="with --watch: look for new lines every S seconds (default 1)",
    )
    add_otlp_options(sessions)
