"""ctrl+z in the viewer: suspend to the shell as other full-screen tools do.

In raw mode ctrl+z is a key, not the terminal's SIGTSTP, so it is bound here. The
whole job stops, as the terminal's ctrl+z would stop it: a producer piping into the
viewer too, or the shell would go on waiting for it with the terminal given back and no
prompt. Textual's driver gives the terminal back on SIGTSTP and takes it again on
SIGCONT; the screen it comes back to is blank, so the whole of it is repainted then
(an outside ``kill -TSTP`` and ``fg`` come back the same way).
"""

from __future__ import annotations

import os
import signal

from textual import on
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

    @on(Driver.SignalResume)
    def _repaint_after_resume(self) -> None:
        """Back from a suspension: the terminal's alternate screen is blank; paint all
        of it now rather than as keys happen to repaint it, piece by piece."""
        self.refresh(layout=True)
