"""The viewer reads a named pipe given as FILE as it arrives, like ``<(cmd)`` (issue
26.9a): it waited forever on a second open after the first had killed the writer."""

from __future__ import annotations

import os
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


def test_the_viewer_shows_a_named_pipe_as_it_arrives(tmux: Tmux, tmp_path: Path) -> None:
    fifo = tmp_path / "stream"
    os.mkfifo(fifo)
    exit_file = tmp_path / "exit"
    # The producer starts first and waits in open() for a reader, as `cmd > f &` does.
    producer = f"cat {shlex.quote(str(CLAUDE))} > {shlex.quote(str(fifo))} &"
    line = viewer_line(shlex.quote(str(fifo)), exit_file)
    tmux.start(line.replace("unset COLUMNS LINES && ", f"unset COLUMNS LINES && {producer} "))
    screen = tmux.wait_for(lambda s: "✓ success in 41.2s" in s)
    assert "Tool calls (8)" in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
