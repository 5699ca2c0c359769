"""The exit status when the reader leaves early (``| head``): never 0 for a run that
failed or did not finish. Real processes, real pipes whose read end is closed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_signals import AGENTS, alive, pids, spawner, wait_until

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
FAILED = REPO / "recordings" / "failure-no-result.ndjson"
SUCCEEDED = REPO / "recordings" / "success-multi-tool.ndjson"


def closed_reader(
    *arguments: str, stdin: int | None = subprocess.DEVNULL, **env: str
) -> tuple[int, str]:
    """Run streamview with a stdout whose reader is already gone: the first write fails
    with EPIPE. Returns its exit status and stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [PYTHON, "-m", "streamview", *arguments],
            stdin=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env={**os.environ, **env},
            timeout=60,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr


@pytest.mark.parametrize("mode", ["--print", "--json"])
def test_a_failed_file_exits_1_and_a_successful_one_0(mode: str) -> None:
    for path, status in ((FAILED, 1), (SUCCEEDED, 0)):
        code, err = closed_reader(mode, str(path))
        assert code == status, (path, err)
        assert "Traceback" not in err and "Exception ignored" not in err


def test_head_1_on_a_big_failed_file_always_exits_1(tmp_path: Path) -> None:
    """The race of the issue: EPIPE mid-stream, or at the end, or never."""
    big = tmp_path / "failed.ndjson"
    line = b'{"type":"assistant","message":{"content":[{"type":"text","text":"%s"}]}}\n'
    big.write_bytes(b'{"type":"system","subtype":"init","session_id":"s"}\n' + line * 5_000)
    shell = f'{PYTHON} -m streamview --print {big} | head -1 >/dev/null; echo "${{PIPESTATUS[0]}}"'
    for _ in range(5):
        done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, cwd=REPO)
        assert done.stdout.strip() == "1", done.stderr


def test_a_live_pipe_left_early_exits_141_without_waiting_for_its_end() -> None:
    """The input goes on (a producer still running): its outcome is not known."""
    producer = subprocess.Popen(
        [
            PYTHON,
            "-c",
            f"import sys,time; sys.stdout.write(open({str(FAILED)!r}).read());"
            " sys.stdout.flush(); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
    )
    assert producer.stdout is not None
    started = time.monotonic()
    try:
        code, err = closed_reader("--print", stdin=producer.stdout.fileno())
    finally:
        producer.kill()
        producer.wait()
    assert code == 141, err
    assert time.monotonic() - started < 30
    assert "Traceback" not in err


def test_run_mode_left_early_stops_the_agent_and_exits_141(tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    code, err = closed_reader(
        "run", "--print", "--", *spawner(pids_file, "work"), XDG_STATE_HOME=str(tmp_path)
    )
    agent, *children = pids(pids_file)
    try:
        assert code == 141, err
        wait_until(lambda: not any(alive(pid) for pid in [agent, *children]), timeout=10)
        assert "recorded" in err and "Traceback" not in err
    finally:
        for pid in [agent, *children]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_run_json_left_early_still_says_how_the_run_ended(tmp_path: Path) -> None:
    """--json writes once the run is over: its status is known, the reader's leaving
    does not change it."""
    code, err = closed_reader(
        "run", "--json", "--", PYTHON, str(AGENTS / "failure.py"), XDG_STATE_HOME=str(tmp_path)
    )
    assert code == 1, err
