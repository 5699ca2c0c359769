"""``--json``, ``--print`` and ``--agent`` on another agent's stream, through the real command.

Fixtures: tests/fixtures/dialects/claude (see its SOURCES.md).
"""

from __future__ import annotations

from pathlib import Path

import orjson

from .helpers import REPO_ROOT, run

CLAUDE = REPO_ROOT / "tests" / "fixtures" / "dialects" / "claude"


def test_json_of_a_claude_run_names_the_agent_cost_and_turns() -> None:
    done = run("--json", str(CLAUDE / "success-tools.jsonl"))
    assert done.returncode == 0, done.stderr
    document = orjson.loads(done.stdout)
    (session,) = document["sessions"]
    assert session["agent"] == "claude"
    assert session["model"] == "claude-sonnet-4-5-20250929"
    assert session["outcome"]["status"] == "success"
    assert session["outcome"]["cost_usd"] == 0.1234567
    assert session["outcome"]["num_turns"] == 9
    assert session["outcome"]["message"] is None
    assert [call["name"] for call in session["tool_calls"]] == [
        "updateTodos",
        "shell",
        "grep",
        "read",
        "edit",
        "glob",
        "mcp",
        "shell",
    ]
    assert [call["status"] for call in session["tool_calls"]][:2] == ["succeeded", "failed"]
    assert document["lines"] == {"total": 20, "events": 20, "malformed": 0, "unknown": 0}


def test_json_of_an_error_outcome_carries_its_message_and_exits_1() -> None:
    done = run("--json", str(CLAUDE / "error-during-execution.jsonl"))
    assert done.returncode == 1
    outcome = orjson.loads(done.stdout)["sessions"][0]["outcome"]
    assert outcome["status"] == "error"
    assert outcome["message"] == "API Error: 529 overloaded_error"
    assert outcome["cost_usd"] == 0


def test_print_of_a_piped_claude_run_gives_the_same_account() -> None:
    data = (CLAUDE / "success-tools.jsonl").read_bytes()
    done = run("--print", stdin=data)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode()
    lines = text.splitlines()
    assert lines[0].startswith("== session 7c1e2f40-0b7a-4c55-9d1e-5a0c3f9e2b11 · Claude Code · ")
    assert "✗ shell `python -m pytest -q tests/test_parse.py` · failed · exit 1, 3 lines" in lines
    assert "✓ edit /work/app/src/parse.py · succeeded · +1 -1" in lines
    assert "   Fixed: `parse('')` now returns `[]`, and both parser tests pass." in lines
    assert lines[-1] == "== success · in 41.2s · 9 turns · $0.1235"


def test_agent_forces_a_dialect_and_rejects_unknown_names(tmp_path: Path) -> None:
    path = CLAUDE / "success-tools.jsonl"
    as_cursor = orjson.loads(run("--json", "--agent", "cursor", str(path)).stdout)
    assert as_cursor["sessions"][0]["agent"] == "cursor"
    assert as_cursor["sessions"][0]["tool_calls"] == []
    as_claude = orjson.loads(run("--json", "--agent", "claude", str(path)).stdout)
    assert len(as_claude["sessions"][0]["tool_calls"]) == 8
    bad = run("--json", "--agent", "nobody", str(path))
    assert bad.returncode == 2 and b"--agent" in bad.stderr


def test_print_nests_a_subagents_calls_under_its_task() -> None:
    done = run("--print", str(CLAUDE / "subagent.jsonl"))
    lines = done.stdout.decode().splitlines()
    assert lines.index("-> task Find the parser") < lines.index("   -> grep if not text")
    assert "   ✓ grep if not text · succeeded · 1 file" in lines
    assert "✓ task Find the parser · succeeded" in lines
    assert lines[-1] == "== success · in 9.1s · 3 turns · $0.0421"


def test_a_recorded_claude_run_replays_the_same(tmp_path: Path) -> None:
    """``streamview run`` on a fake agent printing Claude's stream records it; the
    recording (each line stamped with its arrival) reads back as the same run."""
    recording = tmp_path / "run.ndjson"
    fixture = CLAUDE / "subagent.jsonl"
    done = run("run", "--json", "--record", str(recording), "--", "cat", str(fixture))
    assert done.returncode == 0, done.stderr
    live = orjson.loads(done.stdout)
    lines = recording.read_bytes().splitlines()
    assert len(lines) == 10 and all(b'"streamview_recv_ms":' in line for line in lines)
    replayed = orjson.loads(run("--json", str(recording)).stdout)

    def without_times(document: dict[str, object]) -> object:
        # The recording adds arrival times: calls gain durations, nothing else changes.
        sessions = orjson.loads(orjson.dumps(document["sessions"]))
        for session in sessions:
            for call in session["tool_calls"]:
                call.pop("duration_ms")
        return sessions

    assert without_times(replayed) == without_times(live)
    (session,) = replayed["sessions"]
    assert session["agent"] == "claude"
    assert [call["status"] for call in session["tool_calls"]] == ["succeeded", "succeeded"]
    # The subagent's task_started is Claude Code's notice now, no unknown record.
    assert replayed["lines"] == {"total": 10, "events": 10, "malformed": 0, "unknown": 0}
