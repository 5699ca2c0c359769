"""Cursor agent transcripts fold to what the headless stream of the same turn says,
as far as a transcript records it (issue 27.1): no ids, results or usage."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from streamview.core.dialects import by_name, detect
from streamview.core.reader import fold
from streamview.core.summary import session_summary

CURSOR = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "cursor"
TRANSCRIPT = CURSOR / "0ed36493-01b3-4744-b712-a8eabfff89e1.jsonl"


def test_a_transcript_folds_as_the_headless_stream_of_its_turn() -> None:
    """The headless stream is a real capture of the same turn; the transcript says the
    same prompt, thinking, answer and call targets, and leaves unknown what it cannot."""
    headless = session_summary(
        fold([(CURSOR / "headless-equivalent.ndjson").read_bytes()]).sessions[0]
    )
    state = fold([TRANSCRIPT.read_bytes()])
    (session,) = state.sessions
    said = session_summary(session)
    for key in ("prompt", "text", "thinking"):
        assert said[key] == headless[key], key
    assert [c["target"] for c in said["tool_calls"]] == [
        c["target"] for c in headless["tool_calls"]
    ]
    assert [c["kind"] for c in said["tool_calls"]] == ["read", "write"]
    # No result is recorded: the calls ended (the agent went on), how is not known.
    assert [c["status"] for c in said["tool_calls"]] == ["completed", "completed"]
    assert (
        said["outcome"]["status"] == "success" and said["outcome"]["usage"]["input_tokens"] is None
    )
    assert said["agent"] == "cursor" and said["session_id"] is None
    assert [u.type for u in state.unknown] == ["session_started"]


def test_a_transcript_is_recognised_without_agent_and_a_call_runs_until_the_agent_goes_on() -> None:
    lines = TRANSCRIPT.read_bytes().splitlines()
    assert detect(orjson.loads(line) for line in lines).name == "cursor-transcript"
    state = fold([b"\n".join(lines[:2]) + b"\n"], finish=False)
    (call,) = state.sessions[0].tool_calls
    assert call.status == "running"


ODD = [
    {},
    {"id": "x", "type": "gemini", "content": 5, "toolCalls": "no", "thoughts": [1, None]},
    {"id": "x", "type": "gemini", "tokens": {"input": "a"}, "toolCalls": [{"id": 3}, None]},
    {"id": "y", "type": "gemini", "toolCalls": [{"id": "c", "status": "error", "result": "bad"}]},
    {"$set": None},
    {"$set": {"messages": [None, {"id": 1}]}},
    {"$rewindTo": 5},
    {"sessionId": "s", "projectHash": "p", "messages": "x"},
    {"id": "u", "type": "user", "content": None, "displayContent": [None, {"text": 3}]},
    {"opencode": "part", "data": None},
    {"opencode": "part", "id": "p", "data": {"type": "tool", "state": None}},
    {"opencode": "message", "data": []},
    {"opencode": "session"},
    {"role": "assistant", "message": {"content": [None, {"type": "tool_use", "input": "s"}]}},
    {
        "role": "assistant",
        "message": {"content": [{"type": "tool_use", "name": "CallMcpTool", "input": [1]}]},
    },
    {"role": "user", "message": {"content": 7}},
    {"type": "turn_ended", "status": 5},
]
"""Records of the wrong shapes where each session dialect reads a field."""


@pytest.mark.parametrize("name", ["gemini-session", "opencode-session", "cursor-transcript"])
def test_records_of_odd_shapes_become_events_never_a_crash(name: str) -> None:
    dialect = by_name(name)
    assert dialect is not None
    translator = dialect.translator()
    for line, record in enumerate(ODD * 2, start=1):
        assert translator.translate(record, line, None), record
    state = fold([b"\n".join(orjson.dumps(r) for r in ODD) + b"\n"], agent=name)
    assert state.counts.total == len(ODD)


def test_every_session_format_is_in_the_one_registry() -> None:
    """Every session format is a dialect of :data:`REGISTRY` like the headless streams:
    named as its module names it, taken by ``--agent``, asked by detection; only the
    agents named in ``--help`` leave them out (a session file is no agent of its own)."""
    from streamview.cli.parsers import agents_named
    from streamview.core import dialects

    listed = [name for name, _ in dialects.REGISTRY]
    for name in dialects.SESSION_FILES:
        found = by_name(name)
        assert found is not None and found.name == name
        assert name in listed and name in dialects.names()
    assert {d.name for d in dialects.every_dialect()} >= set(dialects.SESSION_FILES)
    assert "(session)" not in agents_named() and "Kimi CLI" in agents_named()
