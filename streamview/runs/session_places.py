"""Where the runs of this machine are kept, found without reading them: each agent's
session folder (where its settings put it), ``streamview run``'s recordings and
``--dir`` folders. Folders are walked with :func:`os.scandir`, symlinked folders
followed but each folder entered once (a symlink loop ends), an unreadable folder
skipped. See :mod:`streamview.runs.session_discovery` for what is read of each file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

RECORDING = "recording"
"""The source of a ``streamview run`` recording."""
SESSION = "session"
"""The source of an agent's interactive session file."""
FOLDER = "folder"
"""The source of a file found in a ``--dir`` folder."""


@dataclass(frozen=True)
class RunFile:
    """A file that holds a run, before it is read."""

    path: Path
    agent: str | None
    """The agent its place says (``claude``, ``codex``...), ``None`` when only its
    content can tell (recordings, ``--dir`` files)."""
    source: str
    """:data:`SESSION`, :data:`RECORDING` or :data:`FOLDER`."""


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


MAX_DEPTH = 32
"""Folders deeper than this under a ``--dir`` folder are not looked into."""
SESSION_DEPTH = 6
"""Folders deeper than this under an agent's folder are not looked into: the deepest
layout is Codex's ``sessions/YYYY/MM/DD/`` and Claude's ``<project>/<session>/subagents/``,
so a symlinked folder pointing far away (``/``, the home) costs a few levels at most."""


def _walk(folder: Path, max_depth: int = MAX_DEPTH) -> Iterator[os.DirEntry[str]]:
    """The entries of ``folder`` and of every folder under it, each folder once.

    Symlinked folders are followed (a project kept elsewhere is found), but a folder
    already seen (a symlink loop, or two links to one place) is not entered again;
    an unreadable folder yields nothing.
    """
    seen: set[tuple[int, int]] = set()
    stack = [(folder, 0)]
    while stack:
        directory, depth = stack.pop()
        try:
            status = directory.stat()
        except OSError:
            continue
        if (status.st_dev, status.st_ino) in seen:
            continue
        seen.add((status.st_dev, status.st_ino))
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            yield entry
            try:
                if depth < max_depth and entry.is_dir():
                    stack.append((Path(entry.path), depth + 1))
            except OSError:
                continue


def _children(folder: Path) -> Iterator[os.DirEntry[str]]:
    """The entries of ``folder`` (none when it cannot be listed)."""
    try:
        with os.scandir(folder) as entries:
            yield from list(entries)
    except OSError:
        return


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _files(folder: Path, pattern: str, max_depth: int = MAX_DEPTH) -> Iterator[Path]:
    """Regular files under ``folder`` matching ``pattern`` (``/``-separated parts of
    :func:`fnmatch` patterns; ``**`` any folders below, followed by a file name part);
    an unreadable folder or a symlink loop yields what could be listed."""
    head, _, rest = pattern.partition("/")
    if head == "**":
        for entry in _walk(folder, max_depth):
            if fnmatchcase(entry.name, rest) and _is_file(entry):
                yield Path(entry.path)
        return
    for entry in _children(folder):
        if not fnmatchcase(entry.name, head):
            continue
        if not rest:
            if _is_file(entry):
                yield Path(entry.path)
            continue
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            yield from _files(Path(entry.path), rest, max_depth - 1)


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
            for path in _files(homes[agent], pattern, SESSION_DEPTH):
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
