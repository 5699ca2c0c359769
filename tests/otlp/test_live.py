"""``run --otlp``: a live run's spans go as its calls end, and a backend that is down
changes nothing of the run but one line on stderr."""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
import time
from pathlib import Path

from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.forward import LiveForwarder
from streamview.fronts.otlp.send import SpanSender
from tests.otlp.helpers import REPO, closed_port

AGENTS = REPO / "tests" / "run" / "agents"


def _fake_run() -> list[str]:
    """The lines of the fake agents' run (tests/run/agents/_stream.py)."""
    spec = importlib.util.spec_from_file_location("_stream", AGENTS / "_stream.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.RUN)


def _wait_for(condition: object, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}"
        time.sleep(0.01)


def test_a_call_is_sent_when_it_ends_and_the_run_when_it_ends() -> None:
    """The read call's span leaves while the run goes on; the root (with the run's
    usage and outcome) when the forwarder closes; times are the lines' arrivals."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    settings = OtlpSettings(endpoint="http://unused.invalid/v1/traces")
    forwarder = LiveForwarder(SpanSender(settings, exporter=exporter, schedule_ms=10))
    init, user, started, completed, answer, result = (line.encode() + b"\n" for line in _fake_run())
    for n, line in enumerate((init, user, started, completed)):
        forwarder.feed(line, 1_770_000_000_000 + 100 * n)
    _wait_for(lambda: len(exporter.get_finished_spans()) == 1, "the read call's span")
    (call,) = exporter.get_finished_spans()
    assert call.name == "execute_tool read"
    assert (call.start_time, call.end_time) == (
        1_770_000_000_200 * 10**6,
        1_770_000_000_300 * 10**6,
    )
    forwarder.feed(answer, 1_770_000_000_400)
    forwarder.feed(result, 1_770_000_000_500)
    assert forwarder.close() is None
    spans = exporter.get_finished_spans()
    assert [s.name for s in spans] == ["execute_tool read", "invoke_agent cursor"]
    root = spans[1]
    assert root.attributes["streamview.outcome"] == "success"
    assert root.end_time == 1_770_000_000_500 * 10**6
    assert call.parent.span_id == root.context.span_id


def test_a_backend_that_is_down_leaves_the_run_as_it_was(tmp_path: Path) -> None:
    """run --otlp to a closed port: the agent's exit status (1, then 0), and stderr
    says once how many spans were not delivered, and why."""
    port = closed_port()
    url = f"http://127.0.0.1:{port}"
    seen = {}
    for name in ("failure", "success"):
        record = str(tmp_path / f"{name}.ndjson")
        command = [sys.executable, "-m", "streamview", "run", "--print", "--record", record]
        command += ["--otlp", "--otlp-endpoint", url, "--", sys.executable]
        done = subprocess.run(
            [*command, str(AGENTS / f"{name}.py")],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
        )
        seen[name] = done
    failure, success = seen["failure"], seen["success"]
    assert failure.returncode == 1, failure.stderr
    assert success.returncode == 0, success.stderr
    said = f"streamview: --otlp: 1 of 1 span not delivered to {url}/v1/traces: connection refused"
    assert failure.stderr.count("--otlp") == 1 and said in failure.stderr
    said = f"--otlp: 2 of 2 spans not delivered to {url}/v1/traces: connection refused"
    assert success.stderr.count("--otlp") == 1 and said in success.stderr
    assert success.stdout.rstrip().endswith("== success · in 300ms")


def test_a_signal_ends_the_trace_too(tmp_path: Path) -> None:
    """SIGTERM mid-call: streamview exits 143 as always, and the open call (now
    interrupted) and the run's root span were both sent (to a closed port: 2 of 2)."""
    record = tmp_path / "run.ndjson"
    url = f"http://127.0.0.1:{closed_port()}"
    command = [sys.executable, "-m", "streamview", "run", "--print", "--record", str(record)]
    command += ["--otlp", "--otlp-endpoint", url, "--", sys.executable]
    run = subprocess.Popen(
        [*command, str(AGENTS / "sigint.py")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        _wait_for(lambda: record.exists() and record.read_bytes().count(b"\n") == 3, "the call")
        run.send_signal(signal.SIGTERM)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 143, err
    assert "⚠ read README.md · interrupted" in out
    assert f"--otlp: 2 of 2 spans not delivered to {url}/v1/traces" in err
