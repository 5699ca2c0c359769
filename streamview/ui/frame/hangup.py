"""A terminal that goes away while the viewer draws: leave as on SIGHUP, not as a crash.

A closed window or a killed tmux pane hangs the terminal up, and the kernel sends
SIGHUP to the session's leader only (the shell, or a wrapper that ignores it). The
viewer's next write then fails with EIO: Textual's writer thread died of it, the viewer
exited 70 with a crash file, and its shutdown could block on the dead writer's full
queue. Here the driver writes through a :class:`TerminalFile`: on EIO it raises the
SIGHUP the viewer missed (:mod:`streamview.ui.frame.signals` then leaves with 129, as
its terminal watcher does when the viewer is idle) and drops every later write, since
nobody is there to read it. A SIGCONT while the viewer leaves, unsuspended, is let be
(see :func:`hangup_aware`'s driver).
"""

from __future__ import annotations

import errno
import os
import signal
import threading
from typing import Any, TextIO

from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver


class TerminalFile:
    """The terminal as Textual's writer thread writes to it, hang-up aware.

    Args:
        file: The terminal (Textual's driver writes to stderr).
    """

    def __init__(self, file: TextIO) -> None:
        self._file = file
        self._lock = threading.Lock()
        self.hung_up = False
        """The terminal answered EIO: it is gone, and writes are dropped."""

    def write(self, text: str) -> int:
        """Write ``text``, or drop it once the terminal is gone."""
        if not self.hung_up:
            try:
                return self._file.write(text)
            except OSError as error:
                self._gone(error)
        return len(text)

    def flush(self) -> None:
        """Flush, unless the terminal is gone."""
        if not self.hung_up:
            try:
                self._file.flush()
            except OSError as error:
                self._gone(error)

    def fileno(self) -> int:
        """The terminal's file descriptor."""
        return self._file.fileno()

    def _gone(self, error: OSError) -> None:
        """``error`` says the terminal hung up: raise SIGHUP in this process, once;
        any other error is raised again."""
        if error.errno != errno.EIO:
            raise error
        with self._lock:
            first, self.hung_up = not self.hung_up, True
        if first:
            os.kill(os.getpid(), signal.SIGHUP)


def hangup_aware(driver_class: type[Driver]) -> type[Driver]:
    """``driver_class`` writing through a :class:`TerminalFile` (Textual's terminal
    driver; any other, a browser's or a test's, as it is)."""
    if not issubclass(driver_class, LinuxDriver):
        return driver_class

    class HangupAwareDriver(driver_class):  # type: ignore[valid-type,misc]
        """Textual's terminal driver, leaving as on SIGHUP when its terminal is gone."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            terminal: TextIO = self.__dict__["_file"]  # stderr, as LinuxDriver sets it
            self._file = TerminalFile(terminal)

        def _sigcont_application(self, *args: Any) -> None:
            """Take the terminal again on SIGCONT, as Textual does, unless the viewer
            is leaving and was not suspended: a killed tmux pane sends SIGHUP and
            SIGCONT while the viewer quits, and Textual's driver then started an input
            thread nobody stopped, spinning on the dead terminal and keeping the
            process alive for ever (seen: 90 % of a core 15 minutes after the pane
            was killed). ``_must_signal_resume`` is set between the driver's own
            SIGTSTP and SIGCONT; the app's ``_exit`` once it is leaving."""
            if self._must_signal_resume or not getattr(self._app, "_exit", False):
                super()._sigcont_application(*args)

    return HangupAwareDriver
