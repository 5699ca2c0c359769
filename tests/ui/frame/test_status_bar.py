"""What the status line says in each state of a run (pure functions, no app)."""

from __future__ import annotations

from streamview.core import tools
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS, LineCounts, Session, ToolCall
from streamview.ui.frame.status_bar import StatusInfo, describe_counts, describe_state


def session_with_calls(*commands: str, status: str = tools.RUNNING) -> Session:
    """A running session whose shell calls are in ``status``."""
    session = Session(index=0)
    for index, command in enumerate(commands):
        call = ToolCall(index=index, call_id=f"c{index}", kind="shell", target=command)
        call.status = status
        session.tool_calls.append(call)
    return session


def test_waiting_and_reading_before_any_session() -> None:
    assert describe_state(StatusInfo(live=True)) == ("waiting for input…", "idle")
    assert describe_state(StatusInfo(live=False)) == ("reading…", "idle")
    assert describe_state(StatusInfo(ended=True)) == ("input is empty", "warning")
    assert describe_state(StatusInfo(ended=True, bytes_read=10)) == (
        "no session in input",
        "warning",
    )


def test_streaming_shows_the_rate_when_known() -> None:
    session = session_with_calls()
    assert describe_state(StatusInfo(session=session, live=True, idle_ms=100)) == (
        "● streaming",
        "live",
    )
    text, _ = describe_state(StatusInfo(session=session, live=True, idle_ms=100, rate=42.4))
    assert text == "● streaming · 42 lines/s"


def test_idle_names_the_open_calls() -> None:
    session = session_with_calls("pytest -x", "sleep 6", "make")
    text, kind = describe_state(StatusInfo(session=session, live=True, idle_ms=12_400))
    assert kind == "idle"
    assert text == "idle 12s since last event · 3 calls open: shell `pytest -x`, shell `sleep 6`, …"
    text, _ = describe_state(
        StatusInfo(session=session_with_calls("pytest"), live=True, idle_ms=125_000)
    )
    assert text == "idle 2m05s since last event · 1 call open: shell `pytest`"


def test_outcomes() -> None:
    session = session_with_calls()
    session.outcome.status = SUCCESS
    session.outcome.duration_ms = 9_865
    session.outcome.usage = {"inputTokens": 7120, "outputTokens": 354}
    assert describe_state(StatusInfo(session=session)) == (
        "✓ success in 9.9s · 7,120 in · 354 out",
        "success",
    )
    session.outcome.status = ERROR
    session.outcome.subtype = "error"
    session.outcome.result = "quota\x1b[31m exceeded"
    text, kind = describe_state(StatusInfo(session=session))
    assert kind == "error" and text == "✗ error after 9.9s · quota exceeded"
    interrupted = session_with_calls("a", "b", status=tools.INTERRUPTED)
    interrupted.outcome.status = INCOMPLETE
    assert describe_state(StatusInfo(session=interrupted)) == (
        "⚠ stream ended without a result · 2 calls interrupted",
        "warning",
    )
    assert describe_state(StatusInfo(session=session, error="cannot read stdin")) == (
        "✗ cannot read stdin",
        "error",
    )


def test_counts_never_hide_malformed_or_unknown_lines() -> None:
    counts = LineCounts(total=1234, malformed=2, unknown=1)
    pieces = describe_counts(StatusInfo(session=session_with_calls("x"), counts=counts))
    assert pieces == [
        ("1,234 lines", "count"),
        ("1 open", "count"),
        ("2 malformed · 1 unknown (l)", "bad"),
    ]
    paused = describe_counts(StatusInfo(counts=LineCounts(total=5), following=False))
    assert paused[0] == ("paused (f)", "unseen")
    unseen = describe_counts(StatusInfo(counts=LineCounts(total=5), unseen=True, search="“x” 1/2"))
    assert unseen[:2] == [("“x” 1/2", "search"), ("▼ new content (f)", "unseen")]


def test_a_success_counts_the_calls_that_were_refused_or_failed() -> None:
    """4 of 5 rejected is not a plain green success."""
    session = session_with_calls("a", "b", "c", "d", "e", status=tools.REJECTED)
    session.tool_calls[0].status = tools.SUCCEEDED
    session.outcome.status = SUCCESS
    session.outcome.duration_ms = 4_000
    text, kind = describe_state(StatusInfo(session=session, ended=True))
    assert text == "✓ success in 4.0s · 4 of 5 calls rejected"
    assert kind == "warning"
    session.tool_calls[1].status = tools.FAILED
    text, _ = describe_state(StatusInfo(session=session, ended=True))
    assert text == "✓ success in 4.0s · 3 of 5 calls rejected, 1 failed"
    for call in session.tool_calls:
        call.status = tools.SUCCEEDED
    assert describe_state(StatusInfo(session=session, ended=True)) == (
        "✓ success in 4.0s",
        "success",
    )


def test_cost_and_turns_when_the_agent_gives_them() -> None:
    session = session_with_calls()
    session.outcome.status = SUCCESS
    session.outcome.cost_usd = 0.04213
    session.outcome.num_turns = 3
    assert describe_state(StatusInfo(session=session, ended=True))[0] == (
        "✓ success · $0.0421 · 3 turns"
    )
    session.outcome.status = ERROR
    session.outcome.subtype = "error_max_turns"
    session.outcome.message = "Reached maximum number of turns (3)"
    session.outcome.num_turns = 1
    assert describe_state(StatusInfo(session=session, ended=True))[0] == (
        "✗ error_max_turns · Reached maximum number of turns (3) · $0.0421 · 1 turn"
    )


def test_paused_playback_says_where_instead_of_streaming() -> None:
    session = session_with_calls("make")
    info = StatusInfo(session=session, live=True, idle_ms=10_000_000, playback="‖ paused at 3")
    assert describe_state(info) == ("‖ paused at 3", "idle")


async def test_at_80_columns_the_outcome_and_cost_stay_and_cache_counts_go_first() -> None:
    """Issue 30.5: at 80 columns the line was cut at its end, so the cost went and the
    cache counts, the least of it, were what a wider bar shows last anyway. A person
    opening Goose's run (troubled calls, cost, tokens) and Cline's (cost, two cache
    counts) at 80 columns sees the outcome and the cost; cache counts go first."""
    from streamview.sources.base import FileSource
    from streamview.ui.frame.app import StreamviewApp

    from ..conftest import REPO, FakeClock, settle

    dialects = REPO / "tests" / "fixtures" / "dialects"
    for fixture, outcome, cost, kept, gone in (
        ("goose", "✓ success in 19.0s", "$0.0287", "1 of 15 calls rejected", "cache read"),
        ("cline", "✓ success in 6.8s", "$0.0428", "17,200 cache read", "cache write"),
    ):
        app = StreamviewApp(
            FileSource(dialects / fixture / "success-tools.jsonl"), clock=FakeClock()
        )
        async with app.run_test(size=(80, 30)) as pilot:
            await settle(pilot)
            bar = app.status_bar
            shown = bar.render().plain
            assert gone in bar.text, bar.text  # a wide bar shows it
            assert shown.startswith(f"{outcome} · ") and cost in shown, shown
            assert kept in shown and gone not in shown, shown
            assert shown.rstrip().endswith("lines"), shown
