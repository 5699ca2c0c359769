"""Recording a recording (issue 21.11): a person pipes a run streamview recorded into
``streamview --record`` again, or has ``streamview run`` record an agent that replays
one. Each line keeps one ``streamview_recv_ms`` key, the first arrival's, so the new
file is the old one byte for byte and replays with the old rhythm."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from .helpers import REPO_ROOT, child_env, command, run

RECORDING = REPO_ROOT / "recordings" / "success-multi-tool.ndjson"
KEY = b"streamview_recv_ms"


def keys_per_line(data: bytes) -> list[int]:
    return [line.count(KEY) for line in data.splitlines()]


def test_a_recording_piped_through_record_twice_is_unchanged(tmp_path: Path) -> None:
    once, twice = tmp_path / "once.ndjson", tmp_path / "twice.ndjson"
    original = RECORDING.read_bytes()
    assert set(keys_per_line(original)) == {1}  # streamview recorded it
    first = run("--print", "--record", str(once), stdin=original)
    second = run("--print", "--record", str(twice), stdin=once.read_bytes())
    assert first.returncode == second.returncode == 0, (first.stderr, second.stderr)
    assert set(keys_per_line(twice.read_bytes())) == {1}
    assert twice.read_bytes() == once.read_bytes() == original
    first_time = orjson.loads(original.splitlines()[0])[KEY.decode()]
    assert orjson.loads(twice.read_bytes().splitlines()[0])[KEY.decode()] == first_time


def test_run_records_an_agent_that_prints_a_recording_with_one_key_a_line(
    tmp_path: Path,
) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(
        "import sys\nsys.stdout.buffer.write(open(sys.argv[1], 'rb').read())\n", encoding="utf-8"
    )
    again = tmp_path / "again.ndjson"
    agent_line = [sys.executable, str(agent), str(RECORDING)]
    done = subprocess.run(
        command("run", "--print", "--record", str(again), "--", *agent_line),
        capture_output=True,
        env={**child_env(), "XDG_STATE_HOME": str(tmp_path / "state")},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert set(keys_per_line(again.read_bytes())) == {1}
    assert again.read_bytes() == RECORDING.read_bytes()
