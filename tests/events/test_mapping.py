"""What each happening of a stream is told as: small streams written here, each
checked against what the format guide says the records mean."""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

from streamview.core.normalized import shared_kind
from streamview.fronts.events_api import read_events, to_json_lines
from tests.cli.helpers import (
    SID,
    assistant_record,
    init_record,
    ndjson,
    result_record,
    tool_record,
    user_record,
)

from .streams import DIALECT_FIXTURES


def told(data: bytes, agent: str | None = None) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(event) for event in read_events(data, agent=agent)]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def delta(text: str, ms: int) -> dict[str, Any]:
    """A Cursor token delta: ``timestamp_ms`` and no ``model_call_id``."""
    return assistant_record(text, timestamp_ms=ms)


def test_deltas_are_told_as_they_come_then_the_whole_block() -> None:
    events = told(
        ndjson(
            init_record(),
            user_record("hi"),
            delta("Hel", 1),
            delta("lo ", 2),
            delta("world", 3),
            result_record("Hello world"),
        )
    )
    kinds = [e["type"] for e in events]
    assert kinds == [
        "stream.start",
        "session.start",
        "prompt",
        "text.delta",
        "text.delta",
        "text.delta",
        "text.done",
        "outcome",
        "stream.end",
    ]
    assert [e["text"] for e in of_type(events, "text.delta")] == ["Hel", "lo ", "world"]
    assert [e["line"] for e in of_type(events, "text.delta")] == [3, 4, 5]
    (done,) = of_type(events, "text.done")
    assert done["text"] == "Hello world" and done["corrected"] is False
    assert of_type(events, "prompt")[0]["text"] == "hi"


def test_a_recap_that_differs_from_the_deltas_is_told_as_corrected() -> None:
    events = told(
        ndjson(
            init_record(),
            delta("Helo", 1),
            assistant_record("Hello.", model_call_id="m1"),  # the recap replaces the deltas
            result_record(),
        )
    )
    (done,) = of_type(events, "text.done")
    assert done["text"] == "Hello." and done["corrected"] is True
    assert "".join(e["text"] for e in of_type(events, "text.delta")) == "Helo"


def test_a_tool_call_is_started_and_finished_with_its_shared_kind() -> None:
    events = told(
        ndjson(
            init_record(),
            delta("Let me look.", 1),
            tool_record("started", "c1", "ls", {"path": "/w/src"}),
            tool_record("completed", "c1", "ls", {"path": "/w/src"}, {"success": {}}),
            tool_record("started", "c2", "shell", {"command": "false"}),
            tool_record(
                "completed", "c2", "shell", {"command": "false"}, {"success": {"exitCode": 1}}
            ),
            result_record(),
        )
    )
    kinds = [e["type"] for e in events]
    # The text block closes when the first call starts: it is told done before it.
    assert kinds.index("text.done") < kinds.index("tool.start")
    first, second = of_type(events, "tool.start")
    assert (first["kind"], first["name"], first["target"]) == ("list", "ls", "/w/src")
    assert (second["kind"], second["target"]) == ("shell", "false")
    ends = of_type(events, "tool.end")
    assert [(e["call_id"], e["status"]) for e in ends] == [("c1", "succeeded"), ("c2", "failed")]


def test_a_completion_without_a_start_is_told_as_both() -> None:
    events = told(
        ndjson(
            init_record(),
            tool_record("completed", "c9", "read", {"path": "a.py"}, {"success": {}}),
            result_record(),
        )
    )
    assert [e["type"] for e in events if e["type"].startswith("tool.")] == [
        "tool.start",
        "tool.end",
    ]


def test_calls_still_open_at_the_end_are_interrupted_and_the_session_incomplete() -> None:
    events = told(
        ndjson(init_record(), tool_record("started", "c1", "shell", {"command": "sleep 9"}))
    )
    (end,) = of_type(events, "tool.end")
    assert end["status"] == "interrupted" and end["line"] is None
    (outcome,) = of_type(events, "outcome")
    assert outcome["status"] == "incomplete"
    assert events[-1]["exit_code"] == 1


def test_a_new_session_first_ends_the_one_before() -> None:
    other = "0ther000-0000-4000-8000-000000000000"
    events = told(
        ndjson(
            init_record(),
            tool_record("started", "c1", "shell", {"command": "make"}),
            init_record(session_id=other),
            assistant_record("second", session_id=other),
            result_record(session_id=other),
        )
    )
    kinds = [(e["type"], e.get("session")) for e in events]
    assert kinds.index(("tool.end", 0)) < kinds.index(("session.start", 1))
    assert kinds.index(("outcome", 0)) < kinds.index(("session.start", 1))
    starts = of_type(events, "session.start")
    assert [s["session_id"] for s in starts] == [SID, other]
    assert [o["status"] for o in of_type(events, "outcome")] == ["incomplete", "success"]


def test_what_cannot_be_read_is_told_with_its_line() -> None:
    events = told(
        ndjson(init_record())
        + b"{not json\n"
        + ndjson({"type": "mystery", "subtype": "x", "session_id": SID}, result_record())
    )
    (bad,) = of_type(events, "malformed")
    assert bad["line"] == 2 and bad["raw"] == "{not json" and bad["raw_size"] == 9
    (unknown,) = of_type(events, "unknown")
    assert (unknown["line"], unknown["record_type"], unknown["subtype"]) == (3, "mystery", "x")
    assert events[-1]["lines"]["malformed"] == 1 and events[-1]["lines"]["unknown"] == 1


def test_usage_is_told_in_one_vocabulary_whatever_the_agent_calls_it() -> None:
    cursor = told(
        ndjson(
            init_record(),
            result_record(usage={"inputTokens": 7, "outputTokens": 3, "cacheReadTokens": 2}),
        )
    )
    claude_path = DIALECT_FIXTURES / "claude" / "success-tools.jsonl"
    raw = [orjson.loads(line) for line in claude_path.read_bytes().splitlines() if line.strip()]
    claude_usage = next(r["usage"] for r in raw if r.get("type") == "result")
    claude = told(claude_path.read_bytes())
    (first,) = of_type(cursor, "usage")
    assert (first["input_tokens"], first["output_tokens"], first["cache_read_tokens"]) == (7, 3, 2)
    (second,) = of_type(claude, "usage")
    assert second["raw"] == claude_usage
    assert second["input_tokens"] == claude_usage["input_tokens"]
    assert second["cache_read_tokens"] == claude_usage["cache_read_input_tokens"]
    assert second["cache_write_tokens"] == claude_usage["cache_creation_input_tokens"]


def test_every_kind_streamview_maps_has_a_shared_word() -> None:
    assert [shared_kind(k) for k in ("ls", "webFetch", "webSearch", "task", "updateTodos")] == [
        "list",
        "web-fetch",
        "web-search",
        "subagent",
        "todo",
    ]
    assert shared_kind("ExitPlanMode") == "other"


def test_a_forced_agent_is_named_from_the_first_line() -> None:
    events = told(ndjson(result_record()), agent="claude")
    assert events[0] == {
        "type": "stream.start",
        "v": 1,
        "line": None,
        "time_ms": None,
        "agent": "claude",
    }
    assert of_type(events, "session.start")[0]["agent"] == "claude"


def test_control_characters_of_the_stream_are_escaped_in_the_json() -> None:
    hostile = "red \x1b[31m C1 \u009b bidi \u202e end"
    events = list(read_events(ndjson(init_record(), assistant_record(hostile), result_record())))
    data = to_json_lines(events)
    for raw in (b"\x1b", "\u009b".encode(), "\u202e".encode()):
        assert raw not in data
    decoded = [orjson.loads(line) for line in data.splitlines()]
    assert hostile in [e.get("text") for e in decoded]


def test_sources_of_every_shape_give_the_same_events(tmp_path: Any) -> None:
    data = ndjson(init_record(), delta("a", 1), delta("b", 2), result_record())
    path = tmp_path / "run.ndjson"
    path.write_bytes(data)
    expected = told(data)
    assert told(data[:7]) != expected  # a cut stream is another stream
    with path.open("rb") as handle:
        from_file = [msgspec.to_builtins(e) for e in read_events(handle)]
    one_byte_chunks = (data[i : i + 1] for i in range(len(data)))
    assert [msgspec.to_builtins(e) for e in read_events(path)] == expected
    assert [msgspec.to_builtins(e) for e in read_events(str(path))] == expected
    assert from_file == expected
    assert [msgspec.to_builtins(e) for e in read_events(one_byte_chunks)] == expected
