"""A Codex ``exec --json`` stream piped slowly into the real ``python -m streamview``
in tmux, and ``streamview run`` on a fake Codex.

Fixtures: tests/fixtures/dialects/codex (see its SOURCES.md).
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit
from .test_tmux import producer

CODEX = REPO / "tests" / "fixtures" / "dialects" / "codex"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def test_a_piped_codex_run_grows_then_finishes(tmux: Tmux, tmp_path: Path) -> None:
    """Header names Codex, the text and the calls arrive with their statuses, the
    outcome and the token counts end it; Tab, Enter open a call; q quits with 0."""
    exit_file = tmp_path / "exit"
    source = producer(tmp_path, CODEX / "every-kind.jsonl", delay=0.15, linger=60)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: "Codex  session 0199e4a2" in s)
    screen = tmux.wait_for(lambda s: "I'll make it return []." in s)
    assert "✓ success" not in screen  # still streaming
    screen = tmux.wait_for(lambda s: "✓ success" in s, timeout=40)
    assert "1 turn · 48,210 in · 1,203 out · 40,192 cache read" in screen
    assert "Tool calls (6)" in screen
    for seen in ("updateTodos", "webSearch", "github: get_issue", "3/3 done", "1 updated, 1 added"):
        assert seen in screen, seen
    assert "all 3 tests pass" in screen
    tmux.keys("Tab")  # the table, on its latest call: the test run
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: "call_id item_7" in s and "3 passed in 0.02s" in s)
    assert "exit code  0" in screen
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "call_id item_7" not in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_a_codex_stream_that_stops_shows_the_open_command(tmux: Tmux, tmp_path: Path) -> None:
    """The producer goes silent after a command started: it shows as running, then q."""
    exit_file = tmp_path / "exit"
    source = producer(tmp_path, CODEX / "stops-midway.jsonl", delay=0.05, linger=120)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: "running" in s and "python -m pytest -q" in s)
    assert "Running the tests first." in screen
    tmux.wait_for(lambda s: "1 call open" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 1  # the run had not finished


def test_a_failed_turn_shows_its_message(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    tmux.start(viewer_line(shlex.quote(str(CODEX / "reconnects-then-failed.jsonl")), exit_file))
    screen = tmux.wait_for(lambda s: "✗ error · stream disconnected" in s)
    assert "Reconnecting... 2/5" in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 1


def test_run_records_a_fake_codex_and_the_recording_replays(tmux: Tmux, tmp_path: Path) -> None:
    """``streamview run -- <fake codex>`` shows the run live and keeps a recording that
    opens on the same run."""
    exit_file = tmp_path / "exit"
    recording = tmp_path / "codex.ndjson"
    agent = producer(tmp_path, CODEX / "resumed-thread.jsonl", delay=0.05, linger=0)
    args = f"run --record {shlex.quote(str(recording))} -- {agent}"
    tmux.start(viewer_line(args, exit_file))
    screen = tmux.wait_for(lambda s: "Removed NOTES.md again." in s and "✓ success" in s)
    assert "Codex" in screen and "Tool calls (3)" in screen
    # Its last line read, the agent may not have exited yet: q would stop it (exit 1).
    tmux.wait_for(lambda s: "agent exited with 0" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
    assert len(recording.read_bytes().splitlines()) == 13
    tmux.kill()
    replay = Tmux()
    try:
        exit_again = tmp_path / "exit-again"
        replay.start(viewer_line(shlex.quote(str(recording)), exit_again))
        screen = replay.wait_for(lambda s: "Removed NOTES.md again." in s and "✓ success" in s)
        assert "Codex" in screen and "Tool calls (3)" in screen
        replay.keys("q")
        assert wait_exit(exit_again) == 0
    finally:
        replay.kill()
