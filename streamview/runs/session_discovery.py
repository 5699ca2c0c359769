"""Every run on this machine: agents' interactive session files, ``streamview run``
recordings and folders of NDJSON jobs, each described from a bounded read.

Where each agent keeps its sessions (``../shared/design/session-files.md``):

- Claude Code: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``, ``projects/**/*.jsonl``;
- Codex: ``$CODEX_HOME`` or ``~/.codex``, ``sessions/**/rollout-*.jsonl``;
- Gemini CLI: ``$GEMINI_CLI_HOME/.gemini`` or ``~/.gemini``, ``tmp/**/session-*.json[l]``;
- Cursor: ``~/.cursor/projects/*/agent-transcripts/**/*.jsonl`` (and ``*.txt``);
- opencode: ``$XDG_DATA_HOME/opencode`` or ``~/.local/share/opencode``,
  ``storage/session/**/ses_*.json`` and ``opencode.db`` (listed as one run: what it
  holds is read by its dialect, not here).

Subagents' transcripts are not runs of their own here: their parent session is listed.

A file is never read whole when it is big: its first :data:`HEAD_BYTES` and last
:data:`TAIL_BYTES` are. The head, folded by the stream's own dialect
(:func:`~streamview.core.reader.fold`), names the agent and the first prompt; the
counts (calls, errors, tokens) are given only when the file was read whole, and are
``None`` (shown as a dash) otherwise, but for a running total of tokens found in the
tail (:mod:`streamview.runs.session_heads` reads the few fields the records give). Nothing
here writes, moves or sends anything. No UI library is imported.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from streamview.runs.session_heads import (
    Head,
    cursor_project,
    read_head,
    records,
    running_total_tokens,
)
from streamview.runs.session_places import (
    FOLDER,
    RECORDING,
    SESSION,
    RunFile,
    agent_homes,
    folder_files,
    is_subagent,
    recording_files,
    session_files,
)
from streamview.sources.session_source import is_sqlite

__all__ = [  # where the files are is found in session_places; named here as before
    "FOLDER",
    "RECORDING",
    "SESSION",
    "DescribeCache",
    "RunEntry",
    "RunFile",
    "agent_homes",
    "bounded_read",
    "describe",
    "discover",
    "folder_files",
    "is_subagent",
    "recording_files",
    "session_files",
    "shorten",
]

HEAD_BYTES = 64 << 10
"""Bytes read from the start of a file (its agent, project, title, first prompt)."""
TAIL_BYTES = 256 << 10
"""Bytes read from the end of a file (its last records)."""
LIVE_SECONDS = 30.0
"""A run whose file changed this recently is live."""
TITLE_LIMIT = 200
"""Characters of a title or prompt kept."""
FAILED_STATUSES = ("failed", "error", "rejected")
"""Tool call statuses counted as errors."""


DescribeCache = dict[Path, tuple[tuple[int, int], "RunEntry"]]
"""What :func:`discover` read of each file, with the file's size and mtime (ns) then."""


@dataclass(frozen=True)
class RunEntry:
    """One run of the list: what a bounded read of its file said (``None``: unknown)."""

    path: Path
    source: str
    agent: str
    project: str | None
    """The run's directory, the home directory shortened to ``~``."""
    title: str | None
    """Its title (a session's summary) or its first prompt."""
    started: float | None
    """Epoch seconds of its first record (else ``None``)."""
    last_activity: float
    """Epoch seconds the file last changed."""
    size: int
    live: bool
    calls: int | None = None
    errors: int | None = None
    tokens: int | None = None
    problem: str | None = None
    """Why the file could not be read (``permission denied``...), else ``None``."""
    pending: bool = False
    """Not read yet: a first pass ran out of time before it (its place and size are
    known, the rest comes on the next pass)."""
    parent: str | None = None
    """The session that spawned this one: it is read inside its parent, under the call
    that started it, and not listed on its own (as a Claude subagent's file is not)."""

    def as_json(self) -> dict[str, Any]:
        """The entry as ``streamview sessions --json`` writes it."""
        return {
            "agent": self.agent,
            "source": self.source,
            "path": str(self.path),
            "project": self.project,
            "title": self.title,
            "started": self.started,
            "last_activity": self.last_activity,
            "size": self.size,
            "live": self.live,
            "calls": self.calls,
            "errors": self.errors,
            "tokens": self.tokens,
            "problem": self.problem,
        }


def bounded_read(path: Path) -> tuple[bytes, bytes, bool]:
    """The head and the tail of a file, and whether they are all of it.

    Never more than :data:`HEAD_BYTES` + :data:`TAIL_BYTES` + 1 bytes are read, whatever
    the file's size (a 2 GB session costs what a 320 KB one does). A file that shrinks
    or is rewritten while it is read gives what could be read: the tail is taken from
    where the end is found, never from before the head's end.

    Returns:
        ``(head, tail, whole)``: when ``whole``, ``head`` is the file and ``tail`` empty.
        The head ends at its last newline and the tail starts after its first one, so
        neither holds a cut line.
    """
    with path.open("rb") as file:
        if os.fstat(file.fileno()).st_size > HEAD_BYTES + TAIL_BYTES:
            head = file.read(HEAD_BYTES)
            if len(head) < HEAD_BYTES:  # truncated since: what is left is all of it
                return head, b"", True
        else:
            data = file.read(HEAD_BYTES + TAIL_BYTES + 1)
            if len(data) <= HEAD_BYTES + TAIL_BYTES:
                return data, b"", True
            head = data[:HEAD_BYTES]  # it grew since: read as a big one
        end = file.seek(0, os.SEEK_END)  # truncated meanwhile: no tail before the head
        file.seek(max(end - TAIL_BYTES, HEAD_BYTES))
        tail = file.read(TAIL_BYTES)
    head = head[: head.rfind(b"\n") + 1]
    tail = tail[tail.find(b"\n") + 1 :]
    return head, tail, False


def _lines_with(data: bytes, *needles: bytes, most: int = 64) -> bytes:
    """The lines of ``data`` holding any of ``needles`` (the last ``most`` of each), in
    their order: a tail's few records worth decoding (a title, a running total), found
    without splitting or decoding the others."""
    found: dict[int, bytes] = {}
    for needle in needles:
        at = data.rfind(needle)
        for _ in range(most):
            if at < 0:
                break
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            found[start] = data[start : len(data) if end < 0 else end]
            at = data.rfind(needle, 0, start)
    return b"\n".join(found[start] for start in sorted(found))


def shorten(path: str | None, home: str | None = None) -> str | None:
    """``path`` with the home directory written ``~``."""
    if not path:
        return None
    home = home if home is not None else os.environ.get("HOME") or str(Path.home())
    home = home.rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def _one_line(text: str | None) -> str | None:
    if not text:
        return None
    line = " ".join(text.split())
    return line[:TITLE_LIMIT] or None


def is_live(
    found: RunFile, mtime: float, now: float | None = None, live_seconds: float = LIVE_SECONDS
) -> bool:
    """Whether a run is going on: its file changed in the last ``live_seconds``, or (a
    recording) a ``streamview run`` holds it."""
    now = time.time() if now is None else now
    if now - mtime <= live_seconds:
        return True
    if found.source == RECORDING:
        from streamview.runs.recording_files import recording_held

        return recording_held(found.path)
    return False


def describe(
    found: RunFile,
    now: float | None = None,
    live_seconds: float = LIVE_SECONDS,
    status: os.stat_result | None = None,
) -> RunEntry:
    """What a bounded read of one run's file says (never more than
    :data:`HEAD_BYTES` + :data:`TAIL_BYTES` of it).

    A file that cannot be read (permission denied) is described all the same, from its
    place and size, with the reason in :attr:`RunEntry.problem` and its title.

    Raises:
        OSError: The file cannot be stat'ed (``status`` not given), or it was deleted
            before it was read.
    """
    from streamview.core.dialects import label_of

    stat = found.path.stat() if status is None else status
    live = is_live(found, stat.st_mtime, now, live_seconds)
    agent = label_of(found.agent) if found.agent else None
    head_info = Head()
    calls = errors = tokens = None
    problem: str | None = None
    if found.path.suffix in (".json", ".jsonl", ".ndjson", ".txt"):
        try:
            head, tail, whole = bounded_read(found.path)
        except FileNotFoundError:  # deleted since it was found: not a run any more
            raise
        except OSError as error:  # listed all the same, with the reason
            head, tail, whole = b"", b"", False
            problem = f"unreadable: {error.strerror or error}"
        head_info = read_head(records(head))
        if head_info.title is None and tail:  # a title given late (Claude's summary)
            head_info.title = read_head(records(_lines_with(tail, b'"summary"', b'"title"'))).title
        # The dialect's fold names the agent and counts the calls of a file read whole;
        # of a big file whose place names its agent, the head said all it can.
        if whole or agent is None or not (head_info.project and head_info.prompt):
            folded = _fold(head, whole)
            if folded is not None:
                named, prompt, cwd, counts = folded
                agent = agent or named
                head_info.prompt = head_info.prompt or prompt
                head_info.project = head_info.project or cwd
                if counts is not None:
                    calls, errors, tokens = counts
        if tokens is None:  # a session's running total, written as it goes
            tokens = running_total_tokens(records(_lines_with(tail or head, b'"token_count"')))
    elif found.agent == "opencode" and is_sqlite(found.path):
        calls, errors, tokens = _from_database(found.path, head_info)
    if found.source == RECORDING:
        _from_sidecar(found.path, head_info)
    if head_info.project is None and found.agent == "cursor":
        head_info.project = cursor_project(found.path)
    return RunEntry(
        path=found.path,
        source=found.source,
        agent=agent or "?",
        project=shorten(head_info.project),
        title=_one_line(problem or head_info.title or head_info.prompt),
        started=head_info.started,
        last_activity=stat.st_mtime,
        size=stat.st_size,
        live=live,
        calls=calls,
        errors=errors,
        tokens=tokens,
        problem=problem,
        parent=head_info.parent,
    )


Counts = tuple[int, int, int | None]
"""Calls, failed calls and tokens of a run read whole."""


def _fold(
    head: bytes, whole: bool
) -> tuple[str | None, str | None, str | None, Counts | None] | None:
    """The agent, first prompt and folder the dialect's fold of ``head`` finds, and the
    counts when ``head`` is the whole file (``None``: no dialect reads it)."""
    from streamview.core.dialects import label_of
    from streamview.core.reader import fold
    from streamview.core.state import StreamState

    try:
        state = fold([head], StreamState(track_changes=False, compact=True))
    except Exception:  # a file no dialect reads: its place still names it
        return None
    if not state.sessions:
        return None
    session = state.sessions[0]
    named = label_of(session.agent) if session.agent else None
    counts = None
    if whole and named:  # an unrecognised file's zero calls would mislead
        calls = sum(len(each.tool_calls) for each in state.sessions)
        errors = sum(
            1
            for each in state.sessions
            for call in each.tool_calls
            if call.status in FAILED_STATUSES
        )
        counts = (calls, errors, _tokens(state.sessions))
    return named, session.prompt, session.cwd, counts


def _from_database(path: Path, head_info: Head) -> tuple[int | None, int | None, int | None]:
    """opencode's database, listed as its newest session: title, folder, start, and
    its calls, failed calls and tokens."""
    from streamview.sources.opencode_db import newest

    found = newest(path)
    if found is None:
        return None, None, None
    head_info.title, head_info.project = found.title, found.directory
    head_info.started = None if found.started_ms is None else found.started_ms / 1000
    return found.calls, found.errors, found.tokens


def _from_sidecar(recording: Path, head_info: Head) -> None:
    """What ``streamview run`` noted beside a recording fills in what its stream did not
    say: the agent's folder, when it started, its command line for a title."""
    from streamview.runs.run_meta import read_meta

    meta = read_meta(recording)
    if meta is None:
        return
    head_info.project = head_info.project or meta.cwd or None
    head_info.started = head_info.started or meta.started or None
    head_info.prompt = head_info.prompt or meta.source or None


def _tokens(sessions: Iterable[Any]) -> int | None:
    """Input plus output tokens the sessions' outcomes report, ``None`` if none does."""
    from streamview.core.usage import normalized_usage

    total = None
    for session in sessions:
        usage = normalized_usage(session.outcome.usage)
        counted = [usage.get("input_tokens"), usage.get("output_tokens")]
        if any(isinstance(value, int) for value in counted):
            total = (total or 0) + sum(value for value in counted if isinstance(value, int))
    return total


def discover(
    env: Mapping[str, str] | None = None,
    runs_folder: Path | None = None,
    folders: Iterable[Path] = (),
    now: float | None = None,
    live_seconds: float = LIVE_SECONDS,
    cache: DescribeCache | None = None,
    budget: float | None = None,
    agents: bool = True,
) -> list[RunEntry]:
    """Every run found, newest activity first.

    The files are found and stat'ed first, then read newest first: with a ``budget``,
    the reading stops when it is spent, and the runs not read yet are listed from
    their place and size (:attr:`RunEntry.pending`), to be read by a later call with
    the same ``cache``. The first screen of a list is its newest runs: they are read
    first.

    Args:
        env: The environment naming the agents' folders (``os.environ``).
        runs_folder: Where ``streamview run`` records (``None``: none listed).
        folders: ``--dir`` folders, one NDJSON file per job.
        now: Epoch seconds to judge liveness by (tests pass a fixed one).
        live_seconds: A file changed this recently is live.
        cache: What earlier calls read, by path: a file of the same size and mtime is
            not read again (only its live mark is judged anew).
        budget: Seconds this call may spend reading files (``None``: read them all).
        agents: List the agents' session files (``streamview runs``: only recordings).
    """
    found: list[RunFile] = list(session_files(env)) if agents else []
    if runs_folder is not None:
        found.extend(recording_files(runs_folder))
    for folder in folders:
        found.extend(folder_files(folder))
    now = time.time() if now is None else now
    stated: list[tuple[RunFile, os.stat_result]] = []
    seen: set[Path] = set()
    for run in found:
        if run.path in seen:
            continue
        seen.add(run.path)
        try:
            stated.append((run, _status(run.path)))
        except OSError:
            continue  # gone between the listing and the stat
    stated.sort(key=lambda each: (each[1].st_mtime, str(each[0].path)), reverse=True)
    deadline = None if budget is None else time.monotonic() + budget
    entries = []
    for run, status in stated:
        entry = _described(run, status, now, live_seconds, cache, deadline)
        if entry is not None and entry.parent is None:
            entries.append(entry)
    if cache is not None:
        for gone in cache.keys() - seen:
            del cache[gone]
    entries.sort(key=lambda entry: (entry.last_activity, str(entry.path)), reverse=True)
    return entries


def _status(path: Path) -> os.stat_result:
    """A file's ``stat``; a database's with its write-ahead log counted in (opencode
    writes the log as it goes; the database file changes only at a checkpoint), so a
    session going on is live and read again."""
    status = path.stat()
    if path.suffix != ".db":
        return status
    try:
        wal = path.with_name(path.name + "-wal").stat()
    except OSError:
        return status
    newest = wal if wal.st_mtime_ns > status.st_mtime_ns else status
    fields = (*tuple(status)[:6], status.st_size + wal.st_size)
    times = (int(status.st_atime), int(newest.st_mtime), int(status.st_ctime))
    return os.stat_result(
        (*fields, *times), {"st_mtime": newest.st_mtime, "st_mtime_ns": newest.st_mtime_ns}
    )


def _described(
    run: RunFile,
    status: os.stat_result,
    now: float,
    live_seconds: float,
    cache: DescribeCache | None,
    deadline: float | None,
) -> RunEntry | None:
    """:func:`describe`, unless ``cache`` holds the file as it is now, or the
    ``deadline`` has passed (then a pending entry); ``None`` if the file went."""
    key = (status.st_size, status.st_mtime_ns)
    known = cache.get(run.path) if cache is not None else None
    live = is_live(run, status.st_mtime, now, live_seconds)
    if known is not None and known[0] == key:
        return replace(known[1], live=live, last_activity=status.st_mtime, size=status.st_size)
    if deadline is not None and time.monotonic() > deadline:
        return pending(run, status, live)
    try:
        entry = describe(run, now, live_seconds, status)
    except OSError:
        return None
    if cache is not None:
        cache[run.path] = (key, entry)
    return entry


def pending(run: RunFile, status: os.stat_result, live: bool) -> RunEntry:
    """A run not read yet, described by its place and size alone."""
    from streamview.core.dialects import label_of

    return RunEntry(
        path=run.path,
        source=run.source,
        agent=(label_of(run.agent) if run.agent else None) or "?",
        project=shorten(cursor_project(run.path)) if run.agent == "cursor" else None,
        title=None,
        started=None,
        last_activity=status.st_mtime,
        size=status.st_size,
        live=live,
        pending=True,
    )
