"""The tool table's filter keys in a real terminal, from where the viewer opens (the
focus on the transcript): F, K and \\ act on the table (issue 30.5: F and K did
nothing, silently), and the palette finds the export by the word "markdown"."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def title(screen: str) -> str:
    """The tool table's title as the screen shows it."""
    line = next((line for line in screen.splitlines() if "Tool calls " in line), "")
    return line[line.index("Tool calls ") :].split(" ─")[0] if line else ""


def test_f_k_and_backslash_work_from_the_transcript(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}  # no filter saved by another run
    tmux.start(viewer_line(shlex.quote(str(CLAUDE)), exit_file, env=env))
    tmux.wait_for(lambda s: "✓ success in 41.2s" in s and "Tool calls (8)" in s)
    tmux.keys("F")
    tmux.wait_for(lambda s: "Tool calls 1 of 8 · failed" in s)
    tmux.keys("F", "F", "F")  # rejected, running, all
    tmux.wait_for(lambda s: "Tool calls (8)" in s)
    tmux.keys("K")  # the kind of the call under the table's cursor (the first)
    tmux.wait_for(lambda s: "Tool calls 1 of 8 · updateTodos" in s)
    for _ in range(10):  # the other kinds, one key at a time, then all of them again
        shown = title(tmux.screen())
        if shown.startswith("Tool calls (8)"):
            break
        tmux.keys("K")
        tmux.wait_for(lambda s, before=shown: title(s) != before)
    tmux.wait_for(lambda s: "Tool calls (8)" in s)
    tmux.keys("-l", "\\")
    # Typed once the box shows, as a person does: keys that reach the viewer with the
    # \ in one read go to the pane that had the focus (Textual moves the focus after
    # the keys already queued: seen at load 5, "pytest" went to the table).
    tmux.wait_for(lambda s: "show the tool calls whose target holds" in s)
    tmux.keys("-l", "pytest")
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "Tool calls 2 of 8" in s and "“pytest”" in s)
    tmux.keys("C-p")  # the palette finds the export by what it writes
    tmux.wait_for(lambda s: "Search for commands" in s)
    tmux.keys("-l", "markdown")
    tmux.wait_for(lambda s: "Export transcript and screenshot" in s)
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "Export the transcript (Markdown)" in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Export the transcript" not in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
