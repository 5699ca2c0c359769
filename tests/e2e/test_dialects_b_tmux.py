"""Qwen Code, Amp, Droid, Kimi CLI and pi streams in the real ``python -m streamview``,
in a real terminal (tmux): each agent's stream piped in slowly.

Fixtures: tests/fixtures/dialects/<agent>/success-tools.jsonl (see each SOURCES.md).
A producer prints one a line at a time into the viewer's pipe (the fake agent of
tests/run/agents), then stays silent, so the viewer keeps the final state on screen.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

FIXTURES = REPO / "tests" / "fixtures" / "dialects"
FAKE_AGENT = REPO / "tests" / "run" / "agents" / "dialect_fixture.py"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

FIRST = "I'll run the tests first."
LAST = "both tests pass."
CASES = {
    # agent: (header label, model or None, first words, last words, outcome mark)
    "qwen": ("Qwen Code", "qwen3-coder-plus", "I'll run the failing test", LAST, "✓ success"),
    "amp": ("Amp", None, FIRST, LAST, "✓ success"),
    "droid": ("Droid", "claude-sonnet-4-5", FIRST, LAST, "✓ success"),
    "kimi": ("Kimi CLI", None, FIRST, LAST, "✓ ended: Kimi prints no final record"),
    "pi": ("pi", "claude-sonnet-4-5", FIRST, LAST, "✓ success"),
}


def slow_agent(fixture: Path, delay: float, linger: float) -> str:
    """A shell command printing ``fixture`` slowly, then staying silent ``linger`` s."""
    printer = shlex.join([sys.executable, str(FAKE_AGENT), str(fixture), str(delay)])
    return f"{{ {printer}; sleep {linger}; }}"


@pytest.mark.parametrize("agent", list(CASES))
def test_a_slow_pipe_grows_then_finishes(tmux: Tmux, tmp_path: Path, agent: str) -> None:
    """Header (agent, model), the first words while calls still come, every call with
    its status and duration, the outcome; the keys still work on the final state."""
    label, model, first, last, outcome = CASES[agent]
    exit_file = tmp_path / "exit"
    # Kimi's stream has no final record: it ends when the agent's output closes.
    linger = 0 if agent == "kimi" else 60
    source = slow_agent(FIXTURES / agent / "success-tools.jsonl", delay=0.12, linger=linger)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: label in s and (model is None or model in s))
    screen = tmux.wait_for(lambda s: first in s)
    assert outcome not in screen  # still streaming: the outcome is not there yet
    assert "● streaming" in screen or agent == "kimi"  # a closed pipe may come first
    screen = tmux.wait_for(lambda s: outcome in s and last in s)
    # The table followed the newest call to the end; the first calls are a Home away.
    tmux.keys("Tab")
    tmux.keys("Home")
    wanted = ("shell", "python -m pytest -q", "exit 1", "edit", "+1 -1", "glob")
    screen = tmux.wait_for(lambda s: all(seen in s for seen in wanted))
    assert "✗" in screen and "✓" in screen  # a failed command, succeeded calls
    assert any(unit in screen for unit in ("ms", ".0s", ".1s", ".2s", ".3s")), screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 0  # Kimi's whole last turn is a clean end
