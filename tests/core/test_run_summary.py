"""The run's summary (``core/run_summary.py``) of the bundled recordings and of a failing
run, checked against facts read from the recordings' own JSON, not from the fold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tests.core.helpers as h
from streamview.core.reader import fold
from streamview.core.run_summary import run_summary

RECORDINGS = Path(__file__).resolve().parents[2] / "recordings"
_RESULT_KEYS = ("success", "failure", "rejected", "error")


def _facts(path: Path) -> dict[str, Any]:
    """What the recording says, read line by line with ``json``: each call's kind and
    result, the ``result`` record's duration and usage."""
    calls: dict[str, dict[str, Any]] = {}
    result: dict[str, Any] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("type") == "result":
            result = record
        if record.get("type") != "tool_call":
            continue
        key = next(k for k in record["tool_call"] if k.endswith("ToolCall"))
        body = record["tool_call"][key]
        call = calls.setdefault(record["call_id"], {"kind": key[: -len("ToolCall")]})
        call["args"] = body.get("args") or call.get("args") or {}
        found = body.get("result") or {}
        for name in _RESULT_KEYS:
            if name in found:
                call["outcome"], call["payload"] = name, found[name]
    return {"calls": list(calls.values()), "result": result}


def _failed(call: dict[str, Any]) -> bool:
    outcome = call.get("outcome")
    if outcome is None:
        return True  # never completed: interrupted at the stream's end
    if outcome == "success":
        return call["payload"].get("exitCode") not in (None, 0)
    return True


@pytest.mark.parametrize("path", sorted(RECORDINGS.glob("*.ndjson")), ids=lambda p: p.stem)
def test_summary_of_each_recording_matches_its_records(path: Path) -> None:
    """Outcome, duration, files' +/- lines, commands' exit codes, failures and tokens of
    each bundled recording add up to what its records say."""
    facts = _facts(path)
    summary = run_summary(fold([path.read_bytes()]))
    calls = facts["calls"]
    assert summary.calls == len(calls)
    edits = [c for c in calls if c["kind"] == "edit" and c.get("outcome") == "success"]
    writes = [c for c in calls if c["kind"] == "write" and c.get("outcome") == "success"]
    assert summary.added == sum(c["payload"].get("linesAdded", 0) for c in edits) + sum(
        c["payload"].get("linesCreated", 0) for c in writes
    )
    assert summary.removed == sum(c["payload"].get("linesRemoved", 0) for c in edits)
    changed = {c["args"]["path"] for c in calls if c["kind"] in ("edit", "write", "delete")}
    assert len(summary.files) == len(changed)
    shells = [c for c in calls if c["kind"] == "shell"]
    assert [c.target for c in summary.commands] == [c["args"].get("command") for c in shells]
    assert [c.exit_code for c in summary.commands] == [
        (c.get("payload") or {}).get("exitCode")
        if c.get("outcome") in ("success", "failure")
        else None
        for c in shells
    ]
    assert [c.kind for c in summary.failed] == [c["kind"] for c in calls if _failed(c)]
    result = facts["result"]
    if result is None:
        assert summary.outcome == "incomplete"
        assert summary.message
        assert summary.cost_usd is None
    else:
        assert summary.outcome == ("success" if result["subtype"] == "success" else "error")
        assert summary.duration_ms == result["duration_ms"]
        assert summary.tokens["input_tokens"] == result["usage"]["inputTokens"]
        assert summary.tokens["output_tokens"] == result["usage"]["outputTokens"]
    assert summary.headline().startswith(summary.outcome)


def failing_run() -> tuple[bytes, dict[str, Any]]:
    """A run that ends in an error, built here, and the facts it was built from."""
    facts: dict[str, Any] = {
        "edits": [("src/a.py", 3, 1), ("src/a.py", 2, 0), ("src/b.py", 0, 4)],
        "created": ("docs/new.md", 9),
        "commands": [("make test", 2), ("make lint", 0)],
        "usage": {"inputTokens": 4_321, "outputTokens": 765},
        "cost": 0.125,
        "duration_ms": 98_765,
    }
    lines = [h.init(), h.user("fix it")]
    for number, (path, added, removed) in enumerate(facts["edits"]):
        args = {"path": f"/work/project/{path}"}
        payload = {"linesAdded": added, "linesRemoved": removed, "diffString": ""}
        lines += [
            h.started(f"e{number}", "edit", args),
            h.completed(f"e{number}", "edit", {"success": payload}, args),
        ]
    path, created = facts["created"]
    args = {"path": f"/work/project/{path}", "fileText": "x"}
    lines += [
        h.started("w", "write", args),
        h.completed("w", "write", {"success": {"linesCreated": created}}, args),
    ]
    for number, (command, code) in enumerate(facts["commands"]):
        args = {"command": command}
        outcome = "success" if code == 0 else "failure"
        payload = {"exitCode": code, "stdout": "out\n", "stderr": ""}
        lines += [
            h.started(f"s{number}", "shell", args),
            h.completed(f"s{number}", "shell", {outcome: payload}, args),
        ]
    args = {"path": "/etc/passwd"}
    lines += [
        h.started("r", "read", args),
        h.completed("r", "read", {"rejected": {"reason": "no"}}, args),
    ]
    lines.append(
        h.result(
            "gave up",
            is_error=True,
            subtype="error_during_execution",
            usage=facts["usage"],
            total_cost_usd=facts["cost"],
            duration_ms=facts["duration_ms"],
        )
    )
    return h.stream(*lines), facts


def test_summary_of_a_failing_run() -> None:
    """A run ending in an error: its files' lines per file, its commands' exit codes,
    its failed and refused calls, its tokens, cost and duration, as it was built."""
    data, facts = failing_run()
    summary = run_summary(fold([data]))
    assert summary.outcome == "error"
    assert summary.duration_ms == facts["duration_ms"]
    assert summary.cost_usd is None  # Cursor's result says no cost (Claude's does)
    assert summary.tokens["input_tokens"] == facts["usage"]["inputTokens"]
    assert summary.tokens["output_tokens"] == facts["usage"]["outputTokens"]
    expected: dict[str, list[int]] = {}
    for path, added, removed in facts["edits"]:
        tally = expected.setdefault(path, [0, 0])
        tally[0] += added
        tally[1] += removed
    for change in summary.files:
        if change.path == facts["created"][0]:
            assert (change.added, change.removed, change.kinds) == (
                facts["created"][1],
                None,
                ("write",),
            )
        else:
            assert [change.added, change.removed] == expected.pop(change.path)
    assert not expected
    assert [(c.target, c.exit_code) for c in summary.commands] == facts["commands"]
    assert [(c.kind, c.status) for c in summary.failed] == [
        ("shell", "failed"),
        ("read", "rejected"),
    ]
    line = summary.headline()
    assert "2 failed or refused" in line and f"+{summary.added}" in line
