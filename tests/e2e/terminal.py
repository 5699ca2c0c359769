"""Drive the real ``python -m streamview`` in a private tmux server.

Each test gets its own server (``tmux -L sv-test-<uuid>``), killed at the end; the
screen is read with ``capture-pane -p``. Waits poll the screen, so a slow machine only
makes a test slower, never wrong.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Tmux:
    """One private tmux server with one window of a fixed size."""

    def __init__(self, width: int = 100, height: int = 30) -> None:
        self.socket = f"sv-test-{uuid.uuid4().hex[:12]}"
        self.width = width
        self.height = height

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run a tmux command on this server."""
        return subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )

    def tmux(self, *args: str) -> str:
        """Run a tmux command on this server; its stdout."""
        return self.run(*args).stdout

    def start(self, command: str) -> None:
        """Start ``command`` (a shell line) in a new detached session."""
        size = ("-x", str(self.width), "-y", str(self.height))
        deadline = time.monotonic() + 10
        # A server going away (one emptied a moment ago) refuses it: try again. (A
        # server killed by kill() is gone before it returns.)
        while self.run("new-session", "-d", *size, command).returncode != 0:
            if time.monotonic() > deadline:
                raise AssertionError("tmux would not start a session")
            time.sleep(0.1)
        self.tmux("set-option", "-g", "window-size", "manual")
        self.tmux("resize-window", *size)

    def screen(self) -> str:
        """The visible text of the pane."""
        return self.tmux("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        """Type keys into the pane."""
        self.tmux("send-keys", *keys)

    def wait_for(self, condition: Callable[[str], bool], timeout: float = 30.0) -> str:
        """Poll the screen until ``condition(screen)`` holds; fail with the screen if not."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"screen never matched; last screen:\n{screen}")

    def kill(self) -> None:
        """Kill the server and everything in it, and wait until it is gone."""
        self.tmux("kill-server")
        deadline = time.monotonic() + 5
        while self.run("list-sessions").returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.05)


def viewer_line(
    args: str,
    exit_file: Path,
    stdin_from: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
) -> str:
    """A shell line running the viewer and writing its exit status to ``exit_file``.

    Args:
        args: The viewer's arguments, already shell-quoted.
        exit_file: Where ``$?`` is written when the viewer exits.
        stdin_from: A shell command piped into the viewer, if any.
        env: Variables to export first (``XDG_STATE_HOME`` for run mode's recordings).
        cwd: The directory the viewer is started in (the repository's, unless a test
            starts it in a checkout of the recorded run).
    """
    python = shlex.quote(sys.executable)
    viewer = f"{python} -m streamview {args}; echo $? > {shlex.quote(str(exit_file))}"
    if stdin_from is not None:
        viewer = f"{stdin_from} | {{ {viewer}; }}"
    exports = "".join(
        f"export {name}={shlex.quote(value)} && " for name, value in (env or {}).items()
    )
    # COLUMNS/LINES from the test's environment would override the terminal's size.
    return f"cd {shlex.quote(str(cwd))} && unset COLUMNS LINES && {exports}{viewer}; sleep 60"


def wait_exit(exit_file: Path, timeout: float = 60.0) -> int:
    """Wait for the viewer's exit status to be written."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if exit_file.exists() and exit_file.read_text().strip():
            return int(exit_file.read_text())
        time.sleep(0.05)
    raise AssertionError(f"the viewer did not exit within {timeout} s")
