"""``--print``, ``--json``, ``--agent`` and ``run`` on opencode, Kilo, Copilot CLI, Goose
and Cline streams, through the real command.

Fixtures: tests/fixtures/dialects/<agent> (see each SOURCES.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

from streamview.core.formatting import describe_call
from streamview.core.reader import fold

from .helpers import REPO_ROOT, run

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "dialects"

CASES = [
    ("opencode", "success-tools.jsonl", "opencode"),
    ("opencode", "real-issuepit-901.jsonl", "opencode"),
    ("copilot", "success-tools.jsonl", "GitHub Copilot CLI"),
    ("goose", "success-tools.jsonl", "Goose"),
    ("cline", "success-tools.jsonl", "Cline"),
]
"""``(agent, fixture, what the header calls the agent)``."""

FAKE_AGENT = """\
import sys, time
# A stand-in for an agent CLI printing its JSON stream: a line of its own on stderr,
# then the stream a line at a time.
sys.stderr.write("starting\\n")
for line in open(sys.argv[1], "rb"):
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
    time.sleep(0.005)
"""


@pytest.mark.parametrize(("agent", "name", "label"), CASES)
def test_print_and_json_give_the_same_account(agent: str, name: str, label: str) -> None:
    """The same session, calls (kind, target, status, summary) and outcome, both ways."""
    path = FIXTURES / agent / name
    document = orjson.loads(run("--json", str(path)).stdout)
    (session,) = document["sessions"]
    assert session["agent"] == agent
    printed = run("--print", str(path))
    lines = printed.stdout.decode().splitlines()
    assert lines[0].startswith(f"== session {session['session_id'] or '?'} · {label}")
    if session["model"]:
        assert f"· {session['model']}" in lines[0]
    # Every call of the JSON summary is a finished call line of the printout, in order.
    (folded,) = fold([path.read_bytes()]).sessions
    finished = [line[2:].split(" · ")[:2] for line in lines if line[:2] in ("✓ ", "✗ ", "⊘ ", "! ")]
    assert finished == [[describe_call(call), call.status] for call in folded.tool_calls]
    assert [c["name"] for c in session["tool_calls"]] == [c.kind for c in folded.tool_calls]
    assert [c["status"] for c in session["tool_calls"]] == [c.status for c in folded.tool_calls]
    assert lines[-1].startswith(f"== {session['outcome']['status']}")
    assert printed.returncode == 0 and session["outcome"]["status"] == "success"
    assert document["lines"]["unknown"] == 0 and document["lines"]["malformed"] == 0


@pytest.mark.parametrize(
    ("agent", "name", "message"),
    [
        ("opencode", "error.jsonl", "Rate limit exceeded: 429 Too Many Requests"),
        ("copilot", "error-and-unknown.jsonl", "You have exceeded your premium request allowance."),
        (
            "goose",
            "error.jsonl",
            "Request failed: Authentication failed. Please check your API key.",
        ),
    ],
)
def test_an_error_run_exits_1_with_its_message(agent: str, name: str, message: str) -> None:
    done = run("--json", str(FIXTURES / agent / name))
    assert done.returncode == 1
    outcome = orjson.loads(done.stdout)["sessions"][0]["outcome"]
    assert (outcome["status"], outcome["message"]) == ("error", message)


def test_a_cut_stream_prints_incomplete_and_exits_1() -> None:
    done = run("--print", str(FIXTURES / "cline" / "stops-mid-run.jsonl"))
    assert done.returncode == 1
    lines = done.stdout.decode().splitlines()
    assert "?? line 6: unknown record say/future_kind" in lines
    assert lines[-1] == "!! incomplete: stream ended without a result"


def test_agent_kilo_names_the_run_kilo() -> None:
    path = FIXTURES / "kilo" / "success-tools.jsonl"
    auto = orjson.loads(run("--json", str(path)).stdout)["sessions"][0]
    assert auto["agent"] == "opencode"
    forced = run("--print", "--agent", "kilo", str(path)).stdout.decode().splitlines()
    assert forced[0] == "== session ses_4a9d21c0bffeKiLo7Qw2xY5z3R · Kilo Code CLI"
    as_kilo = orjson.loads(run("--json", "--agent", "kilo", str(path)).stdout)["sessions"][0]
    assert as_kilo["agent"] == "kilo"
    assert as_kilo["tool_calls"] == auto["tool_calls"]


@pytest.mark.parametrize("agent", ["opencode", "copilot", "goose", "cline"])
def test_agent_forces_the_dialect_of_a_stream(agent: str) -> None:
    """``--agent cursor`` reads none of it; ``--agent <it>`` reads it all."""
    path = FIXTURES / agent / "success-tools.jsonl"
    as_cursor = orjson.loads(run("--json", "--agent", "cursor", str(path)).stdout)
    assert all(not s["tool_calls"] for s in as_cursor["sessions"])
    forced = orjson.loads(run("--json", "--agent", agent, str(path)).stdout)
    assert forced["sessions"] == orjson.loads(run("--json", str(path)).stdout)["sessions"]


@pytest.mark.parametrize(("agent", "name", "label"), CASES[::2] + CASES[3:4])
def test_a_recorded_run_replays_the_same(tmp_path: Path, agent: str, name: str, label: str) -> None:
    """``streamview run`` on a fake agent printing the stream records it; the recording
    (each line stamped with its arrival) reads back as the same run."""
    script = tmp_path / "fake_agent.py"
    script.write_text(FAKE_AGENT)
    recording = tmp_path / "run.ndjson"
    fixture = FIXTURES / agent / name
    done = run(
        "run", "--json", "--record", str(recording), "--", sys.executable, str(script), str(fixture)
    )
    assert done.returncode == 0, done.stderr
    live = orjson.loads(done.stdout)
    lines = recording.read_bytes().splitlines()
    assert len(lines) == len(fixture.read_bytes().splitlines())
    assert all(b'"streamview_recv_ms":' in line for line in lines)
    replayed = orjson.loads(run("--json", str(recording)).stdout)
    (session,) = replayed["sessions"]
    assert session["agent"] == agent
    assert [c["kind"] for c in session["tool_calls"]] == [
        c["kind"] for c in live["sessions"][0]["tool_calls"]
    ]
    assert [c["status"] for c in session["tool_calls"]] == [
        c["status"] for c in live["sessions"][0]["tool_calls"]
    ]
    assert session["outcome"]["status"] == live["sessions"][0]["outcome"]["status"] == "success"
    printed = run("--print", str(recording)).stdout.decode().splitlines()
    assert label in printed[0]
