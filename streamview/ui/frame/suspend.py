"""ctrl+z in the viewer: suspend to the shell as other full-screen tools do.

In raw mode ctrl+z is a key, not the terminal's SIGTSTP, so it is bound here. The
whole job stops, as the terminal's ctrl+z would stop it: a producer piping into the
viewer too, or the shell would go on waiting for it with the terminal given back and no
prompt. Textual's driver gives the terminal back on SIGTSTP and takes it again on
SIGCONT; the screen it comes back to is blank, so the whole of it is repainted then
(an outside ``kill -TSTP`` and ``fg`` come back the same way).

Textual's driver handles SIGTSTP with a plain signal handler, which Python runs between
any two bytecodes of the main thread: landing while a frame was being queued for the
terminal (the writer queue's lock held), its own writes waited on that lock forever, and
the viewer hung instead of stopping (a ``kill -TSTP`` during a repaint, one in some 20
on a pty; a tmux test saw it at load 10). The handler is run by the event loop instead,
between two messages, where no such lock is held.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal

from textual import events, on
from textual.app import App
from textual.driver import Driver

from streamview.ui.text.safe_text import phrase, toast


class Suspension(App[int]):
    """Mixed into the viewer: ctrl+z suspends the job; coming back repaints it all."""

    def action_suspend_process(self) -> None:
        """Stop the job this viewer is part of (just the viewer when it is not the
        terminal's foreground job: a shell script's child)."""
        driver = self._driver
        if driver is None or not driver.can_suspend:  # a browser (--serve), a test
            toast(self, phrase("cannot suspend here: no shell to go back to"), timeout=3)
            return
        self.app_suspend_signal.publish(self)
        try:
            whole_job = os.tcgetpgrp(0) == os.getpgrp()
        except OSError:
            whole_job = False
        if whole_job:
            os.killpg(os.getpgrp(), signal.SIGTSTP)
        else:
            os.kill(os.getpid(), signal.SIGTSTP)

    @on(events.Mount)
    def _suspend_between_messages(self) -> None:
        """Have the event loop run the driver's SIGTSTP handler (see the module's text)."""
        driver = self._driver
        stop = getattr(driver, "_sigtstp_application", None)
        if driver is None or not driver.can_suspend or stop is None:
            return
        # Not the main thread, or no loop that takes signals: Textual's handler stays.
        with contextlib.suppress(RuntimeError, ValueError, NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTSTP, stop)

    @on(Driver.SignalResume)
    def _repaint_after_resume(self) -> None:
        """Back from a suspension: the terminal's alternate screen is blank; paint all
        of it now rather than as keys happen to repaint it, piece by piece."""
        self.refresh(layout=True)
