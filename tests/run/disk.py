"""A small disk that fills up, for the recording's write failures.

Root (as in this project's CI and sandbox) mounts a real 64 KB tmpfs; anyone else gets
the same failure from RLIMIT_FSIZE set in the child: writes past the limit fail (EFBIG,
"file too large") where a tmpfs fails with ENOSPC ("disk full").
"""

from __future__ import annotations

import os
import resource
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SmallDisk:
    """Where to write, how it fails, and what to run the child with."""

    folder: Path
    reason: str
    """What the recording's cut says: ``disk full`` (tmpfs) or ``file too large``."""
    preexec: Callable[[], None] | None
    """For :class:`subprocess.Popen`: sets RLIMIT_FSIZE when no tmpfs could be mounted."""


@contextmanager
def small_disk(
    folder: Path, size: int = 64 * 1024, free: int | None = None, make: Sequence[str] = ()
) -> Iterator[SmallDisk]:
    """A folder on a ``size``-byte tmpfs, or, when mounting is refused, one whose files
    the child may not grow past ``size`` bytes.

    Args:
        folder: Where to mount it.
        size: The file system's size.
        free: Fill it up but for this many bytes (a file ``filler`` takes the rest);
            without a tmpfs, each file may grow to ``free`` bytes.
        make: Folders (relative) to make first, before it fills up.
    """
    folder.mkdir(parents=True, exist_ok=True)
    mount = ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)]
    mounted = subprocess.run(mount, capture_output=True, check=False).returncode == 0
    for name in make:
        (folder / name).mkdir(parents=True, exist_ok=True, mode=0o700)
    if mounted:
        try:
            if free is not None:
                _fill(folder / "filler", free)
            yield SmallDisk(folder, "disk full", None)
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=False)
        return
    cap = size if free is None else free

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))

    yield SmallDisk(folder, "file too large", limit)


def _fill(filler: Path, free: int) -> None:
    """Write ``filler`` until the disk is full, then give back ``free`` bytes of it."""
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        while True:
            try:
                os.write(fd, b"\0" * 4096)
            except OSError:
                break
        os.ftruncate(fd, max(0, os.fstat(fd).st_size - free))
    finally:
        os.close(fd)
