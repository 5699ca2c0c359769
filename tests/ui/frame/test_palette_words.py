"""The palette as a person types in it (issue 21.6): a key press at a time, then Enter.
"First" and "Last" bring the tool calls' first and last call wherever the focus is
(typing ``First`` from the transcript once ran "Sort calls: slowest, trouble first");
the words of Textual's own entries (Keys, Screenshot, Page Left, Scroll Left, Maximize)
bring streamview's, and what they open closes with one Escape."""

from __future__ import annotations

from typing import Any

import pytest
from textual.command import CommandInput, CommandList, CommandPalette
from textual.pilot import Pilot

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import RECORDINGS, FakeClock, settle, wait_for

RECORDING = RECORDINGS / "success-multi-tool.ndjson"
HELP = "Help: key bindings and shortcuts"
"""The palette's name of the help (``?``)."""
TEXTUALS_OWN = {"Keys", "Screenshot", "Maximize", "Minimize", "Page Left", "Page Right"}
"""Textual's entries that did nothing here, or did it badly (and "Scroll …" below)."""


def offered(app: StreamviewApp) -> list[str]:
    """The entries the open palette lists now, first first."""
    options = app.screen.query_one(CommandList)
    return [
        str(getattr(getattr(options.get_option_at_index(i), "hit", None), "text", ""))
        for i in range(options.option_count)
    ]


async def type_in_palette(pilot: Pilot[Any], words: str) -> list[str]:
    """ctrl+p, then ``words`` a key at a time; what it offers once it has settled."""
    app = pilot.app
    assert isinstance(app, StreamviewApp)
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*["space" if char == " " else char for char in words])
    await wait_for(pilot, lambda: app.screen.query_one(CommandInput).value == words)
    await pilot.pause(0.4)  # the palette searches in a worker
    await wait_for(pilot, lambda: bool(offered(app)))
    return offered(app)


@pytest.mark.parametrize("focus", ["transcript", "table"])
async def test_first_and_last_typed_bring_the_first_and_last_call(focus: str) -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        table = app.tool_table
        if focus == "table":
            await pilot.press("tab", "down", "down")  # somewhere in the middle
        assert app.focused is (table if focus == "table" else app.transcript)
        order = table.call_filter.order
        entries = await type_in_palette(pilot, "First")
        assert entries[0] == "First call", entries
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette))
        await wait_for(pilot, lambda: table.cursor == 0)
        assert table.call_filter.order == order  # not sorted
        assert app.focused is table
        entries = await type_in_palette(pilot, "Last")
        assert entries[0] == "Last call", entries
        await pilot.press("enter")
        await wait_for(pilot, lambda: table.cursor == table.row_count - 1)
        assert table.call_filter.order == order


@pytest.mark.parametrize(
    ("words", "first"),
    [
        ("Keys", HELP),  # Textual's panel is gone: the word finds streamview's help
        ("Key", HELP),
        ("Screenshot", "Export transcript and screenshot"),
        ("Page Left", None),
        ("Scroll Left", None),
        ("Maximize", None),
    ],
)
async def test_textuals_own_entries_are_not_offered(words: str, first: str | None) -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*["space" if char == " " else char for char in words])
        await wait_for(pilot, lambda: app.screen.query_one(CommandInput).value == words)
        await pilot.pause(0.5)
        entries = offered(app)
        own = [e for e in entries if e in TEXTUALS_OWN or e.startswith("Scroll ")]
        assert not own, entries
        if first is not None:
            assert entries and entries[0] == first, entries


async def test_keys_typed_opens_the_help_and_one_escape_closes_it() -> None:
    """Textual's "Keys" panel stayed open on Escape; "key" now brings the help."""
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        await type_in_palette(pilot, "key")
        await pilot.press("enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.main_screen)
        assert [type(s).__name__ for s in app.screen_stack] == ["Screen"]


@pytest.mark.parametrize("where", ["transcript", "table", "details", "log"])
@pytest.mark.parametrize("words", ["keys", "help", "shortcuts", "keybindings"])
async def test_the_words_a_person_tries_for_the_key_list_bring_the_help(
    words: str, where: str
) -> None:
    """What a person looking for the key list types (Textual's "Keys" entry was its
    answer once; lazygit calls the list "keybindings"): the help comes first, Enter
    opens it, one Escape goes back to where the palette was opened."""
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        if where != "transcript":
            await pilot.press("tab")
        if where in ("details", "log"):
            await pilot.press("enter" if where == "details" else "l")
            await wait_for(pilot, lambda: app.screen is not app.main_screen)
        below = app.screen
        entries = await type_in_palette(pilot, words)
        assert entries[0] == HELP, entries
        await pilot.press("enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is below)


@pytest.mark.parametrize(
    ("words", "found"),
    [
        ("markdown", "Export transcript and screenshot"),
        ("svg", "Export transcript and screenshot"),
    ],
)
async def test_the_palette_finds_an_action_by_its_description(words: str, found: str) -> None:
    """Issue 30.5: "markdown" found nothing, though the export's description says it
    writes a Markdown transcript; typed a key at a time, it finds the export, and Enter
    opens the export dialog."""
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*words)
        await wait_for(pilot, lambda: app.screen.query_one(CommandInput).value == words)
        await wait_for(pilot, lambda: found in offered(app))
        assert offered(app)[0] == found, offered(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ExportDialog")
