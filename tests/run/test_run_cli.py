"""``streamview run``, ``--record`` and ``--replay`` as a user runs them: real processes."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from streamview.runs.recording import strip_timing

REPO = Path(__file__).resolve().parents[2]
AGENTS = Path(__file__).parent / "agents"
PYTHON = sys.executable


def agent(name: str) -> list[str]:
    return [PYTHON, str(AGENTS / f"{name}.py")]


def streamview(
    *arguments: str, stdin: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m streamview`` with a state directory of the test's own."""
    return subprocess.run(
        [PYTHON, "-m", "streamview", *arguments],
        input=stdin.decode() if stdin is not None else None,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )


@pytest.fixture
def state_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose user state directory is inside the test's folder."""
    env = dict(os.environ)
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    return env


def test_run_print_success(tmp_path: Path, state_env: dict[str, str]) -> None:
    record = tmp_path / "run.ndjson"
    done = streamview("run", "--print", "--record", str(record), "--", *agent("success"))
    assert done.returncode == 0, done.stderr
    assert "✓ read README.md · succeeded" in done.stdout
    assert done.stdout.rstrip().endswith("== success · in 300ms")
    assert f"recorded 6 lines to {record}" in done.stderr
    assert record.read_bytes().count(b"streamview_recv_ms") == 6


def test_run_print_failure_shows_exit_code_and_stderr(state_env: dict[str, str]) -> None:
    done = streamview("run", "--print", "--", *agent("failure"), env=state_env)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert "!! incomplete: stream ended without a result" in lines
    index = lines.index("!! agent failed (exit 1)")
    assert lines[index + 1 :] == [
        "   stderr: Error: authentication failed",
        "   stderr: Run 'agent login' first.",
    ]
    assert "\x1b" not in done.stdout


def test_run_json_adds_the_process(state_env: dict[str, str]) -> None:
    done = streamview("run", "--json", "--", *agent("silent_failure"), env=state_env)
    assert done.returncode == 3
    summary = json.loads(done.stdout)
    assert summary["sessions"] == []
    assert summary["process"] == {
        "exit_code": 3,
        "stderr": "⚠ Workspace Trust Required\n",
        "interrupted": False,
        "lingered": [],
    }


def test_run_records_by_default_in_the_state_directory(state_env: dict[str, str]) -> None:
    done = streamview("run", "--json", "--", *agent("success"), env=state_env)
    assert done.returncode == 0
    runs = list((Path(state_env["XDG_STATE_HOME"]) / "streamview").rglob("*.ndjson"))
    assert len(runs) == 1
    assert str(runs[0]) in done.stderr
    assert runs[0].read_bytes().count(b"\n") == 6


def test_run_with_a_lingering_agent_ends_after_the_result(state_env: dict[str, str]) -> None:
    started = time.monotonic()
    done = streamview("run", "--json", "--", *agent("linger"), env=state_env)
    assert time.monotonic() - started < 30
    assert done.returncode == 0  # the result says success; the agent was stopped by us
    process = json.loads(done.stdout)["process"]
    assert process["interrupted"] is True
    assert [entry["command"] for entry in process["lingered"]] == [shlex.join(agent("linger"))]
    assert process["lingered"][0]["stopped"] is True
    assert process["exit_code"] == 143
    assert json.loads(done.stdout)["sessions"][0]["outcome"]["status"] == "success"


def test_ctrl_c_in_print_mode_stops_the_agent_and_shows_the_interrupted_run(
    state_env: dict[str, str],
) -> None:
    viewer = subprocess.Popen(
        [PYTHON, "-m", "streamview", "run", "--print", "--", *agent("sigint")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=state_env,
    )
    assert viewer.stdout is not None
    for line in viewer.stdout:
        if line.startswith("-> read"):
            break
    viewer.send_signal(signal.SIGINT)
    rest, errors = viewer.communicate(timeout=30)
    assert viewer.returncode == 130
    assert "⚠ read README.md · interrupted" in rest
    # Stopped with Ctrl+C says so, in the outcome too (not "ended without a result").
    assert "!! incomplete: stopped (Ctrl+C), 1 call interrupted" in rest
    assert "!! agent stopped (Ctrl+C)" in rest
    assert "   stderr: Aborting operation..." in rest
    assert "sent SIGINT to the agent" in errors


def test_run_usage_errors(state_env: dict[str, str]) -> None:
    done = streamview("run", env=state_env)
    assert done.returncode == 2 and "no command given" in done.stderr
    done = streamview("run", "--", "streamview-no-such-agent-xyz", env=state_env)
    assert done.returncode == 2
    assert "cannot run streamview-no-such-agent-xyz: command not found" in done.stderr


def test_record_from_a_pipe_then_replay_gives_the_same_bytes(tmp_path: Path) -> None:
    capture = subprocess.run(agent("success"), capture_output=True, check=True).stdout
    record = tmp_path / "r.ndjson"
    done = streamview("--print", "--record", str(record), stdin=capture)
    assert done.returncode == 0, done.stderr
    recorded = record.read_bytes()
    assert b"".join(strip_timing(line) for line in recorded.splitlines(keepends=True)) == capture
    replayed = streamview("--replay", "--print", "--speed", "100", str(record))
    assert replayed.returncode == 0
    assert replayed.stdout == streamview("--print", str(record)).stdout == done.stdout


def test_replay_takes_its_time(tmp_path: Path) -> None:
    """The pace itself (speed, idle limit) is checked on a fake clock in tests/replay."""
    path = tmp_path / "slow.ndjson"
    path.write_bytes(
        b'{"type":"system","subtype":"init","session_id":"s","streamview_recv_ms":1000}\n'
        b'{"type":"result","subtype":"success","session_id":"s","streamview_recv_ms":3000}\n'
    )
    started = time.monotonic()
    done = streamview("--replay", "--print", "--speed", "2", str(path))
    slow = time.monotonic() - started
    assert done.returncode == 0
    assert slow >= 1.0  # 2 s of silence at speed 2 (a lower bound only: machines are slow)
    assert done.stdout.splitlines()[-1] == "== success"


def test_recording_failure_is_reported_and_the_run_still_shown() -> None:
    """/dev/full (Linux) fails every write with ENOSPC, like a full disk."""
    capture = subprocess.run(agent("success"), capture_output=True, check=True).stdout
    done = streamview("--print", "--record", "/dev/full", stdin=capture)
    assert done.returncode == 0
    assert "== success" in done.stdout
    assert done.stderr.splitlines() == [
        "streamview: recording cut: disk full (No space left on device) after 0 lines: /dev/full",
        "streamview: recorded 0 lines to /dev/full (cut: disk full)",
    ]


def test_option_errors(tmp_path: Path) -> None:
    file = str(REPO / "recordings" / "success-multi-tool.ndjson")
    cases = [
        (["--speed", "2", file], "--speed and --idle-limit need --replay"),
        (["--record", str(tmp_path / "x"), file], "--record needs live input"),
        (["--replay", "--follow", file], "does not go with --follow"),
        (["--serve", "--json", file], "--serve shows the viewer"),
        (["--follow", "--record", file, file], "--record would overwrite"),
    ]
    for arguments, message in cases:
        done = streamview(*arguments)
        assert done.returncode == 2, arguments
        assert message in done.stderr, (arguments, done.stderr)
    done = streamview("--replay", "--speed", "0", file)
    assert done.returncode == 2 and "must be more than 0" in done.stderr


def test_export_markdown_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "run.md"
    done = streamview("--export-markdown", str(out), "recordings/failure-no-result.ndjson")
    assert done.returncode == 1, done.stderr  # written, and the run had no result
    text = out.read_text()
    assert text.startswith("# recordings/failure-no-result.ndjson")
    assert "| 2 | shell |" in text


def test_run_gives_the_agent_no_terminal_on_stdin(state_env: dict[str, str]) -> None:
    """Issue 30.5: an agent started from a terminal that asks a question reads end of
    input, not the person's keys, and the README says so where it explains `run`."""
    import pty

    primary, secondary = pty.openpty()  # streamview's stdin is a person's terminal
    try:
        done = subprocess.run(
            [PYTHON, "-m", "streamview", "run", "--print", "--", *agent("asks")],
            stdin=secondary,
            capture_output=True,
            text=True,
            cwd=REPO,
            env=state_env,
            timeout=60,
        )
    finally:
        os.close(secondary)
        os.close(primary)
    assert done.returncode == 0, done.stderr
    assert "stdin tty=False read=''" in done.stdout
    section = (REPO / "README.md").read_text().split("### Running the agent through")[1]
    section = " ".join(section.split("\n### ")[0].split())
    assert "no terminal on stdin" in section
    assert "end of input" in section
