"""Where the plain front ends write, and what happens when nobody reads any more.

``streamview --print run.ndjson | head -1``: ``head`` leaves, the next write fails
with EPIPE (Python ignores SIGPIPE, so it is an exception, not a death). A closed
terminal (SIGHUP, ``tmux kill-pane``) fails writes with EIO the same way. Either is
"the output closed": :class:`GuardedOutput` notices it on the write that fails, drops
every later write, and the front end decides the exit status (:data:`EXIT_OUTPUT_CLOSED`
when the run's outcome is not known yet, else the run's own), never 0 for a run that
failed or did not finish.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from streamview.fronts.printer import Output

EXIT_OUTPUT_CLOSED = 128 + 13
"""141, what a shell reports for a program killed by SIGPIPE (13: ``cat``, ``grep``...).
A number, not ``signal.SIGPIPE``: the ``signal`` module (its enums) is 0.5 ms of every
``--json``'s start-up (issue 30.8)."""


class GuardedOutput:
    """A text stream whose write errors end the output instead of the program.

    Args:
        out: The stream to write to (``sys.stdout``).
    """

    def __init__(self, out: TextIO | Output) -> None:
        self.out = out
        self.closed_early = False
        """A write or flush failed: the reader left, or the terminal is gone."""

    def write(self, text: str) -> int:
        """Write ``text``, unless the output closed (then nothing)."""
        if self.closed_early:
            return 0
        try:
            return self.out.write(text)
        except OSError:
            self._closed()
            return 0

    def flush(self) -> None:
        """Flush, unless the output closed."""
        if self.closed_early:
            return
        try:
            self.out.flush()
        except OSError:
            self._closed()

    def isatty(self) -> bool:
        """Whether the stream is a terminal."""
        try:
            return bool(self.out.isatty())  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            return False

    def _closed(self) -> None:
        self.closed_early = True
        release(self.out)


def release(out: TextIO | Output) -> None:
    """Point ``out``'s descriptor at ``/dev/null``: what is still buffered, and the
    interpreter's flush at exit, go nowhere instead of failing again (which would make
    the exit status 120 and print a traceback)."""
    with contextlib.suppress(AttributeError, ValueError, OSError):
        fileno = out.fileno()  # type: ignore[union-attr]
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fileno)
        os.close(devnull)


def release_stdout() -> None:
    """:func:`release` for ``sys.stdout``."""
    release(sys.stdout)
