"""What ``streamview sessions`` read of each run's file, kept between runs: a small
index under ``$XDG_CACHE_HOME/streamview/`` keyed by path, size and mtime, so a second
``streamview sessions`` reads again only the files that changed.

The index holds titles and first prompts (what the person typed): it is private, its
folder ``0700`` and the file ``0600``, written whole to a private temporary file and
moved into place, so a reader never sees half of one. A torn, corrupt, foreign or
too-large index is ignored (and rebuilt by the next save): it only ever saves reading.
A file whose read failed (permission denied) is not kept, so a fix is seen at once.
Session files themselves are never written here.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from streamview.runs.session_discovery import DescribeCache, RunEntry

INDEX_NAME = "sessions-index.json"
"""The index's file name, in ``$XDG_CACHE_HOME/streamview/``."""
FORMAT = 3
"""The index's format: an index of another format is ignored (2: a run's ``parent``;
3: opencode's database described by its newest session)."""
MAX_INDEX_BYTES = 64 << 20
"""An index larger than this is not read (about 200,000 runs' worth)."""
_FIELDS: dict[str, tuple[type, ...]] = {
    "source": (str,),
    "agent": (str,),
    "project": (str, type(None)),
    "title": (str, type(None)),
    "started": (float, int, type(None)),
    "calls": (int, type(None)),
    "errors": (int, type(None)),
    "tokens": (int, type(None)),
    "parent": (str, type(None)),
}
"""What an entry of the index holds besides its key, and the types each may have."""


def index_path(env: Mapping[str, str] | None = None) -> Path:
    """Where the index is: ``$XDG_CACHE_HOME/streamview/`` (``~/.cache`` by default)."""
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or Path.home())
    cache = env.get("XDG_CACHE_HOME") or ""
    base = Path(cache) if os.path.isabs(cache) else home / ".cache"
    return base / "streamview" / INDEX_NAME


def _entry(path: Path, row: Any) -> tuple[tuple[int, int], RunEntry] | None:
    """One row of the index as :class:`RunEntry` with its key, ``None`` if malformed."""
    if not isinstance(row, dict):
        return None
    size, mtime_ns = row.get("size"), row.get("mtime_ns")
    if not isinstance(size, int) or not isinstance(mtime_ns, int) or size < 0:
        return None
    fields: dict[str, Any] = {}
    for name, types in _FIELDS.items():
        value = row.get(name)
        if isinstance(value, bool) or not isinstance(value, types):
            return None
        fields[name] = value
    if fields["started"] is not None:
        fields["started"] = float(fields["started"])
    entry = RunEntry(path=path, last_activity=mtime_ns / 1e9, size=size, live=False, **fields)
    return (size, mtime_ns), entry


def load_index(path: Path) -> DescribeCache:
    """The index at ``path``, or an empty one when it is missing, torn, corrupt, of
    another format, not a private regular file of this user, or too large."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return {}
    try:
        status = os.fstat(fd)
        if (
            not stat.S_ISREG(status.st_mode)
            or status.st_uid != os.geteuid()
            or status.st_mode & 0o077
            or status.st_size > MAX_INDEX_BYTES
        ):
            return {}
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(MAX_INDEX_BYTES + 1)
    except OSError:
        return {}
    finally:
        os.close(fd)
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError:
        return {}
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return {}
    runs = document.get("runs")
    if not isinstance(runs, dict):
        return {}
    cache: DescribeCache = {}
    for name, row in runs.items():
        known = _entry(Path(name), row)
        if known is not None:
            cache[Path(name)] = known
    return cache


def _row(key: tuple[int, int], entry: RunEntry) -> dict[str, Any]:
    size, mtime_ns = key
    row: dict[str, Any] = {"size": size, "mtime_ns": mtime_ns}
    for name in _FIELDS:
        row[name] = getattr(entry, name)
    return row


def index_rows(cache: DescribeCache) -> dict[str, tuple[int, int]]:
    """Each kept run's key by path: what decides whether the index needs writing."""
    return {str(path): key for path, (key, entry) in cache.items() if entry.problem is None}


def save_index(path: Path, cache: DescribeCache) -> bool:
    """Write the index (the runs read without a problem), privately and whole.

    Returns:
        Whether it was written (a read-only or full cache folder is no error: the next
        ``streamview sessions`` reads the files again).
    """
    runs = {
        str(run): _row(key, entry) for run, (key, entry) in cache.items() if entry.problem is None
    }
    data = orjson.dumps({"format": FORMAT, "runs": runs})
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(temporary, flags | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        return False
    return True


class SessionIndex:
    """The index of one ``streamview sessions``: loaded once, saved when what it holds
    changed (the list finds the runs again every few seconds).

    Args:
        path: Where the index is (:func:`index_path`).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cache: DescribeCache = load_index(path)
        """What was read of each file, by path: handed to discovery, which fills it."""
        self._saved = index_rows(self.cache)

    def save(self) -> None:
        """Write the index if a run was read, changed or went since the last save."""
        rows = index_rows(self.cache)
        if rows != self._saved and save_index(self.path, self.cache):
            self._saved = rows
