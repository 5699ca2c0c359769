"""Recording files: claimed new and private, held while written, never shared.

``streamview run`` names each recording after the second it started and its program;
runs started in the same second each claim a name of their own with an exclusive
create (``NAME``, ``NAME-2``...), where a check for an existing file followed by an
open would let two runs write into one. The runs directory is 0700 and recordings are
0600, as shells keep their history: a run holds source code, command output and often
the keys an agent printed. A recording is locked (``flock``) while it is written, so
``--record PATH`` never empties a file another run is writing, and ``streamview runs``
can tell a run still going from one whose streamview was killed.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from pathlib import Path

from streamview.config.user_dirs import make_user_directory

CLAIM_TRIES = 1000
"""Names tried (``NAME``, ``NAME-2``... ) before claiming a recording gives up."""
LOCK_PATIENCE = 0.5
"""Seconds to wait for a lock a reader holds for a moment (``streamview runs``)."""


def private_directory(directory: Path) -> None:
    """Make ``directory`` (and its parents) if needed; it is 0700 when it is ours.

    Raises:
        FileNotFoundError: It is under a home directory that does not exist
            (:func:`~streamview.config.user_dirs.make_user_directory`).
    """
    make_user_directory(directory, "XDG_STATE_HOME", 0o700)
    info = directory.stat()
    if info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) & 0o077:
        # Made by an older streamview (0755): its recordings are no one else's business.
        directory.chmod(stat.S_IMODE(info.st_mode) & 0o700)


def claim_file(first: Path) -> tuple[int, Path]:
    """Create a new private recording at ``first``, or ``first-2``... if it is taken.

    Each name is created with ``O_EXCL``: of runs started in the same second, each
    gets a file of its own; none opens another's.

    Returns:
        The open, locked file and its path.
    """
    private_directory(first.parent)
    stem, suffix = first.name.removesuffix(".ndjson"), ".ndjson"
    for number in range(1, CLAIM_TRIES + 1):
        path = first if number == 1 else first.with_name(f"{stem}-{number}{suffix}")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            continue
        _lock(fd, path)
        return fd, path
    raise FileExistsError(17, f"{CLAIM_TRIES} recordings named {first.name} already exist")


def take_file(path: Path) -> int:
    """Open ``path`` (``--record PATH``) to record into: created private, locked, emptied.

    Raises:
        OSError: It cannot be opened, or another run is recording there.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        _lock(fd, path)
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _lock(fd: int, path: Path) -> None:
    """Hold ``fd`` exclusively; a reader's short shared lock is waited for."""
    deadline = time.monotonic() + LOCK_PATIENCE
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise OSError(11, "another streamview run is recording there", str(path)) from None
            time.sleep(0.01)
        except OSError:
            return  # a file that cannot be locked (a device, some network file systems)


def recording_held(path: Path) -> bool:
    """Whether a streamview run is writing ``path`` now."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False
