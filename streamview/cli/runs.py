"""``streamview runs`` and ``streamview last``: the runs ``streamview run`` recorded.

Recordings live in ``user_state_dir("streamview")/runs`` (``$XDG_STATE_HOME`` on
Linux), one file per run, named ``YYYYmmdd-HHMMSS-PROGRAM.ndjson``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from streamview.cli.common import fail
from streamview.core.dialects import label_of
from streamview.core.exit_status import EXIT_SUCCESS
from streamview.core.model import ERROR, INCOMPLETE, RUNNING, SUCCESS
from streamview.core.reader import fold
from streamview.core.sanitize import one_line
from streamview.core.state import StreamState

FOLD_LIMIT_BYTES = 64 << 20
"""Recordings bigger than this are listed without reading them (outcome ``?``)."""
AGE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 7 * 86_400}
OUTCOME_MARK = {SUCCESS: "✓ success", ERROR: "✗ error", INCOMPLETE: "… no result"}


def runs_directory() -> Path:
    """Where ``streamview run`` records (it may not exist yet)."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("streamview")) / "runs"


def recordings(directory: Path | None = None) -> list[Path]:
    """Every recording, newest first."""
    folder = directory or runs_directory()
    try:
        files = [path for path in folder.glob("*.ndjson") if path.is_file()]
    except OSError:
        return []
    return sorted(files, key=lambda path: (path.stat().st_mtime, path.name), reverse=True)


@dataclass(frozen=True)
class RunInfo:
    """One line of ``streamview runs``."""

    path: Path
    started: float
    agent: str
    outcome: str
    size: int
    prompt: str


def describe(path: Path) -> RunInfo:
    """What a recording holds: agent, outcome, prompt (read whole, unless huge)."""
    stat = path.stat()
    agent, outcome, prompt = "?", "?", ""
    if stat.st_size <= FOLD_LIMIT_BYTES:
        try:
            state = fold([path.read_bytes()], StreamState(track_changes=False, compact=True))
        except OSError:
            state = None
        if state is not None and state.sessions:
            session = state.sessions[-1]
            agent = label_of(session.agent) or "?"
            status = session.outcome.status
            outcome = OUTCOME_MARK.get(status, "running" if status == RUNNING else status)
            prompt = next((s.prompt for s in state.sessions if s.prompt), "") or ""
        elif state is not None:
            outcome = "empty"
    return RunInfo(path, stat.st_mtime, agent, outcome, stat.st_size, prompt)


def human_size(size: int) -> str:
    """``532 B``, ``12 KB``, ``3.4 MB``."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def parse_age(text: str) -> float | None:
    """Seconds in ``30d``, ``12h``, ``2w``, ``90m``, ``45s``; ``None`` if unreadable."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", text.lower())
    if match is None:
        return None
    return float(match.group(1)) * AGE_UNITS[match.group(2)]


def list_runs(out: TextIO, directory: Path | None = None, width: int | None = None) -> int:
    """Print the recordings, newest first, numbered (1 is what ``last`` opens)."""
    folder = directory or runs_directory()
    found = recordings(folder)
    if not found:
        out.write(f"no recorded runs in {folder} (streamview run -- COMMAND records one)\n")
        return EXIT_SUCCESS
    width = width or shutil.get_terminal_size((100, 24)).columns
    infos = [describe(path) for path in found]
    agent_width = max(5, *(len(info.agent) for info in infos))
    outcome_width = max(7, *(len(info.outcome) for info in infos))
    noun = "run" if len(infos) == 1 else "runs"
    out.write(f"{len(infos)} recorded {noun} in {folder}, newest first:\n")
    head = f"{'#':>3}  {'started':<16}  {'agent':<{agent_width}}  {'outcome':<{outcome_width}}"
    out.write(f"{head}  {'size':>7}  prompt (file)\n")
    for number, info in enumerate(infos, 1):
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.started))
        line = (
            f"{number:>3}  {started:<16}  {info.agent:<{agent_width}}  "
            f"{info.outcome:<{outcome_width}}  {human_size(info.size):>7}  "
        )
        room = max(20, width - len(line) - 1)
        label = one_line(info.prompt, room) if info.prompt else f"({info.path.name})"
        out.write(line + label + "\n")
    return EXIT_SUCCESS


def prune_runs(age: str, out: TextIO, directory: Path | None = None) -> int:
    """Delete the recordings last written more than ``age`` ago; say how many."""
    seconds = parse_age(age)
    if seconds is None:
        return fail(f"--prune: not an age: {age!r} (e.g. 30d, 12h, 2w)")
    cutoff = time.time() - seconds
    removed = freed = 0
    for path in recordings(directory):
        try:
            stat = path.stat()
            if stat.st_mtime < cutoff:
                path.unlink()
                removed += 1
                freed += stat.st_size
        except OSError as error:
            return fail(f"cannot delete {path}: {error.strerror or error}")
    folder = directory or runs_directory()
    noun = "recording" if removed == 1 else "recordings"
    out.write(f"pruned {removed} {noun} ({human_size(freed)}) older than {age} from {folder}\n")
    return EXIT_SUCCESS


def main_runs(args: argparse.Namespace) -> int:
    """``streamview runs [--prune AGE]``."""
    if args.prune is not None:
        return prune_runs(args.prune, sys.stdout)
    return list_runs(sys.stdout)


def main_last(args: argparse.Namespace) -> int:
    """``streamview last [options]``: the latest recording, as ``streamview FILE``."""
    from streamview.cli.view import main_view

    found = recordings()
    if not found:
        return fail(f"no recorded runs in {runs_directory()} (streamview run -- COMMAND)")
    args.input = str(found[0])
    return main_view(["last", *sys.argv[2:]], args)
