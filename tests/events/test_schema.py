"""Every event of every stream streamview has validates against the shipped JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import orjson
import pytest

from streamview.core.normalized import SCHEMA_PATH, VERSION, events_schema
from streamview.fronts.events_api import read_events, to_json_lines

from .streams import dialect_fixtures, every_stream, name

STREAMS = every_stream()
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_shipped_schema_is_the_one_the_structs_give() -> None:
    """Regenerate with: python -c "import json; from streamview.core.normalized import *;
    SCHEMA_PATH.write_text(json.dumps(events_schema(), indent=2) + '\\n')"."""
    assert events_schema() == SCHEMA


def test_every_agent_has_fixtures_here() -> None:
    folders = {path.parent.name for path in dialect_fixtures()}
    assert {"claude", "codex", "cursor", "gemini"} <= folders


@pytest.mark.parametrize("path", STREAMS, ids=[name(p) for p in STREAMS])
def test_every_event_of_the_stream_is_valid(path: Path) -> None:
    lines = to_json_lines(list(read_events(path))).splitlines()
    events = [orjson.loads(line) for line in lines]
    for event in events:
        errors = sorted(VALIDATOR.iter_errors(event), key=str)
        assert not errors, f"{event}\n{errors[0]}"
        assert event["v"] == VERSION
    assert events[0]["type"] == "stream.start"
    assert events[-1]["type"] == "stream.end"
    assert [e["type"] for e in events].count("stream.end") == 1


def test_the_schema_refuses_what_is_not_an_event() -> None:
    """The validation above can fail: a wrong status, a missing field, an unknown type."""
    good = {
        "type": "tool.end",
        "v": 1,
        "line": 3,
        "time_ms": None,
        "session": 0,
        "call": 0,
        "call_id": "c",
        "kind": "shell",
        "name": "shell",
        "target": "ls",
        "parent_call_id": None,
        "status": "succeeded",
        "summary": None,
        "duration_ms": 5,
    }
    assert VALIDATOR.is_valid(good)
    assert not VALIDATOR.is_valid({**good, "status": "running"})
    assert not VALIDATOR.is_valid({**good, "kind": "Bash"})
    assert not VALIDATOR.is_valid({key: v for key, v in good.items() if key != "target"})
    assert not VALIDATOR.is_valid({**good, "type": "tool.finished"})
    assert not VALIDATOR.is_valid({**good, "v": 2})
