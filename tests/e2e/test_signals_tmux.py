"""The real viewer in tmux under SIGTERM, SIGHUP, SIGQUIT and a killed pane: the terminal is
given back (``#{alternate_on} #{mouse_any_flag} #{cursor_flag}`` = ``0 0 1``), the
agent and its children are gone, the run is recorded, the exit status is 128 + N."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.run.test_signals import alive, pids, spawner, wait_until

from .terminal import REPO, Tmux, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

RESTORED = "0 0 1"
"""No alternate screen, no mouse reporting, cursor shown."""
WRAPPER = """\
import signal, subprocess, sys
signal.signal(signal.SIGHUP, signal.SIG_IGN)
done = subprocess.run(
    sys.argv[2:], preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL)
)
open(sys.argv[1], "w").write(str(done.returncode))
"""
"""Runs the viewer and writes its exit status, surviving the pane's hangup itself."""


def terminal_state(tmux: Tmux) -> str:
    return tmux.tmux("display", "-p", "#{alternate_on} #{mouse_any_flag} #{cursor_flag}").strip()


def line(tmp_path: Path, arguments: str, stdin_from: str | None = None) -> str:
    """A shell line: the viewer (its pid in ``pid``, its status in ``exit``)."""
    python = shlex.quote(sys.executable)
    viewer = f"sh -c 'echo $$ > {tmp_path}/pid; exec {python} -m streamview {arguments}'"
    if stdin_from is not None:
        viewer = f"{stdin_from} | {viewer}"
    return (
        f"cd {shlex.quote(str(REPO))} && unset COLUMNS LINES"
        f" && export XDG_STATE_HOME={shlex.quote(str(tmp_path / 'state'))}"
        f" && {viewer}; echo $? > {tmp_path}/exit; sleep 60"
    )


def viewer_pid(tmp_path: Path) -> int:
    wait_until(lambda: (tmp_path / "pid").exists() and (tmp_path / "pid").read_text().strip())
    return int((tmp_path / "pid").read_text())


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT])
def test_a_signal_on_the_run_viewer_gives_the_terminal_back_and_stops_the_agent(
    tmux: Tmux, tmp_path: Path, sig: signal.Signals
) -> None:
    pids_file = tmp_path / "pids"
    agent_line = " ".join(shlex.quote(word) for word in spawner(pids_file, "work"))
    tmux.start(line(tmp_path, f"run -- {agent_line}"))
    tmux.wait_for(lambda s: "agent running" in s and "README.md" in s)
    assert terminal_state(tmux) == "1 1 0"
    agent, *children = pids(pids_file)
    os.kill(viewer_pid(tmp_path), sig)
    assert wait_exit(tmp_path / "exit") == 128 + sig
    assert terminal_state(tmux) == RESTORED
    screen = tmux.wait_for(lambda s: "recorded 3 lines to" in s)
    assert f"got {sig.name}: stopped the agent (pid {agent}) and its process group" in screen
    assert not any(alive(pid) for pid in [agent, *children])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_on_the_plain_viewer_gives_the_terminal_back(
    tmux: Tmux, tmp_path: Path, sig: signal.Signals
) -> None:
    producer = tmp_path / "producer.py"
    # A line, then a blank line every 0.2 s: SIGPIPE ends it once the viewer is gone.
    producer.write_text(
        "import time\nprint('{}', flush=True)\nwhile True:\n"
        "    time.sleep(0.2)\n    print(flush=True)\n"
    )
    source = shlex.join([sys.executable, str(producer)])
    tmux.start(line(tmp_path, "", stdin_from=source))
    tmux.wait_for(lambda s: "Transcript" in s)
    assert terminal_state(tmux) == "1 1 0"
    os.kill(viewer_pid(tmp_path), sig)
    assert wait_exit(tmp_path / "exit") == 128 + sig
    assert terminal_state(tmux) == RESTORED


def test_a_killed_pane_stops_the_agent_and_closes_the_recording(tmux: Tmux, tmp_path: Path) -> None:
    """tmux kill-pane hangs the terminal up; the wrapper (the session leader) ignores
    the SIGHUP, so the viewer must notice the dead terminal by itself."""
    pids_file = tmp_path / "pids"
    record = tmp_path / "run.ndjson"
    wrapper = tmp_path / "wrapper.py"
    wrapper.write_text(WRAPPER)
    words = [sys.executable, str(wrapper), str(tmp_path / "exit"), sys.executable, "-m"]
    words += ["streamview", "run", "--record", str(record), "--", *spawner(pids_file, "work")]
    tmux.start(f"cd {shlex.quote(str(REPO))} && {shlex.join(words)}")
    tmux.wait_for(lambda s: "agent running" in s and "README.md" in s)
    agent, *children = pids(pids_file)
    killed_at = time.monotonic()
    tmux.tmux("kill-pane", "-t", "0")
    assert wait_exit(tmp_path / "exit") == 128 + signal.SIGHUP
    assert time.monotonic() - killed_at < 10
    assert not any(alive(pid) for pid in [agent, *children])
    assert record.read_bytes().count(b"\n") == 3


def test_the_viewer_stops_showing_a_live_run_once_the_agent_exited(
    tmux: Tmux, tmp_path: Path
) -> None:
    """The agent exits; its children still hold its stdout. After the grace the run is
    over on screen, and the panel says what was left and stopped."""
    pids_file = tmp_path / "pids"
    agent_line = " ".join(shlex.quote(word) for word in spawner(pids_file, "exit"))
    tmux.start(line(tmp_path, f"run --exit-grace 0.5 -- {agent_line}"))
    # The agent panel and the status bar are refreshed by different timers: under load
    # one may show the end a frame before the other does.
    screen = tmux.wait_for(
        lambda s: (
            "left 2 processes running: stopped them" in s and "stream ended without a result" in s
        )
    )
    agent, *children = pids(pids_file)
    assert "agent exited with 0" in screen
    assert "streaming" not in screen
    wait_until(lambda: not any(alive(pid) for pid in [agent, *children]), timeout=10)
    tmux.keys("q")
    assert wait_exit(tmp_path / "exit") == 1
