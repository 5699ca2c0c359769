"""The command palette and the help screen hold every key, because both are made from
the bindings: a person finds an action by name, and the help never drifts from the keys.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

from textual.binding import Binding

import streamview.ui
from streamview.sources.base import FileSource
from streamview.sources.process import ProcessSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.commands import as_bindings, key_text, meaning, viewer_help
from streamview.ui.frame.help import HelpScreen
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import FakeClock, settle, wait_for

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
AGENTS = REPO / "tests" / "run" / "agents"


def declared_bindings() -> list[tuple[str, Binding]]:
    """Every binding a class of the viewer declares, with the class's name (the list of
    sessions is an app of its own, its keys in its own footer)."""
    found = []
    for module_info in pkgutil.walk_packages(streamview.ui.__path__, "streamview.ui."):
        if module_info.name.startswith("streamview.ui.sessions"):
            continue
        module = importlib.import_module(module_info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or "BINDINGS" not in vars(cls):
                continue
            found += [(name, binding) for binding in as_bindings(vars(cls)["BINDINGS"])]
    return found


def played_back() -> tuple[StreamviewApp, PlaybackFeed]:
    source = FileSource(RECORDING)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    return StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms), feed


def test_every_binding_of_the_viewer_is_in_the_help() -> None:
    bindings = declared_bindings()
    assert len(bindings) > 40  # the walk found the app's, panes' and screens' keys
    app, _ = played_back()
    rows = [row for section in viewer_help(app) for row in section.rows]
    for owner, binding in bindings:
        if binding.system:
            continue
        keys = {key_text(key.strip()) for key in binding.key.split(",")}
        listed = [
            r
            for r in rows
            if r[1] == meaning(binding) and (keys <= set(r[0].split("  ")) or r[0] == "0-9")
        ]
        assert listed, f"{owner}: {binding.key} -> {binding.action} not in the help"


async def test_question_mark_shows_the_generated_help_and_escape_closes_it() -> None:
    app, _ = played_back()
    async with app.run_test(size=(110, 50)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        titles = [section.title for section in app.screen.sections]
        assert titles[:3] == ["Anywhere", "Transcript", "Tool calls"]
        playback = next(s for s in app.screen.sections if s.title.startswith("Playback"))
        assert ("G", "to the end of the run (100 %), also while playing") in playback.rows
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_palette_finds_every_action_a_person_asks_for() -> None:
    """play, export, seek, speed, next call: each finds an entry."""
    app, _ = played_back()
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for wanted in (
            "Play/Pause",
            "Export transcript and screenshot",
            "Seek to 50%",
            "Play faster",
            "Play slower",
            "Play to next call",
        ):
            assert wanted in titles, wanted
        for wanted in (
            "Search",
            "Show or hide thinking",
            "Follow the newest on/off",
            "Event log",
            "Help: key bindings and shortcuts",
            "Step one event forward",
            "Step one event back",
            "Restart playback",
        ):
            assert wanted in titles, wanted
        assert "Stop agent" not in titles  # no agent runs: nothing to stop


async def test_the_tables_keys_are_in_the_palette_wherever_the_focus_is() -> None:
    """F, K and w belong to the tool table; from the transcript, the palette still has
    them (by the same names), and taking one moves the focus to the table it acted on."""
    app, _ = played_back()
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        app.transcript.focus()
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for wanted in ("Filter calls by kind", "Start times: offset or clock", "First call"):
            assert wanted in titles
        assert "Show all calls" not in titles  # no filter to clear yet
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        for char in "failed":
            await pilot.press(char)
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "failed" in str(app.tool_table.border_title))
        assert app.focused is app.tool_table


async def test_choosing_next_call_in_the_palette_moves_the_playback() -> None:
    app, feed = played_back()
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        await pilot.press("0")  # to the start, paused
        await wait_for(pilot, lambda: feed.loaded and feed.position <= 2)
        before = feed.position
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        for char in "play to next call":
            await pilot.press("space" if char == " " else char)
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: feed.position > before)
        session = app.state.sessions[-1]
        assert session.tool_calls  # stopped at the first call's start
        assert app.state.sessions[-1].tool_calls[-1].status == "running"


async def test_stop_agent_is_in_the_palette_while_the_agent_runs() -> None:
    source = ProcessSource([sys.executable, str(AGENTS / "sigint.py")])
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total >= 3, timeout=20)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Stop agent" in titles
        assert "Play/Pause" not in titles  # no file is played back in run mode
        assert len(titles) == len(set(titles)), titles
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: app.state.ended, timeout=20)


def offered(app: StreamviewApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


def twice(titles: list[str]) -> list[str]:
    return sorted({title for title in titles if titles.count(title) > 1})


async def test_palette_names_are_unique_wherever_it_opens(tmp_path: Path) -> None:
    """No two entries share a name, wherever the palette opens and whatever is on:
    two sessions (the session keys), a filter (Show all calls), each pane focused, a
    call's details, the event log and a line of it. A shared name hid one of them."""
    path = tmp_path / "two.ndjson"
    path.write_bytes(RECORDING.read_bytes() + RECORDING.read_bytes().replace(b"GPT", b"GTP"))
    source = FileSource(path)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: len(app.state.sessions) == 2)
        places = {}
        app.transcript.focus()
        await pilot.pause()
        places["transcript"] = offered(app)
        await pilot.press("tab", "F")  # the table, filtered
        places["table, filtered"] = offered(app)
        assert "Show all calls" in places["table, filtered"]
        assert {"Previous session", "Next session"} <= set(places["table, filtered"])
        await pilot.press("escape", "enter")
        await wait_for(pilot, lambda: "Detail" in type(app.screen).__name__)
        places["details"] = offered(app)
        await pilot.press("escape", "l")
        places["log"] = offered(app)
        for where, titles in places.items():
            assert not twice(titles), f"{where}: {twice(titles)}"
            assert len(titles) > 10, where
