"""Give the terminal back without Textual: for the ways out that do not pass through
its shutdown (the forced exit after a signal the viewer could not honour in time).

:class:`TerminalModes` notes the terminal's settings before the viewer starts;
:meth:`TerminalModes.give_back` puts them back and writes what Textual's driver writes
when it stops (and a little more): leave the alternate screen, stop mouse reporting,
bracketed paste, focus events and the Kitty keyboard protocol, wrap lines again, show
the cursor. Nothing here may hang the exit: a terminal that is gone, or that does not
take output, gets :data:`WRITE_SECONDS` and no more.
"""

from __future__ import annotations

import contextlib
import os
import sys
import termios
import threading
from typing import Any

RESET = (
    "\x1b[<u"  # Kitty keyboard protocol off (before leaving the alternate screen)
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l"  # mouse reporting off
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?1004l"  # focus events off
    "\x1b[?7h"  # wrap lines
    "\x1b[?1049l"  # leave the alternate screen
    "\x1b[?25h"  # show the cursor
    "\x1b[0m"
).encode("ascii")
"""What the terminal needs to be as it was before the viewer."""
WRITE_SECONDS = 0.5
"""How long giving the terminal back may take before the process ends regardless."""


class TerminalModes:
    """The terminal's settings (``termios``) before the viewer, to put back by hand."""

    def __init__(self) -> None:
        self.input_fd = 0
        self.output_fd = sys.__stderr__.fileno() if sys.__stderr__ is not None else 2
        """Where Textual's driver writes (stderr)."""
        self.attributes: list[Any] | None = None
        with contextlib.suppress(termios.error, OSError, ValueError):
            if os.isatty(self.input_fd):
                self.attributes = termios.tcgetattr(self.input_fd)

    def give_back(self) -> None:
        """Restore the settings and the screen, waiting :data:`WRITE_SECONDS` at most."""
        done = threading.Thread(target=self._restore, name="streamview-restore", daemon=True)
        done.start()
        done.join(WRITE_SECONDS)

    def _restore(self) -> None:
        if self.attributes is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.input_fd, termios.TCSANOW, self.attributes)
        with contextlib.suppress(OSError):
            if os.isatty(self.output_fd):
                os.write(self.output_fd, RESET)
