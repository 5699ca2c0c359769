"""Hand a tool call over to the user's editor and pager, in a real terminal: o opens
the touched file in $EDITOR at its line, p shows the whole result in $PAGER, and the
viewer comes back as it was."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"
RECORDER = """\
import sys
with open(sys.argv[1], "a") as out:
    out.write(" ".join(sys.argv[2:]) + "\\n")
    if not sys.stdin.isatty():
        out.write(sys.stdin.read())
"""
"""A stand-in editor and pager: writes its arguments (and what it was fed) to a file."""


def stand_in(tmp_path: Path, log: Path) -> str:
    script = tmp_path / "stand_in.py"
    script.write_text(RECORDER)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(log))}"


def test_o_and_p_hand_the_call_over_and_the_viewer_comes_back(tmux: Tmux, tmp_path: Path) -> None:
    log = tmp_path / "handoff.log"
    tool = stand_in(tmp_path, log)
    exit_file = tmp_path / "exit"
    tmux.start(
        viewer_line(shlex.quote(str(CLAUDE)), exit_file, env={"EDITOR": tool, "PAGER": tool})
    )
    tmux.wait_for(lambda s: "✓ success in 41.2s" in s)
    tmux.keys("Tab", "Home", "Down", "Down", "Down")  # the read of src/parse.py
    tmux.wait_for(lambda s: "Tool calls (8)" in s)
    tmux.keys("o")
    tmux.wait_for(lambda s: "✓ success in 41.2s" in s and log.exists())
    assert log.read_text().splitlines()[0] == "/work/app/src/parse.py"
    tmux.keys("Up", "Up")  # the failing pytest run
    tmux.keys("p")
    tmux.wait_for(lambda s: "Tool calls (8)" in s and "FAILED" in log.read_text())
    assert "FAILED tests/test_parse.py::test_empty - assert None == []" in log.read_text()
    tmux.keys("q")
    assert wait_exit(exit_file, timeout=8) == 0
