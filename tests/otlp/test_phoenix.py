"""End to end: runs sent to a real tracing backend, Arize Phoenix, and read back
through its own REST API (one Phoenix for the module, started once: its checks are
one test, so that two workers never start two).

Phoenix is large (some 850 MB): `.ci/run` installs it in its own virtual environment,
``.venv-phoenix``; ``STREAMVIEW_PHOENIX`` names another ``phoenix`` executable.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from streamview.core.otlp_spans import spans_of
from tests.otlp.helpers import RECORDINGS, REPO, folded
from tests.otlp.phoenix_server import Phoenix, phoenix_for_tests, phoenix_program
from tests.otlp.watch_scenario import a_killed_watch_sends_every_span_once

pytestmark = pytest.mark.timeout(300)  # Phoenix's start is the first test's setup

CAPTURES = [
    REPO / "tests/fixtures/dialects/claude/real-agentic-org-task-018-head.jsonl",
    REPO / "tests/fixtures/dialects/codex/real-codex-auto.jsonl",
    REPO / "tests/fixtures/dialects/gemini/real-shell-echo.jsonl",
]
"""A real capture of each of three agents (their SOURCES.md say where from)."""
AGENTS = REPO / "tests" / "run" / "agents"


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phoenix]:
    program = phoenix_program()
    if program is None:
        pytest.skip("Phoenix is not installed (.ci/run installs it in .venv-phoenix)")
    try:
        with phoenix_for_tests(program, tmp_path_factory.mktemp("phoenix")) as backend:
            sys.stderr.write(f"\nPhoenix answered after {backend.started_in:.1f} s\n")
            yield backend
    except RuntimeError as error:
        pytest.fail(str(error))


def _streamview(*arguments: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "streamview", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )


def _ms(stamp: str) -> int:
    return round(datetime.fromisoformat(stamp).timestamp() * 1000)


def test_phoenix_reads_back_exported_live_and_watched_runs(
    phoenix: Phoenix, tmp_path: Path
) -> None:
    """One test (one Phoenix, whichever worker runs it): exported recordings and
    captures, a live run with content, then a watch killed and started again."""
    exported_runs_come_back_as_one_trace_per_session(phoenix)
    a_live_run_with_content_sends_it(phoenix, tmp_path)
    a_killed_watch_sends_every_span_once(phoenix, tmp_path / "watch")


def exported_runs_come_back_as_one_trace_per_session(phoenix: Phoenix) -> None:
    """The demo recordings and three agents' captures: as many traces as sessions, each
    span's name, parent, status and duration as streamview mapped them, the usage on
    the root, no content; sent again, no span is added twice."""
    files = [*RECORDINGS, *CAPTURES]
    env = {**os.environ, "OTEL_RESOURCE_ATTRIBUTES": "openinference.project.name=exported"}
    env["OTEL_EXPORTER_OTLP_ENDPOINT"] = phoenix.url
    done = _streamview("export", "--otlp", *map(str, files), env=env)
    assert done.returncode == 0, done.stderr
    expected = []
    sessions = 0
    for path in files:
        state = folded(path)
        sessions += len(state.sessions)
        expected += spans_of(state, anchor_ms=path.stat().st_mtime_ns // 1_000_000)
    assert f"sent {sessions} traces ({len(expected)} spans)" in done.stderr
    got = {
        span["context"]["span_id"]: span
        for span in phoenix.wait_for_spans("exported", len(expected))
    }
    assert len(got) == len(expected)
    assert len({span["context"]["trace_id"] for span in got.values()}) == sessions
    for record in expected:
        span = got[f"{record.span_id:016x}"]
        assert span["name"] == record.name
        assert span["context"]["trace_id"] == f"{record.trace_id:032x}"
        parent = f"{record.parent_id:016x}" if record.parent_id is not None else None
        assert span["parent_id"] == parent
        assert span["status_code"] == {"ok": "OK", "error": "ERROR"}.get(record.status, "UNSET")
        lasted = _ms(span["end_time"]) - _ms(span["start_time"])
        assert lasted == (record.end_ns - record.start_ns) // 10**6
        assert span["span_kind"] == ("AGENT" if parent is None else "TOOL")
        assert "input.value" not in span["attributes"]
        assert "output.value" not in span["attributes"]
    demo = next(s for s in got.values() if s["attributes"].get("llm.token_count.prompt") == 34214)
    assert demo["attributes"]["llm.token_count.completion"] == 600
    assert demo["attributes"]["gen_ai.usage.output_tokens"] == 600
    assert demo["name"] == "invoke_agent cursor"
    assert {s["name"] for s in got.values() if s["parent_id"] is None} >= {
        "invoke_agent claude",
        "invoke_agent codex",
        "invoke_agent gemini",
    }
    # Sent again with a run not sent yet: once the new run is in, nothing else is new.
    new = REPO / "tests/fixtures/dialects/opencode/real-issuepit-901.jsonl"
    added = spans_of(folded(new), anchor_ms=new.stat().st_mtime_ns // 1_000_000)
    again = _streamview("export", "--otlp", str(RECORDINGS[0]), str(new), env=env)
    assert again.returncode == 0, again.stderr
    after = phoenix.wait_for_spans("exported", len(expected) + len(added))
    assert len(after) == len(expected) + len(added)


def a_live_run_with_content_sends_it(phoenix: Phoenix, tmp_path: Path) -> None:
    """run --otlp --otlp-content on a fake agent: its trace in Phoenix holds the prompt,
    the answer and the read call's arguments, the run's exit status unchanged."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    done = _streamview(
        "run",
        "--print",
        "--otlp",
        "--otlp-content",
        "--otlp-endpoint",
        phoenix.url,
        "--otlp-header",
        "x-project-name=live",
        "--",
        sys.executable,
        str(AGENTS / "success.py"),
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "--otlp" not in done.stderr
    spans = phoenix.wait_for_spans("live", 2)
    (root,) = [s for s in spans if s["parent_id"] is None]
    (call,) = [s for s in spans if s["parent_id"] is not None]
    assert root["name"] == "invoke_agent cursor"
    assert root["attributes"]["input.value"] == "say hi"
    assert root["attributes"]["output.value"] == "Hi — done."
    assert root["attributes"]["session.id"] == "0d1e2f3a-0000-4000-8000-000000000001"
    assert call["name"] == "execute_tool read"
    assert call["attributes"]["input.value"] == '{"path":"README.md"}'
    assert call["parent_id"] == root["context"]["span_id"]
    assert call["status_code"] == "OK"
