"""How a run ends, said the same way everywhere: an agent that prints no final record
(Kimi) ends cleanly with a whole last turn, from a file, a pipe or ``streamview run``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.ui.frame.status_bar import StatusInfo, describe_state

from .helpers import REPO_ROOT, child_env, command, run

KIMI = REPO_ROOT / "tests" / "fixtures" / "dialects" / "kimi"
ENDED = "ended: Kimi prints no final record"


def kimi(name: str) -> Path:
    return KIMI / name


def cut(tmp_path: Path) -> Path:
    """Kimi's success-tools stream cut after its first shell call started."""
    lines = kimi("success-tools.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(lines[:3]))
    return path


@pytest.mark.parametrize("name", ["real-shell-probe.jsonl", "success-tools.jsonl"])
def test_a_whole_kimi_run_from_a_file_is_a_success(name: str) -> None:
    done = run("--print", str(kimi(name)))
    assert done.returncode == 0, done.stdout
    assert done.stdout.decode().rstrip().endswith(f"== success · {ENDED}")
    summary = json.loads(run("--json", str(kimi(name))).stdout)
    outcome = summary["sessions"][-1]["outcome"]
    assert (outcome["status"], outcome["message"]) == ("success", ENDED)


def test_a_whole_kimi_run_from_a_pipe_is_a_success() -> None:
    data = kimi("real-shell-probe.jsonl").read_bytes()
    done = run("--print", stdin=data)
    assert done.returncode == 0
    assert done.stdout.decode().rstrip().endswith(f"== success · {ENDED}")
    done = run("--json", stdin=data)
    assert done.returncode == 0
    assert json.loads(done.stdout)["sessions"][0]["outcome"]["status"] == "success"


def test_streamview_run_of_a_whole_kimi_run_exits_0(tmp_path: Path) -> None:
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path / "state")}
    agent = [sys.executable, "-c", "import sys; sys.stdout.write(open(sys.argv[1]).read())"]
    path = str(kimi("real-shell-probe.jsonl"))

    def streamview_run(front: str) -> subprocess.CompletedProcess[bytes]:
        argv = command("run", front, "--", *agent, path)
        return subprocess.run(argv, capture_output=True, env=env, timeout=60, check=False)

    done = streamview_run("--print")
    assert done.returncode == 0, done.stdout
    assert f"== success · {ENDED}" in done.stdout.decode()
    assert b"incomplete" not in done.stdout
    done = streamview_run("--json")
    assert done.returncode == 0
    summary = json.loads(done.stdout)
    assert summary["sessions"][0]["outcome"]["message"] == ENDED
    assert summary["process"]["exit_code"] == 0


def test_a_kimi_run_cut_mid_turn_stays_incomplete_and_says_so(tmp_path: Path) -> None:
    done = run("--print", str(cut(tmp_path)))
    assert done.returncode == 1
    assert (
        done.stdout.decode()
        .rstrip()
        .endswith("!! incomplete: cut mid-turn: Kimi prints no final record, 1 call interrupted")
    )


def test_kimis_plain_last_line_is_its_error_outcome() -> None:
    done = run("--print", str(kimi("error-and-max-steps.jsonl")))
    text = done.stdout.decode()
    assert done.returncode == 1
    assert "?? " not in text and "not JSON" not in text
    assert text.rstrip().endswith("== error · Max steps reached: 3")
    summary = json.loads(run("--json", str(kimi("error-and-max-steps.jsonl"))).stdout)
    assert summary["lines"]["malformed"] == 0
    assert summary["sessions"][0]["outcome"]["message"] == "Max steps reached: 3"


def test_the_status_bar_says_how_a_kimi_run_ended(tmp_path: Path) -> None:
    def state_of(path: Path) -> StatusInfo:
        state = fold([path.read_bytes()], StreamState())
        return StatusInfo(session=state.current, ended=True, counts=state.counts)

    assert describe_state(state_of(kimi("real-shell-probe.jsonl"))) == (f"✓ {ENDED}", "success")
    assert describe_state(state_of(cut(tmp_path))) == (
        "⚠ cut mid-turn: Kimi prints no final record · 1 call interrupted",
        "warning",
    )
    text, kind = describe_state(state_of(kimi("error-and-max-steps.jsonl")))
    assert kind == "error" and "Max steps reached: 3" in text


def test_other_agents_still_need_their_final_record() -> None:
    """A guard (it passes before and after): only a dialect that says so ends without one."""
    path = REPO_ROOT / "tests/fixtures/dialects/claude/max-turns.jsonl"
    lines = [line for line in path.read_bytes().splitlines() if b'"type":"result"' not in line]
    state = fold([b"\n".join(lines) + b"\n"], StreamState())
    assert state.sessions[-1].outcome.status == "incomplete"
    assert state.sessions[-1].outcome.message is None


@pytest.mark.parametrize("status", [0, 3])
def test_in_run_the_agents_exit_ends_a_kimi_run_cut_mid_turn(tmp_path: Path, status: int) -> None:
    """The agent's exit is how a Kimi run ends in `run`: 0 a success, else its failure."""
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path / "state")}
    script = "import sys; sys.stdout.write(open(sys.argv[1]).read()); sys.exit(int(sys.argv[2]))"
    argv = command("run", "--print", "--", sys.executable, "-c", script, str(cut(tmp_path)))
    done = subprocess.run([*argv, str(status)], capture_output=True, env=env, timeout=60)
    lines = done.stdout.decode().splitlines()
    assert done.returncode == status
    if status == 0:
        assert lines[-1] == "== success · ended: the agent exited 0 (Kimi prints no final record)"
    else:
        assert (
            "!! incomplete: cut mid-turn: Kimi prints no final record, 1 call interrupted" in lines
        )
        assert lines[-1] == "!! agent failed (exit 3)"


def test_run_events_take_the_agents_exit_too(tmp_path: Path) -> None:
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path / "state")}
    script = "import sys; sys.stdout.write(open(sys.argv[1]).read())"
    argv = command("run", "--events", "--", sys.executable, "-c", script, str(cut(tmp_path)))
    done = subprocess.run(argv, capture_output=True, env=env, timeout=60)
    events = [json.loads(line) for line in done.stdout.splitlines()]
    (outcome,) = [event for event in events if event["type"] == "outcome"]
    assert (outcome["status"], outcome["message"]) == (
        "success",
        "ended: the agent exited 0 (Kimi prints no final record)",
    )
    assert done.returncode == 0 and events[-1]["exit_code"] == 0
