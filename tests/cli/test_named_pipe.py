"""A named pipe given as FILE is read as the pipe it is, as ``<(cmd)`` is (issue 26.9a).

``mkfifo f; producer > f & streamview --print f`` opened the pipe to check it, closed
it (the writer died of SIGPIPE: its data was lost) and opened it again to wait forever.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

from .helpers import REPO_ROOT, child_env, command

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def feed_later(fifo: Path, data: bytes, outcome: list[str]) -> threading.Thread:
    """A producer that opens the pipe for writing (waiting for a reader, as a shell's
    ``> f`` does), writes ``data`` in two parts and closes it; ``outcome`` says how."""

    def write() -> None:
        try:
            with open(fifo, "wb") as pipe:
                half = len(data) // 2
                pipe.write(data[:half])
                pipe.flush()
                pipe.write(data[half:])
            outcome.append("written")
        except BrokenPipeError:
            outcome.append("SIGPIPE: the reader went away")

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("mode", ["--print", "--json", "--events"])
def test_a_named_pipe_is_read_whole_and_ends_when_its_writer_does(
    tmp_path: Path, mode: str
) -> None:
    fifo = tmp_path / "stream"
    os.mkfifo(fifo)
    outcome: list[str] = []
    writer = feed_later(fifo, FIXTURE.read_bytes(), outcome)
    try:
        done = subprocess.run(
            command(mode, str(fifo)), capture_output=True, env=child_env(), timeout=15
        )
    except subprocess.TimeoutExpired:
        os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # let a stuck writer go
        pytest.fail(f"streamview {mode} on a named pipe never ended ({outcome})")
    writer.join(5)
    assert outcome == ["written"]
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    if mode == "--print":
        assert "== success · in 41.2s" in out
    elif mode == "--json":
        assert json.loads(out)["sessions"][0]["outcome"]["status"] == "success"
    else:
        events = [json.loads(line) for line in out.splitlines()]
        assert events[-1]["type"] == "stream.end" and events[-1]["lines"]["malformed"] == 0
        assert any(event["type"] == "outcome" for event in events)


def test_replay_and_serve_of_a_named_pipe_say_why_not(tmp_path: Path) -> None:
    fifo = tmp_path / "stream"
    os.mkfifo(fifo)
    for flag in ("--replay", "--serve"):
        done = subprocess.run(
            command(flag, str(fifo)), capture_output=True, env=child_env(), timeout=15
        )
        assert done.returncode == 2
        assert f"{fifo} is a named pipe: --replay and --serve need a finished file" in (
            done.stderr.decode()
        )
