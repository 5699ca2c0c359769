"""The sessions list in a terminal: rows, typing filters, Enter opens a run, and the
viewer's Escape comes back to the list where it was left."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import Input

from streamview.cli import sessions
from streamview.runs.session_discovery import RunEntry
from streamview.sources.base import FileSource
from streamview.ui.sessions.list_app import (
    ATTENTION_MARK,
    LIVE_MARK,
    Place,
    SessionsApp,
    activity_text,
)
from streamview.ui.sessions.runs_table import RunsTable
from streamview.ui.sessions.viewer import ListedViewerApp
from tests.ui.conftest import RECORDINGS, FakeClock, settle, wait_for


def entry(name: str, agent: str, title: str, activity: float, live: bool = False) -> RunEntry:
    """A run as discovery describes it (no file behind it: the list never reads one)."""
    return RunEntry(
        path=Path(f"/runs/{name}.jsonl"),
        source="session",
        agent=agent,
        project=f"~/work/{name}",
        title=title,
        started=None,
        last_activity=activity,
        size=2048,
        live=live,
        calls=3 if agent == "Codex" else None,
        errors=1 if agent == "Codex" else None,
        tokens=3456 if agent == "Codex" else None,
    )


RUNS = [
    entry("shop", "Claude Code", "fix the [b]cart[/b] total", 1_700_000_300, live=True),
    entry("api", "Codex", "add a health endpoint", 1_700_000_200),
    entry("notes", "opencode", "tidy the notes", 1_700_000_100),
    entry("site", "Claude Code", "rename the site", 1_700_000_000),
]


def row_paths(app: SessionsApp) -> list[str]:
    return list(app.query_one("#runs", RunsTable).keys)


async def test_typing_filters_and_enter_chooses_the_run_under_the_cursor() -> None:
    """Every run in order, live marked and markup shown as typed; typing keeps the
    matching runs; down then Enter ends the list with that run, its place kept."""
    app = SessionsApp(lambda: RUNS)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_for(pilot, lambda: len(row_paths(app)) == 4)
        table = app.query_one("#runs", RunsTable)
        assert str(table.get_cell_at(0, 0)) == LIVE_MARK
        assert str(table.get_cell_at(0, 7)) == "fix the [b]cart[/b] total"
        assert str(table.get_cell_at(0, 3)) == "2023-11-14"  # a year ago: the day is enough
        assert [str(table.get_cell_at(row, 4)) for row in (0, 1)] == ["-", "3 ✗1"]
        assert [str(table.get_cell_at(row, 5)) for row in (0, 1)] == ["-", "3.5k"]
        await pilot.press(*"claude")
        await wait_for(pilot, lambda: len(row_paths(app)) == 2)
        assert row_paths(app) == ["/runs/shop.jsonl", "/runs/site.jsonl"]
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.return_value is not None)
    assert app.return_value is RUNS[3]
    assert app.place == Place("claude", "/runs/site.jsonl")


async def test_a_new_list_comes_back_where_the_last_was_left() -> None:
    """The list after the viewer: its filter typed again and the cursor on the run that
    was opened, though newer runs came in above it; a click on a row opens it."""
    newer = entry("new", "Claude Code", "a newer claude run", 1_700_000_400)
    app = SessionsApp(lambda: [newer, *RUNS], place=Place("claude", "/runs/site.jsonl"))
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_for(pilot, lambda: len(row_paths(app)) == 3)
        assert app.query_one(Input).value == "claude"
        table = app.query_one("#runs", RunsTable)
        assert row_paths(app)[table.cursor_row] == "/runs/site.jsonl"
        await pilot.press("escape")  # clears the filter, the cursor stays on its run
        await wait_for(pilot, lambda: len(row_paths(app)) == 5)
        assert row_paths(app)[table.cursor_row] == "/runs/site.jsonl"
        await pilot.click("#runs", offset=(5, 3))  # the header, then the third run
        await wait_for(pilot, lambda: app.return_value is not None)
    assert app.return_value is RUNS[1]
    assert app.place.path == "/runs/api.jsonl"


async def test_escape_in_the_viewer_goes_back_once_nothing_is_open() -> None:
    """Escape with nothing to close ends the viewer and says so (the list comes
    back); a search box open takes the first Escape."""
    back: list[bool] = []
    path = RECORDINGS / "success-multi-tool.ndjson"
    app = ListedViewerApp(FileSource(path), clock=FakeClock(), on_back=lambda: back.append(True))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await wait_for(pilot, lambda: app.search_box.has_focus)
        await pilot.press("escape")
        await settle(pilot)
        assert not back and app.is_running
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(back))
    assert app.went_back


def test_the_loop_opens_each_choice_and_comes_back_to_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``browse``: Enter's run opens (followed when live); Escape there brings a new
    list at the same place; q in the viewer ends it all with the viewer's status."""
    places: list[Place | None] = []
    choices = iter([RUNS[0], RUNS[1]])

    def run(self: SessionsApp) -> RunEntry | None:
        places.append(self.place)
        self.place = Place("x", str(RUNS[len(places) - 1].path))
        return next(choices)

    opened: list[RunEntry] = []

    def open_entry(chosen: RunEntry, theme: str | None, on_back: object) -> tuple[int, None]:
        opened.append(chosen)
        if len(opened) == 1:
            assert callable(on_back)
            on_back()  # Escape in the first viewer
        return 1, None

    monkeypatch.setattr(SessionsApp, "run", run)
    monkeypatch.setattr(sessions, "open_entry", open_entry)
    assert sessions.browse(lambda: RUNS) == 1
    assert opened == [RUNS[0], RUNS[1]]
    assert places == [Place(), Place("x", "/runs/shop.jsonl")]


async def test_the_list_finds_runs_again_and_keeps_its_place() -> None:
    """Every few seconds the runs are found again: a new run comes in at the top, the
    cursor stays on the run it was on."""
    found = list(RUNS)
    app = SessionsApp(lambda: list(found), refresh_seconds=0.05)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_for(pilot, lambda: len(row_paths(app)) == 4)
        await pilot.press("down")
        table = app.query_one("#runs", RunsTable)
        assert row_paths(app)[table.cursor_row] == "/runs/api.jsonl"
        found.insert(0, entry("new", "Codex", "a run that just started", 1_700_000_900))
        await wait_for(pilot, lambda: len(row_paths(app)) == 5)
        assert row_paths(app)[0] == "/runs/new.jsonl"
        assert row_paths(app)[table.cursor_row] == "/runs/api.jsonl"


def test_last_activity_is_as_short_as_is_clear() -> None:
    """Today the hour, this year the day and hour, before the date."""
    now = datetime(2026, 11, 28, 9, 0)
    assert activity_text(datetime(2026, 11, 28, 8, 5).timestamp(), now) == "08:05"
    assert activity_text(datetime(2026, 11, 2, 9, 30).timestamp(), now) == "11-02 09:30"
    assert activity_text(datetime(2025, 11, 2, 9, 30).timestamp(), now) == "2025-11-02"


def test_an_unknown_theme_is_refused_by_name() -> None:
    """``--theme nope`` is one line naming the themes there are, not a traceback."""
    from streamview.sources.base import InputError

    with pytest.raises(InputError, match=r"unknown theme 'nope'.*textual-dark"):
        SessionsApp(lambda: [], theme="nope")


def test_the_readme_names_each_key_the_footer_shows() -> None:
    """The sessions section's key table has every key the list's footer shows."""
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    start = readme.index("### Every run on this machine")
    section = readme[start : readme.index("\n### ", start + 1)]
    for binding in SessionsApp.BINDINGS:
        assert not isinstance(binding, tuple)
        if isinstance(binding, Binding) and binding.show:
            shown = {"escape": "esc"}.get(binding.key, binding.key)  # as the footer says it
            assert f"`{shown}`" in section, binding.key


async def test_two_thousand_runs_draw_only_the_rows_on_screen() -> None:
    """2,000 runs: the first screen draws the rows it shows, not every run; a live run
    whose mark changes draws its own row again and no other (a ``DataTable`` measured
    every cell, and drew every visible cell again on each update)."""
    runs = [
        entry(f"r{n:04d}", "Claude Code", f"task {n}", 1_700_002_000 - n, live=n < 5)
        for n in range(2000)
    ]
    app = SessionsApp(lambda: runs, refresh_seconds=None, live_poll_seconds=None)
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one("#runs", RunsTable)
        await wait_for(pilot, lambda: len(table.keys) == 2000 and table.rendered > 0)
        await pilot.pause()
        drawn = table.rendered
        on_screen = table.scrollable_content_region.height - 1
        assert on_screen <= drawn <= 2 * on_screen  # the cursor's row may be drawn twice
        app.attention.add(runs[3].path)
        app._paint(app.shown[3], time.time())  # as a poll does for a live run
        await wait_for(pilot, lambda: table.rendered > drawn)
        await pilot.pause()
        assert table.rendered == drawn + 1
        assert str(table.get_cell_at(3, 0)) == ATTENTION_MARK
        app._paint(app.shown[4], time.time())  # nothing changed: nothing drawn
        await pilot.pause()
        assert table.rendered == drawn + 1


async def test_news_from_a_reader_thread_after_the_table_went_is_dropped() -> None:
    """A live poll or a new listing that lands while the app closes (its table gone, as
    a traced bench run hit: NoMatches '#runs') changes nothing and raises nothing."""
    app = SessionsApp(lambda: RUNS)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_for(pilot, lambda: len(row_paths(app)) == 4)
        await app.query_one("#runs", RunsTable).remove()
        app._show_live([])
        app._show_found(RUNS[:1])
        assert app.entries == RUNS


def empty_text(app: SessionsApp) -> str:
    """What the list says in place of its rows ('' when it shows rows)."""
    from textual.widgets import Static

    empty = app.query_one("#empty", Static)
    return str(empty.render()) if empty.display else ""


async def test_a_list_that_shows_no_run_says_why_in_its_place() -> None:
    """No run found: where the list looked, the table hidden. Typing that matches
    nothing: what was typed and how to clear it; Escape brings the rows back."""
    places = ["~/.claude/projects (Claude Code)", "~/runs [b]x[/b] (--dir)"]
    app = SessionsApp(lambda: [], places=places, refresh_seconds=None)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_for(pilot, lambda: empty_text(app).startswith("No runs"))
        said = empty_text(app)
        assert said.startswith("No runs found. streamview sessions looked in:")
        assert "  ~/.claude/projects (Claude Code)\n  ~/runs [b]x[/b] (--dir)\n" in said
        assert not app.query_one("#runs", RunsTable).display
    app = SessionsApp(lambda: RUNS, refresh_seconds=None)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_for(pilot, lambda: len(row_paths(app)) == 4)
        assert empty_text(app) == ""
        await pilot.press(*"zz[/x]")
        await wait_for(pilot, lambda: not row_paths(app))
        assert empty_text(app) == "No run matches “zz[/x]” (esc clears the filter)."
        assert not app.query_one("#runs", RunsTable).display
        await pilot.press("escape", "ctrl+l")  # every run, then only the live one
        await wait_for(pilot, lambda: row_paths(app) == ["/runs/shop.jsonl"])
        assert empty_text(app) == ""
        assert app.query_one("#runs", RunsTable).display
