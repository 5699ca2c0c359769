"""``sessions --watch --otlp`` killed and started again mid-run, against a real Phoenix
(a step of tests/otlp/test_phoenix.py's one test, which owns the server)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from streamview.core.otlp_spans import spans_of
from streamview.fronts.otlp.whole import folded as folded_whole
from streamview.sources.opencode_db import read_session
from streamview.sources.session_source import gemini_records
from tests.otlp.helpers import REPO, folded
from tests.otlp.phoenix_server import Phoenix

PROJECT = "watch"
JOB = REPO / "recordings" / "success-multi-tool.ndjson"
OLD_SESSION = b"d7a94ded-9749-4e23-b0c6-a5b85387f613"
NEW_SESSION = b"d7a94ded-9749-4e23-b0c6-0000000000a7"
"""The job's copy has a session id of its own: Phoenix keeps one span of each id, and
the recording's spans were sent to another project already."""
CUT = 149
"""Lines of the job written before the watch is killed: six calls ended, one running."""
SESSIONS = REPO / "tests" / "fixtures" / "sessions"
GEMINI = SESSIONS / "gemini" / "session-2026-11-20T10-00-3f2a9c1e.json"
OPENCODE = SESSIONS / "opencode" / "opencode.db"


def _wait_for(condition: Callable[[], object], what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}"
        time.sleep(0.05)


def _ledger(state: Path) -> dict[str, set[str]]:
    """The watch's state file: the span ids sent, by file (empty before it exists)."""
    found = list((state / "streamview" / "otlp-watch").glob("*.json"))
    if not found:
        return {}
    files = orjson.loads(found[0].read_bytes())["files"]
    return {name: set(entry["sent"]) for name, entry in files.items()}


def _sent(state: Path, prefix: str = "") -> int:
    return sum(len(ids) for name, ids in _ledger(state).items() if name.startswith(prefix))


def a_killed_watch_sends_every_span_once(phoenix: Phoenix, tmp_path: Path) -> None:
    """A live ``run --otlp`` and a growing job file, watched; the watch SIGKILLed with
    the run paused mid-call and the job half written, then started again: Phoenix
    holds every span of both exactly once, the second watch sent only what the first
    had not (its state file said so), and SIGTERM stops it cleanly (exit 0). A legacy
    Gemini CLI session and opencode's database, quiet, found by the first watch, are
    sent once too."""
    home, state, jobs = tmp_path / "home", tmp_path / "state", tmp_path / "jobs"
    for folder in (home, jobs):
        folder.mkdir(parents=True)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_DATA_HOME")
    }
    env.update(
        HOME=str(home),
        XDG_STATE_HOME=str(state),
        OTEL_EXPORTER_OTLP_ENDPOINT=phoenix.url,
        OTEL_RESOURCE_ATTRIBUTES=f"openinference.project.name={PROJECT}",
    )
    streamview = [sys.executable, "-m", "streamview"]
    watch_command = [*streamview, "sessions", "--watch", "--otlp", "--dir", str(jobs)]
    watch_command += ["--interval", "0.1"]

    def start_watch() -> subprocess.Popen[str]:
        return subprocess.Popen(
            watch_command,
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

    go = tmp_path / "go"
    agent = [sys.executable, str(REPO / "tests" / "otlp" / "paused_agent.py"), str(go)]
    first = start_watch()
    run = subprocess.Popen(
        [*streamview, "run", "--print", "--otlp", "--", *agent],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = JOB.read_bytes().replace(OLD_SESSION, NEW_SESSION).splitlines(keepends=True)
        job = jobs / "job.ndjson"
        job.write_bytes(b"".join(lines[:CUT]))
        _wait_for(lambda: len(_ledger(state).get(str(job), ())) == 6, "the six calls ended")
        # Sessions read whole, quiet, come while the first watch runs: a legacy Gemini
        # CLI session and opencode's database (read read-only).
        whole = [home / ".gemini" / "tmp" / "p" / "chats" / GEMINI.name]
        whole.append(home / ".local" / "share" / "opencode" / "opencode.db")
        for path, fixture in zip(whole, (GEMINI, OPENCODE), strict=True):
            path.parent.mkdir(parents=True)
            path.write_bytes(fixture.read_bytes())
            os.utime(path, (1_763_632_810, 1_763_632_810))
        _wait_for(lambda: sum(_sent(state, str(p)) for p in whole) == 3 + 4, "sessions read whole")
        first.kill()  # mid-run: the run waits in its call, the job is half written
        first.wait(timeout=30)
        before = _sent(state)
        with job.open("ab") as out:
            out.write(b"".join(lines[CUT:]))
        go.touch()
        _, err_text = run.communicate(timeout=60)
        assert run.returncode == 0, err_text
        assert "--otlp" not in err_text
        (recording,) = (state / "streamview" / "runs").glob("*.ndjson")
        expected = {
            f"{span.span_id:016x}": span.name
            for path in (job, recording)
            for span in spans_of(folded(path), anchor_ms=path.stat().st_mtime_ns // 10**6)
        }
        assert len(expected) == 11 + 2
        sessions = [gemini_records(whole[0])]
        sessions += [
            read_session(whole[1], sid) for sid in ("ses_4b1f0c2a7ffeA1b2C3d4E5f6G7", "ses_0older")
        ]
        expected.update(
            (f"{span.span_id:016x}", span.name)
            for records in sessions
            for span in spans_of(folded_whole(records or []), anchor_ms=0)
        )
        assert len(expected) == 11 + 2 + 3 + 4
        second = start_watch()
        try:
            _wait_for(lambda: _sent(state) == len(expected), "the second watch to send the rest")
            second.send_signal(signal.SIGTERM)
            _, said = second.communicate(timeout=30)
        finally:
            if second.poll() is None:
                second.kill()
                second.wait()
    finally:
        for process in (first, run):
            if process.poll() is None:
                process.kill()
                process.wait()
    assert second.returncode == 0, said
    assert f"sessions --watch: sent {len(expected) - before} spans" in said
    assert set().union(*_ledger(state).values()) == set(expected)
    spans = phoenix.wait_for_spans(PROJECT, len(expected))
    got = [span["context"]["span_id"] for span in spans]
    assert sorted(got) == sorted(expected)  # each exactly once
    assert {span["context"]["span_id"]: span["name"] for span in spans} == expected
