"""The ending says what happened: stopped (Ctrl+C), failed (exit 3), crashed (a signal),
and a count agrees with its noun ("1 line")."""

from __future__ import annotations

import pytest

from streamview.cli.runs import outcome_of
from streamview.core.formatting import counted
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.runs.run_meta import CRASHED, FAILED, STOPPED, RunMeta, ending, print_lines
from streamview.ui.frame.status_bar import StatusInfo, describe_counts, describe_state

from .helpers import assistant_record, init_record, ndjson, tool_record, user_record


def meta(ended: str, exit_code: int, stopped_by: str = "") -> RunMeta:
    return RunMeta("run.ndjson", "agent", ended=ended, exit_code=exit_code, stopped_by=stopped_by)


@pytest.mark.parametrize(
    ("exit_code", "interrupted", "expected"),
    [(3, False, FAILED), (139, False, CRASHED), (137, False, CRASHED), (130, True, STOPPED)],
)
def test_crashed_is_for_signals_and_an_exit_status_is_a_failure(
    exit_code: int, interrupted: bool, expected: str
) -> None:
    assert ending(exit_code, interrupted, result_seen=False) == expected


def test_runs_and_print_say_how_the_agent_ended() -> None:
    assert outcome_of("incomplete", meta(FAILED, 3), held=False) == "✗ failed (exit 3)"
    assert outcome_of("incomplete", meta(CRASHED, 3), held=False) == "✗ failed (exit 3)"  # old
    assert outcome_of("incomplete", meta(CRASHED, 139), held=False) == "✗ crashed (SIGSEGV)"
    stopped = meta(STOPPED, 130, stopped_by="SIGINT")
    assert outcome_of("incomplete", stopped, held=False) == "■ stopped (Ctrl+C)"
    in_viewer = meta(STOPPED, 130, stopped_by="Ctrl+C")
    assert outcome_of("incomplete", in_viewer, held=False) == "■ stopped (Ctrl+C)"
    assert outcome_of("incomplete", meta(STOPPED, 143, "SIGTERM"), False) == "■ stopped (SIGTERM)"
    assert print_lines(meta(FAILED, 3)) == ["!! agent failed (exit 3)"]
    assert print_lines(stopped) == ["!! agent stopped (Ctrl+C)"]


def test_the_status_bar_says_stopped_not_ended_without_a_result() -> None:
    data = ndjson(
        init_record(),
        user_record("read it"),
        tool_record("started", "c1", "read", {"path": "README.md"}),
    )
    state = fold([data], StreamState())
    info = StatusInfo(session=state.current, ended=True, counts=state.counts)
    assert describe_state(info)[0] == "⚠ stream ended without a result · 1 call interrupted"
    stopped = StatusInfo(
        session=state.current, ended=True, counts=state.counts, stopped="stopped (Ctrl+C)"
    )
    assert describe_state(stopped) == ("■ stopped (Ctrl+C) · 1 call interrupted", "warning")


def test_one_line_is_one_line() -> None:
    assert [counted(n, "line") for n in (0, 1, 2, 2048)] == [
        "0 lines",
        "1 line",
        "2 lines",
        "2,048 lines",
    ]
    state = fold([ndjson(assistant_record("hi"))], StreamState())
    info = StatusInfo(session=state.current, ended=True, counts=state.counts)
    assert ("1 line", "count") in describe_counts(info)
    assert RunMeta("r", "s", cut="disk full", lines=1).cut_note() == (
        "recording cut: disk full after 1 line"
    )
