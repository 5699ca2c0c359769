"""``g``/``G`` (top/bottom) and ``j``/``k`` (a line down/up) scroll a call's details and
a line of the event log as they do in less, beside home/end/arrows/pgup/pgdn; the keys
those screens had before keep what they did (issue 21: "where it is silent, do what
users of less expect")."""

from __future__ import annotations

import json
from pathlib import Path

from streamview.sources.base import FileSource
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.log.event_log import EventEntryScreen, EventLogList, EventLogScreen
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import FakeClock, settle, settle_sections, wait_for
from .test_detail_keys import long_shell_run


def run_with_a_big_unknown_record(path: Path, keys: int = 300) -> Path:
    """A run whose second line is a record nobody knows, of ``keys`` fields (its raw JSON
    in the event log's entry screen is ``keys`` lines and more)."""
    odd = {"type": "plasma", **{f"field_{n:03d}": n for n in range(keys)}}
    records = [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "cwd": "/w"},
        odd,
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 5},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def top_line(body: SectionView) -> str:
    """The first text row on screen."""
    return body.render_line(0).text.strip()


async def test_g_G_j_k_scroll_a_calls_details_as_in_less(tmp_path: Path) -> None:
    app = StreamviewApp(FileSource(long_shell_run(tmp_path / "run.ndjson")), clock=FakeClock())
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        body = app.screen.query_one(SectionView)
        assert app.screen.focused is body  # no click needed: the keys work at once
        assert body.max_scroll_y > 100
        await pilot.press("G")
        assert body.scroll_y == body.max_scroll_y
        assert "line 399" in "\n".join(body.render_line(y).text for y in range(body.size.height))
        await pilot.press("g")
        assert body.scroll_y == 0
        first = top_line(body)
        await pilot.press("j", "j", "j")
        assert body.scroll_y == 3
        await pilot.press("k")
        assert body.scroll_y == 2
        assert top_line(body) != first
        await pilot.press("k", "k")
        assert body.scroll_y == 0 and top_line(body) == first
        # Textual's keys as before, now at once too.
        await pilot.press("pagedown")
        page = body.scroll_y
        assert page > 10
        await pilot.press("down")
        assert body.scroll_y == page + 1
        await pilot.press("up", "pageup")
        assert body.scroll_y == 0
        await pilot.press("end")
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("home")
        assert body.scroll_y == 0
        # One escape closes the details, one level.
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ToolCallDetailScreen))
        assert len(app.screen_stack) == 1


async def test_the_details_own_keys_are_not_shadowed(tmp_path: Path) -> None:
    """r, c still act on the call; o, p, l, e, q keep the viewer's meanings (the
    new keys take only g, G, j, k and what Textual bound to scrolling already)."""
    app = StreamviewApp(FileSource(long_shell_run(tmp_path / "run.ndjson")), clock=FakeClock())
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        screen = app.screen
        assert isinstance(screen, ToolCallDetailScreen)
        body = screen.query_one(SectionView)
        bound = screen.active_bindings
        for key in "oprcelq":  # (a: offered only when something was cut)
            assert key in bound and bound[key].node is not body, key
        await pilot.press("j", "r")
        await settle_sections(app, pilot)
        assert screen.raw is True
        await pilot.press("c")
        assert '"shellToolCall"' in app.clipboard
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, EventLogScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_value is not None)


async def test_g_G_j_k_scroll_a_line_of_the_event_log(tmp_path: Path) -> None:
    run = run_with_a_big_unknown_record(tmp_path / "run.ndjson")
    app = StreamviewApp(FileSource(run), clock=FakeClock())
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await wait_for(pilot, lambda: bool(app.screen.query(EventLogList)))
        log = app.screen
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EventEntryScreen))
        await settle_sections(app, pilot)
        body = app.screen.query_one(SectionView)
        assert app.screen.focused is body
        assert body.max_scroll_y > 250
        await pilot.press("G")
        assert body.scroll_y == body.max_scroll_y
        shown = "\n".join(body.render_line(y).text for y in range(body.size.height))
        assert "field_299" in shown
        await pilot.press("g", "j", "j")
        assert body.scroll_y == 2
        await pilot.press("k")
        assert body.scroll_y == 1
        await pilot.press("escape")  # one level: back to the log, not the viewer
        await wait_for(pilot, lambda: app.screen is log)
        assert isinstance(app.screen.focused, EventLogList)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EventEntryScreen))
        await pilot.press("q")  # q quits from here too
        await wait_for(pilot, lambda: app.return_value is not None)


async def test_G_in_the_details_of_a_played_back_file_also_ends_the_playback(
    tmp_path: Path,
) -> None:
    """G keeps its meaning everywhere (a playback to 100 %) and scrolls the details too."""
    source = FileSource(long_shell_run(tmp_path / "run.ndjson"))
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    async with app.run_test(size=(90, 24)) as pilot:
        await pilot.press("0")
        await wait_for(pilot, lambda: feed.loaded, timeout=20)
        await pilot.press("9")  # 90 %: the call has completed
        await wait_for(pilot, lambda: bool(app.tool_table.row_count))
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        body = app.screen.query_one(SectionView)
        assert feed.position < feed.total and body.max_scroll_y > 100
        await pilot.press("G")
        await wait_for(pilot, lambda: feed.position == feed.total)
        assert body.scroll_y == body.max_scroll_y
