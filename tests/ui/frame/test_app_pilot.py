"""The viewer driven like a user would: real captures in, keys pressed, screen read back
(the header, the status line, what the stream holds)."""

from __future__ import annotations

import time
from pathlib import Path

from streamview.ui.calls.table import ToolCallTable
from streamview.ui.feed.reader import Feed
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
    record,
    screen_lines,
    status_text,
)


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
