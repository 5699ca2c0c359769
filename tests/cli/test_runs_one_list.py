"""Issue 27.2: ``streamview runs`` is the sessions list limited to recordings — one list,
not two that can disagree. Recordings of three agents, one of them a failed run: the
two commands list the same files in the same order, with the same agent and title."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import orjson

from streamview.runs.run_meta import RunMeta, write_meta

from .helpers import REPO_ROOT, child_env, command

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "dialects"
RUNS = (
    ("20261120-090000-cursor-agent.ndjson", REPO_ROOT / "recordings" / "denied-tools.ndjson", 0),
    ("20261121-090000-claude.ndjson", FIXTURES / "claude" / "permission-denied.jsonl", 0),
    ("20261122-090000-sh.ndjson", REPO_ROOT / "recordings" / "failure-no-result.ndjson", 3),
)


def streamview(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(), *args], capture_output=True, text=True, timeout=60, env=env, check=False
    )


def test_runs_and_sessions_list_the_recordings_alike(tmp_path: Path) -> None:
    env = {
        **child_env(),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "HOME": str(tmp_path / "home"),  # no agent's own sessions
        "COLUMNS": "220",
    }
    folder = tmp_path / "state" / "streamview" / "runs"
    folder.mkdir(parents=True)
    for number, (name, source, code) in enumerate(RUNS):
        path = folder / name
        path.write_bytes(source.read_bytes())
        started = 1_790_000_000.0 + 3600 * number
        meta = RunMeta(name, "agent -p task", started=started, exit_code=code, ended="exited")
        assert write_meta(path, meta, first=True)
    listed = streamview("sessions", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    sessions = [orjson.loads(line) for line in listed.stdout.splitlines()]
    assert {entry["source"] for entry in sessions} == {"recording"}
    sessions.sort(key=lambda entry: entry["started"], reverse=True)
    runs = streamview("runs", env=env)
    assert runs.returncode == 0, runs.stderr
    rows = [re.split(r"\s{2,}", line.strip()) for line in runs.stdout.splitlines()[2:]]
    assert len(rows) == len(sessions) == len(RUNS)
    for row, entry in zip(rows, sessions, strict=True):
        assert Path(entry["path"]).name in row, (row, entry)
        assert entry["agent"] in row, (row, entry)
        assert row[-1] == entry["title"] or entry["title"].startswith(row[-1].rstrip("…"))
    assert {row[2] for row in rows} == {"Cursor", "Claude Code"}
