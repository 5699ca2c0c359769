"""Search reaches every session of a stream: / says which other sessions hold the
text, and n past this session's last hit (N before its first) goes on in the next
(previous) session that holds it, as a person steps through all of a long log."""

from __future__ import annotations

from pathlib import Path

import pytest

from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.sources.base import FileSource
from streamview.ui.calls.search import next_session, other_sessions_holding
from streamview.ui.frame.app import StreamviewApp

from ..calls.test_search_calls import type_search
from ..conftest import FakeClock, settle, wait_for

REPO = Path(__file__).resolve().parents[3]
RUNS = ["success-multi-tool", "partial-output-thinking", "denied-tools"]
"""Three sessions: the backoff fix, a run with thinking, the denied tools (shown first:
a stream opens at its newest session)."""


@pytest.fixture
def three_sessions(tmp_path: Path) -> Path:
    path = tmp_path / "three.ndjson"
    path.write_bytes(b"".join((REPO / "recordings" / f"{n}.ndjson").read_bytes() for n in RUNS))
    return path


def test_which_other_sessions_hold_a_text(three_sessions: Path) -> None:
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in [*reader.feed(three_sessions.read_bytes()), *reader.finish()]:
        state.apply(event)
    sessions = state.sessions
    assert len(sessions) == 3
    assert other_sessions_holding(sessions, store, "seeding", 2) == [0]
    assert other_sessions_holding(sessions, store, "jitter", 2) == [0, 1]
    # Only in a tool call's arguments (the test file the agent wrote): still found.
    assert other_sessions_holding(sessions, store, "test_attempt_zero_is_rejected", 1) == [0]
    assert other_sessions_holding(sessions, store, "re:seed(ing|s)", 2) == [0]
    assert other_sessions_holding(sessions, store, "nowhere-at-all", 2) == []
    assert other_sessions_holding(sessions[:1], store, "jitter", 0) == []


def test_the_next_session_goes_round_the_end() -> None:
    assert next_session([0, 1], 2, 1, 3) == 0
    assert next_session([0, 1], 2, -1, 3) == 1
    assert next_session([2], 0, -1, 3) == 2
    assert next_session([], 0, 1, 3) is None


async def test_a_word_only_in_an_earlier_session_is_one_n_away(three_sessions: Path) -> None:
    app = StreamviewApp(FileSource(three_sessions), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.session_index == 2
        await type_search(pilot, "seeding")
        await wait_for(pilot, lambda: app.other_sessions == [0])
        assert "“seeding” not in this session · n goes to session 1" in app.status_bar.text
        await pilot.press("n")
        await wait_for(pilot, lambda: app.session_index == 0)
        transcript = app.transcript
        assert transcript.match_count >= 1 and app.search_at == 0
        top = round(transcript.scroll_y)
        on_screen = transcript.plain_lines()[top : top + transcript.size.height]
        assert any("seeding" in line for line in on_screen)


async def test_n_and_N_walk_through_every_session_and_back(three_sessions: Path) -> None:
    app = StreamviewApp(FileSource(three_sessions), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_search(pilot, "jitter")
        await wait_for(pilot, lambda: app.other_sessions == [0, 1])
        here = app.transcript.match_count + len(app.call_hits)
        assert here and "also in sessions 1, 2" in app.status_bar.text
        for _ in range(here - 1 - app.search_at):
            await pilot.press("n")
            await pilot.pause()
            # A hit in a call opens its details, the next hit closes them: never a pile.
            assert len(app.screen_stack) <= 2
        assert app.session_index == 2
        await pilot.press("n")  # past the last hit here: on to the first session
        await wait_for(pilot, lambda: app.session_index == 0)
        assert app.screen is app.main_screen  # no details of another session's call
        assert app.search_at == 0 and app.transcript.match_position == 1
        await wait_for(pilot, lambda: app.other_sessions == [1, 2])
        await pilot.press("N")  # before the first hit: back to the last session's last
        await wait_for(pilot, lambda: app.session_index == 2)
        last = app.transcript.match_count
        assert last and app.transcript.match_position == last


async def test_switching_sessions_by_hand_carries_the_search_along(three_sessions: Path) -> None:
    """[ shows the session before: the search on show counts its hits there, and the
    status names the others (this one's place taken by the one left)."""
    app = StreamviewApp(FileSource(three_sessions), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_search(pilot, "jitter")
        await wait_for(pilot, lambda: app.other_sessions == [0, 1])
        app.transcript.focus()
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: app.session_index == 1)
        await wait_for(pilot, lambda: app.other_sessions == [0, 2])
        assert app.transcript.match_count > 0
        assert "also in sessions 1, 3" in app.status_bar.text
        assert app.screen is app.main_screen  # nothing opened by itself
