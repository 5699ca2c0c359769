"""``streamview sessions`` in a real terminal (tmux), on a home directory built in the
test: the list at 80x24, filtered by typing; Enter opens a run in the viewer, Escape
comes back to the list on the same filter; at 200x50 the titles show whole; ctrl+q
quits with status 0."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.sessions.home import build_home, fake_env

from .terminal import Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def test_list_opens_a_run_and_comes_back(tmp_path: Path) -> None:
    build_home(tmp_path)
    env = {**fake_env(tmp_path), "XDG_DATA_HOME": str(tmp_path / "home" / ".local" / "share")}
    exit_file = tmp_path / "exit"
    tmux = Tmux(80, 24)
    try:
        tmux.start(viewer_line("sessions", exit_file, env=env))
        screen = tmux.wait_for(lambda s: "Fix the cart t" in s and "explain the bu" in s)
        assert "enter opens" in screen  # the filter says how to use the list
        tmux.keys("cart")
        screen = tmux.wait_for(lambda s: "explain the bu" not in s)
        assert "Fix the cart t" in screen
        tmux.keys("Enter")
        screen = tmux.wait_for(lambda s: "Transcript" in s)
        assert "the cart total is wrong" in screen
        tmux.keys("Escape")
        screen = tmux.wait_for(lambda s: "Transcript" not in s and "Fix the cart" in s)
        assert screen.splitlines()[0].strip() == "cart"  # the filter kept
        tmux.width, tmux.height = 200, 50
        tmux.tmux("resize-window", "-x", "200", "-y", "50")
        tmux.wait_for(lambda s: "Fix the cart total" in s)
        tmux.keys("Escape")  # clears the filter: every run again
        tmux.wait_for(lambda s: "explain the build" in s and "add a health endpoint" in s)
        tmux.keys("C-q")
        assert wait_exit(exit_file) == 0
    finally:
        tmux.kill()
