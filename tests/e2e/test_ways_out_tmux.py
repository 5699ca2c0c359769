"""Every way out of the real viewer gives the terminal back (issue 26, points 3 and 7):
SIGQUIT, the forced exit after a signal the viewer could not honour, an unhandled
exception (exit 70, one line), and ctrl+z / SIGTSTP, after which ``fg`` brings the
whole screen back without a key. tmux reads ``#{alternate_on} #{mouse_any_flag}
#{cursor_flag}`` after each: ``0 0 1`` (no alternate screen, no mouse, cursor shown)."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from tests.run.test_signals import wait_until

from .terminal import REPO, Tmux, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

RESTORED = "0 0 1"
"""No alternate screen, no mouse reporting, cursor shown."""
IN_THE_VIEWER = "1 1 0"
RECORDING = "recordings/success-multi-tool.ndjson"
STUCK_VIEWER = textwrap.dedent(
    """
    from textual.app import App
    from textual.widgets import Static
    from streamview.ui.frame import signals as ui_signals

    ui_signals.FORCE_EXIT_SECONDS = 1.0

    class Stuck(App[int]):
        def compose(self):
            yield Static("a viewer that will not leave")

        def exit(self, *args, **kwargs):  # asked to leave: it never does
            pass

    app = Stuck()
    with ui_signals.leave_on_signal(app):
        app.run()
    """
)
"""A Textual app in the alternate screen whose shutdown never comes (as when Textual
blocked on a terminal that was gone)."""
FAILING_VIEWER = textwrap.dedent(
    """
    import sys
    from streamview.cli import main
    from streamview.ui.frame.app import StreamviewApp

    def fail(self):
        raise KeyError("x")

    StreamviewApp.action_toggle_thinking = fail  # the failure is injected here, by the test
    sys.exit(main(sys.argv[1:]))
    """
)
"""The real command, with ``t`` made to raise."""


def terminal_state(tmux: Tmux) -> str:
    return tmux.tmux("display", "-p", "#{alternate_on} #{mouse_any_flag} #{cursor_flag}").strip()


def shell_line(tmp_path: Path, command: str) -> str:
    """``command`` (its pid in ``pid``, its status in ``exit``), then a pause."""
    return (
        f"cd {shlex.quote(str(REPO))} && unset COLUMNS LINES"
        f" && export XDG_STATE_HOME={shlex.quote(str(tmp_path / 'state'))}"
        f" && sh -c 'echo $$ > {tmp_path}/pid; exec {command}'; echo $? > {tmp_path}/exit;"
        " sleep 60"
    )


def viewer_pid(tmp_path: Path) -> int:
    wait_until(lambda: (tmp_path / "pid").exists() and (tmp_path / "pid").read_text().strip())
    return int((tmp_path / "pid").read_text())


PYTHON = shlex.quote(sys.executable)


def test_sigquit_leaves_the_viewer_with_the_terminal_given_back(tmux: Tmux, tmp_path: Path) -> None:
    tmux.start(shell_line(tmp_path, f"{PYTHON} -m streamview {RECORDING}"))
    tmux.wait_for(lambda s: "Transcript" in s)
    assert terminal_state(tmux) == IN_THE_VIEWER
    os.kill(viewer_pid(tmp_path), signal.SIGQUIT)
    assert wait_exit(tmp_path / "exit") == 128 + signal.SIGQUIT
    assert terminal_state(tmux) == RESTORED


def test_the_forced_exit_after_a_signal_gives_the_terminal_back(tmux: Tmux, tmp_path: Path) -> None:
    script = tmp_path / "stuck.py"
    script.write_text(STUCK_VIEWER)
    tmux.start(shell_line(tmp_path, f"{PYTHON} {script}"))
    tmux.wait_for(lambda s: "a viewer that will not leave" in s)
    assert terminal_state(tmux) == IN_THE_VIEWER
    os.kill(viewer_pid(tmp_path), signal.SIGTERM)
    assert wait_exit(tmp_path / "exit") == 128 + signal.SIGTERM
    assert terminal_state(tmux) == RESTORED


def test_an_unhandled_exception_exits_70_with_one_line_and_the_terminal_back(
    tmux: Tmux, tmp_path: Path
) -> None:
    script = tmp_path / "failing.py"
    script.write_text(FAILING_VIEWER)
    tmux.start(shell_line(tmp_path, f"{PYTHON} {script} {RECORDING}"))
    tmux.wait_for(lambda s: "Transcript" in s)
    tmux.keys("t")
    assert wait_exit(tmp_path / "exit") == 70
    assert terminal_state(tmux) == RESTORED
    screen = tmux.wait_for(lambda s: "internal error" in s)
    said = [line for line in screen.splitlines() if line.strip()]
    assert said[0].startswith("streamview: internal error: KeyError: 'x' (details in ")
    assert "Traceback" not in screen
    crashes = list((tmp_path / "state" / "streamview" / "crashes").iterdir())
    assert len(crashes) == 1 and str(crashes[0]) in screen.replace("\n", "")
    assert 'raise KeyError("x")' in crashes[0].read_text()


def job_shell(tmux: Tmux, producer: str | None = None) -> None:
    """An interactive shell with job control, running the viewer on a recording (or on
    the pipe from ``producer``)."""
    tmux.start("bash --norc --noprofile -i")
    viewer = f"{PYTHON} -m streamview {RECORDING}"
    if producer is not None:
        viewer = f"{{ {producer}; }} | {PYTHON} -m streamview"
    tmux.keys(
        f"cd {shlex.quote(str(REPO))} && unset COLUMNS LINES && {viewer}",
        "Enter",
    )
    tmux.wait_for(lambda s: "Transcript" in s and "Tool calls" in s)
    assert terminal_state(tmux) == IN_THE_VIEWER


def test_ctrl_z_suspends_to_the_shell_and_fg_repaints_the_whole_screen(tmux: Tmux) -> None:
    """The viewer reads a pipe whose producer runs on: the whole job stops (else the
    shell would wait on, the terminal given back but no prompt)."""
    job_shell(tmux, producer=f"cat {RECORDING}; sleep 60")
    # From the help, as from any screen over the main one: a modal screen hid the
    # app's keys, and ctrl+z over the help or the summary did nothing.
    tmux.keys("?")
    tmux.wait_for(lambda s: "streamview keys" in s)
    tmux.keys("C-z")
    tmux.wait_for(lambda s: "Stopped" in s, timeout=20)
    assert terminal_state(tmux) == RESTORED
    tmux.keys("fg", "Enter")
    # No key after fg: the screen must come back whole by itself.
    tmux.wait_for(lambda s: "streamview keys" in s and "q Quit" in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Transcript" in s and "Tool calls" in s and "q Quit" in s)
    assert terminal_state(tmux) == IN_THE_VIEWER
    tmux.keys("q")
    wait_until(lambda: terminal_state(tmux) == RESTORED)


def test_sigtstp_then_fg_repaints_the_whole_screen(tmux: Tmux) -> None:
    job_shell(tmux)
    pids = [int(pid) for pid in tmux.tmux("list-panes", "-F", "#{pane_pid}").split()]
    viewer = int(
        next(
            line.split()[0]
            for line in os.popen(f"ps -o pid=,ppid=,args= --ppid {pids[0]}").read().splitlines()
            if "streamview" in line
        )
    )
    os.kill(viewer, signal.SIGTSTP)
    tmux.wait_for(lambda s: "Stopped" in s, timeout=20)
    assert terminal_state(tmux) == RESTORED
    tmux.keys("fg", "Enter")
    tmux.wait_for(lambda s: "Transcript" in s and "Tool calls" in s and "q Quit" in s)
    assert terminal_state(tmux) == IN_THE_VIEWER
