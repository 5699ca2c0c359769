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
from collections.abc import Iterable, Iterator, Mapping
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

HEAD_BYTES = 64 << 10
"""Bytes read from the start of a file (its agent, project, title, first prompt)."""
TAIL_BYTES = 256 << 10
"""Bytes read from the end of a file (its last records)."""
LIVE_SECONDS = 30.0
"""A run whose file changed this recently is live."""
RECORDING = "recording"
"""The source of a ``streamview run`` recording."""
SESSION = "session"
"""The source of an agent's interactive session file."""
FOLDER = "folder"
"""The source of a file found in a ``--dir`` folder."""
TITLE_LIMIT = 200
"""Characters of a title or prompt kept."""
FAILED_STATUSES = ("failed", "error", "rejected")
"""Tool call statuses counted as errors."""


DescribeCache = dict[Path, tuple[tuple[int, int], "RunEntry"]]
"""What :func:`discover` read of each file, with the file's size and mtime (ns) then."""


@dataclass(frozen=True)
class RunFile:
    """A file that holds a run, before it is read."""

    path: Path
    agent: str | None
    """The agent its place says (``claude``, ``codex``...), ``None`` when only its
    content can tell (recordings, ``--dir`` files)."""
    source: str
    """:data:`SESSION`, :data:`RECORDING` or :data:`FOLDER`."""


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
        }


def agent_homes(env: Mapping[str, str] | None = None) -> dict[str, Path]:
    """The folder of each agent's sessions, where its settings put it."""
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or Path.home())
    data = Path(env.get("XDG_DATA_HOME") or home / ".local" / "share")
    gemini_home = Path(env["GEMINI_CLI_HOME"]) if env.get("GEMINI_CLI_HOME") else home
    return {
        "claude": Path(env.get("CLAUDE_CONFIG_DIR") or home / ".claude") / "projects",
        "codex": Path(env.get("CODEX_HOME") or home / ".codex") / "sessions",
        "gemini": gemini_home / ".gemini" / "tmp",
        "cursor": home / ".cursor" / "projects",
        "opencode": data / "opencode",
    }


def _files(folder: Path, pattern: str) -> Iterator[Path]:
    """Regular files under ``folder`` matching ``pattern``; an unreadable folder or a
    symlink loop yields what could be listed."""
    try:
        for path in folder.glob(pattern):
            try:
                if path.is_file():
                    yield path
            except OSError:
                continue
    except OSError:
        return


def session_files(env: Mapping[str, str] | None = None) -> Iterator[RunFile]:
    """Every agent's interactive session files on this machine."""
    homes = agent_homes(env)
    layouts = {
        "claude": ("**/*.jsonl",),
        "codex": ("**/rollout-*.jsonl", "**/rollout-*.jsonl.zst"),
        "gemini": ("**/session-*.json", "**/session-*.jsonl"),
        "cursor": ("*/agent-transcripts/**/*.jsonl", "*/agent-transcripts/*.txt"),
        "opencode": ("storage/session/**/ses_*.json", "opencode.db"),
    }
    for agent, patterns in layouts.items():
        seen: set[Path] = set()
        for pattern in patterns:
            for path in _files(homes[agent], pattern):
                if is_subagent(path):
                    continue  # its parent session is the run listed
                if path not in seen:
                    seen.add(path)
                    yield RunFile(path, agent, SESSION)


def is_subagent(path: Path) -> bool:
    """Whether a session file is a subagent's transcript (Claude's ``agent-<id>.jsonl``
    beside its session or in ``<session>/subagents/``, Cursor's ``subagents/``)."""
    return path.name.startswith("agent-") or "subagents" in path.parts[-3:]


def recording_files(folder: Path) -> Iterator[RunFile]:
    """``streamview run``'s recordings in ``folder``."""
    for path in _files(folder, "*.ndjson"):
        yield RunFile(path, None, RECORDING)


def folder_files(folder: Path) -> Iterator[RunFile]:
    """The NDJSON files of a ``--dir`` folder (one per job), its subfolders' too."""
    for pattern in ("**/*.ndjson", "**/*.jsonl"):
        for path in _files(folder, pattern):
            yield RunFile(path, None, FOLDER)


def bounded_read(path: Path) -> tuple[bytes, bytes, bool]:
    """The head and the tail of a file, and whether they are all of it.

    Returns:
        ``(head, tail, whole)``: when ``whole``, ``head`` is the file and ``tail`` empty.
        The head ends at its last newline and the tail starts after its first one, so
        neither holds a cut line.
    """
    with path.open("rb") as file:
        data = file.read(HEAD_BYTES + TAIL_BYTES + 1)
        if len(data) <= HEAD_BYTES + TAIL_BYTES:
            return data, b"", True
        head = data[:HEAD_BYTES]
        file.seek(-TAIL_BYTES, os.SEEK_END)
        tail = file.read(TAIL_BYTES)
    head = head[: head.rfind(b"\n") + 1]
    tail = tail[tail.find(b"\n") + 1 :]
    return head, tail, False


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
    found: RunFile, now: float | None = None, live_seconds: float = LIVE_SECONDS
) -> RunEntry:
    """What a bounded read of one run's file says (never more than
    :data:`HEAD_BYTES` + :data:`TAIL_BYTES` of it).

    Raises:
        OSError: The file cannot be stat'ed.
    """
    from streamview.core.dialects import label_of
    from streamview.core.reader import fold
    from streamview.core.state import StreamState

    stat = found.path.stat()
    live = is_live(found, stat.st_mtime, now, live_seconds)
    agent = label_of(found.agent) if found.agent else None
    head_info = Head()
    calls = errors = tokens = None
    if found.path.suffix in (".json", ".jsonl", ".ndjson", ".txt"):
        problem: str | None = None
        try:
            head, tail, whole = bounded_read(found.path)
        except OSError as error:  # listed all the same, with the reason
            head, tail, whole = b"", b"", False
            problem = f"unreadable: {error.strerror or error}"
        head_info = read_head(records(head))
        head_info.title = problem or head_info.title
        if head_info.title is None and tail:  # a title given late (Claude's summary)
            head_info.title = read_head(records(tail)).title
        try:
            state = fold([head], StreamState(track_changes=False, compact=True))
        except Exception:  # a file no dialect reads: its place still names it
            state = None
        if state is not None and state.sessions:
            session = state.sessions[0]
            named = label_of(session.agent) if session.agent else None
            agent = agent or named
            head_info.prompt = head_info.prompt or session.prompt
            head_info.project = head_info.project or session.cwd
            if whole and named:  # an unrecognised file's zero calls would mislead
                calls = sum(len(each.tool_calls) for each in state.sessions)
                errors = sum(
                    1
                    for each in state.sessions
                    for call in each.tool_calls
                    if call.status in FAILED_STATUSES
                )
                tokens = _tokens(state.sessions)
        if tokens is None:  # a session's running total, written as it goes
            tokens = running_total_tokens(records(tail or head))
    if found.source == RECORDING:
        _from_sidecar(found.path, head_info)
    if head_info.project is None and found.agent == "cursor":
        head_info.project = cursor_project(found.path)
    return RunEntry(
        path=found.path,
        source=found.source,
        agent=agent or "?",
        project=shorten(head_info.project),
        title=_one_line(head_info.title or head_info.prompt),
        started=head_info.started,
        last_activity=stat.st_mtime,
        size=stat.st_size,
        live=live,
        calls=calls,
        errors=errors,
        tokens=tokens,
    )


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
    agents: bool = True,
) -> list[RunEntry]:
    """Every run found, newest activity first.

    Args:
        env: The environment naming the agents' folders (``os.environ``).
        runs_folder: Where ``streamview run`` records (``None``: none listed).
        folders: ``--dir`` folders, one NDJSON file per job.
        now: Epoch seconds to judge liveness by (tests pass a fixed one).
        live_seconds: A file changed this recently is live.
        cache: What earlier calls read, by path: a file of the same size and mtime is
            not read again (only its live mark is judged anew).
        agents: List the agents' session files (``streamview runs``: only recordings).
    """
    found: list[RunFile] = list(session_files(env)) if agents else []
    if runs_folder is not None:
        found.extend(recording_files(runs_folder))
    for folder in folders:
        found.extend(folder_files(folder))
    now = time.time() if now is None else now
    entries = []
    seen: set[Path] = set()
    for run in found:
        if run.path in seen:
            continue
        seen.add(run.path)
        try:
            entries.append(_described(run, now, live_seconds, cache))
        except OSError:
            continue  # gone between the listing and the read
    if cache is not None:
        for gone in cache.keys() - seen:
            del cache[gone]
    entries.sort(key=lambda entry: (entry.last_activity, str(entry.path)), reverse=True)
    return entries


def _described(
    run: RunFile, now: float, live_seconds: float, cache: DescribeCache | None
) -> RunEntry:
    """:func:`describe`, unless ``cache`` holds the file as it is now."""
    stat = run.path.stat()
    key = (stat.st_size, stat.st_mtime_ns)
    known = cache.get(run.path) if cache is not None else None
    if known is not None and known[0] == key:
        return replace(known[1], live=is_live(run, stat.st_mtime, now, live_seconds))
    entry = describe(run, now, live_seconds)
    if cache is not None:
        cache[run.path] = (key, entry)
    return entry
