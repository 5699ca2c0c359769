"""``--json``, ``--print``, ``--agent`` and ``run`` on Codex's stream, through the real command.

Fixtures: tests/fixtures/dialects/codex (see its SOURCES.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from .helpers import REPO_ROOT, run

CODEX = REPO_ROOT / "tests" / "fixtures" / "dialects" / "codex"


def test_json_of_a_codex_run_names_the_agent_turns_and_usage() -> None:
    done = run("--json", str(CODEX / "every-kind.jsonl"))
    assert done.returncode == 0, done.stderr
    document = orjson.loads(done.stdout)
    (session,) = document["sessions"]
    assert session["agent"] == "codex"
    assert session["session_id"] == "0199e4a2-5b1c-7d30-9a6e-3f2d8c41b7aa"
    assert session["model"] is None
    assert [call["name"] for call in session["tool_calls"]] == [
        "updateTodos",
        "shell",
        "edit",
        "mcp",
        "webSearch",
        "shell",
    ]
    assert {call["status"] for call in session["tool_calls"]} == {"succeeded"}
    outcome = session["outcome"]
    assert (outcome["status"], outcome["num_turns"], outcome["cost_usd"]) == ("success", 1, None)
    assert outcome["usage_raw"] == {
        "inputTokens": 48210,
        "cacheReadTokens": 40192,
        "outputTokens": 1203,
    }
    assert document["lines"] == {"total": 18, "events": 18, "malformed": 0, "unknown": 0}


def test_json_of_a_failed_turn_carries_its_message_and_exits_1() -> None:
    done = run("--json", str(CODEX / "reconnects-then-failed.jsonl"))
    assert done.returncode == 1
    outcome = orjson.loads(done.stdout)["sessions"][0]["outcome"]
    assert outcome["status"] == "error"
    assert outcome["message"] == (
        "stream disconnected before completion: An error occurred while processing your request."
    )


def test_print_of_a_piped_codex_run_gives_the_same_account() -> None:
    data = (CODEX / "failing-command.jsonl").read_bytes()
    done = run("--print", stdin=data)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "== session 019a2d7a-41c4-78b1-b7cc-0e5f3a9d2c61 · Codex"
    assert "✗ shell `python -m pytest -q` · failed · exit 1, 3 lines" in lines
    assert "⊘ shell `rm -rf build` · rejected · rejected: command declined" in lines
    assert "! mcp github: get_issue · error · tool call error: Not Found" in lines
    assert lines[-1] == "== success · 21,040 in · 388 out · 6,912 cache read · 1 turn"


def test_print_shows_every_turn_of_a_resumed_thread() -> None:
    done = run("--print", str(CODEX / "resumed-thread.jsonl"))
    lines = done.stdout.decode().splitlines()
    assert [line for line in lines if line.startswith("== ")] == [
        "== session 019a851a-0ee8-7920-829f-2a4c6e1d9b03 · Codex",
        "== success · 9,120 in · 240 out · 3,072 cache read · 1 turn",
        "== success · 19,874 in · 431 out · 12,160 cache read · 2 turns",
    ]
    assert "✓ edit /work/app/NOTES.md · succeeded · deleted" in lines


def test_agent_codex_forces_the_dialect() -> None:
    path = CODEX / "every-kind.jsonl"
    as_cursor = orjson.loads(run("--json", "--agent", "cursor", str(path)).stdout)
    # Cursor knows none of these records: every line is kept as an unknown record. The
    # agent is the one forced (issue 22.3: named whenever the dialect is known).
    assert as_cursor["sessions"][0]["agent"] == "cursor"
    assert as_cursor["sessions"][0]["tool_calls"] == []
    assert as_cursor["lines"]["unknown"] == 18
    as_codex = orjson.loads(run("--json", "--agent", "codex", str(path)).stdout)
    assert len(as_codex["sessions"][0]["tool_calls"]) == 6


def test_a_recorded_codex_run_replays_the_same(tmp_path: Path) -> None:
    """``streamview run`` on a fake agent printing Codex's stream records it; the
    recording (each line stamped with its arrival) reads back as the same run."""
    recording = tmp_path / "run.ndjson"
    fixture = CODEX / "resumed-thread.jsonl"
    agent = tmp_path / "fake_codex.py"
    agent.write_text(
        "import sys, time\n"
        f"for line in open({str(fixture)!r}, 'rb'):\n"
        "    sys.stdout.buffer.write(line)\n"
        "    sys.stdout.flush()\n"
        "    time.sleep(0.01)\n"
    )
    done = run("run", "--json", "--record", str(recording), "--", sys.executable, str(agent))
    assert done.returncode == 0, done.stderr
    live = orjson.loads(done.stdout)
    lines = recording.read_bytes().splitlines()
    assert len(lines) == 13 and all(b'"streamview_recv_ms":' in line for line in lines)
    replayed = orjson.loads(run("--json", str(recording)).stdout)

    def without_times(document: dict[str, object]) -> object:
        sessions = orjson.loads(orjson.dumps(document["sessions"]))
        for session in sessions:
            for call in session["tool_calls"]:
                call.pop("duration_ms")
        return sessions

    assert without_times(replayed) == without_times(live)
    (session,) = replayed["sessions"]
    assert session["agent"] == "codex"
    assert session["outcome"]["num_turns"] == 2
    # Arrival stamps give the shell call (started, then completed) a duration.
    shell = next(call for call in session["tool_calls"] if call["kind"] == "shell")
    assert shell["duration_ms"] is not None and shell["duration_ms"] >= 0
    assert replayed["lines"] == {"total": 13, "events": 13, "malformed": 0, "unknown": 0}
