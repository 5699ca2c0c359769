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
message followed by its parts, in the order opencode shows them; a subagent's session
(a ``task`` call's) follows that call, each of its rows marked with the call's id under
``parent_tool_use_id``. Without a session id the most recently updated top-level session
is read.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Newest:
    """What the list of runs shows of a database: its newest top-level session."""

    title: str | None
    directory: str | None
    started_ms: int | None
    calls: int | None
    errors: int | None
    tokens: int | None


def newest(path: Path) -> Newest | None:
    """The newest top-level session's title, folder, start and counts (its own calls,
    not its subagents'); ``None`` if the database cannot be read now."""
    try:
        with closing(connect(path)) as connection:
            row = connection.execute(
                "SELECT id, title, directory, time_created, tokens_input + tokens_output "
                "FROM session WHERE parent_id IS NULL ORDER BY time_updated DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            sid, title, directory, created, tokens = row
            calls, errors = connection.execute(
                "SELECT count(*), coalesce(sum(json_extract(data, '$.state.status') = 'error'), 0)"
                " FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'tool'",
                (sid,),
            ).fetchone()
    except sqlite3.Error:
        return None
    return Newest(
        title if isinstance(title, str) else None,
        directory if isinstance(directory, str) else None,
        created if isinstance(created, int) else None,
        calls if isinstance(calls, int) else None,
        errors if isinstance(errors, int) else None,
        tokens if isinstance(tokens, int) and tokens > 0 else None,
    )


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


SUBAGENT_DEPTH = 4
"""How deep subagents' sessions are read inside the call that started them (a
subagent may start its own; a loop of ids is never followed)."""


def _records(connection: sqlite3.Connection, session_id: str | None) -> Records | None:
    sid = session_id or newest_session(connection)
    if sid is None:
        return None
    rows = _session_rows(connection, sid, 0, {sid})
    if rows is None:
        return None
    return [(key, orjson.dumps(record)) for key, record in rows]


def _child_session(part: object) -> tuple[str, str] | None:
    """``(call id, child session id)`` of a ``task`` call that started a subagent:
    opencode's task tool (``packages/opencode/src/tool/task.ts``) creates a session
    with ``parentID`` set and says its id in the call's ``state.metadata.sessionId``."""
    if not isinstance(part, dict) or part.get("type") != "tool":
        return None
    state = part.get("state")
    metadata = state.get("metadata") if isinstance(state, dict) else None
    child = metadata.get("sessionId") if isinstance(metadata, dict) else None
    call = part.get("callID")
    if isinstance(child, str) and isinstance(call, str):
        return call, child
    return None


def _session_rows(
    connection: sqlite3.Connection, sid: str, depth: int, seen: set[str]
) -> list[tuple[str, dict[str, object]]] | None:
    """Session ``sid``'s rows: its session row, then each message and its parts, each
    subagent's rows after the call that started it (marked ``parent_tool_use_id``)."""
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
    records: list[tuple[str, dict[str, object]]] = [(sid, {"opencode": "session", **session})]
    parts: dict[str, list[tuple[str, dict[str, object]]]] = {}
    for pid, mid, created, updated, data in connection.execute(
        "SELECT id, message_id, time_created, time_updated, data FROM part "
        "WHERE session_id = ? ORDER BY message_id, id",
        (sid,),
    ):
        part = _json(data)
        record: dict[str, object] = {
            "opencode": "part",
            "id": pid,
            "message_id": mid,
            "time_created": created,
            "time_updated": updated,
            "data": part,
        }
        kept = parts.setdefault(mid, [])
        kept.append((pid, record))
        child = _child_session(part)
        if child is not None and depth < SUBAGENT_DEPTH and child[1] not in seen:
            call, child_sid = child
            seen.add(child_sid)
            for key, nested in _session_rows(connection, child_sid, depth + 1, seen) or ():
                nested.setdefault("parent_tool_use_id", call)
                kept.append((key, nested))
    for mid, created, updated, data in connection.execute(
        "SELECT id, time_created, time_updated, data FROM message "
        "WHERE session_id = ? ORDER BY time_created, id",
        (sid,),
    ):
        message: dict[str, object] = {
            "opencode": "message",
            "id": mid,
            "session_id": sid,
            "time_created": created,
            "time_updated": updated,
            "data": _json(data),
        }
        records.append((mid, message))
        records.extend(parts.get(mid, ()))
    return records


def source(path: Path, follow: bool = False, session_id: str | None = None) -> WholeSessionSource:
    """A session of the database at ``path`` (the newest, without ``session_id``) as a
    source; followed, re-read when the database or its write-ahead log changes."""
    wal = path.with_name(path.name + "-wal")
    return WholeSessionSource(path, lambda: read_session(path, session_id), follow, watched=(wal,))
