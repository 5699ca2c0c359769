"""``--print``, ``--json`` and ``--events`` give the same account of every stream: the
same tool calls with the same statuses, summaries and durations, the same outcomes."""

from __future__ import annotations

import io
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.cli.fronts import run_json, run_print
from streamview.core.formatting import STATUS_MARK
from streamview.fronts.events_api import read_events
from streamview.sources.base import FileSource, Source
from streamview.sources.session_files import session_source_for

from .streams import every_stream, name

STREAMS = every_stream()
_MARKS = "".join(re.escape(mark) for mark in STATUS_MARK.values())
_CALL_END = re.compile(rf"^\s*[{_MARKS}] .*? · ([a-z]+)(?: · |$)")
_OUTCOME = re.compile(r"^(?:== (success|error)(?: · |$)|!! (incomplete):)")


def source_of(path: Path) -> Source:
    """The file as the command reads it (a session with its subagents' files...)."""
    return session_source_for(path) or FileSource(path)


def as_json(path: Path) -> dict[str, Any]:
    out = io.StringIO()
    run_json(source_of(path), out)
    summary: dict[str, Any] = orjson.loads(out.getvalue())
    return summary


def as_print(path: Path) -> list[str]:
    out = io.StringIO()
    run_print(source_of(path), out)
    return out.getvalue().splitlines()


def as_events(path: Path) -> list[dict[str, Any]]:
    import msgspec

    return [msgspec.to_builtins(event) for event in read_events(path)]


@pytest.mark.parametrize("path", STREAMS, ids=[name(p) for p in STREAMS])
def test_events_tell_the_tool_calls_and_outcomes_of_json(path: Path) -> None:
    summary = as_json(path)
    events = as_events(path)
    ends: dict[int, list[dict[str, Any]]] = defaultdict(list)
    outcomes: dict[int, str] = {}
    facts: dict[int, dict[str, Any]] = {}
    started: set[tuple[int, int]] = set()
    for event in events:
        kind = event["type"]
        if kind == "tool.start":
            key = (event["session"], event["call"])
            assert key not in started, "a call starts once"
            started.add(key)
        elif kind == "tool.end":
            assert (event["session"], event["call"]) in started, "a call starts before it ends"
            ends[event["session"]].append(event)
        elif kind == "outcome":
            outcomes[event["session"]] = event["status"]
        elif kind in ("session.start", "session.update"):
            facts[event["session"]] = event
    assert len(facts) == len(summary["sessions"])
    for index, session in enumerate(summary["sessions"]):
        # A call ends once, but where a later record of the agent's replaces a call's
        # result (Gemini CLI's, Copilot's completion told again) another tool.end says
        # the new account: a call's last is what --json keeps (README, the events).
        last: dict[int, dict[str, Any]] = {}
        lines: dict[int, list[int | None]] = defaultdict(list)
        for end in ends[index]:
            last[end["call"]] = end
            lines[end["call"]].append(end["line"])
        for call_lines in lines.values():
            assert len(call_lines) == len(set(call_lines)), "one end a record"
        told = [last[call] for call in sorted(last)]
        assert sorted(last) == list(range(len(session["tool_calls"]))), "every call ends"
        for call, end in zip(session["tool_calls"], told, strict=True):
            assert end["call_id"] == call["call_id"]
            assert end["name"] == call["name"]
            assert end["kind"] == call["kind"]  # the shared kind, in both
            assert end["target"] == call["target"]
            assert end["status"] == call["status"]
            assert end["summary"] == call["summary"]
            assert end["duration_ms"] == call["duration_ms"]
        assert outcomes[index] == session["outcome"]["status"]
        assert facts[index]["model"] == session["model"]
        assert facts[index]["session_id"] == session["session_id"]
        if session["agent"] is not None:
            assert facts[index]["agent"] == session["agent"]
    assert events[-1]["lines"] == {**summary["lines"], "blank": events[-1]["lines"]["blank"]}


@pytest.mark.parametrize("path", STREAMS, ids=[name(p) for p in STREAMS])
def test_events_tell_the_calls_and_outcomes_print_shows(path: Path) -> None:
    printed = as_print(path)
    events = as_events(path)
    printed_ends = Counter(m.group(1) for line in printed if (m := _CALL_END.match(line)))
    told_ends = Counter(e["status"] for e in events if e["type"] == "tool.end")
    assert printed_ends == told_ends
    printed_outcomes = [m.group(1) or m.group(2) for line in printed if (m := _OUTCOME.match(line))]
    told_outcomes = [e["status"] for e in events if e["type"] == "outcome"]
    assert Counter(printed_outcomes) == Counter(told_outcomes)


@pytest.mark.parametrize("path", STREAMS, ids=[name(p) for p in STREAMS])
def test_the_text_told_is_the_answer_json_gives(path: Path) -> None:
    """Each finished text block is in the session's answer, in order; deltas add up to
    the block unless the agent corrected them."""
    summary = as_json(path)
    events = as_events(path)
    pieces: dict[tuple[int, int], list[str]] = defaultdict(list)
    for event in events:
        if event["type"] == "text.delta":
            pieces[(event["session"], event["block"])].append(event["text"])
        elif event["type"] == "text.done":
            key = (event["session"], event["block"])
            if not event["corrected"]:
                assert "".join(pieces[key]) == event["text"]
            answer = summary["sessions"][event["session"]]["text"]
            assert event["text"] in answer
