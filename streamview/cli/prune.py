"""``streamview runs --prune AGE``: delete old recordings, having said which.

It lists what it would delete (each file, its age and size), then asks on the terminal
(``[y/N]``); ``--yes`` deletes without asking. Without a terminal to ask on, and
without ``--yes``, it deletes nothing and says how to go on: a script must mean it.
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from streamview.cli.common import fail
from streamview.cli.runs import human_size, parse_age, recordings, runs_directory
from streamview.core.exit_status import EXIT_SUCCESS
from streamview.runs.recording_files import recording_held
from streamview.runs.run_meta import sidecar_path

LISTED = 20
"""Files named one by one before the rest are counted ("… and 12 more")."""


@dataclass(frozen=True)
class Doomed:
    """A recording old enough to delete."""

    path: Path
    size: int
    age: float
    """Seconds since it was last written."""


def doomed(seconds: float, directory: Path | None = None) -> list[Doomed]:
    """The recordings last written more than ``seconds`` ago that no run still holds,
    oldest first."""
    now = time.time()
    found = []
    for path in recordings(directory):
        try:
            stat = path.stat()
        except OSError:
            continue
        if now - stat.st_mtime > seconds and not recording_held(path):
            found.append(Doomed(path, stat.st_size, now - stat.st_mtime))
    return sorted(found, key=lambda one: -one.age)


def age_text(seconds: float) -> str:
    """``40d``, ``5h``, ``12m``: how old, in the largest whole unit (days at most,
    as the ages people prune by are said)."""
    for unit, size in (("d", 86_400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size:.0f}{unit}"
    return f"{seconds:.0f}s"


def prune_runs(
    age: str,
    out: TextIO,
    *,
    yes: bool = False,
    answers: TextIO | None = None,
    directory: Path | None = None,
) -> int:
    """Say which recordings are older than ``age``, and delete them once confirmed.

    Args:
        age: ``30d``, ``12h``, ``2w``...
        out: Where the list, the question and the result are written.
        yes: Delete without asking (``--yes``).
        answers: Where the answer is read (the terminal); ``None`` for ``sys.stdin``.
        directory: The runs directory (``None``: the user's).
    """
    seconds = parse_age(age)
    if seconds is None:
        return fail(f"--prune: not an age: {age!r} (e.g. 30d, 12h, 2w)")
    folder = directory or runs_directory()
    found = doomed(seconds, folder)
    if not found:
        out.write(f"nothing to prune: no recording older than {age} in {folder}\n")
        return EXIT_SUCCESS
    total = sum(one.size for one in found)
    noun = "recording" if len(found) == 1 else "recordings"
    out.write(f"{len(found)} {noun} ({human_size(total)}) older than {age} in {folder}:\n")
    for one in found[:LISTED]:
        out.write(f"  {one.path.name}  {age_text(one.age)} old  {human_size(one.size)}\n")
    if len(found) > LISTED:
        out.write(f"  … and {len(found) - LISTED} more\n")
    if not yes:
        answers = answers or sys.stdin
        if not answers.isatty():
            return fail(
                f"runs --prune: not deleting {len(found)} {noun} without a terminal to "
                "ask on: add --yes to delete them"
            )
        out.write(f"delete {'it' if len(found) == 1 else 'them'} and their sidecars? [y/N] ")
        out.flush()
        if answers.readline().strip().lower() not in ("y", "yes"):
            out.write("nothing deleted\n")
            return EXIT_SUCCESS
    return delete(found, age, folder, out)


def delete(found: list[Doomed], age: str, folder: Path, out: TextIO) -> int:
    """Delete each recording and its sidecar; say how many went (and stop at the first
    that cannot be deleted, naming it)."""
    removed = freed = 0
    for one in found:
        if recording_held(one.path):  # a run took it up again while the person read
            continue
        try:
            one.path.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            return fail(f"cannot delete {one.path}: {error.strerror or error}")
        removed += 1
        freed += one.size
        with contextlib.suppress(FileNotFoundError):
            sidecar_path(one.path).unlink()
    noun = "recording" if removed == 1 else "recordings"
    out.write(f"pruned {removed} {noun} ({human_size(freed)}) older than {age} from {folder}\n")
    return EXIT_SUCCESS
