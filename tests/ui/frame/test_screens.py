"""Screens open and close as a person expects: the key that opens a screen closes it
(it never stacks a second copy), one escape closes one level, and q quits from any
screen (details, the event log and a line of it, the help, screens the palette opened)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.screen import Screen

from streamview.sources.base import FileSource
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.help import HelpScreen
from streamview.ui.log.event_log import EventEntryScreen, EventLogScreen

from ..conftest import RECORDINGS, FakeClock, settle, wait_for

STREAM = b"\n".join(
    [
        b'{"type":"system","subtype":"init","session_id":"s1","model":"GPT-5","cwd":"/w"}',
        b'{"type":"user","message":{"content":[{"type":"text","text":"list"}]},"session_id":"s1"}',
        b'{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":'
        b'{"shellToolCall":{"args":{"command":"ls"}}},"session_id":"s1"}',
        b"not json at all",
        b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":'
        b'{"shellToolCall":{"args":{"command":"ls"},"result":{"success":'
        b'{"stdout":"a\\nb\\n","exitCode":0}}}},"session_id":"s1"}',
        b'{"type":"result","subtype":"success","is_error":false,"duration_ms":1200,'
        b'"result":"done","session_id":"s1"}',
    ]
)


def viewer(tmp_path: Path) -> StreamviewApp:
    """The viewer on a finished run with one tool call and one malformed line."""
    path = tmp_path / "run.ndjson"
    path.write_bytes(STREAM + b"\n")
    return StreamviewApp(FileSource(path), clock=FakeClock())


def kinds(app: StreamviewApp) -> list[str]:
    """The screen stack from the bottom, by class name."""
    return [type(screen).__name__ for screen in app.screen_stack]


async def test_l_and_e_toggle_the_event_log_and_never_stack_it(tmp_path: Path) -> None:
    app = viewer(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        assert kinds(app) == ["Screen", "EventLogScreen"]
        await pilot.press("l")  # the same key closes it
        assert kinds(app) == ["Screen"]
        await pilot.press("l", "e", "l")  # open, close, open: one log, not three
        assert kinds(app) == ["Screen", "EventLogScreen"]
        await pilot.press("escape")  # one escape is enough
        assert kinds(app) == ["Screen"]
        assert app.screen is app.main_screen


async def test_one_escape_closes_one_level(tmp_path: Path) -> None:
    """Details, the log over them, the help over the log: escape peels one at a time."""
    app = viewer(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")  # the table, then the call's details
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await pilot.press("l")
        await pilot.press("question_mark")
        assert kinds(app) == ["Screen", "ToolCallDetailScreen", "EventLogScreen", "HelpScreen"]
        await pilot.press("escape")
        assert kinds(app) == ["Screen", "ToolCallDetailScreen", "EventLogScreen"]
        await pilot.press("l")  # the log's key closes the log, back to the details
        assert kinds(app) == ["Screen", "ToolCallDetailScreen"]
        await pilot.press("escape")
        assert kinds(app) == ["Screen"]


async def test_the_log_key_closes_a_line_opened_from_the_log_too(tmp_path: Path) -> None:
    app = viewer(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("l", "enter")  # the malformed line, whole
        await wait_for(pilot, lambda: isinstance(app.screen, EventEntryScreen))
        await pilot.press("escape")  # one level: back to the log
        assert kinds(app) == ["Screen", "EventLogScreen"]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EventEntryScreen))
        await pilot.press("l")  # the log closes, with the line over it
        assert kinds(app) == ["Screen"]


async def test_question_mark_toggles_the_help(tmp_path: Path) -> None:
    app = viewer(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert kinds(app) == ["Screen"]


@pytest.mark.parametrize(
    ("keys", "screen"),
    [
        (("l",), EventLogScreen),
        (("l", "enter"), EventEntryScreen),
        (("tab", "enter"), ToolCallDetailScreen),
        (("question_mark",), HelpScreen),
        (("l", "question_mark"), HelpScreen),
    ],
    ids=["log", "log-line", "details", "help", "help-over-log"],
)
async def test_q_quits_from_every_screen(
    tmp_path: Path, keys: tuple[str, ...], screen: type[Screen[None]]
) -> None:
    app = viewer(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await wait_for(pilot, lambda: isinstance(app.screen, screen))
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_value is not None)
    assert app.return_value == 0  # the run succeeded: its status is streamview's


@pytest.mark.parametrize(
    ("words", "screen"),
    [("event log", EventLogScreen), ("help", HelpScreen), ("call details", ToolCallDetailScreen)],
)
async def test_q_quits_from_a_screen_the_palette_opened(
    tmp_path: Path, words: str, screen: type[Screen[None]]
) -> None:
    app = viewer(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*[("space" if char == " " else char) for char in words])
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, screen))
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_value is not None)
    assert app.return_value == 0


async def test_a_recording_of_the_real_viewer_has_its_log_toggled() -> None:
    """The same on a bundled recording (no malformed line: an empty log)."""
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(3):
            await pilot.press("e")
        assert kinds(app) == ["Screen", "EventLogScreen"]
        await pilot.press("escape")
        assert kinds(app) == ["Screen"]
