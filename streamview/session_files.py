"""Which session files are read whole rather than as a stream of lines, and how."""

from __future__ import annotations

from pathlib import Path

from streamview.session_source import WholeSessionSource, gemini_records, is_sqlite, is_whole_gemini


def session_source_for(path: Path, follow: bool = False) -> WholeSessionSource | None:
    """The source of a session file that is not a stream of lines, if ``path`` is one
    (a legacy Gemini CLI session, an opencode database); else ``None``."""
    if is_sqlite(path):
        from streamview import opencode_db  # sqlite3, for a database only

        return opencode_db.source(path, follow)
    if path.suffix == ".json" and is_whole_gemini(path):
        return WholeSessionSource(path, lambda: gemini_records(path), follow)
    return None
