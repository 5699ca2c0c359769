"""Keys that arrive together, as a terminal delivers what was typed fast (or tmux's
send-keys delivers a list): each is posted to the app at once, none waited for.

Pilot's ``press`` waits for the app to go idle after each key, which hides what happens
when a key is handled while the previous one's screen is still on its way (the table's
enter asks for a call's details with a message; a key right behind it acts before
that message arrives)."""

from __future__ import annotations

from pathlib import Path

from textual import events

from streamview.ui.frame.app import StreamviewApp

from ..conftest import settle, wait_for
from .test_screens import kinds, viewer

CHARACTERS = {"enter": "\r", "tab": "\t", "escape": "\x1b"}


def type_at_once(app: StreamviewApp, *keys: str) -> None:
    """Post ``keys`` to the app back to back, as its driver does with a burst of input."""
    for key in keys:
        app.post_message(events.Key(key, CHARACTERS.get(key, key)))


async def test_e_right_after_enter_opens_the_log_over_the_details(tmp_path: Path) -> None:
    """enter then e in one burst leave the log under the details (e acted first); e
    pressed on the details then opens the log over them. It used to close the details
    and that log together, back to the main screen (a tmux test saw it at load 10)."""
    app = viewer(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        type_at_once(app, "enter", "e")
        await wait_for(pilot, lambda: "ToolCallDetailScreen" in kinds(app))
        await pilot.pause(0.1)
        on_show = kinds(app)[-1]
        await pilot.press("e")  # the log: over what is on show
        assert kinds(app)[-2:] == [on_show, "EventLogScreen"], kinds(app)
        await pilot.press("e")  # the same key closes it, and only it
        assert kinds(app)[-1] == on_show, kinds(app)
