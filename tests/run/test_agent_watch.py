"""The agent dies with streamview (issue 26, point 6): ``kill -9`` of ``streamview
run`` leaves no agent running orphaned, nor what it started, even when they ignore
SIGPIPE and SIGTERM; what ``--keep-children`` keeps stays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from streamview.sources import agent_watch

REPO = Path(__file__).resolve().parents[2]
AGENTS = Path(__file__).parent / "agents"
PYTHON = sys.executable


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (PID 1 here may never reap one)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :].split()[0] != b"Z"


def wait_until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.02)


def watchers(leader: int) -> list[int]:
    """The live watcher processes guarding ``leader``'s session."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ours = any(b"agent_watch" in word for word in words) and str(leader).encode() in words
        if ours and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


@pytest.fixture
def pids_file(tmp_path: Path) -> Iterator[Path]:
    """Where the agent writes its pids; anything left is killed after the test."""
    path = tmp_path / "pids"
    yield path
    if path.exists():
        for pid in path.read_text().split():
            if alive(int(pid)):
                os.kill(int(pid), signal.SIGKILL)


def start(tmp_path: Path, *arguments: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PYTHON, "-m", "streamview", "run", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=REPO,
        env=dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state")),
    )


def pids(pids_file: Path, count: int) -> list[int]:
    wait_until(lambda: pids_file.exists() and len(pids_file.read_text().split()) == count)
    return [int(pid) for pid in pids_file.read_text().split()]


def test_the_agent_and_its_grandchild_die_with_a_killed_streamview(
    tmp_path: Path, pids_file: Path
) -> None:
    """Both ignore SIGTERM and SIGPIPE, the grandchild is in a group of its own."""
    orphan = [PYTHON, str(AGENTS / "orphan.py"), str(pids_file)]
    viewer = start(tmp_path, "--print", "--", *orphan)
    agent, grandchild = pids(pids_file, 2)
    viewer.send_signal(signal.SIGKILL)
    assert viewer.wait(timeout=10) == -signal.SIGKILL
    wait_until(lambda: not alive(agent) and not alive(grandchild))
    wait_until(lambda: not watchers(agent))


def test_what_keep_children_keeps_outlives_the_watcher(tmp_path: Path, pids_file: Path) -> None:
    spawner = [PYTHON, str(AGENTS / "spawner.py"), str(pids_file), "exit"]
    viewer = start(tmp_path, "--print", "--keep-children", "--", *spawner)
    assert viewer.wait(timeout=60) == 1
    agent, *children = pids(pids_file, 3)
    wait_until(lambda: not watchers(agent))
    assert all(alive(pid) for pid in children)


def test_the_watcher_leaves_on_its_own_once_the_session_is_gone() -> None:
    sleeper = subprocess.Popen(["sleep", "300"], start_new_session=True)
    watch = agent_watch.start(sleeper.pid)
    assert watch is not None
    wait_until(lambda: bool(watchers(sleeper.pid)))
    sleeper.kill()
    sleeper.wait()
    assert watch.process.wait(timeout=20) == 0
    watch.release()  # harmless once it left
