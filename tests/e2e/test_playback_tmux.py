"""Playback keys and run mode in the real viewer, in a real terminal (tmux).

Each test runs its own tmux server and kills it at the end; the screen is read with
``capture-pane -p``. Waits poll the screen, so a slow machine only makes them slower.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
AGENTS = REPO / "tests" / "run" / "agents"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

POSITION = re.compile(r"([▶⏸]) (\S+)x · event (\d+) of (\d+) · (\d+:\d+) / (\d+:\d+)")


class Tmux:
    """One private tmux server with one 120x36 window."""

    def __init__(self) -> None:
        self.socket = f"sv-playback-{uuid.uuid4().hex[:12]}"

    def tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        return result.stdout

    def start(self, command: str) -> None:
        self.tmux("new-session", "-d", "-x", "120", "-y", "36", command)
        self.tmux("set-option", "-g", "window-size", "manual")
        self.tmux("resize-window", "-x", "120", "-y", "36")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def wait_for(self, condition: Callable[[str], bool], timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"screen never matched; last screen:\n{screen}")

    def position(self, timeout: float = 30.0) -> tuple[str, float, int, int]:
        """``(mark, speed, n, N)`` from the position bar."""
        screen = self.wait_for(lambda text: POSITION.search(text) is not None, timeout)
        match = POSITION.search(screen)
        assert match is not None
        return match[1], float(match[2]), int(match[3]), int(match[4])

    def wait_position(self, condition: Callable[[tuple[str, float, int, int]], bool]) -> None:
        def holds(screen: str) -> bool:
            match = POSITION.search(screen)
            return match is not None and condition(
                (match[1], float(match[2]), int(match[3]), int(match[4]))
            )

        self.wait_for(holds)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux()
    try:
        yield server
    finally:
        server.tmux("kill-server")


def viewer(args: str, exit_file: Path, state_dir: Path) -> str:
    """A shell line running the viewer, writing its exit status to ``exit_file``."""
    python = shlex.quote(sys.executable)
    return (
        f"cd {shlex.quote(str(REPO))} && unset COLUMNS LINES && "
        f"export XDG_STATE_HOME={shlex.quote(str(state_dir))} && "
        f"{python} -m streamview {args}; echo $? > {shlex.quote(str(exit_file))}; sleep 60"
    )


def exit_status(path: Path, timeout: float = 20.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        time.sleep(0.1)
    raise AssertionError("the viewer did not exit")


def test_playback_keys(tmux: Tmux, tmp_path: Path) -> None:
    """A file opens at its end; , . < > digits space + - r move the position bar."""
    exit_file = tmp_path / "exit"
    tmux.start(viewer(shlex.quote(str(RECORDING)), exit_file, tmp_path))
    tmux.wait_position(lambda p: p[0] == "⏸" and p[2] == p[3] == 170)
    tmux.wait_for(lambda screen: "✓ success in 36.5s" in screen)

    tmux.keys(",", ",", ",")
    tmux.wait_position(lambda p: p[2] == 167)
    tmux.keys(".")
    tmux.wait_position(lambda p: p[2] == 168)
    screen = tmux.screen()
    assert "✓ success" not in screen  # the result line is event 170: not shown yet

    tmux.keys("<")
    tmux.wait_position(lambda p: p[2] < 168)
    _, _, at_call, _ = tmux.position()
    tmux.keys("<")
    tmux.wait_position(lambda p: p[2] < at_call)
    tmux.keys(">")
    tmux.wait_position(lambda p: p[2] == at_call)

    tmux.keys("0")
    tmux.wait_position(lambda p: p[0] == "⏸" and p[2] <= 2)
    tmux.wait_for(lambda screen: "Tool calls (" not in screen)
    tmux.keys("5")
    tmux.wait_position(lambda p: 20 < p[2] < 170)

    tmux.keys("+", "+")
    tmux.wait_position(lambda p: p[1] == 4.0)
    tmux.keys("-")
    tmux.wait_position(lambda p: p[1] == 2.0)

    tmux.keys("Space")
    tmux.wait_position(lambda p: p[0] == "▶")
    tmux.keys("Space")
    tmux.wait_position(lambda p: p[0] == "⏸")

    tmux.keys("9", "Space", "+", "+", "+", "+", "+")
    tmux.wait_position(lambda p: p[2] == p[3] == 170 and p[0] == "⏸")
    tmux.wait_for(lambda screen: "✓ success in 36.5s" in screen)

    tmux.keys("r")
    tmux.wait_position(lambda p: p[0] == "▶" or p[2] < 170)
    tmux.keys("q")
    assert exit_status(exit_file) == 0  # quitting mid-playback: the run itself succeeded


def test_replay_plays_from_the_start(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    tmux.start(viewer(f"--replay --speed 8 {shlex.quote(str(RECORDING))}", exit_file, tmp_path))
    tmux.wait_position(lambda p: p[0] == "▶" and p[2] < p[3])
    tmux.wait_position(lambda p: p[2] == p[3] and p[0] == "⏸")
    tmux.wait_for(lambda screen: "✓ success in 36.5s" in screen)
    tmux.keys("q")
    assert exit_status(exit_file) == 0


def test_run_mode_shows_a_failure_with_its_stderr(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    agent = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENTS / 'failure.py'))}"
    tmux.start(viewer(f"run -- {agent}", exit_file, tmp_path))
    screen = tmux.wait_for(
        lambda text: "agent exited with 1" in text and "⚠ stream ended without a result" in text
    )
    assert "Error: authentication failed" in screen
    assert "Run 'agent login' first." in screen
    tmux.keys("q")
    assert exit_status(exit_file) == 1
    assert len(list((tmp_path / "streamview").rglob("*.ndjson"))) == 1


def test_ctrl_c_stops_the_agent_and_the_viewer_stays(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    agent = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENTS / 'sigint.py'))}"
    tmux.start(viewer(f"run -- {agent}", exit_file, tmp_path))
    tmux.wait_for(lambda text: "agent running" in text and "README.md" in text)
    tmux.keys("C-c")
    tmux.wait_for(
        lambda text: (
            "agent exited with 130 (SIGINT)" in text
            and "1 call interrupted" in text
            and "Aborting operation..." in text
        )
    )
    time.sleep(0.3)
    assert not exit_file.exists()  # the viewer is still open
    tmux.keys("q")
    assert exit_status(exit_file) == 130


def test_recording_a_pipe_in_the_viewer_keeps_the_keys(tmux: Tmux, tmp_path: Path) -> None:
    """``producer | streamview --record PATH``: the viewer still reads keys from the terminal."""
    exit_file = tmp_path / "exit"
    record = tmp_path / "piped.ndjson"
    producer = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENTS / 'success.py'))}"
    python = shlex.quote(sys.executable)
    tmux.start(
        f"cd {shlex.quote(str(REPO))} && unset COLUMNS LINES && {producer} | "
        f"{{ {python} -m streamview --record {shlex.quote(str(record))}; "
        f"echo $? > {shlex.quote(str(exit_file))}; }}; sleep 60"
    )
    tmux.wait_for(lambda screen: "✓ success in 300ms" in screen)
    tmux.keys("q")
    assert exit_status(exit_file) == 0
    assert record.read_bytes().count(b"streamview_recv_ms") == 6
