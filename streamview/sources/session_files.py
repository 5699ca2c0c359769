"""Which session files are read whole rather than as a stream of lines, and how."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from streamview.sources.base import InputError, Source
from streamview.sources.session_source import (
    Records,
    WholeSessionSource,
    gemini_jsonl_folded,
    gemini_records,
    is_sqlite,
    is_whole_gemini,
)


def session_source_for(path: Path, follow: bool = False, replay: bool = False) -> Source | None:
    """The source of a session file that is not read as the stream of lines it is, if
    ``path`` is one (a legacy Gemini CLI session, an opencode database, a Gemini CLI or
    Claude Code session read whole: what a ``/rewind`` left out, the subagents of a
    Claude Code, Gemini CLI or Cursor session or a Codex rollout's spawned threads fed
    in); else ``None``.

    Args:
        path: The file named.
        follow: It is followed (``--follow``): only what has no stream of lines at all is
            read whole; a rewind is then said where it comes, and a Claude Code
            session's subagents' files (a Codex rollout's spawned threads') are
            followed beside it.
        replay: It is replayed (``--replay``): a Claude Code session is then read as its
            file, whose lines have the times a replay needs.
    """
    if is_sqlite(path):
        from streamview.sources import opencode_db  # sqlite3, for a database only

        return opencode_db.source(path, follow)
    if path.suffix == ".json" and is_whole_gemini(path):
        from streamview.sources import gemini_session_files

        # Its subagents' sessions (``chats/<session id>/``), each under its call.
        nested = gemini_session_files.session_records
        return WholeSessionSource(path, lambda: nested(path) or gemini_records(path), follow)
    if path.suffix != ".jsonl":
        return None
    if follow:
        from streamview.sources import claude_session_files, codex_session_files
        from streamview.sources.claude_session_follow import ClaudeFollowSource

        # A Claude Code session's subagents (a Codex thread's spawned threads, a
        # Cursor agent's or Gemini CLI's subagents) write files of their own as it goes.
        if claude_session_files.is_session(path):
            return ClaudeFollowSource(path)
        if codex_session_files.rollout_head(path) is not None:
            from streamview.sources import codex_session_follow

            return codex_session_follow.source(path)
        from streamview.sources import cursor_session_files, gemini_session_files

        if cursor_session_files.is_transcript(path):
            from streamview.sources import cursor_session_follow

            return cursor_session_follow.source(path)
        header = gemini_session_files.session_header(path)
        if header is not None and header.get("kind") != "subagent":
            from streamview.sources import gemini_session_follow

            return gemini_session_follow.source(path)
        return None
    from streamview.sources import gemini_session_files

    subagents = _unchanged(path, gemini_session_files.session_records)
    if not replay and subagents() is not None:
        # A Gemini CLI session's subagents record sessions of their own.
        return WholeSessionSource(path, subagents, follow)
    if gemini_jsonl_folded(path) is not None:
        # Messages taken back (a /rewind): read whole, what is left shown.
        return WholeSessionSource(path, lambda: gemini_jsonl_folded(path), follow)
    if replay:
        return None
    from streamview.sources import claude_session_files, codex_session_files, cursor_session_files

    for records in (
        claude_session_files.session_records,
        codex_session_files.session_records,
        cursor_session_files.session_records,
    ):
        read = _unchanged(path, records)
        if read() is not None:  # else read as its file
            return WholeSessionSource(path, read, follow)
    return None


def _unchanged(path: Path, read: Callable[[Path], Records | None]) -> Callable[[], Records | None]:
    """``read(path)``, read again only when the file changed (its size or time): the
    viewer peeks at a source before it reads it, and a session may be hundreds of MB."""
    memo: dict[tuple[int, int], Records | None] = {}

    def reader() -> Records | None:
        try:
            status = os.stat(path)
        except OSError:
            return None
        stamp = (status.st_size, status.st_mtime_ns)
        if stamp not in memo:
            memo.clear()
            memo[stamp] = read(path)
        return memo[stamp]

    return reader


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
