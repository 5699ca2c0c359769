"""``streamview sessions`` in a real terminal (tmux), on a home directory built in the
test, with three runs going on (Claude, Codex, Gemini): at 80x24 the list shows the
live runs thinking, then each one's call as the files grow, then Claude's question and
the others' finished turns, marked; typing filters, Enter opens a run in the viewer,
Escape comes back to the list on the same filter; at 200x50 the titles show whole;
ctrl+l shows only the live runs; ctrl+q quits with status 0."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.sessions.home import build_home, fake_env
from tests.sessions.live_lines import ThreeRuns

from .terminal import Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def test_list_shows_live_runs_opens_a_run_and_comes_back(tmp_path: Path) -> None:
    build_home(tmp_path)
    runs = ThreeRuns(tmp_path)
    runs.start(time.time())
    env = {
        **fake_env(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "home" / ".local" / "share"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    exit_file = tmp_path / "exit"
    tmux = Tmux(80, 24)
    try:
        tmux.start(viewer_line("sessions", exit_file, env=env))
        # The footer may be drawn a frame after the rows (a fresh clone's .ci/run
        # caught the rows without it): wait for it too, then read the screen.
        screen = tmux.wait_for(
            lambda s: "Fix the" in s and s.count("thinking") == 3 and "Live only" in s
        )
        assert "enter opens" in screen  # the filter says how to use the list
        assert "Live only" in screen  # the footer names the key
        runs.work(time.time())
        screen = tmux.wait_for(lambda s: "npm test" in s and "pytest -q" in s and "glob" in s)
        runs.need_you(time.time())
        screen = tmux.wait_for(lambda s: "needs you" in s and s.count("✓ finished") == 2)
        assert screen.count("◆") == 3  # each one that needs the person, marked
        tmux.keys("cart")
        screen = tmux.wait_for(lambda s: "explain" not in s and "Fix the" in s)
        assert "till" not in screen  # the live runs are filtered like any
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
        screen = tmux.wait_for(lambda s: "explain the build" in s and "add a health endpoint" in s)
        assert "needs you: AskUserQuestion" in screen and "the till rounds wrong" in screen
        tmux.keys("C-l")  # only the live runs
        screen = tmux.wait_for(lambda s: "explain the build" not in s)
        for live in ("the till rounds wrong", "add a metrics endpoint", "explain the deploy"):
            assert live in screen
        assert "rename the blog" not in screen
        tmux.keys("till", "Enter")  # a live run opens followed, its question shown
        screen = tmux.wait_for(lambda s: "Transcript" in s and "AskUserQuestion" in s)
        assert "the till rounds wrong" in screen
        tmux.keys("Escape")
        screen = tmux.wait_for(
            lambda s: "Transcript" not in s and "needs you" in s and "metrics endpoint" not in s
        )
        assert screen.splitlines()[0].strip() == "till"  # filter and live-only kept
        assert screen.count("◆") == 0  # the run opened was looked at
        tmux.keys("C-u")
        screen = tmux.wait_for(lambda s: "add a metrics endpoint" in s)
        assert "explain the build" not in screen and screen.count("◆") == 2  # still marked
        tmux.keys("C-q")
        assert wait_exit(exit_file) == 0
    finally:
        tmux.kill()
