"""``streamview --events``, the real command: live, on a broken stdout, in run mode,
and line for line what :func:`streamview.read_events` gives."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.fronts.events_api import read_events, to_json_lines
from tests.cli.helpers import (
    assistant_record,
    child_env,
    command,
    init_record,
    ndjson,
    result_record,
    run,
    tool_record,
)

from .streams import DIALECT_FIXTURES, RECORDINGS, name

TIMEOUT = 20.0


def read_line(process: subprocess.Popen[bytes], timeout: float = TIMEOUT) -> dict[str, Any]:
    """The next line the child writes, waiting at most ``timeout`` seconds for it."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        line = b""
        deadline = time.monotonic() + timeout
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            assert left > 0 and selector.select(left), f"no line within {timeout}s: {line!r}"
            byte = os.read(fd, 1)
            assert byte, f"the output ended: {line!r}"
            line += byte
    event: dict[str, Any] = orjson.loads(line)
    return event


def test_events_are_written_as_the_pipe_delivers_lines_before_it_ends() -> None:
    child = subprocess.Popen(
        command("--events"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    assert child.stdin is not None
    try:
        assert read_line(child)["type"] == "stream.start"  # before any input
        child.stdin.write(ndjson(init_record()))
        child.stdin.flush()
        started = read_line(child)
        assert started["type"] == "session.start" and started["model"] == "Claude 4 Sonnet"
        child.stdin.write(ndjson(tool_record("started", "c1", "shell", {"command": "make"})))
        child.stdin.flush()
        call = read_line(child)
        assert (call["type"], call["target"]) == ("tool.start", "make")
        child.stdin.write(ndjson(assistant_record("half", timestamp_ms=5)))
        child.stdin.flush()
        # The call's completion has not come: the pipe is still open, and the new
        # text opened a block that is told at once.
        following = read_line(child)
        assert (following["type"], following["text"]) == ("text.delta", "half")
        child.stdin.write(ndjson(result_record()))
        child.stdin.close()
        rest = [orjson.loads(line) for line in child.stdout.read().splitlines()]  # type: ignore[union-attr]
        assert rest[-1]["type"] == "stream.end"
        assert child.wait(TIMEOUT) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_reader_that_leaves_early_ends_it_without_a_traceback(tmp_path: Path) -> None:
    """``streamview --events big.ndjson | head -1``: a broken stdout is not an error."""
    one = (RECORDINGS / "success-multi-tool.ndjson").read_bytes()
    big = tmp_path / "big.ndjson"
    big.write_bytes(one * 200)  # megabytes of events: far more than a pipe holds
    done = subprocess.run(
        ["sh", "-c", f'{" ".join(command())} --events "$1" | head -1', "sh", str(big)],
        capture_output=True,
        env=child_env(),
        timeout=120,
        check=False,
    )
    assert orjson.loads(done.stdout)["type"] == "stream.start"
    assert done.stderr == b""
    assert done.returncode == 0


def first_stream_of_each_agent() -> list[Path]:
    """One fixture per dialect folder (whoever added it): the first by name."""
    firsts = []
    for folder in sorted(p for p in DIALECT_FIXTURES.iterdir() if p.is_dir()):
        streams = sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".ndjson"))
        firsts += streams[:1]
    return firsts


@pytest.mark.parametrize(
    "path", [*first_stream_of_each_agent(), *sorted(RECORDINGS.glob("*.ndjson"))], ids=name
)
def test_the_command_writes_what_read_events_gives(path: Path) -> None:
    done = run("--events", str(path))
    assert done.stdout == to_json_lines(list(read_events(path)))
    assert done.returncode == orjson.loads(done.stdout.splitlines()[-1])["exit_code"]


def test_an_empty_input_still_gets_its_first_and_last_line() -> None:
    done = run("--events", stdin=b"\n\n")
    first, last = (orjson.loads(line) for line in done.stdout.splitlines())
    assert first["type"] == "stream.start"
    assert last["type"] == "stream.end" and last["exit_code"] == 2
    assert "empty" in last["error"]
    assert done.returncode == 2 and b"empty" in done.stderr


def test_run_mode_tells_how_the_agent_process_ended(tmp_path: Path) -> None:
    stream = tmp_path / "stream.ndjson"
    stream.write_bytes(ndjson(init_record(), assistant_record("done")))
    agent = (
        f"import sys; sys.stdout.write(open({str(stream)!r}).read()); "
        "sys.stderr.write('boom'); sys.exit(3)"
    )
    done = run(
        "run",
        "--events",
        "--record",
        str(tmp_path / "rec.ndjson"),
        "--",
        sys.executable,
        "-c",
        agent,
    )
    events = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert [e["type"] for e in events[-3:]] == ["outcome", "process.exit", "stream.end"]
    assert events[-2]["exit_code"] == 3 and events[-2]["stderr"] == "boom"
    assert events[-1]["exit_code"] == 3 and done.returncode == 3


def test_follow_tells_the_lines_appended_to_the_file(tmp_path: Path) -> None:
    path = tmp_path / "growing.ndjson"
    path.write_bytes(ndjson(init_record()))
    child = subprocess.Popen(
        command("--events", "--follow", str(path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    try:
        assert read_line(child)["type"] == "stream.start"
        assert read_line(child)["type"] == "session.start"
        with path.open("ab") as handle:
            handle.write(ndjson(tool_record("started", "c1", "read", {"path": "a.py"})))
        event = read_line(child)
        assert (event["type"], event["kind"], event["target"]) == ("tool.start", "read", "a.py")
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_follow_stopped_by_a_signal_still_ends_with_stream_end(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """The contract's last line after SIGTERM (issue 26.9f: it ended without one), and
    the exit status a shell gives a program the signal stopped (143, 130)."""
    path = tmp_path / "growing.ndjson"
    path.write_bytes(ndjson(init_record(), tool_record("started", "c1", "read", {"path": "a.py"})))
    child = subprocess.Popen(
        command("--events", "--follow", str(path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    try:
        seen = [read_line(child)["type"] for _ in range(3)]
        assert seen == ["stream.start", "session.start", "tool.start"]
        child.send_signal(sig)
        out, err = child.communicate(timeout=TIMEOUT)
    finally:
        child.kill()
        child.wait()
    rest = [orjson.loads(line) for line in out.splitlines()]
    assert [event["type"] for event in rest] == ["tool.end", "outcome", "stream.end"]
    assert rest[0]["status"] == "interrupted" and rest[1]["status"] == "incomplete"
    assert rest[-1]["exit_code"] == 128 + sig and rest[-1]["lines"]["total"] == 2
    assert child.returncode == 128 + sig and b"Traceback" not in err
