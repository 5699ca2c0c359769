"""Following the end, and moving between sessions: f, End, [ and ]."""

from __future__ import annotations

from pathlib import Path

from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.transcript.transcript import Transcript

from ..conftest import (
    NOW_MS,
    FakeClock,
    ScriptedSource,
    capture,
    lines_of,
    settle,
    wait_for,
)
from .pilot_helpers import (
    PROBE_11,
    PROBE_43,
    THINKING,
    file_app,
    header_text,
    long_answer_lines,
    record,
    screen_lines,
    status_text,
)


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
