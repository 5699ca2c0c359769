"""Codex and Gemini CLI streams through the real command: --json and --print give the
same account, and ``streamview run`` records and replays them.

Fixtures: tests/fixtures/dialects/{codex,gemini} (see each folder's SOURCES.md).
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from .helpers import run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dialects"
CASES = {
    "codex": (FIXTURES / "codex" / "success-tools.jsonl", "Codex", 7),
    "gemini": (FIXTURES / "gemini" / "success-tools.jsonl", "Gemini CLI", 9),
}


@pytest.mark.parametrize("agent", sorted(CASES))
def test_json_and_print_give_the_same_account(agent: str) -> None:
    path, label, calls = CASES[agent]
    summary = orjson.loads(run("--json", str(path)).stdout)
    (session,) = summary["sessions"]
    assert session["agent"] == agent
    assert len(session["tool_calls"]) == calls
    printed = run("--print", str(path)).stdout.decode().splitlines()
    assert printed[0].startswith("== session ") and f"· {label}" in printed[0]
    finished = [line for line in printed if line.startswith(("✓ ", "✗ ", "⊘ ", "! "))]
    assert len(finished) == len(session["tool_calls"])
    # --print says each call as it finishes; --json lists them as they started.
    said = sorted(line.split(" · ")[:2][1] + " " + line.split()[1] for line in finished)
    listed = sorted(f"{call['status']} {call['name']}" for call in session["tool_calls"])
    assert said == listed
    assert printed[-1].startswith("== success")


@pytest.mark.parametrize("agent", sorted(CASES))
def test_a_recorded_run_replays_the_same(agent: str, tmp_path: Path) -> None:
    path = CASES[agent][0]
    recording = tmp_path / "run.ndjson"
    done = run("run", "--json", "--record", str(recording), "--", "cat", str(path))
    assert done.returncode == 0, done.stderr
    live = orjson.loads(done.stdout)
    replayed = orjson.loads(run("--json", str(recording)).stdout)
    assert replayed["sessions"][0]["agent"] == agent

    def calls(document: dict[str, object]) -> object:
        sessions = orjson.loads(orjson.dumps(document["sessions"]))
        return [
            [(c["kind"], c["target"], c["status"], c["summary"]) for c in s["tool_calls"]]
            for s in sessions
        ]

    assert calls(replayed) == calls(live)
    assert replayed["lines"] == live["lines"]


def test_forcing_the_wrong_agent_shows_every_line_as_unknown() -> None:
    """A Gemini stream read as Codex's is not understood, but no line is lost."""
    path = CASES["gemini"][0]
    forced = orjson.loads(run("--json", "--agent", "codex", str(path)).stdout)
    lines = path.read_bytes().count(b"\n")
    assert forced["lines"]["unknown"] == lines
