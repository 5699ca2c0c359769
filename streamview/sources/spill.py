"""Keep what a live input delivered in a private temporary file, indexed like a file.

A pipe cannot be read twice, so the viewer used to keep the bytes of every line a view
may open (each tool call's) in memory: a run of hours grew without bound. A
:class:`Spill` writes each chunk to a temporary file as it arrives; the feed keeps
``(offset, length)`` per line (:class:`~streamview.core.linestore.FileLineStore`) and
reads a payload back when it is opened, so a live run has the memory profile of a file
of the same size.

The file is created private (``0600``, by :func:`tempfile.mkstemp`) and is removed at
once where ``/proc/self/fd`` lets it be read through its descriptor (Linux): nothing is
left behind even after ``kill -9``. Elsewhere it is removed when the feed stops or the
process exits. The viewer may still open a payload after its input ended (or was
stopped), so the file lives as long as the process.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import tempfile
import weakref
from pathlib import Path


class Spill:
    """A private temporary file a live input is copied to as it arrives.

    Args:
        directory: Where to create it (default: the system's temporary directory).
    """

    def __init__(self, directory: str | None = None) -> None:
        fd, name = tempfile.mkstemp(prefix="streamview-live-", suffix=".ndjson", dir=directory)
        self.fd = fd
        self.name = name
        """The file's name in its directory (gone already where it could be unlinked)."""
        self.written = 0
        """Bytes written so far."""
        self.error: str | None = None
        """Why writing stopped (a full disk): lines after that cannot be opened again."""
        through_fd = Path(f"/proc/self/fd/{fd}")
        if through_fd.exists():
            os.unlink(name)
            self.path = through_fd
            """Where the store reads the lines back."""
        else:
            self.path = Path(name)
            atexit.register(self.close)
        # A feed dropped without close (a test's app, say) still gives its descriptor back.
        self._finalizer = weakref.finalize(
            self, _release, fd, None if self.path == through_fd else name
        )

    def write(self, chunk: bytes) -> None:
        """Append ``chunk`` (all of it, or stop spilling on an error)."""
        if self.error is not None or not chunk:
            return
        view = memoryview(chunk)
        try:
            while view:
                done = os.write(self.fd, view)
                view = view[done:]
                self.written += done
        except OSError as error:
            self.error = f"cannot keep the live input in {self.name}: {error.strerror or error}"

    def close(self) -> None:
        """Close and remove the file (once)."""
        if self.fd >= 0:
            self.fd = -1
            self._finalizer()


def _release(fd: int, name: str | None) -> None:
    """Close a spill's descriptor and remove its name, if it still has one."""
    with contextlib.suppress(OSError):
        os.close(fd)
    if name is not None:
        with contextlib.suppress(OSError):
            os.unlink(name)
