"""Scrolling in a real terminal: `Home`, `End`, `↑` moves one line, not to the top.

The transcript's rows are read from the screen before and after each key: one line up
means every row moved down by one.
"""

from __future__ import annotations

import shlex
import shutil
import time
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"


def transcript_rows(screen: str) -> list[str]:
    """The transcript pane's text rows (inside its frame, scrollbar column dropped)."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if "Transcript" in line)
    rows = []
    for line in lines[top + 1 :]:
        if line.startswith("╰"):
            break
        rows.append(line[1:-2].rstrip())
    return rows


def steady(tmux: Tmux, before: list[str] | None = None) -> str:
    """The screen once two captures 0.3 s apart agree (a key's scroll has ended); with
    ``before``, once the transcript's rows differ from those first (the key was taken:
    on a busy machine it may not be within 0.3 s)."""
    if before is not None:
        tmux.wait_for(lambda screen: transcript_rows(screen) != before)
    previous = tmux.screen()
    while True:
        time.sleep(0.3)
        screen = tmux.screen()
        if screen == previous:
            return screen
        previous = screen


def test_home_end_up_moves_one_line(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    tmux.start(viewer_line(shlex.quote(str(RECORDING)), exit_file))
    tmux.wait_for(lambda s: "✓ success" in s)
    tmux.keys("Home")
    tmux.wait_for(lambda screen: "\u276f" in transcript_rows(screen)[0])  # the prompt mark on top
    top = transcript_rows(steady(tmux))
    tmux.keys("End")
    end = transcript_rows(steady(tmux, before=top))
    tmux.keys("Up")
    up = transcript_rows(steady(tmux, before=end))
    assert up[1:] == end[:-1]  # everything moved down one row
    tmux.keys("Up", "Up")
    up3 = transcript_rows(steady(tmux, before=up))
    assert up3[2:] == up[:-2]
    tmux.keys("End")
    tmux.wait_for(lambda screen: transcript_rows(screen) == end)
    tmux.keys("q")
    assert wait_exit(exit_file, timeout=30) == 0
