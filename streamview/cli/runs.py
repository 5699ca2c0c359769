"""``streamview runs`` and ``streamview last``: the runs ``streamview run`` recorded.

Recordings live in ``user_state_dir("streamview")/runs`` (``$XDG_STATE_HOME`` on
Linux, a 0700 directory), one private file per run, named
``YYYYmmdd-HHMMSS-PROGRAM[-N].ndjson``, each with its sidecar
``….ndjson.meta.json`` (:mod:`streamview.runs.run_meta`): the agent's command, exit code,
stderr and how the run ended, which the listing shows beside the stream's outcome.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from streamview.cli.common import fail
from streamview.cli.runs_table import Row, table
from streamview.core.exit_status import EXIT_SUCCESS
from streamview.core.model import ERROR, INCOMPLETE, RUNNING, SUCCESS
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.runs.recording_files import recording_held
from streamview.runs.run_meta import (
    CRASHED,
    FAILED,
    FINISHED,
    STOPPED,
    RunMeta,
    read_note,
    unfinished,
)
from streamview.runs.session_discovery import RunEntry

FOLD_LIMIT_BYTES = 64 << 20
"""Recordings bigger than this are listed without reading them (outcome from the sidecar)."""
AGE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 7 * 86_400}
OUTCOME_MARK = {SUCCESS: "✓ success", ERROR: "✗ error", INCOMPLETE: "… no result"}
UNKNOWN = "? cut or unknown"
"""A run whose note was never completed (streamview killed, or a full disk), or is missing
beside an empty recording: it may have been cut, and how it ended is not known."""


def runs_directory() -> Path:
    """Where ``streamview run`` records (it may not exist yet)."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("streamview")) / "runs"


def recorded_runs(directory: Path | None = None) -> list[RunEntry]:
    """Every recording as ``streamview sessions`` lists it (one list, not two that can
    disagree: issue 27.2), newest first by when its run started (the sidecar's time,
    else the file's), so the list agrees with its "started" column and a run that
    failed at once is not ranked below longer runs started before it."""
    from streamview.runs.session_discovery import discover

    folder = directory or runs_directory()
    entries = discover(env={}, runs_folder=folder, agents=False)
    return sorted(entries, key=lambda e: (_started(e), e.path.name), reverse=True)


def recordings(directory: Path | None = None) -> list[Path]:
    """The recordings' files in :func:`recorded_runs`' order (``last N`` opens the Nth)."""
    return [entry.path for entry in recorded_runs(directory)]


def _started(entry: RunEntry) -> float:
    return entry.started or entry.last_activity


@dataclass(frozen=True)
class RunInfo:
    """One line of ``streamview runs``."""

    path: Path
    started: float
    agent: str
    outcome: str
    """How it ended: ``✓ success``, ``■ stopped (Ctrl+C)``, ``✗ failed (exit 3)``,
    ``✗ crashed (SIGSEGV)``, ``✂ cut: disk full``..."""
    exit_code: int | None
    size: int
    prompt: str
    meta: RunMeta | None = None


def describe(entry: RunEntry) -> RunInfo:
    """A recording as the sessions list describes it (agent, title, start, size), with
    how it ended: its stream's outcome (read whole, unless huge) and its sidecar."""
    path = entry.path
    meta = read_note(path)
    status, prompted = "?", False
    if entry.size <= FOLD_LIMIT_BYTES:
        try:
            state = fold([path.read_bytes()], StreamState(track_changes=False, compact=True))
        except OSError:
            state = None
        if state is not None and state.sessions:
            status = state.sessions[-1].outcome.status
            prompted = any(s.prompt for s in state.sessions)
        elif state is not None:
            status = "empty"
    outcome = outcome_of(status, meta, recording_held(path))
    exit_code = meta.exit_code if meta is not None else None
    prompt = entry.title or "" if prompted or meta is None or not meta.failed else ""
    return RunInfo(path, _started(entry), entry.agent, outcome, exit_code, entry.size, prompt, meta)


def outcome_of(status: str, meta: RunMeta | None, held: bool) -> str:
    """How a run ended, in one mark: its sidecar first (a cut recording, a stopped or
    crashed agent), then its stream (``✓ success``, ``… no result``).

    Args:
        status: The stream's outcome (``success``, ``error``, ``incomplete``,
            ``running``, ``empty``, ``?`` when not read).
        meta: The sidecar, if any.
        held: A streamview run is writing the recording now.
    """
    if meta is not None and meta.cut is not None:
        return f"✂ cut: {meta.cut}"
    if held:
        return "● recording"
    if meta is not None:
        if meta.ended == STOPPED:
            return f"■ {meta.how()}"  # stopped (Ctrl+C), stopped (SIGTERM)
        if meta.ended in (CRASHED, FAILED):
            return f"✗ {meta.how()}"  # failed (exit 3); crashed (SIGSEGV) for a signal
        if unfinished(meta):  # its streamview was killed, or the disk was full
            return UNKNOWN
        if status in ("?", "empty") and meta.ended == FINISHED:
            return "✓ finished" if status == "?" else "… no output"
    elif status == "empty":
        return UNKNOWN  # every run has a note: this one could not be written
    if status == RUNNING:
        return "… no result"  # the stream stops mid-run and no one is writing it
    return OUTCOME_MARK.get(status, status)


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
    """Print the recordings, newest first, numbered (``last N`` opens number N)."""
    folder = directory or runs_directory()
    found = recorded_runs(folder)
    if not found:
        out.write(f"no recorded runs in {folder} (streamview run -- COMMAND records one)\n")
        return EXIT_SUCCESS
    width = width or shutil.get_terminal_size((100, 24)).columns
    infos = [describe(entry) for entry in found]
    rows = [
        Row(
            number,
            info.started,
            info.agent,
            info.outcome,
            info.exit_code,
            human_size(info.size),
            info.path.name,
            evidence(info),
        )
        for number, info in enumerate(infos, 1)
    ]
    count = f"{len(infos)} recorded {'run' if len(infos) == 1 else 'runs'}"
    out.write("".join(line + "\n" for line in table(rows, width, count, str(folder))))
    return EXIT_SUCCESS


def evidence(info: RunInfo) -> str:
    """The prompt; for an agent that failed before it took one, its stderr's first line."""
    if info.prompt or info.meta is None or not info.meta.failed:
        return info.prompt
    reason = next((line for line in info.meta.stderr.splitlines() if line.strip()), "")
    return f"stderr: {reason.strip()}" if reason else ""


def main_runs(args: argparse.Namespace) -> int:
    """``streamview runs [--open N]`` (``--prune`` is :mod:`streamview.cli.prune`)."""
    if args.yes:  # --prune is streamview.cli.prune's
        return fail("runs: --yes goes with --prune AGE (it deletes without asking)")
    if args.open is not None:
        from streamview.cli.parsers import build_parser

        view_args = build_parser().parse_args([])
        view_args.number = args.open
        return open_run(view_args, [])
    return list_runs(sys.stdout)


def main_last(args: argparse.Namespace) -> int:
    """``streamview last [N] [options]``: the Nth latest recording, as ``streamview FILE``."""
    return open_run(args, sys.argv[2:])


def open_run(args: argparse.Namespace, arguments: list[str]) -> int:
    """Open recording number ``args.number`` (1: the latest) with the viewer's options."""
    found = recordings()
    if not found:
        return fail(f"no recorded runs in {runs_directory()} (streamview run -- COMMAND)")
    number = args.number
    if not 1 <= number <= len(found):
        noun = "run" if len(found) == 1 else "runs"
        return fail(f"no run {number}: {len(found)} recorded {noun} (streamview runs lists them)")
    from streamview.cli.view import main_view

    args.input = str(found[number - 1])
    return main_view(["last", *arguments], args)
