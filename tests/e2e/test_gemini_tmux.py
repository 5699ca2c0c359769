"""A Gemini CLI stream in the real ``python -m streamview``, in a real terminal (tmux).

Fixtures: tests/fixtures/dialects/gemini (see its SOURCES.md). A producer prints one
slowly into the viewer's pipe; ``streamview run`` runs a fake ``gemini`` printing one.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

GEMINI = REPO / "tests" / "fixtures" / "dialects" / "gemini"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

SLOW_GEMINI = """\
import sys, time
# Prints a Gemini CLI stream a line at a time, as `gemini -p -o stream-json` does,
# with its own line on stderr first; then stays silent for `linger` seconds and exits
# with the given status (the CLI's FatalTurnLimitedError exits with 53).
path, delay, linger = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
status = int(sys.argv[4]) if len(sys.argv) > 4 else 0
sys.stderr.write("Loaded cached credentials.\\n")
for line in open(path, "rb"):
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
    time.sleep(delay)
time.sleep(linger)
sys.exit(status)
"""


def slow_gemini(tmp_path: Path, fixture: str, delay: float, linger: float, status: int = 0) -> str:
    """A shell command printing a Gemini fixture slowly, then exiting with ``status``."""
    script = tmp_path / "slow_gemini.py"
    script.write_text(SLOW_GEMINI)
    parts = (sys.executable, str(script), str(GEMINI / fixture), str(delay), str(linger))
    return " ".join(shlex.quote(part) for part in (*parts, str(status)))


def test_a_slow_gemini_pipe_grows_then_finishes(tmux: Tmux, tmp_path: Path) -> None:
    """Header, the first words while calls are still coming, every call, the outcome."""
    exit_file = tmp_path / "exit"
    source = slow_gemini(tmp_path, "success-every-tool.jsonl", delay=0.15, linger=60)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: "Gemini CLI" in s and "gemini-2.5-pro" in s)
    screen = tmux.wait_for(lambda s: "I'll look at the parser first." in s)
    assert "✓ success" not in screen  # still streaming: the outcome is not there yet
    screen = tmux.wait_for(lambda s: "updateTodos 2 todos" in s and "0/2 done" in s)
    assert "● streaming" in screen
    screen = tmux.wait_for(lambda s: "✓ success in 15.6s" in s)
    assert "Tool calls (11)" in screen
    assert "26,928 in · 219 out" in screen
    # The table and the transcript follow the tail: the last calls are in view.
    for seen in ("edit", "+1 -1", "shell", "2.5s", "mcp", "github: get_issue", "save_memory"):
        assert seen in screen, seen
    assert "Fixed: parse('') now returns [], and both tests pass." in screen
    # The open pipe keeps the viewer on the final state: its keys still work.
    tmux.keys("Tab")
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: "esc Close" in s)
    assert "call_id save_memory-1774019699300-8c7b6a5d4e3f2" in screen
    assert "remembered that" in screen
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "esc Close" not in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_a_failed_gemini_run_in_run_mode_says_why(tmux: Tmux, tmp_path: Path) -> None:
    """``streamview run -- <fake gemini>`` stopped by its turn limit: the error and why."""
    exit_file = tmp_path / "exit"
    agent = slow_gemini(tmp_path, "error-result.jsonl", delay=0.1, linger=0, status=53)
    env = {"XDG_STATE_HOME": str(tmp_path)}
    tmux.start(viewer_line(f"run -- {agent}", exit_file, env=env))
    screen = tmux.wait_for(
        lambda s: (
            "✗ FatalTurnLimitedError · Reached max session turns" in s
            and "agent exited with 53" in s
        )
    )
    assert "Gemini CLI" in screen and "gemini-2.5-flash" in screen
    assert "Maximum session turns exceeded" in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 53  # run mode passes the agent's status on
    (recording,) = list((tmp_path / "streamview").rglob("*.ndjson"))
    assert b'"type":"init"' in recording.read_bytes().splitlines()[0]
