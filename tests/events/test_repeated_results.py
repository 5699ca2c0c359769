"""A second result for a call that already ended: each dialect's declared rule
(``REPEATED_RESULT``, :mod:`streamview.core.repeated_results`), and ``--json`` and
``--events`` telling the same account under each of the three."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import msgspec
import orjson

from streamview.cli.fronts import run_json
from streamview.core.repeated_results import IGNORE, NEW_CALL, REPLACE, rule_for
from streamview.fronts.events_api import read_events
from streamview.sources.base import FileSource

from .streams import DIALECT_FIXTURES


def accounts(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``--json``'s calls of the first session, and ``--events``' ``tool.end`` events."""
    out = io.StringIO()
    run_json(FileSource(path), out)
    calls: list[dict[str, Any]] = orjson.loads(out.getvalue())["sessions"][0]["tool_calls"]
    ends = [msgspec.to_builtins(e) for e in read_events(path)]
    return calls, [e for e in ends if e["type"] == "tool.end"]


def told(call: dict[str, Any]) -> tuple[Any, ...]:
    return call["call_id"], call["kind"], call["status"], call["summary"]


def test_each_dialect_declares_its_rule() -> None:
    """Kimi drops a repeat, opencode (and Kilo, built by a function) opens a new call,
    Gemini and an agent that declares nothing take the later result."""
    assert rule_for("kimi") == IGNORE
    assert rule_for("opencode") == NEW_CALL
    assert rule_for("kilo") == NEW_CALL
    assert rule_for("gemini") == REPLACE
    assert rule_for("claude") == REPLACE
    assert rule_for(None) == REPLACE


def test_kimi_keeps_the_first_result_in_both_accounts() -> None:
    """A second tool message for Grep:2 (its tool already forgotten) once made --json's
    summary the unknown tool's, while --events kept the first."""
    calls, ends = accounts(DIALECT_FIXTURES / "kimi" / "repeated-result.jsonl")
    assert [(c["call_id"], c["status"], c["summary"]) for c in calls] == [
        ("Grep:2", "succeeded", "1 match in 1 file"),
        ("ReadFile:3", "succeeded", "4 lines"),
    ]
    assert [(e["call_id"], e["status"], e["summary"]) for e in ends] == [
        (c["call_id"], c["status"], c["summary"]) for c in calls
    ]


def test_opencode_reused_id_is_two_calls_each_with_its_result() -> None:
    """call_0 is a read, then (a provider reusing its ids) a command: two calls."""
    calls, ends = accounts(DIALECT_FIXTURES / "opencode" / "reused-call-id.jsonl")
    assert [(c["call_id"], c["kind"], c["target"]) for c in calls] == [
        ("call_0", "read", "/workspace/src/app.py"),
        ("call_0", "shell", "python src/app.py"),
    ]
    assert calls[1]["summary"] == "exit 0, 1 line"
    assert [e["call"] for e in ends] == [0, 1]
    assert [(e["call_id"], e["name"], e["status"], e["summary"]) for e in ends] == [
        told(c) for c in calls
    ]


def test_gemini_later_result_replaces_and_events_say_it_again(tmp_path: Path) -> None:
    """Under REPLACE the later result is the call's account; --events ends the call a
    second time with it, so a reader taking a call's last tool.end agrees with --json."""
    stamp = "2026-11-20T10:00:0"
    lines = [
        {"type": "init", "timestamp": f"{stamp}0.000Z", "session_id": "s1", "model": "m"},
        {
            "type": "tool_use",
            "timestamp": f"{stamp}1.000Z",
            "tool_name": "run_shell_command",
            "tool_id": "sh-1",
            "parameters": {"command": "make"},
        },
        {
            "type": "tool_result",
            "timestamp": f"{stamp}2.000Z",
            "tool_id": "sh-1",
            "status": "success",
            "output": "ok",
        },
        {
            "type": "tool_result",
            "timestamp": f"{stamp}3.000Z",
            "tool_id": "sh-1",
            "status": "error",
            "error": {"type": "X", "message": "make: *** failed"},
        },
    ]
    path = tmp_path / "gemini.jsonl"
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    calls, ends = accounts(path)
    assert len(calls) == 1 and calls[0]["status"] == "error"
    assert [e["line"] for e in ends] == [3, 4]
    last = ends[-1]
    assert (last["status"], last["summary"]) == (calls[0]["status"], calls[0]["summary"])
