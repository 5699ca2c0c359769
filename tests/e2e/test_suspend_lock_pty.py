"""SIGTSTP that lands while a frame is being queued for the terminal stops the viewer.

Textual's driver handled SIGTSTP with a plain signal handler, which Python runs between
any two bytecodes of the main thread. Landing while the writer queue's lock was held
(a frame being queued), its own writes waited on that lock forever: the viewer hung
instead of stopping (one ``kill -TSTP`` in some 20 during a repaint). The fix
(``streamview/ui/frame/suspend.py``) has the event loop run the handler between two
messages. A race is no test, so here the race is made certain: ``ctrl+z`` is rebound to
send SIGTSTP while holding that lock. With the handler run by the loop the viewer stops
and comes back; with Textual's plain handler it never stops."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .pty_terminal import PtyTerminal
from .pty_viewer import REPO

CHILD = """\
import os, signal, sys
from streamview.ui.frame.suspend import Suspension

def suspend_with_the_writer_locked(self):
    queue = self._driver._writer_thread._queue
    with queue.mutex:  # what Queue.put holds while a frame is queued
        os.kill(os.getpid(), signal.SIGTSTP)
        for _ in range(10_000):  # bytecodes: where a plain handler would run
            pass

Suspension.action_suspend_process = suspend_with_the_writer_locked
from streamview.cli import main
sys.argv[0] = "streamview"
raise SystemExit(main())
"""


def test_sigtstp_while_the_writer_lock_is_held_stops_and_comes_back(tmp_path: Path) -> None:
    (tmp_path / "child.py").write_text(CHILD)
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    recording = REPO / "recordings" / "success-multi-tool.ndjson"
    argv = [sys.executable, str(tmp_path / "child.py"), str(recording)]
    terminal = PtyTerminal(argv, env, REPO, rows=24, columns=100)
    try:
        terminal.wait_for(lambda s: "Tool calls" in s, timeout=60, what="the viewer")
        terminal.settle()
        mark = terminal.mark()
        terminal.write(b"\x1a")  # ctrl+z
        terminal.continue_when_stopped(timeout=20)  # fails if it hung instead
        # Back from the stop, it takes the terminal again and paints the whole screen.
        terminal.wait_for(
            lambda s: b"\x1b[?1049h" in terminal.since(mark) and "Tool calls" in s,
            timeout=30,
            what="the viewer back after fg",
        )
        terminal.write(b"q")
        assert terminal.wait_exit(timeout=30) == 0
    finally:
        terminal.close()
