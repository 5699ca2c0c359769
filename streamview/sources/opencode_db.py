"""opencode's session store: a SQLite database, read only.

opencode 1.x keeps every session in ``~/.local/share/opencode/opencode.db``
(``packages/opencode/src/session/session.sql.ts`` of anomalyco/opencode, formerly
sst/opencode): tables ``session`` (``id``, ``parent_id``, ``directory``, ``title``,
``version``, token and cost totals, ``time_created``/``time_updated``), ``message``
(``id``, ``session_id``, times, ``data``: the message's JSON without its ids) and
``part`` (``id``, ``message_id``, ``session_id``, times, ``data``: the part's JSON, a
tool call and its result being ONE part updated in place). The JSON files of the older
releases (``storage/session``, ``storage/message``, ``storage/part``) are migrated
into it and no longer written.

The database is opened with :mod:`sqlite3` through a ``file:...?mode=ro`` URI (and
``immutable=1`` while no opencode has it open, see :func:`connect`): never written,
never created, never locked for writing, no file made beside it. One session is handed on as lines
(:class:`~streamview.sources.session_source.WholeSessionSource`): the session row, then each
message followed by its parts, in the order opencode shows them. Without a session id
the most recently updated top-level session is read.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

import orjson

from streamview.sources.session_source import Records, WholeSessionSource


def connect(path: Path) -> sqlite3.Connection:
    """The database at ``path``, opened read-only (it is never written).

    opencode keeps it in WAL mode. With no ``-wal`` file beside it (no opencode has it
    open), even a ``mode=ro`` reader creates the ``-wal`` and ``-shm`` files and leaves
    them (seen with SQLite 3.40): it is then opened ``immutable`` as well, which
    creates nothing (a writer that starts meanwhile makes a ``-wal``, and the next
    read, plainly ``mode=ro``, sees its changes).
    """
    resolved = path.resolve()
    immutable = "" if resolved.with_name(resolved.name + "-wal").exists() else "&immutable=1"
    uri = f"file:{quote(str(resolved))}?mode=ro{immutable}"
    connection = sqlite3.connect(uri, uri=True, timeout=1.0, check_same_thread=False)
    connection.execute("PRAGMA query_only = ON")
    return connection


def _json(text: object) -> object:
    if not isinstance(text, str | bytes):
        return None
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return None


def newest_session(connection: sqlite3.Connection) -> str | None:
    """The id of the top-level session updated last, if any."""
    row = connection.execute(
        "SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_updated DESC LIMIT 1"
    ).fetchone()
    return None if row is None else str(row[0])


def read_session(path: Path, session_id: str | None = None) -> Records | None:
    """One session of the database as records (``None`` if it cannot be read now)."""
    try:
        connection = connect(path)
    except sqlite3.Error:
        return None
    try:
        return _records(connection, session_id)
    except sqlite3.Error:
        return None
    finally:
        connection.close()


def _records(connection: sqlite3.Connection, session_id: str | None) -> Records | None:
    sid = session_id or newest_session(connection)
    if sid is None:
        return None
    cursor = connection.execute(
        "SELECT id, parent_id, directory, title, version, time_created, time_updated "
        "FROM session WHERE id = ?",
        (sid,),
    )
    row = cursor.fetchone()
    if row is None:
        return None
    names = [column[0] for column in cursor.description]
    session = dict(zip(names, row, strict=True))
    records: Records = [(sid, orjson.dumps({"opencode": "session", **session}))]
    parts: dict[str, list[tuple[str, bytes]]] = {}
    for pid, mid, created, updated, data in connection.execute(
        "SELECT id, message_id, time_created, time_updated, data FROM part "
        "WHERE session_id = ? ORDER BY message_id, id",
        (sid,),
    ):
        record = {
            "opencode": "part",
            "id": pid,
            "message_id": mid,
            "time_created": created,
            "time_updated": updated,
            "data": _json(data),
        }
        parts.setdefault(mid, []).append((pid, orjson.dumps(record)))
    for mid, created, updated, data in connection.execute(
        "SELECT id, time_created, time_updated, data FROM message "
        "WHERE session_id = ? ORDER BY time_created, id",
        (sid,),
    ):
        record = {
            "opencode": "message",
            "id": mid,
            "session_id": sid,
            "time_created": created,
            "time_updated": updated,
            "data": _json(data),
        }
        records.append((mid, orjson.dumps(record)))
        records.extend(parts.get(mid, ()))
    return records


def source(path: Path, follow: bool = False, session_id: str | None = None) -> WholeSessionSource:
    """A session of the database at ``path`` (the newest, without ``session_id``) as a
    source; followed, re-read when the database or its write-ahead log changes."""
    wal = path.with_name(path.name + "-wal")
    return WholeSessionSource(path, lambda: read_session(path, session_id), follow, watched=(wal,))
