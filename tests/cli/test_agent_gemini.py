"""``--json``, ``--print``, ``--agent`` and ``run`` on Gemini CLI streams, through the real command.

Fixtures: tests/fixtures/dialects/gemini (see its SOURCES.md; ``real-*`` are real runs).
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from .helpers import REPO_ROOT, run

GEMINI = REPO_ROOT / "tests" / "fixtures" / "dialects" / "gemini"

FAKE_GEMINI = """\
import sys, time
# A stand-in for `gemini -p ... --output-format stream-json`: its own line on
# stderr, then the stream, a line at a time.
sys.stderr.write("Loaded cached credentials.\\n")
for line in open(sys.argv[1], "rb"):
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
    time.sleep(0.01)
"""


def test_json_of_a_gemini_run_names_the_agent_usage_and_calls() -> None:
    done = run("--json", str(GEMINI / "success-every-tool.jsonl"))
    assert done.returncode == 0, done.stderr
    document = orjson.loads(done.stdout)
    (session,) = document["sessions"]
    assert session["agent"] == "gemini"
    assert session["model"] == "gemini-2.5-pro"
    assert session["prompt"] == "Make parse('') return an empty list and run the tests."
    outcome = session["outcome"]
    assert (outcome["status"], outcome["duration_ms"]) == ("success", 15575)
    assert (outcome["cost_usd"], outcome["num_turns"], outcome["message"]) == (None, None, None)
    assert outcome["usage"]["input_tokens"] == 26928
    assert outcome["usage_raw"]["toolCalls"] == 10
    assert [call["name"] for call in session["tool_calls"]] == [
        "updateTodos",
        "ls",
        "grep",
        "read",
        "edit",
        "write",
        "glob",
        "shell",
        "webFetch",
        "mcp",
        "save_memory",
    ]
    assert {call["status"] for call in session["tool_calls"]} == {"succeeded"}
    assert document["lines"] == {"total": 30, "events": 30, "malformed": 0, "unknown": 0}


def test_json_of_an_error_result_carries_its_message_and_exits_1() -> None:
    done = run("--json", str(GEMINI / "error-result.jsonl"))
    assert done.returncode == 1
    outcome = orjson.loads(done.stdout)["sessions"][0]["outcome"]
    assert outcome["status"] == "error"
    assert outcome["message"].startswith("Reached max session turns for this session.")


def test_print_of_a_piped_gemini_run_gives_the_same_account() -> None:
    data = (GEMINI / "tool-error-and-policy-denial.jsonl").read_bytes()
    done = run("--print", stdin=data)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "== session c25acda3-b51f-41f9-9bc5-954c70c17bf4 · Gemini CLI · auto"
    assert "> Read /etc/hosts, then delete the build folder." in lines
    assert (
        "! read /etc/hosts · error · "
        "File path must be within one of the workspace directories: /work/app · 30ms"
    ) in lines
    assert (
        "⊘ shell `rm -rf build` · rejected · rejected: Tool execution denied by policy. · 2ms"
    ) in lines
    assert "✗ shell `false` · failed · exit 1 · 40ms" in lines
    assert lines[-1] == "== success · in 26.3s · 7,854 in · 58 out"


def test_print_of_a_real_run_shows_the_clis_own_lines_and_the_answer() -> None:
    done = run("--print", str(GEMINI / "real-oneshot-web-search.jsonl"))
    lines = done.stdout.decode().splitlines()
    assert lines[0] == (
        "?? line 1: not JSON: YOLO mode is enabled. All tool calls will be automatically approved."
    )
    assert "✓ webSearch capital of columbia · succeeded · 1.8s" in lines
    assert "   Bogotá is the capital and largest city of Colombia." in lines
    assert lines[-1] == "== success · in 6.8s · 32,282 in · 76 out · 13,673 cache read"


def test_a_stream_cut_mid_run_prints_incomplete_and_exits_1() -> None:
    done = run("--print", str(GEMINI / "stops-mid-answer.jsonl"))
    assert done.returncode == 1
    lines = done.stdout.decode().splitlines()
    assert "⚠ shell `go test ./repo-agent/...` · interrupted" in lines
    assert lines[-1] == "!! incomplete: stream ended without a result, 1 call interrupted"


def test_agent_forces_gemini_or_cursor() -> None:
    path = GEMINI / "real-shell-echo.jsonl"
    as_cursor = orjson.loads(run("--json", "--agent", "cursor", str(path)).stdout)
    # Cursor's reader knows only the result: the rest is shown as unknown records.
    assert as_cursor["lines"] == {"total": 6, "events": 1, "malformed": 0, "unknown": 5}
    assert [s["agent"] for s in as_cursor["sessions"]] == ["cursor"]  # forced: named
    assert as_cursor["sessions"][0]["tool_calls"] == []
    as_gemini = orjson.loads(run("--json", "--agent", "gemini", str(path)).stdout)
    assert [call["kind"] for call in as_gemini["sessions"][0]["tool_calls"]] == ["shell"]


def test_a_recorded_gemini_run_replays_the_same(tmp_path: Path) -> None:
    """``streamview run`` on a fake agent printing Gemini's stream records it; the
    recording (each line stamped with its arrival) reads back as the same run."""
    agent = tmp_path / "fake_gemini.py"
    agent.write_text(FAKE_GEMINI)
    recording = tmp_path / "run.ndjson"
    fixture = GEMINI / "tool-error-and-policy-denial.jsonl"
    done = run(
        "run", "--json", "--record", str(recording), "--", sys.executable, str(agent), str(fixture)
    )
    assert done.returncode == 0, done.stderr
    live = orjson.loads(done.stdout)
    lines = recording.read_bytes().splitlines()
    assert len(lines) == 12 and all(b'"streamview_recv_ms":' in line for line in lines)
    replayed = orjson.loads(run("--json", str(recording)).stdout)
    # Gemini stamps its records: durations come from its timestamps, live and replayed.
    assert replayed["sessions"] == live["sessions"]
    (session,) = replayed["sessions"]
    assert session["agent"] == "gemini"
    assert [call["status"] for call in session["tool_calls"]] == [
        "error",
        "error",
        "rejected",
        "failed",
    ]
    assert replayed["lines"] == {"total": 12, "events": 12, "malformed": 0, "unknown": 0}
    printed = run("--print", str(recording)).stdout.decode().splitlines()
    assert printed[0] == "== session c25acda3-b51f-41f9-9bc5-954c70c17bf4 · Gemini CLI · auto"
