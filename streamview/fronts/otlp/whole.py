"""Sessions the watch reads whole: a legacy Gemini CLI session (one JSON object, the
whole file rewritten on each change) and opencode's database (SQLite, a session a row).

Neither grows by lines, so the watch's progress in them is no byte offset: a whole
file's is the digest of what it held when its spans were sent, a database session's
its rows' latest ``time_updated`` and their counts. Each is re-read whole when that
changes, and the span ids the ledger holds keep what was sent from going again. The
database is opened read-only (:func:`streamview.sources.opencode_db.connect`: a
``file:...?mode=ro`` URI) with a short busy timeout: a database the agent holds locked
is read at the next look. Such sessions are interactive (no result line ends them):
their root span goes once they are quiet.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.runs.session_discovery import LIVE_SECONDS
from streamview.sources.session_source import Records, gemini_records, is_sqlite

_SESSIONS = """
SELECT s.id, s.time_updated,
  (SELECT max(m.time_updated) FROM message m WHERE m.session_id = s.id),
  (SELECT max(p.time_updated) FROM part p WHERE p.session_id = s.id),
  (SELECT count(*) FROM message m WHERE m.session_id = s.id),
  (SELECT count(*) FROM part p WHERE p.session_id = s.id)
FROM session s WHERE s.parent_id IS NULL
"""
"""Each top-level session, with what says it changed: the latest ``time_updated`` of
its row, its messages and its parts, and how many of them there are (a part updated
in place moves its ``time_updated``; a row deleted moves a count)."""
BUSY_MS = 100
"""How long a read waits for a database the agent is writing, before the next look."""


@dataclass(frozen=True)
class WholeSession:
    """One session read whole, as a look at it found it."""

    key: str
    """Its name in the ledger: the file, or ``DATABASE#SESSION_ID``."""
    mark: str
    """What it holds now: a file's digest; a database session's latest ``time_updated``
    (of its row, messages and parts) and row counts."""
    live: bool
    """Changed within the live window: it may go on."""
    anchor_ms: int
    """When it last changed (epoch ms): the end of a session that says no time."""
    read: Callable[[], Records | None]
    """Its records now (``None``: cannot be read now, try at the next look)."""


def stamp_of(path: Path) -> tuple[int, ...]:
    """What says a file (and a database's write-ahead log) changed, cheaply."""
    stamps: list[int] = []
    for each in (path, path.with_name(path.name + "-wal")):
        try:
            status = each.stat()
        except OSError:
            stamps.extend((0, 0, 0))
            continue
        stamps.extend((status.st_ino, status.st_size, status.st_mtime_ns))
    return tuple(stamps)


def whole_sessions(path: Path, live: bool) -> list[WholeSession] | None:
    """The sessions of a file read whole, if it is one (else ``[]``); ``None`` when it
    cannot be read now (a database locked: the next look tries again)."""
    if is_sqlite(path):
        return _database_sessions(path)
    if path.suffix != ".json":
        return []
    try:
        data = path.read_bytes()
        changed_ms = path.stat().st_mtime_ns // 1_000_000
    except OSError:
        return None
    records = gemini_records(path)
    if records is None:  # not one, or caught half-written: its next change is read
        return []
    digest = hashlib.sha256(data).hexdigest()
    return [WholeSession(str(path), digest, live, changed_ms, lambda: records)]


def _database_sessions(path: Path) -> list[WholeSession] | None:
    from streamview.sources import opencode_db

    try:
        connection = opencode_db.connect(path)
    except sqlite3.Error:
        return None
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        rows = connection.execute(_SESSIONS).fetchall()
    except sqlite3.Error:  # locked, or not opencode's: the next look tries again
        return None
    finally:
        connection.close()
    now_ms = time.time() * 1000
    found = []
    for session_id, *marks in rows:
        if not isinstance(session_id, str):
            continue
        updated = max((m for m in marks[:3] if isinstance(m, int)), default=0)

        def read(session_id: str = session_id) -> Records | None:
            return opencode_db.read_session(path, session_id)

        live = now_ms - updated < LIVE_SECONDS * 1000
        mark = ":".join(str(m) for m in marks)
        found.append(WholeSession(f"{path}#{session_id}", mark, live, updated, read))
    return found


def folded(records: Records) -> StreamState:
    """The finished fold of a session's records (handed on as the lines they are)."""
    state = StreamState(track_changes=False)
    reader = EventReader()
    for event in reader.feed(b"".join(line + b"\n" for _, line in records)):
        state.apply(event)
    for event in reader.finish():
        state.apply(event)
    return state
