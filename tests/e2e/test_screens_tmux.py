"""Screens and the palette in a real terminal, keys in a person's order: the log's key
toggles it (three presses, one log), one escape closes one level, q quits from any
screen; palette names bring the entry they say ("First call"), Textual's Screenshot
is the viewer's export, which asks before it overwrites."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit
from .test_palette_tmux import palette

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
LOG = "0 malformed lines · 0 unknown records"
"""The event log's first line on this recording."""


def start(tmux: Tmux, tmp_path: Path) -> Path:
    exit_file = tmp_path / "exit"
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    tmux.start(viewer_line(shlex.quote(str(RECORDING)), exit_file, env=env))
    tmux.wait_for(lambda s: "✓ success in 36.5s" in s and "event 170 of 170" in s)
    return exit_file


def test_l_toggles_the_log_and_q_quits_from_it(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = start(tmux, tmp_path)
    tmux.keys("l")
    tmux.wait_for(lambda s: LOG in s)
    tmux.keys("l")  # the same key closes it
    tmux.wait_for(lambda s: LOG not in s and "Tool calls" in s)
    tmux.keys("l", "e", "l")  # open, close, open
    # The first l's log satisfies a look for it before e and l are read: the help (?)
    # comes after them, so once it shows, all three were taken. Without it, Escape
    # could go while e and l were still queued, and the Tab sent once e had closed
    # the log reached the terminal within Escape's delay: read as alt+tab, the Escape
    # was lost and Enter went to the log l had opened again.
    tmux.keys("?")
    tmux.wait_for(lambda s: "streamview keys" in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "streamview keys" not in s and LOG in s)
    tmux.keys("Escape")  # one escape: the viewer, not another log
    tmux.wait_for(lambda s: LOG not in s and "Tool calls" in s)
    tmux.keys("Tab", "Enter")  # a call's details
    # The details' own key (r), not "Close": a log left open by a late key has that too.
    tmux.wait_for(lambda s: "Raw JSON" in s and "Tool calls" not in s and LOG not in s)
    tmux.keys("e")  # the log over the details
    tmux.wait_for(lambda s: LOG in s)
    tmux.keys("?")  # the help over the log
    tmux.wait_for(lambda s: "streamview keys" in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "streamview keys" not in s and LOG in s)
    tmux.keys("q")  # quits from the log (it used to close it)
    assert wait_exit(exit_file) == 0


def test_q_quits_from_the_help_the_palette_opened(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = start(tmux, tmp_path)
    palette(tmux, "Help: key bindings and shortcuts", "Help: key bindings and shortcuts")
    tmux.wait_for(lambda s: "streamview keys" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_palette_names_bring_what_they_say(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = start(tmux, tmp_path)
    # From the transcript: "First call" (it used to run "Sort calls: … first").
    palette(tmux, "First call", "First call")
    palette(tmux, "Call details", "Call details")
    tmux.wait_for(lambda s: "updateTodos" in s and "Tool calls" not in s)  # call #1
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Tool calls (10)" in s)
    palette(tmux, "Last call", "Last call")
    palette(tmux, "Call details", "Call details")
    tmux.wait_for(lambda s: "updateTodos" in s and "Tool calls" not in s)  # call #10 too
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Tool calls (10)" in s)

    # Screenshot: the viewer's export, which asks where, and asks again to overwrite.
    target = tmp_path / "shot.md"
    target.write_text("kept until asked", encoding="utf-8")
    palette(tmux, "screenshot", "Export transcript and screenshot")
    tmux.wait_for(lambda s: "Export the transcript (Markdown)" in s)
    tmux.keys("C-u")
    tmux.wait_for(lambda s: "streamview-" not in s)
    tmux.keys("-l", str(target))
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "shot.md exists: enter overwrites it" in s)
    assert target.read_text(encoding="utf-8") == "kept until asked"
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "exported" in s)
    assert "Root cause" in target.read_text(encoding="utf-8")
    assert target.with_suffix(".svg").read_text(encoding="utf-8").startswith("<svg")
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_ctrl_c_with_nothing_to_do_says_q_quits(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = start(tmux, tmp_path)
    tmux.keys("C-c")
    tmux.wait_for(lambda s: "nothing to copy or stop · q quits" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
