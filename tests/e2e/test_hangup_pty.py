"""The terminal vanishes under a viewer that is drawing (a closed window, a killed tmux
pane): the viewer leaves as on SIGHUP, with its exit status, and writes no crash file.

The kernel sends SIGHUP to the session's leader only. Here, as under tmux with a shell
that ignores the hangup, the leader is a wrapper that ignores it: the viewer learns
that its terminal is gone from the terminal itself, as its next write fails with EIO
(Textual's writer thread died of it, and the viewer exited 70 with a crash file)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from .pty_terminal import PtyTerminal
from .pty_viewer import REPO
from .test_signals_tmux import WRAPPER

AGENT = """\
import json, sys, time
sys.stdout.write(json.dumps({"type": "system", "subtype": "init", "session_id": "s"}) + "\\n")
for n in range(100_000):
    text = {"type": "text", "text": f"line {n}"}
    message = {"role": "assistant", "content": [text]}
    sys.stdout.write(json.dumps({"type": "assistant", "message": message}) + "\\n")
    sys.stdout.flush()
    time.sleep(0.005)
"""
"""An agent that writes a line every 5 ms: the viewer draws all the time."""


def test_a_terminal_that_vanishes_under_a_drawing_viewer_ends_it_as_sighup(
    tmp_path: Path,
) -> None:
    """The session leader ignores the hangup (see WRAPPER), so the viewer meets it as
    EIO on its next write."""
    (tmp_path / "wrapper.py").write_text(WRAPPER)
    (tmp_path / "agent.py").write_text(AGENT)
    status = tmp_path / "status"
    (tmp_path / "tmp").mkdir()
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        TMPDIR=str(tmp_path / "tmp"),  # where a crash file goes if the state folder fails
    )
    python = sys.executable
    viewer = [python, "-m", "streamview", "run", "--", python, str(tmp_path / "agent.py")]
    terminal = PtyTerminal([python, str(tmp_path / "wrapper.py"), str(status), *viewer], env, REPO)
    try:
        terminal.wait_for(lambda s: "line 5" in s, timeout=60, what="the agent's lines")
        mark = terminal.mark()
        deadline = time.monotonic() + 10
        while terminal.since(mark).count(b"line ") < 3:  # it is drawing now
            assert time.monotonic() < deadline, "the viewer stopped drawing"
            time.sleep(0.02)
        terminal.hang_up()
        assert terminal.wait_exit(timeout=30) is not None, "the viewer outlived its terminal"
        assert status.read_text() == str(128 + signal.SIGHUP)
        crashes = [*(tmp_path / "state").rglob("crash-*"), *(tmp_path / "tmp").rglob("crash-*")]
        assert not crashes, [path.read_text() for path in crashes]
    finally:
        terminal.close()
