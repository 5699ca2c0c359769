"""Shapes real streams showed (issue 30.3), as fixtures built from each agent's records:
opencode's ``invalid`` tool, a step ending ``unknown`` mid-run, several runs in one log
(by session id, or by a new task after an outcome), Cline's task said as its first
``text``, Copilot's records with their timestamps and ids stripped."""

from __future__ import annotations

from pathlib import Path

from streamview import read_events
from streamview.core import tools
from streamview.core.events import RunResult
from streamview.core.normalized import Outcome
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState

from .fixtures import FIXTURES

OPENCODE = FIXTURES / "opencode" / "wrapper-two-runs.jsonl"
CLINE = FIXTURES / "cline" / "v1-plan-then-act.jsonl"
COPILOT = FIXTURES / "copilot" / "wrapper-stripped.jsonl"


def live(path: Path) -> StreamState:
    """The stream read as a pipe is: line by line through the reader, then its end."""
    reader, state = EventReader(), StreamState()
    for line in path.read_bytes().splitlines(keepends=True):
        for event in reader.feed(line):
            state.apply(event)
    for event in reader.finish():
        state.apply(event)
    state.finish()
    return state


def test_opencode_invalid_tool_call_is_a_failed_call() -> None:
    for state in (fold([OPENCODE.read_bytes()]), live(OPENCODE)):
        call = state.sessions[0].tool_calls[0]
        assert (call.kind, call.status) == ("invalid", tools.FAILED)
        assert call.summary is not None
        assert call.summary.startswith("The arguments provided to the tool are invalid")


def test_a_step_ending_unknown_mid_run_is_not_the_runs_outcome() -> None:
    reader = EventReader()
    results = [
        event.line
        for line in OPENCODE.read_bytes().splitlines(keepends=True)
        for event in reader.feed(line)
        if isinstance(event, RunResult)
    ]
    results += [event.line for event in reader.finish() if isinstance(event, RunResult)]
    # Line 3 ends a step "unknown" and a step follows: only line 9 ("stop") ends run A,
    # and run B's last step ("unknown", nothing after it) ends run B at the end of input.
    assert results == [9, 12]
    outcomes = [e for e in read_events(OPENCODE.read_bytes()) if isinstance(e, Outcome)]
    assert [(o.session, o.status) for o in outcomes] == [(0, "success"), (1, "success")]


def test_a_wrapper_log_of_two_opencode_runs_is_two_sessions() -> None:
    for state in (fold([OPENCODE.read_bytes()]), live(OPENCODE)):
        ids = [session.session_id for session in state.sessions]
        assert ids == ["ses_2b7e41d09ffeWr4pR1unA0000", "ses_2b7e41d09ffeWr4pR1unB0000"]
        first, second = (session.outcome for session in state.sessions)
        assert first.usage == {
            "inputTokens": 3900,
            "outputTokens": 82,
            "reasoningTokens": 0,
            "cacheReadTokens": 0,
            "cacheWriteTokens": 0,
        }
        assert second.usage is not None and second.usage["inputTokens"] == 900  # its own
        assert state.sessions[1].text == "Nothing to change."


def test_cline_1x_plan_then_act_is_two_runs_each_with_its_prompt() -> None:
    for state in (fold([CLINE.read_bytes()]), live(CLINE)):
        plan, act = state.sessions
        assert plan.prompt == "Plan how to make parse('') return an empty list."
        assert act.prompt == "Carry out the plan."
        # The task said as the first `text` is the prompt, not part of the answer.
        assert "Plan how to" not in plan.text and "Carry out" not in act.text
        assert act.text == "parse('') now returns []."
        assert [c.kind for c in act.tool_calls] == ["read", "edit"]
        assert (plan.outcome.status, act.outcome.status) == ("success", "success")
        assert plan.outcome.usage is not None and plan.outcome.usage["inputTokens"] == 2100
        assert act.outcome.usage is not None and act.outcome.usage["inputTokens"] == 2700


def test_copilot_records_are_recognised_by_their_type_names_alone() -> None:
    whole = fold([(FIXTURES / "copilot" / "success-tools.jsonl").read_bytes()])
    for state in (fold([COPILOT.read_bytes()]), live(COPILOT)):
        assert state.counts.unknown == 0
        (session,) = state.sessions
        assert session.agent == "copilot"
        expected = [(c.kind, c.status) for c in whole.sessions[0].tool_calls]
        assert [(c.kind, c.status) for c in session.tool_calls] == expected
        assert session.outcome.status == "success"
