"""Where a path recorded on one machine is on this one.

A recording carries the agent's paths as they were where it ran
(``/home/dev/src/tidepool/src/app.py``). Before a file is opened here, it is looked
up in this order:

1. a cwd map the user gave (``--cwd-map OLD=NEW``, or ``[cwd_map]`` in the settings):
   the longest ``OLD`` that is a leading part of the path is replaced by ``NEW``;
2. the path itself, when it exists here (the run was on this machine);
3. the obvious guess: the path's part below the recorded working directory, under the
   current directory, when it exists there (the person opened the recording from
   their own checkout of the same project).

A relative path with no recorded working directory is taken relative to the current
directory. What comes out is absolute and normalised, or a reason it is not here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence

import msgspec

CwdMap = Sequence[tuple[str, str]]
"""``(OLD, NEW)`` pairs: a recorded directory and the local one it stands for."""


def parse_cwd_map(text: str) -> tuple[str, str]:
    """``OLD=NEW`` as a pair of absolute, normalised directories.

    Raises:
        ValueError: No ``=``, an empty side, or a side that is not absolute.
    """
    old, sep, new = text.partition("=")
    old, new = old.strip(), os.path.expanduser(new.strip())
    if not sep or not old or not new:
        raise ValueError(f"expected OLD=NEW, got {text!r}")
    if not (old.startswith("/") and new.startswith("/")):
        raise ValueError(f"both sides must be absolute directories: {text!r}")
    return _normal(old), _normal(new)


def _normal(path: str) -> str:
    normal = os.path.normpath(path)
    return "/" + normal.lstrip("/") if normal.startswith("//") else normal


def _under(path: str, base: str) -> str | None:
    """``path``'s part below ``base`` (``""`` for ``base`` itself), or ``None``."""
    if base == "/":
        return path.lstrip("/")
    if path == base:
        return ""
    if path.startswith(base + "/"):
        return path[len(base) + 1 :]
    return None


class Located(msgspec.Struct, frozen=True):
    """Where a recorded path is on this machine, or why it is not here."""

    recorded: str
    """The path as the stream gave it, made absolute against the recorded cwd."""
    path: str | None
    """The local file or directory (absolute, normalised), ``None`` when not found."""
    how: str = ""
    """How it was found: ``""`` (as recorded), ``mapped`` or ``guessed``."""
    is_dir: bool = False
    """The local path is a directory."""
    not_a_file: str | None = None
    """What the local path is when it is not a regular file an editor can open
    (``a directory``, ``a named pipe (FIFO)``, ``a /proc file``...), else ``None``."""
    tried: str | None = None
    """The local path a cwd map pointed to, when nothing is there."""


def recorded_path(target: str, cwd: str | None, here: str) -> str:
    """``target`` made absolute: against the recorded ``cwd``, else the current directory."""
    if not target.startswith("/"):
        target = os.path.join(cwd if cwd and cwd.startswith("/") else here, target)
    return _normal(target)


def locate(
    target: str, cwd: str | None, cwd_map: Iterable[tuple[str, str]] = (), here: str = ""
) -> Located:
    """Find the file a call touched on this machine.

    Args:
        target: The path the stream gave (untrusted, maybe relative).
        cwd: The session's recorded working directory, if any.
        cwd_map: ``(OLD, NEW)`` pairs the user gave.
        here: The current directory (default: :func:`os.getcwd`).
    """
    here = here or os.getcwd()
    recorded = recorded_path(target, cwd, here)
    for old, new in sorted(cwd_map, key=lambda pair: len(pair[0]), reverse=True):
        tail = _under(recorded, _normal(old))
        if tail is not None:
            mapped = _normal(os.path.join(new, tail)) if tail else _normal(new)
            return _found(recorded, mapped, "mapped")
    if _kind(recorded) is not None:
        return _found(recorded, recorded, "")
    tail = _under(recorded, _normal(cwd)) if cwd and cwd.startswith("/") else None
    if tail:
        guess = _normal(os.path.join(here, tail))
        if _kind(guess) is not None:
            return _found(recorded, guess, "guessed")
    return Located(recorded, None)


def _kind(path: str) -> int | None:
    """The file type bits of ``path`` (following links), ``None`` when it is not there."""
    try:
        return os.stat(path).st_mode
    except (OSError, ValueError):  # ValueError: a NUL byte in the path
        return None


_SPECIAL = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)
"""File types an editor must not be handed: opening a FIFO blocks until a writer
comes (the terminal stays raw and no key gets it back), a device reads forever."""
PSEUDO_FILE_SYSTEMS = ("/proc", "/sys")
"""Where the kernel's live state looks like files: ``/proc/self/environ`` is the
person's environment, keys included."""


def not_a_file(path: str, mode: int) -> str | None:
    """What ``path`` (of file mode ``mode``) is when it is not a regular file on a real
    file system, or ``None`` when an editor may open it."""
    for test, what in _SPECIAL:
        if test(mode):
            return what
    if not stat.S_ISREG(mode):
        return "not a regular file"
    real = os.path.realpath(path)
    for root in PSEUDO_FILE_SYSTEMS:
        if real == root or real.startswith(root + "/"):
            return f"a {root} file (the system's live state)"
    return None


def _found(recorded: str, path: str, how: str) -> Located:
    mode = _kind(path)
    if mode is None:
        return Located(recorded, None, how, tried=path)
    return Located(recorded, path, how, stat.S_ISDIR(mode), not_a_file(path, mode))
