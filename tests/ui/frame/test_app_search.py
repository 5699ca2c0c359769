"""Searching the viewer as a person does: /, typing, n and N, escape."""

from __future__ import annotations

import pytest
from textual import events

from streamview.ui.transcript import searching
from streamview.ui.transcript.transcript import Transcript

from ..conftest import (
    capture,
    settle,
    wait_for,
)
from .pilot_helpers import (
    DENIALS,
    PROBE_11,
    PROBE_43,
    RECORDINGS,
    THINKING,
    file_app,
    status_text,
)

LONG_RUN = "long-run.ndjson"
"""380 blocks: enough for a search of one block a slice to be seen under way."""


async def test_search_finds_highlights_and_steps_through_matches() -> None:
    app = file_app(capture(PROBE_11))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        await pilot.press("slash")
        await pilot.press(*"river")
        await pilot.press("enter")
        await pilot.pause()
        # "rivers" and "River" in the prompt, and the four lines of the poem.
        assert transcript.match_count == 6
        assert transcript.match_position == 1
        assert "“river” 1/6" in status_text(app)
        assert transcript.has_focus
        await pilot.press("n")
        assert transcript.match_position == 2
        await pilot.press("N")
        await pilot.press("N")
        assert transcript.match_position == 6
        # The current match is painted with the match style.
        current = transcript.get_component_rich_style("transcript--match-current")
        painted = [
            segment
            for y in range(transcript.size.height)
            for segment in transcript.render_line(y)
            if segment.style is not None and segment.style.bgcolor == current.bgcolor
        ]
        assert [segment.text.casefold() for segment in painted] == ["river"]
        await pilot.press("escape")  # clears the search
        assert transcript.match_count == 0 and transcript.query_text == ""
        assert "“river”" not in status_text(app)


async def test_keys_typed_right_after_slash_land_in_the_search_box() -> None:
    """A paste or a fast typist: every key is queued before "/" is handled."""
    app = file_app(capture(DENIALS))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for key, character in [("slash", "/"), *[(c, c) for c in "example/"], ("enter", "\r")]:
            app.post_message(events.Key(key, character))
        await wait_for(pilot, lambda: app.query_one(Transcript).query_text != "")
        # "e", "l" and "/" went into the box: no event log opened, "/" is text there.
        assert app.screen is app.screen_stack[0]
        assert app.query_one(Transcript).query_text == "example/"
        assert app.query_one(Transcript).match_count == 0


async def test_search_escape_closes_the_box() -> None:
    app = file_app(capture(PROBE_43))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        search = app.query_one("#search")
        assert search.display and search.has_focus
        await pilot.press("escape")
        assert not search.display
        assert app.query_one(Transcript).has_focus


async def test_the_boxes_open_under_the_panes_in_the_order_the_keys_list_them() -> None:
    """The search and filter boxes are mounted when first opened (not at every start):
    either order of opening puts them right under the panes, search above filter, and
    focuses the one opened."""
    app = file_app(capture(PROBE_43))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert not app.query("#search") and not app.query("#call-filter")
        assert app.query_one(Transcript).has_focus  # no hidden box took the focus first
        await pilot.press("backslash")
        assert app.filter_box.has_focus
        await pilot.press("escape")
        await pilot.press("slash")
        assert app.search_box.has_focus and not app.filter_box.display
        ids = [child.id for child in app.screen.children]
        panes = ids.index("panes")
        assert ids[panes + 1 : panes + 3] == ["search", "call-filter"]
        assert ids.index("status-bar") > panes + 2


async def test_search_survives_hiding_thinking_and_resizing() -> None:
    app = file_app(capture(THINKING))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        done = lambda: app.transcript.search_progress is None  # noqa: E731
        await pilot.press("slash", *"river", "enter")
        await wait_for(pilot, done)
        with_thinking = app.transcript.match_count
        await pilot.press("t")
        await wait_for(pilot, done)
        without_thinking = app.transcript.match_count
        await pilot.resize_terminal(60, 30)
        await pilot.pause()
        await wait_for(pilot, done)
        assert app.transcript.query_text == "river"
        after_resize = app.transcript.match_count
    # The thinking block says "rivers" and "River" once each.
    assert with_thinking - without_thinking == 2
    assert without_thinking > 0
    assert after_resize >= without_thinking  # narrower lines never lose a match


async def test_a_long_search_goes_a_slice_at_a_time_and_says_how_far_it_got(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search lays blocks out a slice at a time between frames (a 200 MB session's
    took 24 s in one go): the status bar says how far it got, the first hit is shown
    before the end, and the count is whole at the end."""
    monkeypatch.setattr(searching, "SLICE_SECONDS", 0.0)  # one block a slice
    monkeypatch.setattr(searching, "PAUSE_SECONDS", 0.05)
    app = file_app(RECORDINGS / LONG_RUN)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        await pilot.press("slash", *"the", "enter")
        await wait_for(pilot, lambda: "searching… " in status_text(app))
        assert transcript.search_progress is not None
        await wait_for(pilot, lambda: transcript.match_position > 0)  # shown at once
        assert transcript.search_progress is not None
        await wait_for(pilot, lambda: transcript.search_progress is None)
        count, at = transcript.match_count, transcript.match_position
        assert f"“the” {at}/{count + len(app.call_hits)}" in status_text(app)
        assert "searching" not in status_text(app)
        assert transcript.search("the") == count  # the same as a search done at once


async def test_escape_or_a_new_query_stops_a_search_under_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(searching, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(searching, "PAUSE_SECONDS", 0.005)
    app = file_app(RECORDINGS / LONG_RUN)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        await pilot.press("slash", *"re:.", "enter")
        await wait_for(pilot, lambda: transcript.search_progress is not None)
        await pilot.press("slash", *"zebra", "enter")  # the new query replaces the old
        await wait_for(pilot, lambda: transcript.search_progress is None)
        assert transcript.query_text == "zebra" and transcript.match_count == 0
        await pilot.press("slash", *"re:.", "enter")
        await wait_for(pilot, lambda: transcript.match_count > 0)
        await pilot.press("escape")
        assert transcript.search_progress is None and transcript.match_count == 0
        await pilot.pause(0.2)  # no slice comes back
        assert transcript.match_count == 0 and not transcript.query_text
        assert "searching" not in status_text(app)


async def test_n_walks_the_hits_found_so_far_and_stays_on_its_hit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(searching, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(searching, "PAUSE_SECONDS", 0.01)
    app = file_app(RECORDINGS / LONG_RUN)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        await pilot.press("slash", *"re:r", "enter")
        await wait_for(pilot, lambda: transcript.match_count >= 2)
        assert transcript.search_progress is not None
        before = transcript._search.current
        await pilot.press("n")
        on = transcript._search.current
        assert before is not None and on is not None
        assert (on.entry, on.line, on.start) > (before.entry, before.line, before.start)
        await wait_for(pilot, lambda: transcript.search_progress is None)
        assert transcript._search.current is on  # more hits came: still the one n went to
        count = transcript.match_count
        assert transcript.search("re:r") == count  # the same as a search done at once


async def test_the_calls_are_searched_once_the_transcripts_walk_is_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The calls' search thread took the walk's turns at the interpreter: it starts
    when the walk ends, and finds what it found before."""
    from streamview.ui.calls import search as calls_search
    from streamview.ui.frame import search_actions

    monkeypatch.setattr(searching, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(searching, "PAUSE_SECONDS", 0.01)
    app = file_app(RECORDINGS / LONG_RUN)
    started: list[float | None] = []
    real = calls_search.find_in_calls

    def find_in_calls(*args: object) -> list[calls_search.CallHit]:
        started.append(app.transcript.search_progress)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(search_actions, "find_in_calls", find_in_calls)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        await pilot.press("slash", *"re:e", "enter")
        await wait_for(pilot, lambda: transcript.search_progress is not None)
        await pilot.pause(0.1)
        assert started == []  # not while the walk goes on
        await wait_for(pilot, lambda: transcript.search_progress is None)
        await wait_for(pilot, lambda: bool(app.call_hits))
        assert started == [None]
        session = app.state.sessions[app.session_index or 0]
        assert app.call_hits == real(session, app.feed.store, "re:e")
        count = transcript.match_count
        assert f"/{count + len(app.call_hits)} · {len(app.call_hits)} in tool calls" in (
            status_text(app)
        )
