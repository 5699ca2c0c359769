"""The span mapping (streamview/core/otlp_spans.py), read back from the SDK's in-memory
exporter: every bundled recording and a stream of each agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

import streamview.core.tools as tools
from streamview.core.otlp_spans import CONTENT_LIMIT, capped, spans_of
from streamview.core.reader import fold
from streamview.core.state import StreamState
from tests.otlp.helpers import (
    ANCHOR_MS,
    RECORDINGS,
    folded,
    one_per_agent,
    send_in_memory,
    spans_of_file,
)

FAILING = {tools.FAILED, tools.ERROR, tools.REJECTED, tools.INTERRUPTED}
CONTENT_KEYS = {"input.value", "output.value", "streamview.notice.text"}


def _by_trace(spans: list[Any]) -> dict[int, list[Any]]:
    traces: dict[int, list[Any]] = {}
    for span in spans:
        traces.setdefault(span.context.trace_id, []).append(span)
    return traces


@pytest.mark.parametrize(
    "path", RECORDINGS + one_per_agent(), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_each_session_is_one_trace_with_a_span_per_call(path: Path) -> None:
    """One trace per session, its root invoke_agent, an execute_tool child per call (a
    subagent's under its task), statuses as the fold says, children within the root,
    and no content unless asked for."""
    state = folded(path)
    spans = spans_of_file(path)
    traces = _by_trace(spans)
    assert len(traces) == len(state.sessions)
    for session in state.sessions:
        ids = {call.call_id for call in session.tool_calls}
        trace = [s for s in spans if s.attributes.get("gen_ai.tool.call.id") in ids] or [
            s for s in spans if s.parent is None
        ]
        members = traces[trace[0].context.trace_id]
        roots = [s for s in members if s.parent is None]
        assert len(roots) == 1
        root = roots[0]
        assert root.name == f"invoke_agent {session.agent}"
        assert root.attributes["gen_ai.operation.name"] == "invoke_agent"
        assert root.attributes["openinference.span.kind"] == "AGENT"
        assert root.attributes.get("session.id") == session.session_id
        assert len(members) == len(session.tool_calls) + 1
        by_id = {s.context.span_id: s for s in members}
        for call in session.tool_calls:
            (span,) = [
                s for s in members if s.attributes.get("gen_ai.tool.call.id") == call.call_id
            ]
            assert span.name == f"execute_tool {call.kind}"
            assert span.attributes["openinference.span.kind"] == "TOOL"
            assert span.attributes["streamview.tool.status"] == call.status
            expected = "ERROR" if call.status in FAILING else "OK"
            assert span.status.status_code.name == expected
            parent = by_id[span.parent.span_id]
            if call.parent_call_id in session.calls_by_id:
                assert parent.attributes["gen_ai.tool.call.id"] == call.parent_call_id
            else:
                assert parent is root
            assert root.start_time <= span.start_time <= span.end_time <= root.end_time
    assert not any(CONTENT_KEYS & set(span.attributes) for span in spans)


def test_times_come_from_the_recording_not_from_the_export() -> None:
    """The root spans the recording's first to last arrival; a call lasts from its
    started line's arrival to its completed line's; usage and the resource are set."""
    path = next(p for p in RECORDINGS if p.name == "success-multi-tool.ndjson")
    spans = spans_of_file(path)
    (root,) = [s for s in spans if s.parent is None]
    assert root.start_time == 1789652113410 * 10**6
    session = folded(path).sessions[0]
    assert root.end_time == session.last_time_ms * 10**6  # type: ignore[operator]
    call = session.tool_calls[0]
    (span,) = [s for s in spans if s.attributes.get("gen_ai.tool.call.id") == call.call_id]
    assert call.start_recv is not None and call.end_recv is not None
    assert span.start_time == call.start_recv * 10**6
    assert span.end_time == call.end_recv * 10**6
    assert root.attributes["gen_ai.usage.input_tokens"] == 34214
    assert root.attributes["gen_ai.usage.output_tokens"] == 600
    assert root.attributes["llm.token_count.total"] == 34814
    assert root.attributes["streamview.timing"] == "stream"
    assert root.resource.attributes["service.name"] == "streamview-test"


def test_a_stream_without_times_ends_at_its_anchor_and_lasts_its_result() -> None:
    """Claude Code's stream says no time: the run ends at the anchor (the recording's
    last change), lasts its result's duration_ms, marked estimated; the subagent's
    grep is a child of its task call."""
    path = next(p for p in one_per_agent() if p.parent.name == "claude").with_name("subagent.jsonl")
    state = folded(path)
    spans = spans_of_file(path)
    (root,) = [s for s in spans if s.parent is None]
    assert root.end_time == ANCHOR_MS * 10**6
    lasted = state.sessions[0].outcome.duration_ms
    assert lasted and root.start_time == (ANCHOR_MS - lasted) * 10**6
    assert root.attributes["streamview.timing"] == "estimated"
    task = next(s for s in spans if s.name == "execute_tool task")
    grep = next(s for s in spans if s.name == "execute_tool grep")
    assert grep.parent.span_id == task.context.span_id
    assert task.start_time <= grep.start_time <= grep.end_time <= task.end_time


def test_ids_are_derived_so_a_second_export_sends_the_same_spans() -> None:
    """Sending a run twice gives the same trace and span ids (a backend keeps one)."""
    path = RECORDINGS[0]
    first = {(s.context.trace_id, s.context.span_id) for s in spans_of_file(path)}
    second = {(s.context.trace_id, s.context.span_id) for s in spans_of_file(path)}
    assert first == second and len(first) > 1


def test_notices_are_events_of_the_root_span() -> None:
    """pi's retries and compaction become the run's span events, in order, at their
    place in the run."""
    path = Path(one_per_agent()[0]).parents[1] / "pi" / "error-after-retries.jsonl"
    (root,) = [s for s in spans_of_file(path) if s.parent is None]
    assert [e.name for e in root.events] == ["retry", "retry", "compaction", "compaction"]
    assert all(root.start_time <= e.timestamp <= root.end_time for e in root.events)


HOSTILE = "\x1b]52;c;aGk=\x07\x1b[2J\u202eevil"


def _hostile_stream(long_answer: str) -> bytes:
    """A Cursor run whose prompt, command and answer hold escapes (and a long answer)."""
    shell = {"args": {"command": "echo \x1b]52;c;aGk=\x07"}}
    done = {**shell, "result": {"success": {"stdout": "red\x1b[0m", "exitCode": 0}}}
    records: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "cwd": "/tmp", "model": "m"},
        {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": HOSTILE}]},
        },
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "c1",
            "tool_call": {"shellToolCall": shell},
        },
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "c1",
            "tool_call": {"shellToolCall": done},
        },
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": long_answer}]},
        },
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 600,
            "result": "",
        },
    ]
    lines = [
        orjson.dumps({**record, "session_id": "s-hostile", "streamview_recv_ms": 1000 + 100 * n})
        for n, record in enumerate(records)
    ]
    return b"\n".join(lines) + b"\n"


def test_content_is_sent_only_when_asked_cleaned_and_capped() -> None:
    """With content: the prompt, the answer, the arguments and the result, no escape
    left in any, a long answer cut with a marker. Without: none of them."""
    answer = "x" * (CONTENT_LIMIT + 500)
    state = fold([_hostile_stream(answer)], StreamState(track_changes=False))
    spans, _ = send_in_memory(spans_of(state, content=True))
    (root,) = [s for s in spans if s.parent is None]
    (call,) = [s for s in spans if s.parent is not None]
    assert root.attributes["input.value"] == "␛]52;c;aGk=␇␛[2J\\u202eevil"
    assert root.attributes["output.value"].endswith("… [500 more characters not sent]")
    assert len(root.attributes["output.value"]) < CONTENT_LIMIT + 40
    assert '"command":"echo ␛]52;c;aGk=␇"' in call.attributes["input.value"]
    assert call.attributes["streamview.tool.target"] == "echo ␛]52;c;aGk=␇"
    assert "output.value" in call.attributes
    for span in spans:
        for value in span.attributes.values():
            assert not any(c in str(value) for c in "\x1b\x07\u202e")
    bare, _ = send_in_memory(spans_of(state))
    assert not any(CONTENT_KEYS & set(span.attributes) for span in bare)


def test_capped_keeps_short_text_and_says_what_it_cut() -> None:
    assert capped("short") == "short"
    assert capped("abcdef", limit=3) == "abc… [3 more characters not sent]"
