"""Searching the viewer as a person does: /, typing, n and N, escape."""

from __future__ import annotations

import pytest
from textual import events

from streamview.ui.frame import search_actions
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
    THINKING,
    file_app,
    status_text,
)


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
        await pilot.press("slash", *"river", "enter")
        with_thinking = app.transcript.match_count
        await pilot.press("t")
        without_thinking = app.transcript.match_count
        await pilot.resize_terminal(60, 30)
        await pilot.pause()
        assert app.transcript.query_text == "river"
        after_resize = app.transcript.match_count
    # The thinking block says "rivers" and "River" once each.
    assert with_thinking - without_thinking == 2
    assert without_thinking > 0
    assert after_resize >= without_thinking  # narrower lines never lose a match


async def test_a_search_of_a_long_transcript_says_it_is_searching_before_it_holds_the_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Finding lays every block out on the screen's thread (~24 s for a 200 MB session's
    first search): above ``SAID_ABOVE`` blocks the status bar says "searching" and is
    painted before the search starts, then says what it found."""
    monkeypatch.setattr(search_actions, "SAID_ABOVE", 1)
    app = file_app(capture(PROBE_11))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        assert transcript.block_count > 1
        shown_when_searching: list[str] = []
        search = transcript.search

        def watched(query: str) -> int:
            shown_when_searching.append(status_text(app))
            return search(query)

        monkeypatch.setattr(transcript, "search", watched)
        await pilot.press("slash", *"river", "enter")
        await wait_for(pilot, lambda: transcript.match_count == 6)
        assert len(shown_when_searching) == 1
        assert (
            f"searching {transcript.block_count:,} blocks for “river”…" in (shown_when_searching[0])
        )
        assert "“river” 1/6" in status_text(app) and "searching" not in status_text(app)


async def test_a_search_of_a_short_transcript_answers_at_once() -> None:
    """Under ``SAID_ABOVE`` blocks the search runs as Enter is handled: nothing said."""
    app = file_app(capture(PROBE_11))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        assert transcript.block_count <= search_actions.SAID_ABOVE
        await pilot.press("slash", *"river", "enter")
        assert transcript.match_count == 6
        assert "searching" not in status_text(app)
