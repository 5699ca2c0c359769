"""A small disk that fills up, for the recording's write failures.

Root (as in this project's CI and sandbox) mounts a real 64 KB tmpfs; anyone else gets
the same failure from RLIMIT_FSIZE set in the child: writes past the limit fail (EFBIG,
"file too large") where a tmpfs fails with ENOSPC ("disk full").
"""

from __future__ import annotations

import resource
import subprocess
from collections.abc import Callable, Iterator
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
def small_disk(folder: Path, size: int = 64 * 1024) -> Iterator[SmallDisk]:
    """A folder on a ``size``-byte tmpfs, or, when mounting is refused, one whose files
    the child may not grow past ``size`` bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    mount = ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)]
    mounted = subprocess.run(mount, capture_output=True, check=False).returncode == 0
    if mounted:
        try:
            yield SmallDisk(folder, "disk full", None)
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=False)
        return

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    yield SmallDisk(folder, "file too large", limit)
