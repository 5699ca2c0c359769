"""Droid, Kimi CLI and pi: formats of their own, read fixture by fixture.

Fixtures: tests/fixtures/dialects/droid, kimi and pi (see their SOURCES.md).
"""

from __future__ import annotations

from streamview.core import tools
from streamview.core.dialects import decide, detect, translate_line
from streamview.core.dialects.pi import PiTranslator
from streamview.core.events import SessionStarted
from streamview.core.reader import fold
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, Session, StreamState

from .fixtures import FIXTURES


def folded(agent: str, name: str) -> StreamState:
    return fold([(FIXTURES / agent / name).read_bytes()])


def only(agent: str, name: str) -> Session:
    (session,) = folded(agent, name).sessions
    return session


def kinds(session: Session) -> list[str]:
    return [call.kind for call in session.tool_calls]


def test_droid_reads_every_tool_with_its_timestamps() -> None:
    session = only("droid", "success-tools.jsonl")
    assert (session.agent, session.model) == ("droid", "claude-sonnet-4-5-20250929")
    assert session.prompt == "Make parse('') return [] and run the tests."
    assert kinds(session) == [
        "updateTodos", "shell", "grep", "read", "ls", "edit", "write", "glob",
        "webSearch", "webFetch", "task", "shell",
    ]  # fmt: skip
    failing = session.tool_calls[1]
    assert (failing.status, failing.summary, failing.duration_ms) == (
        tools.FAILED,
        "exit 1, 4 lines",
        2100,  # from the records' own timestamps
    )
    assert session.tool_calls[10].target == "Check the callers"
    assert session.text.endswith("both tests pass.")
    outcome = session.outcome
    assert (outcome.status, outcome.num_turns) == (SUCCESS, 13)
    assert outcome.usage == {
        "inputTokens": 48210,
        "outputTokens": 1502,
        "cacheReadTokens": 40100,
        "cacheWriteTokens": 2100,
        "thinkingTokens": 310,
    }


def test_droid_matches_a_result_without_id_and_reads_errors() -> None:
    state = folded("droid", "errors-and-fifo-result.jsonl")
    (session,) = state.sessions
    patch, push, read = session.tool_calls
    assert (patch.kind, patch.status, patch.summary) == ("edit", tools.SUCCEEDED, "+1 -1")
    assert push.status == tools.REJECTED  # "requires approval"
    assert (read.status, read.summary) == (tools.ERROR, "File not found: /work/app/CHANGELOG.md")
    assert [b.parts for b in session.blocks if b.kind == "thinking"] == [
        ["Read VERSION,", " then patch it."]  # the restated reasoning adds only what is new
    ]
    assert [n.subtype for n in state.notices] == ["agent_loop"]  # type: ignore[attr-defined]


def test_a_cut_droid_stream_is_incomplete() -> None:
    session = only("droid", "stops-mid-run.jsonl")
    assert session.outcome.status == INCOMPLETE
    assert [c.status for c in session.tool_calls] == [tools.INTERRUPTED]


def test_kimi_real_probe() -> None:
    session = only("kimi", "real-shell-probe.jsonl")
    assert session.agent == "kimi"
    (call,) = session.tool_calls
    assert (call.kind, call.target, call.status) == ("shell", "echo hi-from-tool", tools.SUCCEEDED)
    assert session.text == "PROBE-OK"
    # No final record in Kimi's stream: a whole last turn is how its runs end.
    assert session.outcome.status == SUCCESS
    assert session.outcome.message == "ended: Kimi prints no final record"


def test_kimi_tools_notes_and_notifications() -> None:
    state = folded("kimi", "success-tools.jsonl")
    (session,) = state.sessions
    assert kinds(session) == [
        "updateTodos", "shell", "grep", "read", "edit", "write", "glob", "webSearch",
        "webFetch", "task", "shell",
    ]  # fmt: skip
    todos, failing, _, read, edit = session.tool_calls[:5]
    assert todos.summary == "0/2 done"
    assert (failing.status, failing.summary) == (tools.FAILED, "exit 1, 3 lines")
    assert read.summary == "4 lines"  # the cat -n numbers taken off
    assert edit.summary == "+1 -1"
    assert [n.subtype for n in state.notices] == ["task.completed"]  # type: ignore[attr-defined]
    assert "Run the tests first, then fix parse." in [
        "".join(b.parts) for b in session.blocks if b.kind == "thinking"
    ]


def test_kimi_errors_and_plain_lines() -> None:
    state = folded("kimi", "error-and-max-steps.jsonl")
    (session,) = state.sessions
    assert [(c.status, c.summary) for c in session.tool_calls] == [
        (tools.ERROR, "`/work/app/missing.toml` does not exist."),
        (tools.ERROR, "Command killed by timeout (5s)"),
    ]
    assert state.counts.malformed == 0  # "Max steps reached: 3" is the outcome
    outcome = session.outcome
    assert (outcome.status, outcome.subtype) == (ERROR, "max_steps")
    assert outcome.message == "Max steps reached: 3"


def test_pi_holds_its_header_until_the_model_is_known() -> None:
    translator = PiTranslator()
    data = (FIXTURES / "pi" / "success-tools.jsonl").read_bytes().splitlines()
    started = [
        (number, event)
        for number, line in enumerate(data, 1)
        for event in translate_line(translator, line, number)
        if isinstance(event, SessionStarted)
    ]
    ((number, event),) = started
    assert event.model == "claude-sonnet-4-5" and event.cwd == "/work/app"
    assert b'"role":"assistant"' in data[number - 1]  # the first assistant message's line


def test_pi_run_with_tools_usage_and_cost() -> None:
    state = folded("pi", "success-tools.jsonl")
    (session,) = state.sessions
    assert (session.agent, session.model) == ("pi", "claude-sonnet-4-5")
    assert session.prompt == "Make parse('') return [] and run the tests."
    assert kinds(session) == ["shell", "grep", "read", "ls", "edit", "write", "glob", "shell"]
    assert session.tool_calls[0].status == tools.FAILED
    assert session.tool_calls[4].summary == "+1 -1"
    assert session.text.endswith("and both tests pass.")
    outcome = session.outcome
    assert outcome.status == SUCCESS
    assert outcome.cost_usd is not None and abs(outcome.cost_usd - 0.0904) < 1e-9
    assert outcome.usage is not None and outcome.usage["inputTokens"] == 3525 + 4100 + 4400 + 4900


def test_pi_error_after_retries() -> None:
    state = folded("pi", "error-after-retries.jsonl")
    (session,) = state.sessions
    assert session.outcome.status == ERROR
    assert session.outcome.message == "529 overloaded_error: Overloaded"
    assert [(n.type, n.subtype) for n in state.notices] == [  # type: ignore[attr-defined]
        ("retry", "start"),
        ("retry", "end"),
        ("compaction", "start"),
        ("compaction", "end"),
    ]


def test_detection_of_the_three() -> None:
    droid_init = {"type": "system", "subtype": "init", "session_id": "s", "cwd": "/w",
                  "tools": ["Read", "Execute"], "model": "m"}  # fmt: skip
    kimi_message = {"role": "assistant", "content": "hi"}
    pi_header = {"type": "session", "version": 3, "id": "p", "cwd": "/w"}
    assert [detect([r]).name for r in (droid_init, kimi_message, pi_header)] == [
        "droid",
        "kimi",
        "pi",
    ]
    # Gemini's message has content; Droid's has text: each keeps its own.
    gemini_message = decide({"type": "message", "role": "user", "content": "hi"})
    droid_message = decide({"type": "message", "role": "user", "text": "hi", "id": "u"})
    assert gemini_message is not None and gemini_message.name == "gemini"
    assert droid_message is not None and droid_message.name == "droid"
