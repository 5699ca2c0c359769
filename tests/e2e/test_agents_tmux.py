"""Each agent's stream piped slowly into the real ``streamview`` in tmux, as a person
watches one: the header names the agent and model, the answer grows, the calls come
with their statuses, the outcome lands; Tab and Enter open a call, Escape comes back.

One row of :data:`AGENTS` per registered dialect; a dialect without one fails
:func:`test_every_dialect_is_watched_in_a_terminal`.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from streamview.core import dialects

from .terminal import Tmux, viewer_line, wait_exit
from .test_tmux import producer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dialects"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@dataclass(frozen=True)
class Watched:
    """What a person must see of one agent's showcase stream."""

    stream: Path
    header: str
    """The header's start: the agent's label and the model."""
    answer: str
    """A piece of the final answer."""
    calls: int
    """How many calls the table's title counts."""
    statuses: tuple[str, ...]
    """Statuses shown in the table."""
    outcome: str
    """The status bar's outcome."""
    detail: str
    """What the first call's detail view shows."""


AGENTS: dict[str, Watched] = {
    "cursor": Watched(
        FIXTURES / "cursor" / "read-and-answer.ndjson",
        header="Cursor  GPT-5 Mini",
        answer="It is a two-item to-do list",
        calls=1,
        statuses=("succeeded",),
        outcome="✓ success in 1.2s",
        detail="read",
    ),
    "claude": Watched(
        FIXTURES / "claude" / "success-tools.jsonl",
        header="Claude Code  claude-sonnet-4-5-20250929",
        answer="both parser tests pass",
        calls=8,
        statuses=("failed", "succeeded"),
        outcome="✓ success in 41.2s",
        detail="updateTodos",
    ),
    "codex": Watched(
        FIXTURES / "codex" / "success-tools.jsonl",
        header="Codex  session 019c9a10",
        answer="All 3 tests pass.",
        calls=7,
        statuses=("failed", "succeeded"),
        outcome="✓ success · 1 of 7 calls failed · 1 turn",
        detail="updateTodos",
    ),
    "gemini": Watched(
        FIXTURES / "gemini" / "success-tools.jsonl",
        header="Gemini CLI  gemini-2.5-pro",
        answer="both parser tests pass.",
        calls=9,
        statuses=("failed", "succeeded"),
        outcome="✓ success in 16.0s · 1 of 9 calls failed",
        detail="updateTodos",
    ),
}


def test_every_dialect_is_watched_in_a_terminal() -> None:
    from .test_dialects_a_tmux import WATCHED_A
    from .test_dialects_b_tmux import CASES

    watched = {*AGENTS, *WATCHED_A, *CASES}
    streams = [d.name for d in dialects.DIALECTS if d.name not in dialects.SESSION_FILES]
    assert sorted(watched) == sorted(streams)


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_a_piped_run_of_each_agent(tmux: Tmux, tmp_path: Path, agent: str) -> None:
    watched = AGENTS[agent]
    exit_file = tmp_path / "exit"
    source = producer(tmp_path, watched.stream, delay=0.05, linger=60)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: watched.outcome in s)
    assert watched.header in screen
    assert watched.answer in screen
    assert f"Tool calls ({watched.calls})" in screen
    for status in watched.statuses:
        assert status in screen, status
    tmux.keys("Tab")
    tmux.keys("Home")
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: "Transcript" not in s and watched.detail in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Transcript" in s and watched.outcome in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
