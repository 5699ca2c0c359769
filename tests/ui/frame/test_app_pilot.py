"""The viewer driven like a user would: real captures in, keys pressed, screen read back."""

from __future__ import annotations

import os
import time
from pathlib import Path

import orjson
import pytest
from textual import events
from textual.widget import Widget

from streamview.core import tools
from streamview.sources import FileSource, PipeSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.feed.reader import Feed
from streamview.ui.frame import app as app_module
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.session_header import SessionHeader
from streamview.ui.frame.status_bar import StatusBar
from streamview.ui.transcript.transcript import Transcript

from ..conftest import (
    NOW_MS,
    FakeClock,
    ScriptedSource,
    capture,
    lines_of,
    settle,
    wait_for,
    write_pipe_slowly,
)

PROBE_43 = "hcn_2026.09.15_probe-43_partial-output-tool-turn.ndjson"
PROBE_11 = "hcn_2026.09.15_probe-11_stream-partial-output.ndjson"
THINKING = "hcn_2026.09.10_probe-11_partial-output-with-thinking-composer.ndjson"
DENIALS = "hcn_2026.09.10_probe-15_denials-and-completion-without-started.ndjson"


def screen_lines(widget: Widget) -> list[str]:
    """What a widget shows, line by line."""
    return [widget.render_line(y).text.rstrip() for y in range(widget.size.height)]


def header_text(app: StreamviewApp) -> str:
    """The session header as plain text."""
    header = app.query_one(SessionHeader)
    return str(header.render())


def status_text(app: StreamviewApp) -> str:
    """The status line as plain text."""
    return app.query_one(StatusBar).text


def record(**fields: object) -> bytes:
    """One NDJSON line."""
    return orjson.dumps(fields) + b"\n"


def file_app(path: Path, **options: object) -> StreamviewApp:
    """The viewer on a recorded file, with the fixed test clock."""
    return StreamviewApp(FileSource(path), clock=FakeClock(), **options)  # type: ignore[arg-type]


async def test_header_shows_the_session_fields() -> None:
    app = file_app(capture(PROBE_43))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        text = header_text(app)
    for expected in ("GPT-5 Mini", "ws-main", "default", "login", "28ada7b4"):
        assert expected in text
    assert "Read the file notes.txt, then reply with exactly: READ-OK" in text


async def test_recap_and_flush_do_not_duplicate_the_answer() -> None:
    """probe-43: deltas READ / - / OK, then a flush READ-OK: shown once."""
    app = file_app(capture(PROBE_43))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        lines = app.query_one(Transcript).plain_lines()
    assert [line.strip() for line in lines].count("READ-OK") == 1
    tool_lines = [line for line in lines if "●" in line]
    assert len(tool_lines) == 1
    assert "● read notes.txt" in tool_lines[0]  # relative to the session's cwd
    assert "succeeded" in tool_lines[0]
    # The tool marker sits where the call happened: after the prompt, before the answer.
    assert lines.index(tool_lines[0]) < [line.strip() for line in lines].index("READ-OK")


async def test_streamed_poem_shown_once_with_its_line_breaks() -> None:
    """probe-11: 60 token deltas and a flush; four lines, each once, not one paragraph."""
    app = file_app(capture(PROBE_11))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        lines = [line.strip() for line in app.query_one(Transcript).plain_lines()]
    river = [line for line in lines if line.startswith("River")]
    assert river == [
        "River remembers the weathered stones and light",
        "River carries the small boats of our unspoken dreams",
        "River writes secret maps along the sleeping banks",
        "River keeps moving, learning language from the sea",
    ]


async def test_status_says_success_with_duration_and_tokens() -> None:
    app = file_app(capture(PROBE_43))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = status_text(app)
        await pilot.press("q")
    assert "✓ success in 9.9s" in text
    assert "7,120 in · 354 out" in text
    assert "9 lines" in text
    assert app.return_value == 0
    assert app.exit_code == 0


async def test_status_says_incomplete_when_the_stream_is_cut(tmp_path: Path) -> None:
    cut = tmp_path / "cut.ndjson"
    cut.write_bytes(b"".join(lines_of(PROBE_43)[:3]))
    app = file_app(cut)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = status_text(app)
        table_rows = screen_lines(app.query_one(ToolCallTable))
    assert "stream ended without a result" in text
    assert "1 call interrupted" in text
    assert any("interrupted" in row for row in table_rows)
    assert app.exit_code == 1


async def test_status_says_error_for_an_error_result(tmp_path: Path) -> None:
    path = tmp_path / "error.ndjson"
    path.write_bytes(
        record(type="system", subtype="init", session_id="s1", model="Auto", cwd="/w")
        + record(
            type="user", session_id="s1", message={"content": [{"type": "text", "text": "hi"}]}
        )
        + record(
            type="result",
            subtype="error",
            is_error=True,
            duration_ms=1200,
            result="quota exceeded",
            session_id="s1",
        )
    )
    app = file_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = status_text(app)
    assert text.startswith("✗ error after 1.2s")
    assert "quota exceeded" in text
    assert app.exit_code == 1


async def test_malformed_and_unknown_lines_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "odd.ndjson"
    path.write_bytes(
        b"T: a banner, not JSON\n"
        + record(type="system", subtype="init", session_id="s1", model="Auto")
        + record(type="system", subtype="task_notification", session_id="s1")
        + record(type="hologram", subtype="beam", session_id="s1")
    )
    app = file_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = status_text(app)
        lines = app.query_one(Transcript).plain_lines()
    assert "1 malformed · 1 unknown (l)" in text
    # Cursor's task_notification is its notice now, and no record is painted inline.
    assert not any("task_notification" in line or "unknown record" in line for line in lines)
    assert [(n.type, n.subtype) for n in app.state.notices] == [("system", "task_notification")]


async def test_thinking_toggles_with_t() -> None:
    app = file_app(capture(THINKING))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        shown = "\n".join(transcript.plain_lines())
        assert "hidden" not in str(transcript.border_title)
        await pilot.press("t")
        hidden = "\n".join(transcript.plain_lines())
        # A quiet marker says the thinking is hidden, not gone, and which key shows it.
        assert transcript.border_title == "Transcript · thinking hidden (t)"
        await pilot.press("t")
        again = "\n".join(transcript.plain_lines())
        assert transcript.border_title == "Transcript"
    assert "Writing a four-line poem about rivers" in shown
    assert "thinking" in shown
    assert "Writing a four-line poem" not in hidden
    assert "River runs through valleys" in hidden
    assert again == shown


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


def long_answer_lines(count: int) -> list[bytes]:
    """A session whose answer arrives as ``count`` one-line deltas."""
    lines = [
        record(type="system", subtype="init", session_id="s1", model="Auto", cwd="/w"),
        record(type="user", session_id="s1", message={"content": [{"type": "text", "text": "go"}]}),
    ]
    for number in range(count):
        lines.append(
            record(
                type="assistant",
                session_id="s1",
                timestamp_ms=NOW_MS + number,
                message={"content": [{"type": "text", "text": f"line {number}\n\n"}]},
            )
        )
    return lines


async def test_follow_pauses_on_scroll_up_and_resumes_with_f() -> None:
    source = ScriptedSource(long_answer_lines(40))
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = app.query_one(Transcript)
        await wait_for(pilot, lambda: app.state.counts.total == 42)
        await pilot.pause(0.05)
        assert transcript.following
        assert transcript.scroll_y == transcript.max_scroll_y > 0
        assert "line 39" in "\n".join(screen_lines(transcript))
        transcript.focus()
        await pilot.press("pageup")
        assert not transcript.following
        assert "paused (f)" in status_text(app)
        source.push(
            record(
                type="assistant",
                session_id="s1",
                timestamp_ms=NOW_MS + 99,
                message={"content": [{"type": "text", "text": "line 40\n\n"}]},
            )
        )
        await wait_for(pilot, lambda: app.state.counts.total == 43)
        await wait_for(pilot, lambda: "▼ new content (f)" in status_text(app))
        assert "line 40" not in "\n".join(screen_lines(transcript))
        await pilot.press("f")
        await pilot.pause()
        assert transcript.following
        assert transcript.scroll_y == transcript.max_scroll_y
        assert "line 40" in "\n".join(screen_lines(transcript))
        assert "new content" not in status_text(app)


async def test_end_key_resumes_follow() -> None:
    source = ScriptedSource(long_answer_lines(40))
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = app.query_one(Transcript)
        await wait_for(pilot, lambda: app.state.counts.total == 42)
        transcript.focus()
        await pilot.press("home")
        assert not transcript.following
        await pilot.press("end")
        await pilot.pause()
        assert transcript.following


async def test_sessions_switch_with_brackets_newest_first(tmp_path: Path) -> None:
    path = tmp_path / "two.ndjson"
    path.write_bytes(capture(PROBE_43).read_bytes() + capture(THINKING).read_bytes())
    app = file_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.session_index == 1
        assert "2/2" in header_text(app)
        assert "Composer 2.5 Fast" in header_text(app)
        await pilot.press("left_square_bracket")
        assert app.session_index == 0
        assert "1/2" in header_text(app)
        assert "GPT-5 Mini" in header_text(app)
        lines = app.query_one(Transcript).plain_lines()
        assert "READ-OK" in [line.strip() for line in lines]
        assert app.query_one(ToolCallTable).row_count == 1
        await pilot.press("right_square_bracket")
        assert app.session_index == 1
        assert app.query_one(ToolCallTable).row_count == 0
        await pilot.press("right_square_bracket")  # no session after the last: stays
        assert app.session_index == 1


async def test_older_session_stays_pinned_until_f() -> None:
    first = lines_of(PROBE_43)
    source = ScriptedSource(first + lines_of(THINKING)[:2])
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.session_index == 1)
        await pilot.press("left_square_bracket")
        assert app.session_index == 0 and app.pinned
        source.push(b"".join(lines_of(PROBE_11)[:2]))  # a third session starts
        await wait_for(pilot, lambda: len(app.state.sessions) == 3)
        await pilot.pause(0.05)
        assert app.session_index == 0  # the user's choice wins
        assert "1/3" in header_text(app)
        await pilot.press("f")  # pauses follow (it was on)
        await pilot.press("f")  # resumes it: the newest session again
        assert app.session_index == 2
        assert not app.pinned


async def test_new_session_is_shown_while_following() -> None:
    first = lines_of(PROBE_43)
    source = ScriptedSource(first)
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == len(first))
        assert app.session_index == 0
        source.push(b"".join(lines_of(THINKING)[:3]))
        await wait_for(pilot, lambda: app.session_index == 1)
        assert "Composer 2.5 Fast" in header_text(app)
        assert "● streaming" in status_text(app) or "idle" in status_text(app)


async def test_tool_rows_update_in_place_from_a_slow_pipe() -> None:
    lines = lines_of(PROBE_43)
    read_fd, write_fd = os.pipe()
    clock = FakeClock()
    app = StreamviewApp(PipeSource(read_fd), clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        os.write(write_fd, b"".join(lines[:3]))  # init, prompt, tool started
        await wait_for(pilot, lambda: app.state.counts.total == 3)
        table = app.query_one(ToolCallTable)
        assert table.row_count == 1
        session = app.state.sessions[0]
        assert session.tool_calls[0].status == tools.RUNNING
        rows = screen_lines(table)
        assert "running" in rows[1]
        markers = [line for line in app.query_one(Transcript).plain_lines() if "●" in line]
        assert len(markers) == 1 and "running" in markers[0]
        clock.advance(15_000)
        app.tick()
        assert "idle 15s since last event · 1 call open: read" in status_text(app)
        write_pipe_slowly(write_fd, lines[3:], delay=0.01)
        await settle(pilot)
        assert table.row_count == 1
        assert "succeeded" in screen_lines(table)[1]
        markers = [line for line in app.query_one(Transcript).plain_lines() if "●" in line]
        assert len(markers) == 1 and "succeeded" in markers[0]
        assert "✓ success" in status_text(app)
    os.close(read_fd)


async def test_quitting_while_the_producer_is_silent_returns_promptly() -> None:
    read_fd, write_fd = os.pipe()
    app = StreamviewApp(PipeSource(read_fd), clock=FakeClock())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            os.write(write_fd, lines_of(PROBE_43)[0])
            await wait_for(pilot, lambda: app.state.counts.total == 1)
            await pilot.press("q")
        thread = app.feed._thread
        assert thread is not None
        thread.join(5)
        assert not thread.is_alive()
        assert app.return_value == 1  # the run had not finished
    finally:
        os.close(write_fd)
        os.close(read_fd)


async def test_wide_terminal_puts_panes_side_by_side() -> None:
    app = file_app(capture(DENIALS))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        table = app.query_one(ToolCallTable)
        assert transcript.region.y == table.region.y
        assert transcript.region.right <= table.region.x
        assert table.row_count == 4


async def test_a_read_error_is_shown(tmp_path: Path) -> None:
    class Broken(ScriptedSource):
        def chunks(self, stop):  # type: ignore[no-untyped-def]
            yield lines_of(PROBE_43)[0]
            raise OSError("disk on fire")

    app = StreamviewApp(Broken(), clock=FakeClock(), feed=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.read_error is not None)
        await pilot.pause(0.05)
        assert "disk on fire" in status_text(app)


def test_feed_batches_and_ends() -> None:
    """The reader thread hands over everything, in order, then says it ended."""
    source = ScriptedSource(lines_of(PROBE_43))
    source.close()
    feed = Feed(source, clock=FakeClock())
    feed.start()
    events = []
    for _ in range(500):
        batch = feed.drain(limit=4)
        events.extend(batch.events)
        if batch.ended:
            break
        if not batch.events:
            time.sleep(0.01)
    assert batch.ended
    assert [event.line for event in events] == list(range(1, 10))
    assert all(event.recv_ms == NOW_MS for event in events)


RECORDINGS = Path(__file__).resolve().parents[3] / "recordings"


async def test_enter_on_a_row_opens_the_call_and_escape_comes_back() -> None:
    from streamview.ui.details.screen import ToolCallDetailScreen

    app = file_app(RECORDINGS / "success-multi-tool.ndjson")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        session = app.state.sessions[-1]
        edit = next(call for call in session.tool_calls if call.kind == "edit")
        table = app.query_one(ToolCallTable)
        await pilot.press("tab")
        assert table.has_focus
        table.select_call(edit.index)
        await pilot.pause()
        # The transcript marks the call under the table's cursor.
        transcript = app.query_one(Transcript)
        assert transcript._marked == transcript._by_call[edit.index]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ToolCallDetailScreen)
        assert app.screen.call is edit
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
        await pilot.press("shift+tab")
        assert transcript.has_focus
        assert transcript._marked is None


async def test_clicking_a_tool_marker_opens_the_call() -> None:
    from streamview.ui.details.screen import ToolCallDetailScreen

    app = file_app(capture(PROBE_43))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        transcript = app.query_one(Transcript)
        row = next(y for y, line in enumerate(screen_lines(transcript)) if "●" in line)
        await pilot.click(Transcript, offset=(5, row + 1))  # + 1: the border
        await pilot.pause()
        assert isinstance(app.screen, ToolCallDetailScreen)
        assert app.screen.call is app.state.sessions[0].tool_calls[0]


async def test_l_opens_the_event_log(tmp_path: Path) -> None:
    from streamview.ui.log.event_log import EventLogScreen

    path = tmp_path / "odd.ndjson"
    path.write_bytes(b"not json at all\n" + b"".join(lines_of(PROBE_43)))
    app = file_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, EventLogScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]


async def test_follow_file_mode_shows_lines_appended_later(tmp_path: Path) -> None:
    path = tmp_path / "growing.ndjson"
    lines = lines_of(PROBE_43)
    path.write_bytes(b"".join(lines[:3]))
    app = StreamviewApp(FileSource(path, follow=True), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 3)
        assert "running" in screen_lines(app.query_one(ToolCallTable))[1]
        with path.open("ab") as handle:
            handle.write(b"".join(lines[3:]))
        await wait_for(pilot, lambda: app.state.counts.total == len(lines))
        await pilot.pause(0.1)
        assert "✓ success in 9.9s" in status_text(app)
        assert "succeeded" in screen_lines(app.query_one(ToolCallTable))[1]
        assert not app.state.ended  # still following the file


async def test_the_app_keeps_updating_under_a_pushed_screen() -> None:
    """Events and clock ticks while the detail screen is open reach the main panes."""
    from streamview.ui.details.screen import ToolCallDetailScreen

    lines = lines_of(PROBE_43)
    source = ScriptedSource(lines[:4])  # the read call has completed
    clock = FakeClock()
    app = StreamviewApp(source, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 4)
        app.tool_table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        source.push(b"".join(lines[4:]))
        await wait_for(pilot, lambda: app.state.counts.total == len(lines))
        clock.advance(5_000)
        app.tick()
        await pilot.pause(0.1)
        assert isinstance(app.screen, ToolCallDetailScreen)
        assert "✓ success" in status_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "READ-OK" in [line.strip() for line in app.transcript.plain_lines()]


async def test_resizing_under_a_pushed_screen_lays_out_the_main_screen() -> None:
    app = file_app(capture(DENIALS))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.resize_terminal(200, 50)
        await pilot.press("escape")
        await pilot.pause()
        assert app.transcript.region.y == app.tool_table.region.y  # side by side


async def test_footer_offers_session_keys_only_with_several_sessions(tmp_path: Path) -> None:
    def session_key_enabled(app: StreamviewApp) -> bool:
        return any(
            active.binding.action == "previous_session" and active.enabled
            for active in app.active_bindings.values()
        )

    one = file_app(capture(PROBE_43))
    async with one.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert not session_key_enabled(one)
    path = tmp_path / "two.ndjson"
    path.write_bytes(capture(PROBE_43).read_bytes() + capture(THINKING).read_bytes())
    two = file_app(path)
    async with two.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert session_key_enabled(two)


async def test_a_new_session_does_not_pull_a_paused_view_away() -> None:
    source = ScriptedSource(long_answer_lines(40))
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 42)
        app.transcript.focus()
        await pilot.press("pageup")
        assert not app.transcript.following
        source.push(b"".join(lines_of(PROBE_43)))
        await wait_for(pilot, lambda: len(app.state.sessions) == 2)
        await pilot.pause(0.1)
        assert app.session_index == 0
        assert "1/2" in header_text(app)
        assert any("session 2 started" in n.message for n in app._notifications)
        await pilot.press("f")
        assert app.session_index == 1


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


async def test_events_after_a_quiet_spell_are_folded_without_waiting_for_a_frame() -> None:
    source = ScriptedSource(lines_of(PROBE_43)[:1])
    app = StreamviewApp(source, clock=FakeClock(), frame_seconds=60)  # frame timer all but off
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 1, timeout=5)
        source.push(lines_of(PROBE_43)[1])
        await wait_for(pilot, lambda: app.state.counts.total == 2, timeout=5)
        assert "Read the file notes.txt" in header_text(app)


async def test_events_right_after_a_fold_are_folded_soon_not_at_the_next_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lines that arrive just after a fold wait for the earliest next fold, not a frame."""
    monkeypatch.setattr(app_module, "EARLIEST_PUMP_SECONDS", 0.3)
    source = ScriptedSource(lines_of(PROBE_43)[:1])
    app = StreamviewApp(source, clock=FakeClock(), frame_seconds=60)  # frame timer all but off
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 1, timeout=5)
        app.pump()  # a fold just ran: what comes next is too soon to fold at once
        source.push(lines_of(PROBE_43)[1])
        await wait_for(pilot, lambda: app.state.counts.total == 2, timeout=5)
        assert "Read the file notes.txt" in header_text(app)
