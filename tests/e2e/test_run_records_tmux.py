"""``streamview run`` in a real terminal: an agent that fails at once is the outcome on
screen, and still is when ``streamview last`` opens its recording later (issue 20.9);
two viewers started together each record their own run (issue 20.1)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from streamview.runs.recording import strip_timing
from streamview.runs.run_meta import read_meta

from .terminal import REPO, Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]
AGENTS = REPO / "tests" / "run" / "agents"


def agent(name: str, *arguments: str) -> str:
    return shlex.join([sys.executable, str(AGENTS / f"{name}.py"), *arguments])


def test_an_agent_failing_at_once_is_the_outcome_now_and_later(tmux: Tmux, tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    exit_file = tmp_path / "exit"
    tmux.start(viewer_line(f"run -- {agent('silent_failure')}", exit_file, env=env))
    screen = tmux.wait_for(lambda s: "✗ agent exited with 3" in s and "no answer in" in s)
    assert "⚠ Workspace Trust Required" in screen.splitlines()[-2]  # the status line
    assert "no answer in this run" in screen and "waiting for the answer" not in screen
    assert "no tool calls yet" not in screen and "input is empty" not in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 3
    tmux.kill()

    later = Tmux()
    try:
        exit_file = tmp_path / "exit-last"
        later.start(viewer_line("last", exit_file, env=env))
        screen = later.wait_for(lambda s: "✗ agent exited with 3" in s and "no answer in" in s)
        assert "agent exited with 3\n" in screen  # the agent panel, from the sidecar
        assert (
            screen.splitlines()[-2]
            .lstrip()
            .startswith("✗ agent exited with 3 · ⚠ Workspace Trust Required")
        )
        assert "no answer in this run" in screen and "input is empty" not in screen
        later.keys("q")
        assert wait_exit(exit_file) == 3
    finally:
        later.kill()


def test_two_viewers_started_together_each_record_their_own_run(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    servers = [Tmux(), Tmux()]
    exits = [tmp_path / "exit-a", tmp_path / "exit-b"]
    try:
        for server, tag, exit_file in zip(servers, ("viewA", "viewB"), exits, strict=True):
            server.start(viewer_line(f"run -- {agent('tagged', tag, '30')}", exit_file, env=env))
        for server in servers:
            server.wait_for(lambda s: "✓ success" in s)
            server.keys("q")
        for exit_file, server in zip(exits, servers, strict=True):
            assert wait_exit(exit_file) == 0
            assert "recorded 33 lines to" in server.screen()
    finally:
        for server in servers:
            server.kill()
    folder = tmp_path / "state" / "streamview" / "runs"
    recordings = sorted(folder.glob("*.ndjson"))
    assert len(recordings) == 2
    tags = set()
    for path in recordings:
        lines = path.read_bytes().splitlines(keepends=True)
        assert len(lines) == 33 and all(isinstance(orjson.loads(line), dict) for line in lines)
        text = b"".join(strip_timing(line) for line in lines)
        tag = "viewA" if b"viewA" in text else "viewB"
        assert (b"viewA" in text) != (b"viewB" in text)
        tags.add(tag)
        meta = read_meta(path)
        assert meta is not None and meta.command[-2:] == (tag, "30")
    assert tags == {"viewA", "viewB"}


def test_last_n_and_runs_open_n_open_that_run_in_the_viewer(tmp_path: Path) -> None:
    """Issue 21.10: any run opens, not only the newest. Three runs recorded (a crash
    between two successes); on a terminal `last 2` opens the crash in the viewer with
    its exit code and stderr, `runs --open 3` the oldest run, with its answer."""
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    child = {**os.environ, **env}
    for name in ("success", "silent_failure", "success"):
        subprocess.run(
            [sys.executable, "-m", "streamview", "run", "--print", "--", *shlex.split(agent(name))],
            cwd=REPO,
            env=child,
            capture_output=True,
            timeout=60,
            check=False,
        )
        time.sleep(1.1)  # runs are listed by the second they started
    listing = subprocess.run(
        [sys.executable, "-m", "streamview", "runs"],
        cwd=REPO,
        env={**child, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "3 recorded runs" in listing and "✗ failed (exit 3)" in listing.splitlines()[3], listing
    for args, seen, status in (
        ("last 2", "✗ agent exited with 3 · ⚠ Workspace Trust Required", 3),
        ("runs --open 3", "✓ success", 0),
    ):
        server = Tmux()
        try:
            exit_file = tmp_path / f"exit-{args.replace(' ', '-')}"
            server.start(viewer_line(args, exit_file, env=env))
            screen = server.wait_for(lambda s, seen=seen: seen in s and "Transcript" in s)
            assert "agent exited with" in screen  # the agent panel, from the sidecar
            server.keys("q")
            assert wait_exit(exit_file) == status
        finally:
            server.kill()
