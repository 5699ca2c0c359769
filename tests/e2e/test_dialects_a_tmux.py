"""opencode, Copilot CLI, Goose and Cline streams in the real ``python -m streamview``,
in a real terminal (tmux).

Fixtures: tests/fixtures/dialects/<agent> (see each SOURCES.md). A producer prints one
slowly into the viewer's pipe; ``streamview run`` runs a fake agent printing one.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

FIXTURES = REPO / "tests" / "fixtures" / "dialects"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

SLOW_AGENT = """\
import sys, time
# Prints an agent's JSON stream a line at a time, as the CLI does, then stays silent
# for `linger` seconds and exits with the given status.
path, delay, linger = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
status = int(sys.argv[4]) if len(sys.argv) > 4 else 0
for line in open(path, "rb"):
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
    time.sleep(delay)
time.sleep(linger)
sys.exit(status)
"""


def slow_agent(tmp_path: Path, fixture: Path, delay: float, linger: float, status: int = 0) -> str:
    """A shell command printing a fixture slowly, then exiting with ``status``."""
    script = tmp_path / "slow_agent.py"
    script.write_text(SLOW_AGENT)
    parts = (sys.executable, str(script), str(fixture), str(delay), str(linger), str(status))
    return " ".join(shlex.quote(part) for part in parts)


CASES = {
    # agent: (header words, first words, a call still to come, the outcome line, what the
    # finished table and transcript show: calls with statuses and durations)
    "opencode": (
        ("opencode",),
        "I'll look at the parser and its failing test first.",
        "Fixed: parse('') now returns []",
        "✓ success in 20.5s",
        ("shell", "2.4s", "mcp", "github: get_issue", "updateTodos", "2/2 done", "5,590 in"),
    ),
    "copilot": (
        ("GitHub Copilot CLI", "gpt-5.4"),
        "I'll look at the parser first.",
        "Fixed: parse('') now returns []",
        "✓ success in 19.0s",
        ("mcp", "github-mcp-server: get_issue", "2/2 done", "18,230 in"),
    ),
    "goose": (
        ("Goose", "claude-sonnet-4-5"),
        "I'll look at the parser first.",
        "Fixed: parse('') now returns []",
        "✓ success in 19.0s",
        ("mcp", "github: get_issue", "4.0s", "18,730 in"),
    ),
    "cline": (
        ("Cline", "claude-sonnet-4-5"),
        "I'll look at the parser first.",
        "Fixed: parse('') now returns []",
        "✓ success in 6.8s",
        ("mcp", "github: get_issue", "450ms", "7,650 in"),
    ),
}


WATCHED_A = {*CASES, "kilo"}
"""Agents this file watches; Kilo prints opencode's stream, watched as opencode's."""


@pytest.mark.parametrize("agent", sorted(CASES))
def test_a_slow_pipe_grows_then_finishes(tmux: Tmux, tmp_path: Path, agent: str) -> None:
    """Header (agent, model), the first words while calls are still coming, every call
    with its status and duration, the outcome."""
    header, first, last, outcome, finished = CASES[agent]
    exit_file = tmp_path / "exit"
    fixture = FIXTURES / agent / "success-tools.jsonl"
    tmux.start(viewer_line("", exit_file, stdin_from=slow_agent(tmp_path, fixture, 0.15, 60)))
    screen = tmux.wait_for(lambda s: all(word in s for word in header))
    screen = tmux.wait_for(lambda s: first in s)
    assert outcome not in screen and last not in screen  # still streaming
    assert "● streaming" in screen
    screen = tmux.wait_for(lambda s: outcome in s)
    for seen in finished:
        assert seen in screen, seen
    assert "✓" in screen and ("⊘" in screen or "✗" in screen or agent == "cline")
    assert last in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_a_failed_opencode_run_in_run_mode_says_why(tmux: Tmux, tmp_path: Path) -> None:
    """``streamview run -- <fake opencode>`` whose session fails: the error and the exit."""
    exit_file = tmp_path / "exit"
    agent = slow_agent(tmp_path, FIXTURES / "opencode" / "error.jsonl", 0.1, 0, status=1)
    env = {"XDG_STATE_HOME": str(tmp_path)}
    tmux.start(viewer_line(f"run -- {agent}", exit_file, env=env))
    screen = tmux.wait_for(lambda s: "✗ APIError" in s and "agent exited with 1" in s)
    assert "opencode" in screen
    assert "Rate limit exceeded: 429 Too Many Requests" in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 1
    (recording,) = list((tmp_path / "streamview").rglob("*.ndjson"))
    assert b'"type":"step_start"' in recording.read_bytes().splitlines()[0]
