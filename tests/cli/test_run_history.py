"""``streamview runs`` and ``last N`` keep the evidence of each run (issues 21.10, 20.9):
when to the second, the file, the agent's exit code and how the run ended, read from
the recording's sidecar; any run can be opened, a run that failed before its first
line included."""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import orjson
import pytest

from streamview.runs.run_meta import read_meta

from .helpers import REPO_ROOT, child_env, command

AGENTS = REPO_ROOT / "tests" / "run" / "agents"


def streamview(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(*args),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=REPO_ROOT,
        env=env,
        timeout=60,
    )


def agent(name: str) -> list[str]:
    return [command()[0], str(AGENTS / f"{name}.py")]


@pytest.fixture
def state_env(tmp_path: Path) -> dict[str, str]:
    return {**child_env(), "XDG_STATE_HOME": str(tmp_path / "state")}


def stopped_run(env: dict[str, str]) -> None:
    """`run --print` of an agent that is thinking, stopped with Ctrl+C (SIGINT)."""
    viewer = subprocess.Popen(
        command("run", "--print", "--", *agent("sigint")),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env=env,
    )
    assert viewer.stdout is not None
    for line in viewer.stdout:
        if line.startswith("-> read"):
            break
    viewer.send_signal(signal.SIGINT)
    viewer.communicate(timeout=30)


def test_runs_lists_how_each_run_ended_and_any_run_opens(state_env: dict[str, str]) -> None:
    assert streamview("run", "--print", "--", *agent("success"), env=state_env).returncode == 0
    assert streamview("run", "--print", "--", *agent("silent_failure"), env=state_env).returncode
    stopped_run(state_env)
    listing = streamview("runs", env={**state_env, "COLUMNS": "200"})
    assert listing.returncode == 0
    lines = listing.stdout.splitlines()
    assert lines[0].startswith("3 recorded runs in ") and "streamview last N" in lines[0]
    assert re.split(r"\s{2,}", lines[1].strip()) == [
        "#",
        "started",
        "agent",
        "outcome",
        "exit",
        "size",
        "file",
        "prompt",
    ]
    folder = Path(state_env["XDG_STATE_HOME"]) / "streamview" / "runs"
    files = {path.name for path in folder.glob("*.ndjson")}
    stopped, crashed, success = lines[2:5]
    for row, number, outcome, code in (
        (stopped, 1, "■ stopped (Ctrl+C)", "130"),
        (crashed, 2, "✗ failed (exit 3)", "3"),
        (success, 3, "✓ success", "0"),
    ):
        cells = re.split(r"\s{2,}", row.strip())
        assert cells[0] == str(number)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", cells[1]), row
        assert outcome in cells and code in cells, row
        assert any(cell in files for cell in cells), row  # the file is named
    assert "say hi" in success  # the prompt
    assert crashed.endswith("stderr: ⚠ Workspace Trust Required")  # no prompt: why it failed

    second = streamview("last", "2", "--print", env=state_env)
    assert second.returncode == 3  # the agent's own status, as `run` returned it
    assert second.stdout.splitlines() == [
        "!! agent failed (exit 3)",
        "   stderr: ⚠ Workspace Trust Required",
    ]
    summary = orjson.loads(streamview("last", "2", "--json", env=state_env).stdout)
    assert summary["process"]["exit_code"] == 3
    assert summary["process"]["stderr"] == "⚠ Workspace Trust Required\n"
    assert summary["process"]["ended"] == "failed"  # "crashed" is for a signal
    opened = streamview("runs", "--open", "3", env=state_env)  # not a terminal: --print
    assert opened.returncode == 0 and opened.stdout.rstrip().endswith("== success · in 300ms")
    first = streamview("last", "--print", env=state_env)
    assert "!! agent stopped (Ctrl+C)" in first.stdout
    missing = streamview("last", "9", env=state_env)
    assert missing.returncode == 2
    assert "no run 9: 3 recorded runs (streamview runs lists them)" in missing.stderr


def test_a_run_failing_before_its_first_line_keeps_why(state_env: dict[str, str]) -> None:
    """Issue 20.9: a 0-byte recording, yet its sidecar keeps the command, the exit
    code, the stderr and the times."""
    done = streamview("run", "--print", "--", *agent("silent_failure"), env=state_env)
    assert done.returncode == 3
    path = Path(done.stderr.split(" lines to ")[1].strip())
    assert path.read_bytes() == b""
    meta = read_meta(path)
    assert meta is not None
    assert meta.command == tuple(agent("silent_failure"))
    assert (meta.exit_code, meta.ended, meta.stderr) == (
        3,
        "failed",
        "⚠ Workspace Trust Required\n",
    )
    assert meta.ended_at is not None and meta.started <= meta.ended_at
    assert meta.cut is None and meta.lines == 0


def test_runs_are_ranked_by_when_they_started_not_by_their_last_write(tmp_path: Path) -> None:
    """A run that failed at once (its empty recording never written again) started after
    a long run that wrote its last line later: newest first means the failed one first,
    as the "started" column says."""
    from streamview.cli.runs import recordings
    from streamview.runs.run_meta import RunMeta, write_meta

    long_run, failed = tmp_path / "a-long.ndjson", tmp_path / "b-failed.ndjson"
    for path, started in ((long_run, 1_000.0), (failed, 1_005.0)):
        path.write_bytes(b"")
        assert write_meta(path, RunMeta(path.name, "stdin", started=started), first=True)
    os.utime(failed, (1_005.0, 1_005.0))
    os.utime(long_run, (1_060.0, 1_060.0))  # its last line came a minute after it began
    assert recordings(tmp_path) == [failed, long_run]


def test_a_run_that_ended_without_a_result_is_not_listed_as_stopped_or_crashed(
    state_env: dict[str, str],
) -> None:
    """Issue 21.10: "… no result" was shown alike for a Ctrl+C'd run and a crashed one.
    A run whose agent exited 0 but whose stream stops before its result reads "… no
    result"; a stopped and a crashed run each say so beside it."""
    stopped_run(state_env)
    assert streamview("run", "--print", "--", *agent("silent_failure"), env=state_env).returncode
    cut_short = REPO_ROOT / "recordings" / "failure-no-result.ndjson"
    listing_agent = [command()[0], "-c", f"print(open({str(cut_short)!r}).read(), end='')"]
    done = streamview("run", "--print", "--", *listing_agent, env=state_env)
    assert done.returncode == 1, done.stderr  # no result: 1, the agent's own status was 0
    lines = streamview("runs", env={**state_env, "COLUMNS": "200"}).stdout.splitlines()
    no_result, crashed, stopped = (re.split(r"\s{2,}", row.strip()) for row in lines[2:5])
    assert "… no result" in no_result and "0" in no_result, no_result
    assert "✗ failed (exit 3)" in crashed and "3" in crashed, crashed
    assert "■ stopped (Ctrl+C)" in stopped and "130" in stopped, stopped


def test_runs_fits_the_terminal_and_gives_up_columns_in_order(tmp_path: Path) -> None:
    """At 80 columns every row of `runs` wrapped (its columns needed ~90). Now no line
    is wider than the terminal; narrower, the size goes first, then the start's year,
    then the file name, and the prompt keeps its 20 characters at the least."""
    import io

    from streamview.cli.runs import list_runs
    from streamview.runs.run_meta import RunMeta, write_meta

    folder = tmp_path / "r"
    folder.mkdir()
    names = ("20261126-101010-cursor-agent.ndjson", "20261126-101111-sh.ndjson")
    for index, name in enumerate(names):
        path = folder / name
        path.write_bytes((REPO_ROOT / "recordings" / "success-multi-tool.ndjson").read_bytes())
        meta = RunMeta(name, "cursor-agent -p fix", started=1_790_000_000.0 + index, exit_code=0)
        assert write_meta(path, meta, first=True)
    shown: dict[int, list[str]] = {}
    for width in (60, 80, 90, 100, 110, 200):
        out = io.StringIO()
        list_runs(out, folder, width=width)
        lines = out.getvalue().splitlines()
        # The title names the folder whole, however long pytest's is; the table fits.
        assert all(len(line) <= width for line in lines[-3:]), (width, [len(x) for x in lines])
        assert len(lines[0]) - len(str(folder)) <= width
        header = re.split(r"\s{2,}", lines[-3].strip())
        rows = [re.split(r"\s{2,}", line.strip()) for line in lines[-2:]]
        assert all(len(row) == len(header) for row in rows), (header, rows)
        least = 20 if width >= 80 else 15  # at 60 the prompt has what is left: 15
        assert all(len(row[-1]) >= least for row in rows), rows
        year = len(rows[0][header.index("started")]) == len("2026-09-21 14:13:21")
        shown[width] = header + (["year"] if year else [])
        assert len(lines) == 4  # title, header, two runs: the shape scripts read
        hinted = f"2 recorded runs in {folder}, newest first (streamview last N opens run N):"
        assert lines[0] == (hinted if len(hinted) <= width else hinted.split(" (")[0] + ":")
    every = ["#", "started", "agent", "outcome", "exit", "size", "file", "prompt", "year"]
    assert sorted(shown[200]) == sorted(every)
    assert sorted(shown[60]) == sorted(["#", "started", "agent", "outcome", "exit", "prompt"])
    order = ["size", "year", "file"]  # given up first to last
    for narrow, wide in zip((60, 80, 90, 100, 110), (80, 90, 100, 110, 200), strict=True):
        assert set(shown[narrow]) <= set(shown[wide])
        missing = [column for column in order if column not in shown[narrow]]
        assert missing == order[: len(missing)], (narrow, missing)
