"""Every palette entry, from every place a person opens the palette, does what its name
says: the transcript or the tool table focused, a call's details, the event log.

Each entry is taken as a person takes it: ctrl+p, its whole name typed, Enter. Its
name must bring it first (typing ``First`` once ran "Sort calls: slowest, trouble
first"), choosing it must raise nothing, and what changed must be what the name says.
An entry with no check here fails the walk: a new key needs a name and a check.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandInput, CommandList, CommandPalette
from textual.pilot import Pilot

from streamview.sources.base import FileSource
from streamview.ui.calls.filter import CallFilter
from streamview.ui.details import handoff
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.log.event_log import EventLogList
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import RECORDINGS, wait_for

RECORDING = RECORDINGS / "success-multi-tool.ndjson"
BASE_POSITION = 160
"""Where the playback waits (of 178 events): 8 calls before it and 2 after, a transcript
of several screens."""
BASE_CALL = 2
"""The table's cursor: a read of ``src/tidepool/backoff.py``."""
EVERY = 20
"""A malformed line goes before every 20th line of the recording: the event log has
entries to move through at the playback's place."""


def recording_with_garbage(tmp_path: Path) -> Path:
    """The bundled recording with a malformed line before every :data:`EVERY` th line."""
    mixed: list[bytes] = []
    for number, line in enumerate(RECORDING.read_bytes().splitlines()):
        if number and number % EVERY == 0:
            mixed.append(b"not json, line %d" % number)
        mixed.append(line)
    path = tmp_path / "run.ndjson"
    path.write_bytes(b"\n".join(mixed) + b"\n")
    return path


@dataclass
class Seen:
    """What a person could see change, taken before and after an entry."""

    screens: tuple[str, ...]
    focused: str | None
    scroll: float
    max_scroll: float
    following: bool
    thinking: bool
    cursor: int | None
    rows: int
    call_filter: CallFilter
    wall_clock: bool
    position: int
    total: int
    playing: bool
    speed: float
    elapsed: float
    search_open: bool
    filter_open: bool
    search_at: int
    notes: tuple[str, ...]
    clipboard: str
    returned: int | None
    log_cursor: int | None
    log_rows: int
    raw: bool | None
    handed: tuple[tuple[str, ...], ...]
    body_scroll: float
    """Where a call's details are scrolled to (0 elsewhere)."""
    body_max: float


@dataclass
class Walk:
    """One viewer being walked through, and what the hand-off keys were asked to run."""

    app: StreamviewApp
    feed: PlaybackFeed
    handed: list[tuple[str, ...]] = field(default_factory=list)
    noted: list[str] = field(default_factory=list)
    """Every toast shown, kept: a toast of 3 s could expire before a slow machine's
    settle was over (CI saw Suspend's toast gone, notes empty)."""

    def seen(self) -> Seen:
        app, feed = self.app, self.feed
        table, transcript = app.tool_table, app.transcript
        screen = app.screen
        logs = screen.query(EventLogList)
        elapsed, total_ms = feed.times() if feed.loaded else (0.0, 1.0)
        focused = screen.focused
        bodies = screen.query(SectionView)
        return Seen(
            screens=tuple(type(s).__name__ for s in app.screen_stack),
            focused=(focused.id or type(focused).__name__) if focused is not None else None,
            scroll=transcript.scroll_y,
            max_scroll=transcript.max_scroll_y,
            following=transcript.following,
            thinking=transcript.show_thinking,
            cursor=table.cursor,
            rows=table.row_count,
            call_filter=table.call_filter,
            wall_clock=table.wall_clock,
            position=feed.position,
            total=feed.total,
            playing=feed.playing,
            speed=feed.speed,
            elapsed=elapsed / max(total_ms, 1.0),
            search_open=bool(app.search_box.display),
            filter_open=bool(app.filter_box.display),
            search_at=app.search_at,
            notes=tuple(self.noted),
            clipboard=app.clipboard,
            returned=app.return_value,
            log_cursor=logs.first().cursor if logs else None,
            log_rows=logs.first().row_count if logs else 0,
            raw=getattr(screen, "raw", None),
            handed=tuple(self.handed),
            body_scroll=bodies.first().scroll_y if bodies else 0,
            body_max=bodies.first().max_scroll_y if bodies else 0,
        )


Check = Callable[[Seen, Seen], bool]


def new_note(before: Seen, after: Seen) -> str:
    return after.notes[-1] if len(after.notes) > len(before.notes) else ""


def top(after: Seen) -> str:
    return after.screens[-1]


def seek(tenth: int) -> Check:
    return lambda b, a: abs(a.elapsed - tenth / 10) < 0.1 and not a.playing


CHECKS: dict[str, Check] = {
    # Textual's theme picker: the palette turns into the list of themes.
    "Theme": lambda b, a: top(a) == "CommandPalette",
    "Quit": lambda b, a: a.returned is not None,
    # Pilot's headless driver cannot suspend (tmux does it: tests/e2e/test_ways_out_tmux.py).
    "Suspend": lambda b, a: bool(a.notes) and a.notes[-1].startswith("cannot suspend here"),
    "Help: key bindings and shortcuts": lambda b, a: top(a) == "HelpScreen",
    "Search": lambda b, a: a.search_open and a.focused == "search",
    "Next match": lambda b, a: a.search_at != b.search_at,
    "Previous match": lambda b, a: a.search_at != b.search_at,
    "Show or hide thinking": lambda b, a: a.thinking != b.thinking,
    "Open call's file in editor": lambda b, a: (
        any("backoff.py" in part for part in a.handed[-1:][0])
        if len(a.handed) > len(b.handed)
        else False
    ),
    "Call's result in pager": lambda b, a: len(a.handed) == len(b.handed) + 1,
    "Filter calls by text": lambda b, a: a.filter_open and a.focused == "call-filter",
    "Copy selection or call's target": lambda b, a: (
        (a.clipboard.endswith("backoff.py") and a.clipboard != b.clipboard)
        or new_note(b, a).startswith("nothing to copy")
    ),
    "Copy from the details": lambda b, a: "backoff" in a.clipboard and a.clipboard != b.clipboard,
    "Follow the newest on/off": lambda b, a: a.following != b.following,
    "Event log": lambda b, a: (
        top(a) == "EventLogScreen" if "EventLogScreen" not in b.screens else len(a.screens) == 1
    ),
    "Run summary": lambda b, a: (
        top(a) == "SummaryScreen" if "SummaryScreen" not in b.screens else len(a.screens) == 1
    ),
    "Play/Pause": lambda b, a: a.playing != b.playing,
    "Step one event forward": lambda b, a: a.position == b.position + 1,
    "Step one event back": lambda b, a: a.position == b.position - 1,
    "Play to next call": lambda b, a: a.position > b.position,
    "Play back to previous call": lambda b, a: a.position < b.position,
    "Play faster": lambda b, a: a.speed > b.speed,
    "Play slower": lambda b, a: a.speed < b.speed,
    "Restart playback": lambda b, a: a.position < b.position and a.playing,
    "Playback to the end": lambda b, a: a.position == a.total,
    **{f"Seek to {tenth * 10}%": seek(tenth) for tenth in range(10)},
    "Export transcript and screenshot": lambda b, a: top(a) == "ExportDialog",
    "Call above": lambda b, a: a.cursor == BASE_CALL - 1 and a.focused == "tool-calls",
    "Call below": lambda b, a: a.cursor == BASE_CALL + 1 and a.focused == "tool-calls",
    "Page of calls up": lambda b, a: a.cursor == 0 and a.focused == "tool-calls",
    "Page of calls down": lambda b, a: (a.cursor or 0) > BASE_CALL + 1,
    "First call": lambda b, a: a.cursor == 0 and a.focused == "tool-calls",
    "Last call": lambda b, a: a.cursor == a.rows - 1 and a.focused == "tool-calls",
    "Call details": lambda b, a: top(a) == "ToolCallDetailScreen",
    "Filter calls: failed, rejected, running": lambda b, a: (
        a.call_filter.status != b.call_filter.status and a.rows < b.rows
    ),
    "Filter calls by kind": lambda b, a: a.call_filter.kind is not None and a.rows < b.rows,
    "Sort calls: slowest, trouble first": lambda b, a: a.call_filter.order != b.call_filter.order,
    "Start times: offset or clock": lambda b, a: a.wall_clock != b.wall_clock,
    "Scroll transcript up": lambda b, a: a.scroll == b.scroll - 1,
    "Scroll transcript down": lambda b, a: a.scroll == b.scroll + 1,
    "Transcript page up": lambda b, a: a.scroll < b.scroll - 1,
    "Transcript page down": lambda b, a: a.scroll > b.scroll + 1,
    "Top of transcript": lambda b, a: a.scroll == 0 and not a.following,
    "End of transcript (follow)": lambda b, a: a.following and a.scroll == a.max_scroll,
    # G: the end of the transcript and of the playback, even while it plays.
    "End of the run": lambda b, a: a.following and a.position == a.total,
    "Entry above": lambda b, a: a.log_cursor == (b.log_cursor or 0) - 1,
    "Entry below": lambda b, a: a.log_cursor == (b.log_cursor or 0) + 1,
    "Page of entries up": lambda b, a: a.log_cursor == 0,
    "Page of entries down": lambda b, a: (a.log_cursor or 0) > (b.log_cursor or 0),
    "First entry": lambda b, a: a.log_cursor == 0,
    "Last entry": lambda b, a: a.log_cursor == a.log_rows - 1,
    "Show line": lambda b, a: top(a) == "EventEntryScreen",
    "Close event log": lambda b, a: a.screens == ("Screen",),
    "Close details": lambda b, a: a.screens == ("Screen",),
    "Raw JSON of the call": lambda b, a: a.raw is True and b.raw is False,
    "Scroll details up": lambda b, a: a.body_scroll == b.body_scroll - 1,
    "Scroll details down": lambda b, a: a.body_scroll == b.body_scroll + 1,
    "Page details up": lambda b, a: a.body_scroll < b.body_scroll - 1,
    "Page details down": lambda b, a: a.body_scroll > b.body_scroll + 1,
    "Top of details": lambda b, a: a.body_scroll == 0 < b.body_scroll,
    "Bottom of details": lambda b, a: a.body_scroll == a.body_max > b.body_scroll,
}
"""What each entry's name promises, as a change between before and after."""


async def settle_walk(pilot: Pilot[Any]) -> None:
    """Let a chosen entry's work (a screen, a worker, a fold) finish."""
    app = pilot.app
    await pilot.pause(0.05)
    await app.workers.wait_for_complete()
    await pilot.pause(0.05)


async def to_base(walk: Walk, pilot: Pilot[Any], where: str) -> None:
    """The same starting place before every entry: the playback paused at
    :data:`BASE_POSITION`, no filter, sort, search or box, thinking shown, the table's
    cursor on :data:`BASE_CALL`, the transcript mid-way and not following; then the
    place the palette is opened from."""
    app, feed = walk.app, walk.feed
    while len(app.screen_stack) > 1:
        app.pop_screen()
        await pilot.pause()
    if feed.playing:
        feed.toggle()
    while feed.speed > 1:
        feed.slower()
    while feed.speed < 1:
        feed.faster()
    if feed.position != BASE_POSITION:
        feed.go_to(BASE_POSITION)
        app.pump()
    await wait_for(pilot, lambda: app.state.sessions and len(app.state.sessions[0].tool_calls) > 5)
    app.theme = "textual-dark"
    table, transcript = app.tool_table, app.transcript
    table.set_filter(CallFilter())
    table.wall_clock = False
    transcript.set_show_thinking(True)
    app.search_box.display = False
    app.filter_box.display = False
    app.search_at = -1
    app.call_hits = []
    transcript.clear_search()
    transcript.set_follow(False)
    await pilot.pause()
    middle = transcript.max_scroll_y // 2
    transcript.scroll_to(y=middle, animate=False, immediate=True)
    # The scroll tells the table which call is in view (a message): the table's cursor
    # is set once that was handled, or it lands on the call in view (CI saw 3, not 2).
    await wait_for(pilot, lambda: transcript.scroll_y == middle)
    await pilot.pause()
    table.move_cursor(BASE_CALL)
    if where == "transcript":
        transcript.focus()
    else:
        table.focus()
        table.move_cursor(BASE_CALL)
    await pilot.pause()
    if where == "details":
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_walk(pilot)
        body = app.screen.query_one(SectionView)
        assert body.max_scroll_y > 10, "the details need a few pages to scroll"
        body.scroll_to(y=body.max_scroll_y // 2, animate=False, immediate=True)
    else:
        await pilot.pause()
        assert table.cursor == BASE_CALL, f"the table's cursor moved to {table.cursor}"
    if where == "log":
        await pilot.press("l")
        await wait_for(pilot, lambda: bool(app.screen.query(EventLogList)))
        log = app.screen.query_one(EventLogList)
        await wait_for(pilot, lambda: log.row_count >= 5)
        log.focus()
        log.move_cursor(2)
    await pilot.pause()


async def prepare(walk: Walk, pilot: Pilot[Any], title: str, where: str) -> None:
    """What an entry needs before it can show what it does: a search for the match keys."""
    if title in ("Next match", "Previous match"):
        app = walk.app
        screen = app.screen
        if screen is not app.main_screen:
            while len(app.screen_stack) > 1:
                app.pop_screen()
            await pilot.pause()
        await pilot.press("slash", *"backoff", "enter")
        await wait_for(pilot, lambda: app.transcript.match_count > 2)
        if where == "details":
            await to_base_screen(walk, pilot, where)


async def to_base_screen(walk: Walk, pilot: Pilot[Any], where: str) -> None:
    app = walk.app
    app.tool_table.focus()
    app.tool_table.move_cursor(BASE_CALL)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
    await settle_walk(pilot)


def first_offered(palette: CommandPalette) -> str | None:
    """The entry Enter would take now."""
    options = palette.query_one(CommandList)
    if not options.option_count or not palette.query_one(CommandInput).value:
        return None
    highlighted = options.highlighted or 0
    hit = options.get_option_at_index(highlighted)
    return getattr(getattr(hit, "hit", None), "text", None)


async def choose(walk: Walk, pilot: Pilot[Any], title: str) -> None:
    """ctrl+p, the entry's whole name, Enter (its name must bring it first)."""
    app = walk.app
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    palette.query_one(CommandInput).value = title
    try:
        await wait_for(pilot, lambda: first_offered(palette) == title)
    except AssertionError:
        raise AssertionError(
            f"typing {title!r} offers {first_offered(palette)!r} first, not {title!r}"
        ) from None
    await pilot.press("enter")
    if title != "Theme":
        await wait_for(pilot, lambda: palette not in app.screen_stack)
    await settle_walk(pilot)


def entries_offered(app: StreamviewApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


PARTS = 12
"""Each place's walk is cut in this many parts, each its own test with its own viewer
(entries ``part``, ``part + PARTS``, ...): a whole walk took 48-73 s alone and more than
the suite's timeout on a busy machine; a part (three or four entries) takes 2-4 s alone.
Twenty parts spent a third of the walk's time starting viewers and indexing the file."""


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("where", ["transcript", "table", "details", "log"])
async def test_every_palette_entry_does_what_its_name_says(
    where: str, part: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = recording_with_garbage(tmp_path)
    checkout = tmp_path / "checkout"
    (checkout / "src" / "tidepool").mkdir(parents=True)
    shutil.copy(path, checkout / "src" / "tidepool" / "backoff.py")  # any content will do
    source = FileSource(path)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    app = StreamviewApp(
        source,
        feed=feed,
        clock=feed.recorded_now_ms,
        cwd_map=[("/home/dev/src/tidepool", str(checkout))],
    )
    walk = Walk(app, feed)
    shown = app.notify

    def keep(message: str, *args: Any, **kwargs: Any) -> None:
        walk.noted.append(str(message))
        shown(message, *args, **kwargs)

    monkeypatch.setattr(app, "notify", keep)

    def hand_over(_app: object, command: list[str], stdin_text: str | None = None) -> None:
        walk.handed.append(tuple(command))
        return None

    monkeypatch.setattr(handoff, "run_suspended", hand_over)
    monkeypatch.setenv("EDITOR", "vi")
    monkeypatch.setenv("PAGER", "less")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.ended, timeout=20)
        await pilot.press("0")  # index the file for playback
        await wait_for(pilot, lambda: feed.loaded, timeout=20)
        await to_base(walk, pilot, where)
        titles = entries_offered(app)
        assert len(titles) == len(set(titles)), f"names offered twice: {titles}"
        unchecked = [title for title in titles if title not in CHECKS]
        assert not unchecked, f"entries without a check: {unchecked}"
        assert "Quit" in titles
        titles = [title for title in titles if title != "Quit"] + ["Quit"]  # Quit last
        assert len(titles) >= PARTS, "fewer entries than parts: lower PARTS"
        titles = titles[part::PARTS]
        failures = []
        for title in titles:
            await to_base(walk, pilot, where)
            await prepare(walk, pilot, title, where)
            before = walk.seen()
            await choose(walk, pilot, title)
            after = walk.seen()
            if not CHECKS[title](before, after):
                failures.append(f"{title}: before {before}\n  after {after}")
            if title == "Theme":
                await pilot.press("escape")
            if title == "Quit":
                break
        assert not failures, f"from the {where}:\n" + "\n".join(failures)
    if "Quit" in titles:  # quit mid-playback: the run shown has not finished
        assert app.return_value == 1
