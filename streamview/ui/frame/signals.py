"""The viewer under SIGTERM, SIGHUP, SIGQUIT or an outside SIGINT: leave as ``q`` does.

Without this, the default action ends Python at once and the terminal stays in the
alternate screen, in raw mode, with mouse reporting on and the cursor hidden. Here
the signal is noted (:mod:`streamview.sources.signals`, for the exit status 128 + N) and
the app is asked to exit from its own event loop, so Textual's driver restores the
terminal; the command then stops the agent and closes the recording as on ``q``.
Inside the viewer Ctrl+C and Ctrl+\\ are keys (raw mode), not signals. SIGQUIT, whose
default would end Python at once, is one of these signals in the viewer only: the
plain front ends keep it as the hard way out (the agent still dies with them,
:mod:`streamview.sources.agent_watch`).

A terminal that goes away (``tmux kill-pane``, a closed window) does not always send
SIGHUP to the viewer: the kernel signals the session leader (the shell, or a wrapper
that ignores it), and the viewer would wait on a dead terminal for ever, its agent
running on. So a watcher thread asks the terminal for its settings every
:data:`HANGUP_POLL_SECONDS`; once it answers EIO (hung up), the viewer gets the
SIGHUP it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import signal
import termios
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from textual.app import App

from streamview.sources import signals
from streamview.ui.frame.restore import TerminalModes

HANGUP_POLL_SECONDS = 0.25
"""How often the watcher checks that the terminal is still there."""
FORCE_EXIT_SECONDS = 5.0
"""How long the viewer may take to leave after a signal before it ends by force.

Textual's shutdown can wait for ever on a terminal that is gone: its writer thread
dies on the dead terminal and ``WriterThread.stop`` then blocks on a full queue (seen
as viewers that outlived their tmux, reparented to PID 1). Past this delay the
:data:`streamview.sources.signals.last_resort` actions run (the agent stopped, the recording
closed), the terminal is given back by hand (:mod:`streamview.ui.frame.restore`) and
the process ends with 128 + the signal."""
VIEWER_SIGNALS = (*signals.TERMINATING, signal.SIGQUIT)
"""The signals that make the viewer leave as ``q`` does."""


def _force_exit_later(code: int, done: threading.Event, modes: TerminalModes) -> None:
    """Unless the viewer has left by then, run the last-resort actions, give the
    terminal back and end."""

    def wait() -> None:
        if done.wait(FORCE_EXIT_SECONDS):
            return
        for action in signals.last_resort:
            with contextlib.suppress(Exception):
                action()
        modes.give_back()
        os._exit(code)

    threading.Thread(target=wait, name="streamview-force-exit", daemon=True).start()


def _watch_terminal(fd: int, done: threading.Event) -> None:
    """Until ``done``: raise SIGHUP in this process once ``fd``'s terminal hung up."""
    while not done.wait(HANGUP_POLL_SECONDS):
        try:
            termios.tcgetattr(fd)
        except termios.error as error:
            if error.args and error.args[0] == errno.EIO:
                os.kill(os.getpid(), signal.SIGHUP)
                return
        except OSError:
            return


@contextmanager
def leave_on_signal(app: App[Any]) -> Iterator[None]:
    """While the viewer runs, a terminating signal makes it exit with 128 + N."""

    done = threading.Event()
    """Set once the viewer has left: the watchers stop, and no force is needed."""
    modes = TerminalModes()

    def handler(signum: int, frame: object) -> None:
        sig = signals.note(signum)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the app's loop is not running (yet, or any more)
            raise SystemExit(128 + sig) from None
        loop.call_soon_threadsafe(app.exit, 128 + sig)
        if len(signals.received) == 1:
            _force_exit_later(128 + sig, done, modes)

    previous = {sig: signal.signal(sig, handler) for sig in VIEWER_SIGNALS}
    if os.isatty(0):
        watcher = threading.Thread(
            target=_watch_terminal, args=(0, done), name="streamview-hangup", daemon=True
        )
        watcher.start()
    try:
        yield
    finally:
        done.set()
        for sig, action in previous.items():
            with contextlib.suppress(ValueError):
                signal.signal(sig, action)
