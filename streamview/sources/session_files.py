"""Which session files are read whole rather than as a stream of lines, and how."""

from __future__ import annotations

import os
from pathlib import Path

from streamview.sources.base import InputError
from streamview.sources.session_source import (
    WholeSessionSource,
    gemini_jsonl_folded,
    gemini_records,
    is_sqlite,
    is_whole_gemini,
)


def session_source_for(path: Path, follow: bool = False) -> WholeSessionSource | None:
    """The source of a session file that is not a stream of lines, if ``path`` is one
    (a legacy Gemini CLI session, an opencode database); else ``None``."""
    if is_sqlite(path):
        from streamview.sources import opencode_db  # sqlite3, for a database only

        return opencode_db.source(path, follow)
    if path.suffix == ".jsonl" and not follow and gemini_jsonl_folded(path) is not None:
        # Messages taken back (a /rewind): read whole, what is left shown. Followed, the
        # file is read as it grows and a rewind is said where it came.
        return WholeSessionSource(path, lambda: gemini_jsonl_folded(path), follow)
    if path.suffix == ".json" and is_whole_gemini(path):
        return WholeSessionSource(path, lambda: gemini_records(path), follow)
    return None


def opencode_session_named(name: str | None, follow: bool = False) -> WholeSessionSource | None:
    """``DATABASE#SESSION_ID``: that session of an opencode database (the database
    alone reads its newest session), if ``name`` says so and no file has that name.

    Raises:
        InputError: The database has no such session.
    """
    if not name or "#" not in name or os.path.exists(name):
        return None
    base, _, session_id = name.rpartition("#")
    path = Path(base)
    if not session_id or not is_sqlite(path):
        return None
    from streamview.sources import opencode_db

    found = opencode_db.source(path, follow, session_id)
    found.label = name
    if opencode_db.read_session(path, session_id) is None:
        raise InputError(f"{base}: no opencode session {session_id}")
    return found
