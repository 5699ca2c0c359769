"""opencode (and Kilo) and GitHub Copilot CLI streams, read fixture by fixture.

Fixtures: tests/fixtures/dialects/{opencode,kilo,copilot} (see each SOURCES.md;
``real-*`` are real runs).
"""

from __future__ import annotations

from streamview.core import tools
from streamview.core.call_records import load_records
from streamview.core.dialects import by_name, decide, detect, translate_line
from streamview.core.dialects.opencode import OpenCodeTranslator
from streamview.core.events import RunResult, ToolCallEvent
from streamview.core.linestore import LineStore
from streamview.core.reader import fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session

from .fixtures import FIXTURES


def session_of(agent: str, name: str, forced: str | None = None) -> Session:
    (session,) = fold([(FIXTURES / agent / name).read_bytes()], agent=forced).sessions
    return session


def first_records(agent: str, name: str) -> list[object]:
    import orjson

    records: list[object] = []
    for line in (FIXTURES / agent / name).read_bytes().splitlines():
        try:
            records.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            records.append(None)
    return records


def test_an_opencode_run_with_every_kind_of_tool() -> None:
    session = session_of("opencode", "success-tools.jsonl")
    assert (session.agent, session.session_id) == ("opencode", "ses_3f2a9c1e7ffeQk1u0Zb8aT4mWd")
    kinds = [(c.kind, c.status) for c in session.tool_calls]
    assert kinds == [
        ("updateTodos", tools.SUCCEEDED),
        ("glob", tools.SUCCEEDED),
        ("grep", tools.SUCCEEDED),
        ("read", tools.SUCCEEDED),
        ("ls", tools.SUCCEEDED),
        ("edit", tools.SUCCEEDED),
        ("write", tools.SUCCEEDED),
        ("shell", tools.FAILED),  # exit 4 in the metadata
        ("shell", tools.SUCCEEDED),
        ("shell", tools.REJECTED),  # "The user rejected permission..."
        ("webFetch", tools.SUCCEEDED),
        ("webSearch", tools.SUCCEEDED),
        ("task", tools.SUCCEEDED),
        ("mcp", tools.SUCCEEDED),  # github_get_issue: an MCP server's tool
        ("read", tools.ERROR),
        ("updateTodos", tools.SUCCEEDED),
    ]
    by_kind = {c.kind: c for c in session.tool_calls}
    assert by_kind["edit"].summary == "+2 -0"  # the stream's own filediff counts
    assert by_kind["glob"].summary == "2 files"
    assert by_kind["mcp"].target == "github: get_issue"
    assert session.tool_calls[8].duration_ms == 2400  # state.time.start/end
    assert session.text.startswith("I'll look at the parser")
    assert session.text.endswith("both tests pass.")
    outcome = session.outcome
    assert (outcome.status, outcome.duration_ms) == (SUCCESS, 20465)
    usage = outcome.usage or {}
    # Every step's tokens and cost, summed.
    assert (usage["inputTokens"], usage["outputTokens"]) == (2210 + 3120 + 260, 188 + 402 + 31)
    assert usage["cacheReadTokens"] == 11200 + 13800 + 16990
    assert outcome.cost_usd == round(0.0123 + 0.0188 + 0.0061, 8)


def test_the_real_opencode_capture_reads_whole() -> None:
    state = fold([(FIXTURES / "opencode" / "real-issuepit-901.jsonl").read_bytes()])
    assert (state.counts.unknown, state.counts.malformed) == (0, 0)
    (session,) = state.sessions
    assert [(c.kind, c.target) for c in session.tool_calls] == [
        ("read", "/workspace/.github/workflows/backend.yml"),
        ("shell", "git diff"),
        ("shell", 'git add .github/workflows/backend.yml && git commit -m "Fix ffmpeg install"'),
    ]
    assert [c.duration_ms for c in session.tool_calls] == [10, 17, 17]
    assert session.outcome.status == SUCCESS
    assert session.text.startswith("Fixed and committed.")


def test_a_done_after_the_last_step_does_not_give_a_second_outcome() -> None:
    translator = OpenCodeTranslator()
    data = (FIXTURES / "opencode" / "success-tools.jsonl").read_bytes().splitlines()
    results = [
        number
        for number, line in enumerate(data, 1)
        for event in translate_line(translator, line, number)
        if isinstance(event, RunResult)
    ]
    assert results == [len(data) - 1]  # the stop step; ``done`` says nothing new


def test_an_opencode_error_is_the_runs_outcome() -> None:
    session = session_of("opencode", "error.jsonl")
    assert session.outcome.status == ERROR
    assert session.outcome.subtype == "APIError"
    assert session.outcome.message == "Rate limit exceeded: 429 Too Many Requests"


def test_opencode_noise_stays_out_of_the_answer() -> None:
    state = fold([(FIXTURES / "opencode" / "noise-and-unknown.jsonl").read_bytes()])
    assert (state.counts.malformed, state.counts.unknown) == (1, 1)
    (session,) = state.sessions
    assert "unknown" not in session.text and "snapshot" not in session.text
    assert session.outcome.status == SUCCESS


def test_a_cut_opencode_stream_is_incomplete() -> None:
    session = session_of("opencode", "stops-mid-run.jsonl")
    assert session.outcome.status == INCOMPLETE
    assert [c.status for c in session.tool_calls] == [tools.SUCCEEDED]


def test_kilo_is_opencodes_stream_named_kilo_when_forced() -> None:
    assert detect(first_records("kilo", "success-tools.jsonl")).name == "opencode"
    assert session_of("kilo", "success-tools.jsonl").agent == "opencode"
    kilo = session_of("kilo", "success-tools.jsonl", forced="kilo")
    assert kilo.agent == "kilo"
    assert by_name("kilo") is not None and by_name("kilo").label == "Kilo Code CLI"  # type: ignore[union-attr]
    assert kilo.outcome.status == SUCCESS and kilo.outcome.cost_usd == round(0.0041 + 0.0012, 8)


def test_an_opencode_calls_detail_is_read_back_from_its_one_line() -> None:
    """A call is printed once, finished: the view re-reads that line for args and result."""
    data = (FIXTURES / "opencode" / "success-tools.jsonl").read_bytes()
    store = LineStore()
    store.agent = "opencode"
    for number, line in enumerate(data.splitlines(), 1):  # as a pipe's store keeps them
        store.remember(number, 0, line, ToolCallEvent(number))
    state = fold([data])
    edit = next(c for c in state.sessions[0].tool_calls if c.kind == "edit")
    records = load_records(edit, store)
    assert records.args is not None and records.args["path"] == "/work/app/src/parse.py"
    assert records.outcome == "success"
    assert "+        return []" in records.payload["diffString"]


def test_a_copilot_run_with_every_kind_of_tool() -> None:
    session = session_of("copilot", "success-tools.jsonl")
    assert (session.agent, session.model, session.cwd) == ("copilot", "gpt-5.4", "/work/app")
    assert session.prompt == "Make parse('') return an empty list and run the tests."
    assert [(c.kind, c.status) for c in session.tool_calls] == [
        ("updateTodos", tools.SUCCEEDED),
        ("glob", tools.SUCCEEDED),
        ("grep", tools.SUCCEEDED),
        ("read", tools.SUCCEEDED),
        ("edit", tools.SUCCEEDED),
        ("write", tools.SUCCEEDED),
        ("shell", tools.SUCCEEDED),
        ("shell", tools.FAILED),  # "<exited with exit code 4>"
        ("shell", tools.REJECTED),
        ("webFetch", tools.SUCCEEDED),
        ("task", tools.SUCCEEDED),
        ("mcp", tools.SUCCEEDED),
        ("read", tools.ERROR),
        ("updateTodos", tools.SUCCEEDED),
    ]
    todos, shell = session.tool_calls[0], session.tool_calls[6]
    assert todos.summary == "0/2 done"  # the Markdown checklist read as todos
    assert (shell.summary, shell.duration_ms) == ("exit 0, 2 lines", 2400)
    assert session.tool_calls[11].target == "github-mcp-server: get_issue"
    # The deltas grew the text; the whole message replaced them, said once.
    assert session.text.count("I'll look at the parser first.") == 1
    outcome = session.outcome
    assert outcome.status == SUCCESS
    assert outcome.cost_usd is None  # ``cost`` is a billing multiplier, not money
    usage = outcome.usage or {}
    assert (usage["inputTokens"], usage["outputTokens"], usage["premiumRequests"]) == (
        18230,
        612,
        1,
    )
    assert outcome.duration_api_ms == 9120


def test_the_real_copilot_capture_names_the_model_before_any_init() -> None:
    """Four records of the CLI's own state come first: the model is named by the third
    kind of them (``session.auto_mode_resolved``), no session starts before it."""
    state = fold([(FIXTURES / "copilot" / "real-shepherd-head.jsonl").read_bytes()])
    assert (state.counts.unknown, state.counts.malformed) == (0, 0)
    (session,) = state.sessions
    assert (session.agent, session.model) == ("copilot", "claude-sonnet-4.6")
    assert session.prompt is not None and session.prompt.startswith("Invoke skill")
    assert [(c.kind, c.status) for c in session.tool_calls] == [("skill", tools.INTERRUPTED)]
    assert session.outcome.status == INCOMPLETE
    thinking = [b for b in session.blocks if b.kind == "thinking"]
    assert len(thinking) == 1  # the deltas, not again the whole reasoning


def test_a_copilot_error_exits_the_run_with_its_message() -> None:
    state = fold([(FIXTURES / "copilot" / "error-and-unknown.jsonl").read_bytes()])
    (session,) = state.sessions
    assert session.outcome.status == ERROR
    assert session.outcome.message == "You have exceeded your premium request allowance."
    assert state.counts.unknown == 1
    assert "future.event" not in session.text


def test_each_agents_first_record_decides_its_dialect() -> None:
    for agent, name in (
        ("opencode", "success-tools.jsonl"),
        ("copilot", "success-tools.jsonl"),
        ("copilot", "real-shepherd-head.jsonl"),
    ):
        record = next(r for r in first_records(agent, name) if r is not None)
        found = decide(record)
        assert found is not None and found.name == agent, (agent, name)


def test_a_copilot_call_started_in_a_subagent_names_its_parent() -> None:
    import orjson

    record = {
        "type": "tool.execution_start",
        "data": {
            "toolCallId": "c2",
            "toolName": "view",
            "arguments": {"path": "/a"},
            "parentToolCallId": "c1",
        },
        "id": "e1",
        "timestamp": "2026-08-03T09:15:00.000Z",
    }
    translator = by_name("copilot").translator()  # type: ignore[union-attr]
    events = translate_line(translator, orjson.dumps(record), 1)
    call = next(e for e in events if isinstance(e, ToolCallEvent))
    assert (call.kind, call.parent_call_id, call.args) == ("read", "c1", {"path": "/a"})
