"""Playback keys and run mode in the real viewer, in a real terminal (tmux).

Each test runs its own tmux server and kills it at the end; the screen is read with
``capture-pane -p``. Waits poll the screen, so a slow machine only makes them slower.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
AGENTS = REPO / "tests" / "run" / "agents"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

POSITION = re.compile(r"([▶‖]) (\S+)x · event (\d+) of (\d+) · (\d+:\d+) / (\d+:\d+)")


class PlaybackTmux(Tmux):
    """A 120x36 tmux server that can read the playback position bar."""

    def __init__(self) -> None:
        super().__init__(width=120, height=36)

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
def tmux() -> Iterator[PlaybackTmux]:
    """A private tmux server for this module's wider screen, killed after the test."""
    server = PlaybackTmux()
    try:
        yield server
    finally:
        server.kill()


def viewer(args: str, exit_file: Path, state_dir: Path) -> str:
    """The viewer with run mode's recordings kept under ``state_dir``."""
    return viewer_line(args, exit_file, env={"XDG_STATE_HOME": str(state_dir)})


def test_playback_keys(tmux: PlaybackTmux, tmp_path: Path) -> None:
    """A file opens at its end; , . < > digits space + - r move the position bar."""
    exit_file = tmp_path / "exit"
    tmux.start(viewer(shlex.quote(str(RECORDING)), exit_file, tmp_path))
    tmux.wait_position(lambda p: p[0] == "‖" and p[2] == p[3] == 170)
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
    tmux.wait_position(lambda p: p[0] == "‖" and p[2] <= 2)
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
    tmux.wait_position(lambda p: p[0] == "‖")

    tmux.keys("9", "Space", "+", "+", "+", "+", "+")
    tmux.wait_position(lambda p: p[2] == p[3] == 170 and p[0] == "‖")
    tmux.wait_for(lambda screen: "✓ success in 36.5s" in screen)

    # Back to 1x first: at 64x the replay `r` starts takes 0.55 s, and on a busy machine
    # it played to its end between two screen reads (a fresh-clone pair, f449a9c).
    tmux.keys("-", "-", "-", "-", "-", "-")
    tmux.wait_position(lambda p: p[1] == 1.0)
    tmux.keys("r")
    tmux.wait_position(lambda p: p[0] == "▶" or p[2] < 170)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0  # quitting mid-playback: the run itself succeeded


def test_replay_plays_from_the_start(tmux: PlaybackTmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    tmux.start(viewer(f"--replay --speed 8 {shlex.quote(str(RECORDING))}", exit_file, tmp_path))
    tmux.wait_position(lambda p: p[0] == "▶" and p[2] < p[3])
    tmux.wait_position(lambda p: p[2] == p[3] and p[0] == "‖")
    tmux.wait_for(lambda screen: "✓ success in 36.5s" in screen)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_run_mode_shows_a_failure_with_its_stderr(tmux: PlaybackTmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    agent = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENTS / 'failure.py'))}"
    tmux.start(viewer(f"run -- {agent}", exit_file, tmp_path))
    screen = tmux.wait_for(
        lambda text: (
            "agent exited with 1" in text
            and "✗ agent exited with 1 · Error: authentication failed" in text
        )  # the outcome
    )
    assert "⚠ stream ended without a result" not in screen
    assert "Error: authentication failed" in screen
    assert "Run 'agent login' first." in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 1
    assert len(list((tmp_path / "streamview").rglob("*.ndjson"))) == 1


def test_ctrl_c_stops_the_agent_and_the_viewer_stays(tmux: PlaybackTmux, tmp_path: Path) -> None:
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
    assert wait_exit(exit_file) == 130


def test_recording_a_pipe_in_the_viewer_keeps_the_keys(tmux: PlaybackTmux, tmp_path: Path) -> None:
    """``producer | streamview --record PATH``: the viewer still reads keys from the terminal."""
    exit_file = tmp_path / "exit"
    record = tmp_path / "piped.ndjson"
    producer = f"{shlex.quote(sys.executable)} {shlex.quote(str(AGENTS / 'success.py'))}"
    tmux.start(viewer_line(f"--record {shlex.quote(str(record))}", exit_file, producer))
    tmux.wait_for(lambda screen: "✓ success in 300ms" in screen)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
    assert record.read_bytes().count(b"streamview_recv_ms") == 6


def test_paused_mid_run_says_so_and_g_goes_to_the_end(tmux: PlaybackTmux, tmp_path: Path) -> None:
    """Paused half-way the status line says where, not "streaming" or "idle 10h";
    G, even while playing, goes to 100 % and the run's outcome."""
    exit_file = tmp_path / "exit"
    tmux.start(viewer(shlex.quote(str(RECORDING)), exit_file, tmp_path))
    tmux.wait_for(lambda screen: "✓ success in 36.5s" in screen)
    tmux.keys("5")
    tmux.wait_position(lambda p: p[0] == "‖" and 20 < p[2] < 170)
    _, _, at, total = tmux.position()
    screen = tmux.wait_for(lambda s: f"‖ paused at event {at:,} of {total:,}" in s)
    assert "streaming" not in screen and "idle" not in screen
    tmux.keys("Space")
    tmux.wait_position(lambda p: p[0] == "▶")
    assert "paused at event" not in tmux.screen()
    tmux.keys("G")
    tmux.wait_position(lambda p: p[0] == "‖" and p[2] == p[3] == 170)
    tmux.wait_for(lambda screen: "✓ success in 36.5s" in screen)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
