"""The viewer on hostile streams: nothing the stream holds reaches the screen as a control."""

from __future__ import annotations

from pathlib import Path

import pytest

from streamview.ui.calls.table import ToolCallTable

from .corpus import ALL_TEXT, CORPUS, MARKUP
from .streams import hostile_stream
from .tui import make_app, screen_problems, screen_text, settled, wait_until

SIZE = (160, 50)


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sessions with one corpus sequence each, then one with the whole corpus."""
    path = tmp_path_factory.mktemp("tui") / "hostile.ndjson"
    parts = [
        hostile_stream(f"<{seq.name}>{seq.text}</{seq.name}>", session=f"s-{n}")
        for n, seq in enumerate(CORPUS)
    ]
    parts.append(hostile_stream(ALL_TEXT, session="s-all"))
    path.write_bytes(b"".join(parts))
    return path


async def test_main_screen_shows_nothing_live(hostile_file: Path) -> None:
    """Transcript, tool table, header and status of the all-corpus session: all inert."""
    app = make_app(hostile_file)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert app.session_index == len(CORPUS)
        assert screen_problems(app) == []
        text = screen_text(app)
        assert "␛" in text  # the sequences are shown, as pictures
        for key in ("home", "pagedown", "pagedown", "end", "pageup", "t", "t"):
            await pilot.press(key)
            await pilot.pause()
            assert screen_problems(app, svg=False) == [], key
        assert screen_problems(app) == []


PARTS = 4
"""The corpus's sessions are shown in this many tests, each its own viewer (sessions
``part``, ``part + PARTS``...): all 99 in one took 31 s on a busy machine."""


@pytest.mark.parametrize("part", range(PARTS))
async def test_every_session_is_inert(hostile_file: Path, part: int) -> None:
    """Each single-sequence session, shown in turn, paints no control."""
    app = make_app(hostile_file)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        for index in range(part, len(CORPUS), PARTS):
            app.show_session(index)
            await pilot.pause()
            problems = screen_problems(app, svg=index % 10 == 0)
            assert problems == [], CORPUS[index].name


async def test_detail_view_of_the_shell_call_is_inert(hostile_file: Path) -> None:
    """The detail screen of the shell call (SGR kept as style), laid out, in full, raw."""
    app = make_app(hostile_file)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        main = app.screen
        app.post_message(ToolCallTable.OpenDetail(0))
        await wait_until(pilot, lambda: app.screen is not main, 10)
        await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), 20)
        assert screen_problems(app) == []
        assert "echo" in screen_text(app)
        for key in ("a", "r", "end", "r"):
            await pilot.press(key)
            await pilot.pause(0.2)
            await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), 20)
            assert screen_problems(app) == [], key
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is main, 10)


@pytest.mark.parametrize("part", range(2))
async def test_every_call_detail_is_inert(hostile_file: Path, part: int) -> None:
    """Every call of the all-corpus session: read, edit error, rejection, unknown kind
    (half of them in each of two tests: all in one took 15 s on a busy machine)."""
    app = make_app(hostile_file)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        main = app.screen
        session = app.state.sessions[-1]
        assert len(session.tool_calls) >= 4
        for index in range(part, len(session.tool_calls), 2):
            app.post_message(ToolCallTable.OpenDetail(index))
            await wait_until(pilot, lambda: app.screen is not main, 10)
            await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), 20)
            assert screen_problems(app) == [], session.tool_calls[index].kind
            await pilot.press("r")
            await wait_until(pilot, lambda: getattr(app.screen, "raw", False) is True, 20)
            await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), 20)
            assert screen_problems(app) == [], session.tool_calls[index].kind
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is main, 10)


async def test_event_log_is_inert(hostile_file: Path) -> None:
    """The event log lists malformed lines and unknown records: shown, inert."""
    app = make_app(hostile_file)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        main = app.screen
        await pilot.press("l")
        await wait_until(pilot, lambda: app.screen is not main, 10)
        await pilot.pause(0.3)
        assert screen_problems(app) == []
        for key in ("end", "pageup", "home", "enter"):
            await pilot.press(key)
            await pilot.pause(0.2)
            assert screen_problems(app, svg=False) == [], key
        assert screen_problems(app) == []


async def test_search_for_an_escape_sequence(hostile_file: Path) -> None:
    """Typing a hostile query (from a paste) is as inert as the stream."""
    app = make_app(hostile_file)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.press("slash")
        await pilot.press(*"PWNED")
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert screen_problems(app) == []


async def test_markup_in_the_stream_is_shown_literally(tmp_path: Path) -> None:
    """Rich/Textual markup (styles, links, ``@click`` actions) is text, never parsed."""
    payload = " ".join(MARKUP)
    path = tmp_path / "markup.ndjson"
    path.write_bytes(hostile_stream(payload))
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        text = screen_text(app)
        assert "[@click=app.quit]quit on click[/]" in text
        assert "[bold red]not bold[/bold red]" in text
        main = app.screen
        app.post_message(ToolCallTable.OpenDetail(0))
        await wait_until(pilot, lambda: app.screen is not main, 10)
        await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), 20)
        assert "[link=https://evil.example/PWNED]" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("l")
        await pilot.pause(0.3)
        assert "[/]" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running


async def test_search_for_markup(hostile_file: Path) -> None:
    """Searching for text that looks like markup (no match) does not crash the viewer."""
    app = make_app(hostile_file)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        for query in ("[/]", "[@click=app.quit]x", "[bold"):
            await pilot.press("slash")
            await pilot.press(*query)
            await pilot.press("enter")
            await pilot.pause(0.2)
        assert app.is_running
        assert screen_problems(app) == []
