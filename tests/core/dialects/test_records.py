"""Every record the four CLIs print today has a meaning (issue 22.2), and the stream's
agent and model come from wherever the stream says them (issue 22.3).

Fixtures: tests/fixtures/dialects/claude/ (``real-2.1.247-*``: real Claude Code 2.1.247
lines; ``every-record.jsonl``: one of each record of the SDK's message union) and the
others' folders; see each SOURCES.md.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core import notices
from streamview.core.dialects import by_name, cursor_records
from streamview.core.dialects.claude import ClaudeTranslator, detect
from streamview.core.dialects.claude_records import _SYSTEM, _TOP
from streamview.core.dialects.codex import CodexTranslator
from streamview.core.events import (
    AgentNotice,
    ConnectionNotice,
    SessionStarted,
    UnknownRecord,
)
from streamview.core.model import NOTICE
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState

from .fixtures import FIXTURES, claude

SID = "s-1"


def translated(record: dict[str, Any]) -> list[Any]:
    """The events one record stands for, read by a fresh Claude translator."""
    return ClaudeTranslator().translate({**record, "session_id": SID}, 3, None)


@pytest.mark.parametrize("subtype", sorted(_SYSTEM))
def test_every_system_subtype_claude_code_prints_is_a_notice_with_a_meaning(subtype: str) -> None:
    (event,) = translated({"type": "system", "subtype": subtype})
    assert isinstance(event, AgentNotice), event
    assert (event.type, event.subtype, event.session_id, event.line) == ("system", subtype, SID, 3)
    assert event.topic in notices.TOPICS
    assert event.text and "\n" not in event.text


@pytest.mark.parametrize("kind", sorted(_TOP))
def test_every_top_level_type_besides_the_conversation_is_a_notice(kind: str) -> None:
    (event,) = translated({"type": kind})
    assert isinstance(event, AgentNotice) and event.type == kind and event.text


def test_a_system_subtype_of_tomorrow_is_claude_codes_notice_said_by_name() -> None:
    (event,) = translated({"type": "system", "subtype": "quantum_sync", "content": "synced\nok"})
    assert isinstance(event, AgentNotice)
    assert event.text == "system/quantum_sync: synced"


def test_hooks_say_which_hook_ran_and_how_it_ended() -> None:
    lines = claude("real-2.1.247-hooks-before-init.jsonl").splitlines()
    said = [translated(orjson.loads(line))[0].text for line in lines[:3]]
    assert said == [
        "hook SessionStart:startup started",
        "hook SessionStart:startup: awk: towc: multibyte conversion failure",
        "hook SessionStart:startup success (exit 0)",
    ]
    failed = {"type": "system", "subtype": "hook_response", "hook_name": "PreToolUse:Bash"}
    (event,) = translated({**failed, "outcome": "error", "exit_code": 2, "stderr": "no\n"})
    assert event.text == "hook PreToolUse:Bash error (exit 2): no"


def test_rate_limits_mark_the_status_only_when_limited() -> None:
    info = {"resetsAt": 1788321600, "rateLimitType": "five_hour", "utilization": 0.91}
    marks = []
    for status in ("allowed_warning", "rejected", "allowed"):
        (event,) = translated(
            {"type": "rate_limit_event", "rate_limit_info": {**info, "status": status}}
        )
        marks.append((event.topic, event.mark))
        assert "five hour window, 91% used, resets 2026-09-02 04:00 UTC" in event.text
    limited = "rate limited until 2026-09-02 04:00 UTC"
    assert marks == [("rate_limit", None), ("rate_limit", limited), ("rate_limit", "")]


def test_compaction_marks_the_status_until_its_boundary() -> None:
    (start,) = translated({"type": "system", "subtype": "status", "status": "compacting"})
    boundary = {"trigger": "auto", "pre_tokens": 161234, "post_tokens": 18000}
    (end,) = translated(
        {"type": "system", "subtype": "compact_boundary", "compact_metadata": boundary}
    )
    assert (start.topic, start.mark) == ("compaction", "compacting")
    assert (end.topic, end.mark, end.text) == (
        "compaction",
        "",
        "context compacted (auto, 161,234 tokens → 18,000)",
    )


def test_a_task_of_a_call_names_the_call() -> None:
    record = {"type": "system", "subtype": "task_notification", "task_id": "b2", "status": "failed"}
    (event,) = translated({**record, "tool_use_id": "toolu_BG", "summary": "exit 1\nmore"})
    assert event.topic == "task"
    assert event.text == "task b2 of call toolu_BG failed: exit 1"


def test_an_api_error_is_a_retry_notice() -> None:
    record = {"type": "system", "subtype": "api_error", "retry_attempt": 2}
    (event,) = translated({**record, "error": {"formatted": "529 overloaded", "message": "x"}})
    assert isinstance(event, ConnectionNotice)
    assert (event.type, event.subtype, event.attempt, event.detail) == (
        "retry",
        "api_error",
        2,
        "529 overloaded",
    )


def test_the_every_record_stream_has_no_unknown_record_and_one_answer() -> None:
    data = claude("every-record.jsonl")
    state = fold([data])
    (session,) = state.sessions
    assert state.unknown == [] and state.counts.unknown == 0
    records = list(map(orjson.loads, data.splitlines()))
    conversation = {"assistant", "user", "stream_event", "result"}
    own = [
        number
        for number, record in enumerate(records, 1)
        if record["type"] not in conversation and record.get("subtype") != "init"
    ]
    assert [n.line for n in state.notices] == own
    # Nothing of it is painted in the transcript: the answer reads once, whole.
    painted = [block.text for block in session.blocks if block.kind == NOTICE]
    assert painted == ["retry/api_retry (attempt 1): overloaded"]  # a retry, as ever
    assert session.text == "Running the tests in the background.\n\nAll tests pass."
    assert [call.kind for call in session.tool_calls] == ["shell"]


def marks_along(data: bytes) -> list[str | None]:
    """The session's live mark after each line, folded one line at a time."""
    state = StreamState(track_changes=False)
    reader = EventReader()
    marks = []
    for line in data.splitlines(keepends=True):
        for event in reader.feed(line):
            state.apply(event)
        marks.append(state.current.mark if state.current else None)
    return marks


def test_the_live_mark_holds_until_the_model_produces_again() -> None:
    data = claude("every-record.jsonl")
    types = [
        (r["type"], r.get("subtype"), r.get("status")) for r in map(orjson.loads, data.splitlines())
    ]
    marks = dict(enumerate(marks_along(data)))
    retry = types.index(("system", "api_retry", None))
    assert marks[retry] == "retrying (attempt 1)"
    compacting = types.index(("system", "status", "compacting"))
    assert marks[compacting] == "compacting"
    assert marks[compacting + 1] is None  # the compaction's boundary ends it
    limited = next(i for i, t in enumerate(types) if t[0] == "rate_limit_event" and i > compacting)
    # An informational note keeps it.
    assert marks[limited] == marks[limited + 1] == "rate limited until 2026-09-02 04:00 UTC"
    assert marks[limited + 2] is None  # the model's answer: the limit is over
    assert marks[len(types) - 1] is None


@pytest.mark.parametrize("agent", [None, "claude"])
def test_a_claude_stream_without_init_names_its_agent_and_model(agent: str | None) -> None:
    """A capture cut before its init (real lines of Claude Code 2.1.247)."""
    data = claude("real-2.1.247-no-init.jsonl")
    for state in (fold([data], agent=agent), _applied(data, agent)):
        (session,) = state.sessions
        assert (session.agent, session.model) == ("claude", "claude-haiku-4-5-20251001")
        assert state.counts.total == len(data.splitlines()) and state.counts.unknown == 0


def _applied(data: bytes, agent: str | None) -> StreamState:
    state = StreamState()
    reader = EventReader(agent=agent)
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    return state


def test_hooks_before_init_belong_to_the_session_init_opens() -> None:
    data = claude("real-2.1.247-hooks-before-init.jsonl")
    state = fold([data])
    (session,) = state.sessions
    assert session.agent == "claude" and session.model == "claude-haiku-4-5-20251001"
    assert session.first_line == 1
    assert [n.line for n in state.notices] == [1, 2, 3, 5]  # type: ignore[attr-defined]


def test_the_model_of_a_message_fills_an_init_without_one() -> None:
    init = {"type": "system", "subtype": "init", "tools": [], "session_id": SID}
    message = {
        "role": "assistant",
        "model": "claude-opus-5",
        "content": [{"type": "text", "text": "hi"}],
    }
    sub = {"type": "assistant", "message": {**message, "model": "claude-haiku-5"}}
    lines = [
        init,
        {**sub, "parent_tool_use_id": "toolu_T"},
        {"type": "assistant", "message": message},
    ]
    state = fold([b"".join(orjson.dumps(r) + b"\n" for r in lines)])
    (session,) = state.sessions
    assert session.model == "claude-opus-5"  # a subagent's model is not the session's


def test_a_forced_dialect_names_the_agent_of_a_stream_without_init() -> None:
    data = b'{"type":"thread.started","thread_id":"t"}\n{"type":"turn.started"}\n'
    assert fold([data[data.index(b"\n") + 1 :]], agent="codex").sessions[0].agent == "codex"
    user = b'{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}\n'
    assert fold([user]).sessions[0].agent is None  # read as Cursor's, not recognised as it
    assert fold([user], agent="cursor").sessions[0].agent == "cursor"


def test_codex_plan_deltas_grow_the_text_the_plan_item_replaces() -> None:
    translator = CodexTranslator()
    events = []
    for record in (
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.plan.delta", "item_id": "p", "delta": "1. Read"},
        {"type": "item.plan.delta", "item_id": "p", "delta": " the code"},
        {"type": "item.completed", "item": {"id": "p", "type": "plan", "text": "1. Read the code"}},
    ):
        events.extend(translator.translate(record, len(events) + 1, None))
    state = StreamState()
    for event in events:
        state.apply(event)
    assert state.sessions[0].text == "1. Read the code"
    assert state.unknown == []


@pytest.mark.parametrize(
    ("record", "topic", "said"),
    [
        (
            {"type": "system", "subtype": "task_notification", "summary": "shell finished"},
            "task",
            "background task finished: shell finished",
        ),
        (
            {"type": "system", "subtype": "background_shell_timeout"},
            "task",
            "the turn ended: background commands still running were stopped",
        ),
        ({"type": "text", "text": "Note: usage at 80%"}, "output", "text: Note: usage at 80%"),
    ],
)
def test_cursors_own_records_are_notices(record: dict[str, Any], topic: str, said: str) -> None:
    event = cursor_records.parse_record({**record, "session_id": SID}, 2)
    assert isinstance(event, AgentNotice) and (event.topic, event.text) == (topic, said)
    assert not isinstance(event, UnknownRecord)


def test_claude_records_are_recognised_from_hooks_and_named_before_them() -> None:
    assert detect({"type": "system", "subtype": "hook_started"})
    events = EventReader().feed(claude("real-2.1.247-hooks-before-init.jsonl"))
    first = events[0]
    assert isinstance(first, SessionStarted) and first.inferred and first.agent == "claude"
    assert by_name("claude") is not None


def test_every_fixture_of_every_agent_has_no_record_its_cli_prints_today_unknown() -> None:
    """Records left unknown on purpose are invented ones (``hologram``, an older protocol)."""
    allowed = {"hologram", "msg", "mystery"}
    # Gemini's "thought" and a message of a role no build documents: drift, kept unknown.
    drift = {
        "drift-and-noise.jsonl": {"thought", "message"},
        "noise-and-unknown.jsonl": {"thought"},
        # Messages the fast path must decline (content no string or none, a role no
        # build prints): invented to test it, unknown on purpose.
        "fast-line-stamps.jsonl": {"message"},
    }
    for agent in ("claude", "codex", "gemini", "cursor"):
        for path in sorted((FIXTURES / agent).glob("*.*l")):
            state = fold([path.read_bytes()], agent=agent)
            left = {u.type for u in state.unknown} - allowed - drift.get(path.name, set())
            assert not left, (path.name, left)


def test_geminis_ls_grep_and_web_fetch_rows_say_their_result_line() -> None:
    """Issue 21.11: their results carry only a display line; it is the summary."""
    data = (FIXTURES / "gemini" / "success-every-tool.jsonl").read_bytes()
    records = [orjson.loads(line) for line in data.splitlines() if line.startswith(b"{")]
    said = {r["tool_id"]: r.get("output", "") for r in records if r["type"] == "tool_result"}
    (session,) = fold([data]).sessions
    rows = {call.kind: call for call in session.tool_calls}
    for kind in ("ls", "grep", "webFetch"):
        call = rows[kind]
        assert call.summary == said[call.call_id].splitlines()[0], kind
        assert call.summary
