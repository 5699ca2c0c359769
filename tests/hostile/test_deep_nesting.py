"""Records nested 900 deep (valid JSON the parser takes) and over its limit (issue 26.4).

Every view of a parsed record works at any depth orjson accepts: the detail screen's
views and raw JSON, the event log's entry, the pager's text, the Markdown export,
``--print``, ``--json`` and ``--events``; a line nested deeper than the parser goes
says "nested too deep", not "not JSON". A view cuts what it cannot walk as
``… nested N deep``. The Pilot test of the issue's case (``r``, then Escape and ``q``) is
``tests/ui/details/test_deep_nesting_keys.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style

from streamview.core.call_records import load_records
from streamview.core.decoding import TOO_DEEP
from streamview.core.events import UnknownRecord
from streamview.core.linestore import LineStore
from streamview.core.markdown_export import to_markdown
from streamview.core.nesting import PARSER_DEPTH, SHOWN_DEPTH, cut_deep, depth_of
from streamview.core.reader import EventReader
from streamview.core.sanitize import dumps_for_terminal
from streamview.core.state import StreamState
from streamview.ui.calls.search import ARGUMENTS, find_in_calls
from streamview.ui.details.handoff import result_text
from streamview.ui.details.section_view import render_sections
from streamview.ui.details.sections import raw_json, sanitize_json
from streamview.ui.details.views import VIEWS, args_section, result_sections
from streamview.ui.log.event_log import entry_for, entry_sections

REPO = Path(__file__).resolve().parents[2]
DEEP = 900
"""Deep, and well under orjson's limit of 1,024 levels."""


def nest(depth: int, kind: str = "list") -> Any:
    """A value ``depth`` levels deep (built without recursion)."""
    value: Any = "bottom"
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


def deep_run(path: Path, depth: int = DEEP, kind: str = "shell") -> Path:
    """A Cursor run with one call of ``kind`` whose arguments and result nest ``depth``
    deep (the arguments' JSON is written by hand: Python's encoder stops near 1,000)."""
    deep = "[" * depth + '"bottom"' + "]" * depth
    key = f"{kind}ToolCall"
    args = '{"command":"echo hi","path":"/w/x.txt","deep":' + deep + "}"
    result = '{"success":{"stdout":"hi","exitCode":0,"deep":' + deep + "}}"
    call = '"tool_call":{"' + key + '":{"args":' + args
    lines = [
        json.dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "m"}),
        '{"type":"tool_call","subtype":"started","call_id":"c",' + call + "}}}",
        '{"type":"tool_call","subtype":"completed","call_id":"c",'
        + call
        + ',"result":'
        + result
        + "}}}",
        json.dumps({"type": "result", "subtype": "success", "is_error": False}),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def fold(path: Path) -> tuple[StreamState, LineStore]:
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in [*reader.feed(path.read_bytes()), *reader.finish()]:
        state.apply(event)
    state.finish()
    return state, store


def painted(sections: list[Any]) -> str:
    strips, _ = render_sections(sections, 100, Style())
    return "\n".join(strips[index].text for index in range(len(strips)))


def test_cut_deep_walks_any_depth_without_recursion() -> None:
    value = nest(PARSER_DEPTH, "dict")
    assert depth_of(value) == PARSER_DEPTH
    cut = cut_deep(value)
    assert depth_of(cut) == SHOWN_DEPTH
    inner = cut
    for _ in range(SHOWN_DEPTH - 1):
        inner = inner["a"]
    assert inner == {"a": f"… nested {PARSER_DEPTH - SHOWN_DEPTH:,} deep"}
    shallow = {"a": [1, {"b": "c"}]}
    assert cut_deep(shallow) is shallow  # nothing to cut: no copy


def test_sanitize_json_and_the_raw_view_at_900_deep() -> None:
    """The walk that recursed two frames a level (the RecursionError of the issue)."""
    value = {"deep": nest(DEEP)}
    assert depth_of(sanitize_json(value)) == SHOWN_DEPTH
    text = painted([raw_json(value)]) + painted([raw_json(value, full=True)])
    assert f"… nested {DEEP + 1 - SHOWN_DEPTH:,} deep" in text


@pytest.mark.parametrize("kind", [*sorted(VIEWS), "other"])
def test_every_detail_view_of_a_call_at_900_deep(tmp_path: Path, kind: str) -> None:
    """Laid out, raw and in full, as the detail screen builds them; and the pager."""
    state, store = fold(deep_run(tmp_path / "run.ndjson", kind=kind))
    call = state.sessions[0].tool_calls[0]
    records = load_records(call, store)
    assert records.raw and records.args is not None
    for full in (False, True):
        sections = [args_section(call.kind, records.args, records.description)]
        sections += result_sections(call.kind, records.args, "success", records.payload, full=full)
        sections.append(raw_json(records.raw, full))
        text = painted(sections)
        assert "could not lay this result out" not in text
        assert "… nested" in text
    assert result_text(call, store)  # the pager's text (orjson writes 254 levels at most)


def test_the_event_logs_entry_of_a_900_deep_record() -> None:
    record = {"type": "mystery", "deep": nest(DEEP)}
    event = UnknownRecord(4, None, None, None, record=record)
    text = painted(entry_sections(entry_for(event), None))
    assert "… nested" in text and "mystery" in text


def test_a_line_over_the_parsers_limit_is_nested_too_deep_in_the_event_log(
    tmp_path: Path,
) -> None:
    state, store = fold(deep_run(tmp_path / "over.ndjson", PARSER_DEPTH + 1))
    assert [line.reason for line in state.malformed] == [TOO_DEEP] * 2
    entry = entry_for(state.malformed[0])
    assert entry.label == "nested too deep (over 1,024 levels)"
    text = painted(entry_sections(entry, store))
    assert '"tool_call":{"shellToolCall"' in text  # the line itself, as text


def test_search_looks_through_a_call_900_deep(tmp_path: Path) -> None:
    state, store = fold(deep_run(tmp_path / "run.ndjson"))
    session = state.sessions[0]
    assert [hit.where for hit in find_in_calls(session, store, "bottom")] == [ARGUMENTS]


def test_dumps_for_terminal_far_down_a_call_stack() -> None:
    """orjson writes 254 levels; Python's encoder fails when the stack is already deep."""

    def down(levels: int) -> str:
        return (
            dumps_for_terminal({"deep": nest(DEEP)}, indent=True)
            if not levels
            else down(levels - 1)
        )

    text = down(400)
    assert depth_of(json.loads(text)) == SHOWN_DEPTH
    assert f"\\u2026 nested {DEEP + 1 - SHOWN_DEPTH:,} deep" in text  # ASCII: a script's


def test_markdown_export_at_900_deep_and_over_the_limit(tmp_path: Path) -> None:
    state, store = fold(deep_run(tmp_path / "run.ndjson"))
    document = to_markdown(state, store=store)
    assert "**✓ shell** `echo hi`" in document and "```json" in document
    over = deep_run(tmp_path / "over.ndjson", PARSER_DEPTH + 1)
    state, store = fold(over)
    document = to_markdown(state, store=store)
    assert "line 2: nested too deep (over 1,024 levels)" in document
    assert "not JSON" not in document


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "streamview", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)


def test_print_json_and_events_at_900_deep_and_over_the_limit(tmp_path: Path) -> None:
    deep = deep_run(tmp_path / "deep.ndjson")
    over = deep_run(tmp_path / "over.ndjson", PARSER_DEPTH + 1)
    printed = run_cli("--print", deep)
    assert printed.returncode == 0 and "✓ shell `echo hi`" in printed.stdout
    summary = json.loads(run_cli("--json", deep).stdout)
    assert summary["sessions"][0]["tool_calls"][0]["target"] == "echo hi"
    assert summary["lines"]["malformed"] == 0
    summary = json.loads(run_cli("--json", over).stdout)
    assert summary["lines"]["malformed"] == 2  # the call's two lines, nothing raised
    events = [json.loads(line) for line in run_cli("--events", deep).stdout.splitlines()]
    assert events[-1]["type"] == "stream.end" and events[-1]["lines"]["malformed"] == 0
    printed = run_cli("--print", over)
    assert "line 2: nested too deep (over 1,024 levels)" in printed.stdout
    assert "not JSON" not in printed.stdout
    events = [json.loads(line) for line in run_cli("--events", over).stdout.splitlines()]
    reasons = [e["reason"] for e in events if e["type"] == "malformed"]
    assert reasons == ["nested too deep (over 1,024 levels)"] * 2  # the call's two lines
