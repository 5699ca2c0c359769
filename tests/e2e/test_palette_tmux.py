"""The command palette in a real terminal, as a person uses it: ctrl+p, a word, enter.
Every action is there by name: export (which asks where), thinking, play, the filter."""

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

RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"


def palette(tmux: Tmux, words: str, entry: str) -> None:
    """Open the palette, type ``words``, wait for ``entry`` to be offered first, take it."""
    tmux.keys("C-p")
    tmux.wait_for(lambda s: "Search for commands" in s)
    tmux.keys("-l", words)

    def offered_first(screen: str) -> bool:
        lines = screen.splitlines()
        typed = next((i for i, line in enumerate(lines) if words in line), None)
        below = [line for line in lines[typed + 1 :] if line.strip(" ▔▁│")] if typed else []
        return bool(below) and entry in below[0]

    tmux.wait_for(offered_first)
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "Search for commands" not in s and "🔎" not in s)  # it closed


def test_the_palette_runs_export_thinking_filter_and_play(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    tmux.start(viewer_line(shlex.quote(str(RECORDING)), exit_file))
    tmux.wait_for(lambda s: "✓ success in 36.5s" in s and "event 170 of 170" in s)

    palette(tmux, "export", "Export transcript and screenshot")
    tmux.wait_for(lambda s: "Export the transcript (Markdown)" in s)
    target = tmp_path / "from-palette.md"
    tmux.keys("C-u")  # the default path goes; this one is typed instead
    # Once the field is seen empty, as a person would. ctrl+u is a binding: Textual
    # runs it when the key has bubbled up to the app, a few messages later, so
    # characters sent in the same burst went in before it and were deleted too.
    tmux.wait_for(lambda s: "streamview-" not in s)
    tmux.keys("-l", str(target))
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "exported" in s)
    exported = target.read_text()
    assert "Reading `tests/test_backoff.py`" in exported and "##### Root cause" in exported
    assert target.with_suffix(".svg").is_file()

    tmux.keys("Home")  # the top of the transcript: the first thinking block
    tmux.wait_for(lambda s: "✻ thinking" in s)
    palette(tmux, "thinking", "Show or hide thinking")
    tmux.wait_for(lambda s: "✻ thinking" not in s)

    palette(tmux, "failed", "Filter calls: failed, rejected, running")
    tmux.wait_for(lambda s: "Tool calls 1 of 10 · failed" in s)  # and the table has focus

    palette(tmux, "restart", "Restart playback")
    tmux.wait_for(lambda s: "event 170 of 170" not in s and "of 170" in s)
    # (The transcript's "End" follows a playing replay; "End of the run" is G: 100 %.)
    palette(tmux, "end of the run", "End of the run")
    tmux.wait_for(lambda s: "event 170 of 170" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
