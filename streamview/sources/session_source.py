"""Session files that are not a stream of lines: read whole, handed on as lines.

Two agents keep their interactive sessions so:

- Gemini CLI before its JSONL (``session-*.json``): one pretty-printed object
  ``{sessionId, projectHash, startTime, lastUpdated, messages: [...]}``, rewritten
  whole on every change. It is handed on as the JSONL the CLI now writes for it
  (the header, then a message a line: ``rewriteConversationFile`` in
  ``chatRecordingService.ts``).
- opencode 1.x: a SQLite database (``~/.local/share/opencode/opencode.db``), read
  with :mod:`sqlite3` in read-only mode (``file:...?mode=ro``): never written, never
  locked for writing. See :mod:`streamview.sources.opencode_db`.

Followed (``--follow``), the file is read again whenever it changes, and only the
records that are new, or changed since they were handed on, are handed on again
(under the same id: the dialects fold by id, last wins), so a whole-file rewrite
never shows twice what was shown. A file caught half-written (it does not parse) is
waited for.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson

from streamview.sources.base import POLL_SECONDS, InputError, Source

SQLITE_MAGIC = b"SQLite format 3\x00"
Records = list[tuple[str, bytes]]
"""A session read whole: each record's id and its JSON line, in order."""


def gemini_records(path: Path) -> Records | None:
    """A legacy Gemini CLI session (one JSON object), as its JSONL records; ``None`` if
    the file is not one (or is caught half-written)."""
    try:
        whole = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(whole, dict) or not isinstance(whole.get("messages"), list):
        return None
    if not isinstance(whole.get("sessionId"), str):
        return None
    header = {key: value for key, value in whole.items() if key != "messages"}
    records: Records = [("$header", orjson.dumps(header))]
    for number, message in enumerate(whole["messages"]):
        key = message.get("id") if isinstance(message, dict) else None
        records.append((key if isinstance(key, str) else f"#{number}", orjson.dumps(message)))
    return records


def _gemini_header(line: bytes) -> bool:
    """Whether ``line`` is a Gemini CLI session's first record (its header)."""
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return (
        isinstance(record, dict)
        and "type" not in record
        and isinstance(record.get("sessionId"), str)
        and isinstance(record.get("projectHash"), str)
    )


def gemini_jsonl_folded(path: Path) -> Records | None:
    """A Gemini CLI JSONL session whose records take messages back (``$rewindTo``, or
    ``$set.messages`` replacing them all), folded as ``loadConversationRecord`` folds
    it: what is left, in order, with each ``$rewindTo`` kept where it came (the dialect
    says it in the event log). ``None`` for a file that takes nothing back (it is read
    as the stream it is) or that is not one."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 16)
            if not _gemini_header(first):  # another agent's file: not read whole
                return None
            data = first + handle.read()
    except OSError:
        return None
    if b'"$rewindTo"' not in data and b'"messages"' not in data:
        return None
    order: dict[str, bytes] = {}
    header: dict[str, object] | None = None
    for number, line in enumerate(data.splitlines()):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            order[f"#{number}"] = line  # shown as the malformed line it is
            continue
        if not isinstance(record, dict):
            order[f"#{number}"] = line
        elif isinstance(record.get("$rewindTo"), str):
            keys = list(order)
            cut = keys.index(record["$rewindTo"]) if record["$rewindTo"] in keys else 0
            for key in keys[cut:]:
                if not key.startswith("#"):
                    del order[key]
            order[f"#{number}"] = line
        elif isinstance(record.get("$set"), dict) and isinstance(
            record["$set"].get("messages"), list
        ):
            for key in [k for k in order if not k.startswith("#")]:
                del order[key]
            for message in record["$set"]["messages"]:
                if isinstance(message, dict) and isinstance(message.get("id"), str):
                    order[message["id"]] = orjson.dumps(message)
        elif isinstance(record.get("id"), str):
            order.pop(record["id"], None)  # last wins, where it last came
            order[record["id"]] = line
        elif header is None and isinstance(record.get("sessionId"), str):
            header = record
        else:
            order[f"#{number}"] = line
    if header is None:
        return None
    return [("$header", orjson.dumps(header)), *order.items()]


def is_whole_gemini(path: Path) -> bool:
    """Whether ``path`` is a legacy Gemini CLI session: its first line is no JSON
    object of its own (the object is pretty-printed), and the whole file is one."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    first = head.lstrip().split(b"\n", 1)[0].strip()
    if not first.startswith(b"{"):
        return False
    try:
        orjson.loads(first)
        return False  # a JSON line: a stream, read as one
    except orjson.JSONDecodeError:
        pass
    return b'"sessionId"' in head and gemini_records(path) is not None


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` is a SQLite database."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


class WholeSessionSource(Source):
    """A session read whole (:func:`gemini_records`, an opencode database), handed on
    as lines; followed, re-read on change and only what changed handed on again.

    Args:
        path: The session file (or database).
        read: Reads it whole into records, or ``None`` when it cannot be read now.
        follow: Keep reading it as it changes.
        label: What the user knows it as (the path, by default).
        watched: The files whose change means a re-read (the database's ``-wal``...).
    """

    def __init__(
        self,
        path: Path,
        read: Callable[[], Records | None],
        follow: bool = False,
        label: str | None = None,
        watched: tuple[Path, ...] = (),
    ) -> None:
        self._file = path
        self._read = read
        self.follow = follow
        self.live = follow
        self.label = label or str(path)
        self._watched = (path, *watched)
        self._sent: dict[str, bytes] = {}
        self._history = False

    @property
    def history(self) -> bool:
        """The first read's records were written before the session was opened."""
        return self._history

    def _stamp(self) -> tuple[tuple[int, int, int], ...]:
        stamps = []
        for path in self._watched:
            try:
                status = os.stat(path)
                stamps.append((status.st_ino, status.st_size, status.st_mtime_ns))
            except OSError:
                stamps.append((0, 0, 0))
        return tuple(stamps)

    def _changed(self, records: Records) -> bytes:
        """The lines of the records not handed on yet, or changed since."""
        out: list[bytes] = []
        for key, line in records:
            if self._sent.get(key) != line:
                self._sent[key] = line
                out.append(line + b"\n")
        return b"".join(out)

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """The session's records as lines; following, what changes as it changes.

        Each call reads the session from its start (the viewer peeks at the input
        before it reads it)."""
        self._sent = {}
        records = self._read()
        if records is None and not self.follow:
            raise InputError(f"{self.label}: not a session streamview can read")
        stamp = self._stamp()
        if records is not None:
            data = self._changed(records)
            if data:
                self._history = True
                yield data
        self._history = False
        while self.follow and not stop.is_set():
            time.sleep(POLL_SECONDS)
            now = self._stamp()
            if now == stamp:
                continue
            records = self._read()
            if records is None:  # caught half-written: wait for the writer to finish
                continue
            stamp = now
            data = self._changed(records)
            if data:
                yield data
