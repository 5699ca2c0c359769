"""Goose and Cline streams, read fixture by fixture.

Fixtures: tests/fixtures/dialects/{goose,cline} (see each SOURCES.md; ``real-*`` are
real runs).
"""

from __future__ import annotations

import orjson

from streamview.core import tools
from streamview.core.dialects import by_name, decide, translate_line
from streamview.core.events import AssistantMessage
from streamview.core.reader import fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session

from .fixtures import FIXTURES


def session_of(agent: str, name: str) -> Session:
    (session,) = fold([(FIXTURES / agent / name).read_bytes()]).sessions
    return session


def test_a_goose_run_with_every_kind_of_tool() -> None:
    session = session_of("goose", "success-tools.jsonl")
    assert (session.agent, session.model) == ("goose", "claude-sonnet-4-5")
    assert [(c.kind, c.status) for c in session.tool_calls] == [
        ("updateTodos", tools.SUCCEEDED),
        ("glob", tools.SUCCEEDED),
        ("grep", tools.SUCCEEDED),
        ("read", tools.SUCCEEDED),  # text_editor view
        ("edit", tools.SUCCEEDED),  # text_editor str_replace
        ("write", tools.SUCCEEDED),
        ("ls", tools.SUCCEEDED),
        ("shell", tools.SUCCEEDED),
        ("shell", tools.FAILED),  # structuredContent exit_code 4
        ("shell", tools.REJECTED),  # "The user declined to run this tool."
        ("webFetch", tools.SUCCEEDED),
        ("webSearch", tools.SUCCEEDED),
        ("task", tools.SUCCEEDED),
        ("mcp", tools.SUCCEEDED),  # github__get_issue: an extension nobody ships
        ("read", tools.ERROR),
    ]
    edit = session.tool_calls[4]
    assert (edit.target, edit.summary) == ("/work/app/src/parse.py", "+2 -0")
    assert session.tool_calls[7].duration_ms == 3000  # ``created`` is in seconds
    assert session.tool_calls[13].target == "github: get_issue"
    # Text chunks, a message each, grow one answer.
    assert "I'll look at the parser first." in session.text
    assert session.text.endswith("Fixed: parse('') now returns [], and both tests pass.")
    outcome = session.outcome
    assert (outcome.status, outcome.cost_usd) == (SUCCESS, 0.0287)
    usage = outcome.usage or {}
    assert (usage["inputTokens"], usage["cacheReadTokens"], usage["totalTokens"]) == (
        18730,
        14080,
        19342,
    )


def test_the_real_goose_frames() -> None:
    """A real chunk frame (thinking, with the inference metadata) and a real total."""
    state = fold([(FIXTURES / "goose" / "real-frames.jsonl").read_bytes()])
    assert (state.counts.unknown, state.counts.malformed) == (0, 0)
    (session,) = state.sessions
    assert session.model == "nvidia/nemotron-3.5-lightning:free"
    assert [b.kind for b in session.blocks] == ["thinking"]
    assert session.outcome.status == SUCCESS
    assert (session.outcome.usage or {})["inputTokens"] == 5257


def test_a_goose_error_is_the_runs_outcome_and_an_unknown_record_stays_out() -> None:
    state = fold([(FIXTURES / "goose" / "error.jsonl").read_bytes()])
    (session,) = state.sessions
    assert session.outcome.status == ERROR
    assert session.outcome.message is not None
    assert session.outcome.message.startswith("Request failed: Authentication failed.")
    assert state.counts.unknown == 1  # ``model_change``: older builds only
    assert session.text == "Checking the repository."


def test_a_cline_run_with_every_kind_of_tool() -> None:
    session = session_of("cline", "success-tools.jsonl")
    assert (session.agent, session.session_id) == ("cline", "1787000000000")
    assert session.model == "claude-sonnet-4-5"  # modelInfo, not in task_started
    assert session.prompt == "Make parse('') return an empty list and run the tests."
    assert [(c.kind, c.status) for c in session.tool_calls] == [
        ("ls", tools.SUCCEEDED),
        ("grep", tools.SUCCEEDED),
        ("read", tools.SUCCEEDED),
        ("edit", tools.SUCCEEDED),
        ("write", tools.SUCCEEDED),
        ("shell", tools.SUCCEEDED),
        ("webFetch", tools.SUCCEEDED),
        ("mcp", tools.SUCCEEDED),
    ]
    edit, shell = session.tool_calls[3], session.tool_calls[5]
    assert edit.summary == "+2 -0"  # made from the SEARCH/REPLACE block
    assert (shell.summary, shell.duration_ms) == ("2 lines", 2400)
    assert session.tool_calls[7].target == "github: get_issue"
    assert session.text.count("I'll look at the parser first.") == 1
    assert session.text.endswith("Fixed: parse('') now returns [], and both tests pass.")
    outcome = session.outcome
    assert outcome.status == SUCCESS
    usage = outcome.usage or {}
    # The first request's account is updated in place (same ts): counted once.
    assert usage["inputTokens"] == 6120 + 820 + 410 + 300
    assert outcome.cost_usd == round(0.0311 + 0.0062 + 0.0031 + 0.0024, 8)


def test_a_growing_cline_message_is_shown_by_its_new_end_only() -> None:
    translator = by_name("cline").translator()  # type: ignore[union-attr]
    shown: list[tuple[str, bool | None]] = []
    records = [
        {"type": "say", "say": "text", "text": "Hel", "ts": 5, "partial": True},
        {"type": "say", "say": "text", "text": "Hello", "ts": 5, "partial": True},
        {"type": "say", "say": "text", "text": "Hello, world", "ts": 5, "partial": False},
        {"type": "say", "say": "text", "text": "Bye", "ts": 9, "partial": True},
        {"type": "say", "say": "text", "text": "Goodbye", "ts": 9, "partial": False},
    ]
    for number, record in enumerate(records, 1):
        for event in translate_line(translator, orjson.dumps(record), number):
            if isinstance(event, AssistantMessage):
                shown.append((event.text, event.delta))
    assert shown == [
        ("Hel", True),
        ("lo", True),
        (", world", True),
        ("Bye", True),
        ("Goodbye", False),  # rewritten: replaces what was shown of it
    ]


def test_a_cut_cline_stream_keeps_its_notices_and_unknown_kind_out_of_the_answer() -> None:
    state = fold([(FIXTURES / "cline" / "stops-mid-run.jsonl").read_bytes()])
    (session,) = state.sessions
    assert session.model == "moonshotai/kimi-k2.5"
    assert session.outcome.status == INCOMPLETE
    assert state.counts.unknown == 1
    assert session.text == "Running the deploy script."
    assert [n.type for n in state.notices] == ["retry"]  # type: ignore[attr-defined]


def test_goose_and_cline_first_records_decide_their_dialects() -> None:
    for agent in ("goose", "cline"):
        line = (FIXTURES / agent / "success-tools.jsonl").read_bytes().splitlines()[0]
        found = decide(orjson.loads(line))
        assert found is not None and found.name == agent
    # Gemini CLI's ``message`` (role and content at the top) is not Goose's.
    gemini = {"type": "message", "role": "assistant", "content": "hi", "delta": True}
    assert decide(gemini) is not None and decide(gemini).name == "gemini"  # type: ignore[union-attr]


def test_cline_2_hook_and_agent_events_are_notices_not_unknown() -> None:
    """Cline 2.x prints ``hook_event`` and ``agent_event`` records: each is a line of the
    event log saying what ran, never an unknown record, never in the answer."""
    stream = (FIXTURES / "cline" / "success-tools.jsonl").read_bytes()
    extra = (
        b'{"type":"hook_event","ts":1,"hookName":"PreToolUse"}\n'
        b'{"type":"agent_event","ts":2,"event":"subagent_started"}\n'
        b'{"type":"agent_event","ts":3}\n'
    )
    plain = fold([stream], agent="cline")
    state = fold([stream + extra], agent="cline")
    assert state.unknown == plain.unknown
    texts = [n.text for n in state.notices[len(plain.notices) :]]  # type: ignore[attr-defined]
    assert texts == ["hook: PreToolUse", "agent: subagent_started", "agent"]
    assert state.sessions[-1].text == plain.sessions[-1].text
