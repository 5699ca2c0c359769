"""A first SIGTERM while a send hangs: ``run --otlp`` and ``sessions --watch --otlp`` end
at once, say once what was not sent, and exit as a SIGTERM makes them exit.

The backend is a local socket that takes the request and never answers; the export
timeout is 10 minutes, so a forwarder that waits for it would outlive the tests'
deadline (a deadline on a condition, not a measured time)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.otlp.helpers import REPO

DEADLINE = 30.0
"""Generous: the fix ends in about a second; the old code waits for the 600 s timeout."""
JOB = REPO / "recordings" / "success-multi-tool.ndjson"


class HungBackend:
    """Accepts OTLP/HTTP requests, reads them, never answers; :attr:`posted` is set
    once a request came."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(16)
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.posted = threading.Event()
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.held.append(connection)
            threading.Thread(target=self._read, args=(connection,), daemon=True).start()

    def _read(self, connection: socket.socket) -> None:
        seen = b""
        while b"\r\n\r\n" not in seen:
            try:
                chunk = connection.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            seen += chunk
        if seen.startswith(b"POST "):
            self.posted.set()

    def close(self) -> None:
        self.socket.close()
        for connection in self.held:
            connection.close()


@pytest.fixture
def hung() -> Iterator[HungBackend]:
    backend = HungBackend()
    yield backend
    backend.close()


def _env(tmp_path: Path, url: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_DATA_HOME")
    }
    (tmp_path / "home").mkdir(exist_ok=True)
    env.update(
        HOME=str(tmp_path / "home"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        OTEL_EXPORTER_OTLP_ENDPOINT=url,
        OTEL_EXPORTER_OTLP_TIMEOUT="600000",
    )
    return env


def _stop(process: subprocess.Popen[str], hung: HungBackend) -> tuple[str, str]:
    """SIGTERM once a request hangs; what the process said (it must end)."""
    try:
        assert hung.posted.wait(DEADLINE), "no request reached the backend"
        process.send_signal(signal.SIGTERM)
        return process.communicate(timeout=DEADLINE)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_watch_stops_at_once_on_sigterm_while_a_send_hangs(
    tmp_path: Path, hung: HungBackend
) -> None:
    """The watch's batch hangs; the first SIGTERM ends it (exit 0, as a SIGTERM
    always does) with one line saying the spans were not delivered and are kept."""
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "job.ndjson").write_bytes(JOB.read_bytes())
    command = [sys.executable, "-m", "streamview", "sessions", "--watch", "--otlp"]
    command += ["--dir", str(jobs), "--interval", "0.1"]
    watch = subprocess.Popen(
        command,
        cwd=REPO,
        env=_env(tmp_path, hung.url),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, err = _stop(watch, hung)
    assert watch.returncode == 0, err
    assert err.count("--otlp") == 1, err
    said = (
        f"sent 0 spans; --otlp: 11 spans not delivered to {hung.url}/v1/traces: "
        "no answer within 1 s of SIGTERM (kept: sent when the watch starts again)"
    )
    assert said in err


def test_a_run_stops_at_once_on_sigterm_while_a_send_hangs(
    tmp_path: Path, hung: HungBackend
) -> None:
    """The run's ended call hangs in its send; the first SIGTERM ends the run with
    143 and one line that says the backend was not waited for."""
    go = tmp_path / "go"  # never made: the agent waits mid-run until stopped
    agent = [sys.executable, str(REPO / "tests" / "otlp" / "paused_agent.py"), str(go)]
    command = [sys.executable, "-m", "streamview", "run", "--print", "--otlp"]
    command += ["--record", str(tmp_path / "run.ndjson"), "--", *agent, "--end-call"]
    run = subprocess.Popen(
        command,
        cwd=REPO,
        env=_env(tmp_path, hung.url),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, err = _stop(run, hung)
    assert run.returncode == 143, err
    assert err.count("--otlp") == 1, err
    said = f"--otlp: 2 of 2 spans not delivered to {hung.url}/v1/traces: "
    assert said + "no answer within 0.5 s of SIGTERM" in err
