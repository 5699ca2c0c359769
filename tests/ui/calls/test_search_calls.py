"""Search beyond the transcript, as a person does: / and a word that is only in a
tool's output; n goes to the call and opens it at the word; N comes back."""

from __future__ import annotations

from pathlib import Path

from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.sources.base import FileSource
from streamview.ui.calls.search import ARGUMENTS, RESULT, TARGET, find_in_calls
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle, settle_sections, wait_for

REPO = Path(__file__).resolve().parents[3]
CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def status(app: StreamviewApp) -> str:
    return app.status_bar.text


async def type_search(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("slash")
    for char in text:
        await pilot.press(char)
    await pilot.press("enter")


def test_calls_are_found_by_target_arguments_and_result() -> None:
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in [*reader.feed(CLAUDE.read_bytes()), *reader.finish()]:
        state.apply(event)
    session = state.sessions[-1]
    by_where = {(hit.call_index, hit.where) for hit in find_in_calls(session, store, "test_empty")}
    assert (1, RESULT) in by_where  # only in the failing pytest's output
    assert {hit.where for hit in find_in_calls(session, store, "get_issue")} == {TARGET}
    old = find_in_calls(session, store, "return None")
    assert any(hit.where in (ARGUMENTS, RESULT) for hit in old)
    assert find_in_calls(session, store, "nowhere-at-all") == []


def test_the_calls_search_waits_every_few_calls_and_finds_the_same() -> None:
    """The app's wait (sleeping while the transcript's search walks) is called every
    WAIT_EVERY calls, and the hits are those found without it."""
    from streamview.core.model import Session, ToolCall
    from streamview.ui.calls import search

    session = Session(0)
    for index in range(2 * search.WAIT_EVERY + 2):
        target = "src/hit.py" if index % 5 == 0 else "src/other.py"
        session.tool_calls.append(ToolCall(index, f"c{index}", "read", None, target, "completed"))
    waited: list[int] = []
    hits = find_in_calls(session, None, "hit", lambda: waited.append(1))
    assert len(waited) == 3  # before calls 0, WAIT_EVERY and 2 * WAIT_EVERY
    assert hits == find_in_calls(session, None, "hit")
    assert [hit.call_index for hit in hits] == list(range(0, 2 * search.WAIT_EVERY + 2, 5))


async def test_n_goes_into_a_tool_result_and_opens_it_at_the_word() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_search(pilot, "test_empty")
        await wait_for(pilot, lambda: bool(app.call_hits))
        # Only in a result: the first hit is opened at once.
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, ToolCallDetailScreen) and screen.call.index == 1
        assert screen.get_selected_text() == "test_empty"  # the word is selected
        await pilot.press("escape")
        assert not isinstance(app.screen, ToolCallDetailScreen)
        assert app.tool_table.cursor_call == 1
        assert "“test_empty” 1/1 · 1 in tool calls" in status(app)


async def test_n_and_shift_n_cycle_through_the_transcript_then_the_calls() -> None:
    """ "get_issue" is in the transcript's call marker and in the mcp call's target."""
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_search(pilot, "get_issue")
        await wait_for(pilot, lambda: bool(app.call_hits))
        in_text = app.transcript.match_count
        assert in_text == 1 and len(app.call_hits) == 1
        assert "“get_issue” 1/2 · 1 in tool calls" in status(app)
        await pilot.press("n")  # into the calls: the mcp call, under the table's cursor
        await pilot.pause()
        mcp = next(c for c in app.state.sessions[-1].tool_calls if c.kind == "mcp")
        assert app.tool_table.cursor_call == mcp.index and app.tool_table.has_focus
        assert not isinstance(app.screen, ToolCallDetailScreen)  # a target: nothing to open
        assert "“get_issue” 2/2" in status(app)
        await pilot.press("N")  # back to the transcript's match
        await pilot.pause()
        assert app.search_at == 0 and "“get_issue” 1/2" in status(app)


async def test_a_miss_everywhere_says_so_and_the_status_bar_stays() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_search(pilot, "zebra")
        await pilot.pause(0.5)
        await app.workers.wait_for_complete()
        await pilot.pause()
        # Said in the status bar, not in a toast that would cover it for seconds.
        assert "no match for “zebra”" in status(app)
        assert not any("zebra" in str(n.message) for n in app._notifications)
        assert app.status_bar.display
        await pilot.press("n")
        await pilot.pause()
        assert "no match for “zebra”" in status(app)
        await pilot.press("escape")  # the note goes with the search
        await pilot.pause()
        assert "zebra" not in status(app)


async def test_a_regular_expression_finds_in_calls_and_a_broken_one_says_why() -> None:
    app = StreamviewApp(FileSource(CLAUDE), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_search(pilot, r"re:test_\w+y\b")
        await wait_for(pilot, lambda: bool(app.call_hits))
        assert app.call_hits[0].call_index == 1
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        await pilot.pause(0.2)
        assert app.screen.get_selected_text() == "test_empty"
        await pilot.press("escape")
        await type_search(pilot, "re:(oops")
        await pilot.pause()
        assert "not a regular expression: (oops" in status(app)
        # Longer than the room beside the outcome: cut at its end, never hidden.
        shown = app.status_bar.render().plain
        assert "not a regular expression: (oops" in shown and shown.rstrip().endswith("…")
