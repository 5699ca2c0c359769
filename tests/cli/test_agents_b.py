"""Qwen Code, Amp, Droid, Kimi CLI and pi through the real command: ``--print`` and
``--json`` give the same account, ``--agent`` forces a dialect, ``streamview run``
records a fake agent printing each dialect and the recording replays the same.

Fixtures: tests/fixtures/dialects/<agent> (see each SOURCES.md).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from .helpers import REPO_ROOT, run

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "dialects"
FAKE_AGENT = REPO_ROOT / "tests" / "run" / "agents" / "dialect_fixture.py"

SHOWCASE = {
    "qwen": ("success-tools.jsonl", "Qwen Code"),
    "amp": ("success-tools.jsonl", "Amp"),
    "droid": ("success-tools.jsonl", "Droid"),
    "kimi": ("success-tools.jsonl", "Kimi CLI"),
    "pi": ("success-tools.jsonl", "pi"),
}
CALL_LINE = re.compile(r"^ *(?P<mark>[✓✗!⊘⚠]) (?P<kind>\S+)(?: (?P<rest>.*?))? · (?P<status>\w+)")


def printed_calls(text: str) -> list[tuple[str, str]]:
    """``(kind, status)`` of every finished call ``--print`` wrote."""
    found = []
    for line in text.splitlines():
        match = CALL_LINE.match(line)
        if match:
            found.append((match["kind"], match["status"]))
    return found


def json_of(*args: str) -> dict[str, Any]:
    done = run("--json", *args)
    document: dict[str, Any] = orjson.loads(done.stdout)
    return document


@pytest.mark.parametrize("agent", list(SHOWCASE))
def test_print_and_json_give_the_same_account(agent: str) -> None:
    name, label = SHOWCASE[agent]
    path = str(FIXTURES / agent / name)
    document = json_of(path)
    (session,) = document["sessions"]
    assert session["agent"] == agent
    printed = run("--print", path).stdout.decode()
    header = [line for line in printed.splitlines() if line.startswith("== session")][-1]
    assert f" · {label}" in header
    if session["model"] is not None:
        assert session["model"] in header
    calls = [(c["name"], c["status"]) for c in session["tool_calls"]]
    # --json lists calls as they started, --print as they ended (a subagent's inside).
    assert sorted(printed_calls(printed)) == sorted(calls) and len(calls) >= 8
    for kind in ("shell", "read", "edit", "write", "grep", "glob"):
        assert kind in {k for k, _ in calls}, kind
    assert session["text"].splitlines()[-1] in printed
    status = session["outcome"]["status"]
    last = printed.splitlines()[-1]
    assert last.startswith(f"== {status}") or (status == "incomplete" and "incomplete" in last)


def test_agent_forces_a_dialect_and_auto_recognises_it() -> None:
    path = str(FIXTURES / "qwen" / "real-smoke-reply.jsonl")
    forced = json_of("--agent", "claude", path)
    assert [s["agent"] for s in forced["sessions"]] == ["claude"]  # read as Claude Code's
    assert [s["agent"] for s in json_of("--agent", "qwen", path)["sessions"]] == ["qwen"]
    assert [s["agent"] for s in json_of(path)["sessions"]] == ["qwen"]
    kimi = str(FIXTURES / "kimi" / "real-shell-probe.jsonl")
    as_pi = json_of("--agent", "pi", kimi)
    assert as_pi["lines"]["events"] == 0  # no record of Kimi's is pi's


@pytest.mark.parametrize(
    ("agent", "name", "status", "expected"),
    [
        ("qwen", "denial-fallback-error.jsonl", 1, 1),
        ("amp", "error-result.jsonl", 1, 1),
        ("droid", "errors-and-fifo-result.jsonl", 0, 0),
        # Kimi's stream has no final record: its whole last turn is a clean end.
        ("kimi", "success-tools.jsonl", 0, 0),
        ("pi", "success-tools.jsonl", 0, 0),
    ],
)
def test_a_recorded_run_replays_the_same(
    tmp_path: Path, agent: str, name: str, status: int, expected: int
) -> None:
    """``streamview run -- <fake agent>`` records the stream (each line stamped with its
    arrival); the recording reads back as the same run, in the same dialect."""
    recording = tmp_path / "run.ndjson"
    fixture = FIXTURES / agent / name
    done = run(
        "run", "--json", "--record", str(recording), "--",
        sys.executable, str(FAKE_AGENT), str(fixture), "0.005", str(status),
    )  # fmt: skip
    assert done.returncode == expected, done.stderr
    live = orjson.loads(done.stdout)
    lines = recording.read_bytes().splitlines()
    assert len(lines) == len(fixture.read_bytes().splitlines())
    assert all(b'"streamview_recv_ms":' in line for line in lines if line.startswith(b"{"))
    replayed = json_of(str(recording))

    def without_times(document: dict[str, Any]) -> list[Any]:
        # Live and replayed durations are arrival times seen twice: a ms apart at most.
        sessions: list[Any] = orjson.loads(orjson.dumps(document["sessions"]))
        for session in sessions:
            for call in session["tool_calls"]:
                call.pop("duration_ms")
        return sessions

    assert without_times(replayed) == without_times(live)
    ended = [c for s in replayed["sessions"] for c in s["tool_calls"] if c["status"] != "running"]
    assert ended and all(c["duration_ms"] is not None for c in ended)
    assert [s["agent"] for s in replayed["sessions"]] == [agent]
    assert replayed["lines"] == json_of(str(fixture))["lines"]
