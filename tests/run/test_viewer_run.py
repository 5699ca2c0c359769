"""The viewer in run mode and with a recording: agent panel, Ctrl+C, write failures, export."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.events import MouseMove
from textual.pilot import Pilot

from streamview.runs.recording import Recorder, RecordingSource
from streamview.sources.base import FileSource, Source, now_ms
from streamview.sources.process import ProcessSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.export_dialog import ExportDialog
from streamview.ui.frame.run_panel import ProcessPanel
from streamview.ui.frame.status_bar import StatusBar
from streamview.ui.playback.feed import PlaybackFeed

AGENTS = Path(__file__).parent / "agents"
REPO = Path(__file__).resolve().parents[2]
NOW_MS = 1_789_644_720_000


def agent(name: str) -> list[str]:
    return [sys.executable, str(AGENTS / f"{name}.py")]


async def wait_for(pilot: Pilot[int], condition: object, timeout: float = 20.0) -> None:
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        await pilot.pause(0.05)


def panel_text(app: StreamviewApp) -> str:
    return str(app.query_one(ProcessPanel).render())


async def test_a_failed_run_shows_exit_code_and_clean_stderr() -> None:
    source = ProcessSource(agent("failure"))
    app = StreamviewApp(source, clock=lambda: NOW_MS)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.ended and "first." in panel_text(app))
        text = panel_text(app)
        assert text.startswith("agent exited with 1")
        assert "Error: authentication failed\nRun 'agent login' first." in text
        assert "\x1b" not in text
        assert app.query_one(ProcessPanel).has_class("-failed")
    assert app.exit_code == 1


async def test_ctrl_c_over_selected_text_copies_it_and_the_agent_runs_on() -> None:
    """A person who selects text and presses ctrl+c wants it copied, not the agent gone."""
    source = ProcessSource(agent("sigint"))
    app = StreamviewApp(source, clock=lambda: NOW_MS)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: app.state.counts.total >= 3 and "agent running" in panel_text(app)
        )
        transcript = app.transcript
        dx = transcript.content_region.x - transcript.region.x
        dy = transcript.content_region.y - transcript.region.y
        await pilot.mouse_down(transcript, offset=(dx, dy))
        await pilot._post_mouse_events([MouseMove], transcript, offset=(dx + 30, dy), button=1)
        await pilot.mouse_up(transcript, offset=(dx + 30, dy))
        await pilot.pause()
        assert app.screen.selections
        await pilot.press("ctrl+c")
        await pilot.pause(0.3)
        assert app.clipboard.strip()
        assert app.clipboard.strip() in transcript.plain_lines()[0]
        assert "agent running" in panel_text(app)  # not stopped
        await pilot.click(transcript)  # a click clears the selection
        await pilot.pause()
        assert not app.screen.selections
        await pilot.press("ctrl+c")  # now it stops the agent
        await wait_for(pilot, lambda: "exited with 130" in panel_text(app))


async def test_ctrl_c_interrupts_the_agent_and_keeps_the_viewer() -> None:
    source = ProcessSource(agent("sigint"))
    app = StreamviewApp(source, clock=lambda: NOW_MS)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: app.state.counts.total >= 3 and "agent running" in panel_text(app)
        )
        await pilot.press("ctrl+c")
        await wait_for(
            pilot,
            lambda: (
                "exited with 130" in panel_text(app) and "Aborting operation..." in panel_text(app)
            ),
        )
        await wait_for(pilot, lambda: app.state.ended)
        assert app.is_running
        session = app.state.sessions[0]
        assert session.tool_calls[0].status == "interrupted"
        # The status bar says what happened, as `runs` and --print do.
        bar = app.query_one(StatusBar)
        await wait_for(pilot, lambda: bar.text.startswith("■ stopped (Ctrl+C)"))
        assert "without a result" not in bar.text
        assert source.stopped_by == "Ctrl+C"
        await pilot.press("ctrl+c")  # nothing left to stop: no error
        await pilot.pause(0.1)
    assert source.exit_code == 130


async def test_a_lingering_agent_is_said_to_be_running_after_its_result() -> None:
    source = ProcessSource(agent("linger"))
    app = StreamviewApp(source, clock=lambda: NOW_MS)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: "still running after its result" in panel_text(app))
            session = app.state.sessions[0]
            assert session.outcome.status == "success"
    finally:
        source.stop(timeout=2)


class Chunks(Source):
    """Chunks given in advance, as a live source."""

    live = True

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks
        self.label = "pipe"

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        yield from self._chunks


async def test_a_recording_that_cannot_be_written_is_reported_and_the_run_shown() -> None:
    """/dev/full (Linux) fails every write with ENOSPC, like a full disk."""
    lines = [
        b'{"type":"system","subtype":"init","session_id":"s","model":"M"}\n',
        b'{"type":"result","subtype":"success","session_id":"s"}\n',
    ]
    source = RecordingSource(Chunks(lines), Recorder(Path("/dev/full")))
    app = StreamviewApp(source, clock=lambda: NOW_MS)
    notices: list[str] = []
    app.notify = lambda message, **options: notices.append(str(message))  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.ended and bool(notices))
        assert notices == [
            "recording cut: disk full (No space left on device) after 0 lines: /dev/full"
        ]
        assert app.state.sessions[0].outcome.status == "success"
        # The toast goes; the status bar keeps the mark beside the outcome.
        app.clear_notifications()
        await pilot.pause(0.3)
        bar = app.query_one(StatusBar).text
        assert bar.startswith("✓ success") and "✂ recording cut: disk full" in bar


async def test_export_key_writes_markdown_svg_and_html(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    recording = REPO / "recordings" / "success-multi-tool.ndjson"
    source = FileSource(recording)
    app = StreamviewApp(source, feed=PlaybackFeed(source), clock=lambda: NOW_MS)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.ended)
        await pilot.press("x")  # asks where: the default is here
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog))
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(list(tmp_path.iterdir())) == 3)
    markdown = next(tmp_path.glob("streamview-success-multi-tool-*.md")).read_text()
    assert "## Session 1 · GPT-5" in markdown
    svg = next(tmp_path.glob("streamview-success-multi-tool-*.svg")).read_text()
    assert svg.startswith("<svg")
    page = next(tmp_path.glob("streamview-success-multi-tool-*.html")).read_text()
    assert page.startswith("<!DOCTYPE html>") and "Session 1 · GPT-5" in page


async def test_ctrl_c_with_nothing_to_copy_or_stop_says_q_quits() -> None:
    """A finished agent, nothing selected: ctrl+c (the reflex of a person who wants
    out) says there is nothing to copy or stop and that q quits; the viewer stays."""
    source = ProcessSource(agent("success"))
    app = StreamviewApp(source, clock=lambda: NOW_MS)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.ended and "exited with 0" in panel_text(app))
        assert not app.screen.selections
        await pilot.press("ctrl+c")
        await pilot.pause(0.2)
        messages = [str(note.message) for note in app._notifications]
        assert messages[-1:] == ["nothing to copy or stop · q quits"]
        assert app.is_running
        await pilot.press("q")
    assert app.return_value == 0


async def test_lines_that_came_before_the_viewer_was_up_keep_their_time(tmp_path: Path) -> None:
    """Issue 30.5: `run` starts the agent, then the viewer, whose reader begins after its
    first frame; what the agent printed meanwhile was stamped with the moment it was
    read, all of it at once (its calls then took 0 ms when reopened, and a replay rushed
    through its start). Here the agent is done before the viewer starts, and each line's
    stamp, in the viewer and in the recording, lies between the moment the agent wrote
    it and the moment it saw its next line read: an order, not a duration, so a starved
    reader cannot break it (stamps 50 ms apart came 4 ms apart at load 8)."""
    import orjson

    record = tmp_path / "run.ndjson"
    times_file = tmp_path / "times.json"
    recorder = Recorder(record)
    source = ProcessSource([*agent("early"), str(times_file)], recorder=recorder)
    source.start()  # as `streamview run` does: the agent first, then the viewer
    recorder.attach(source)
    recorder.open()
    process = source.process
    assert process is not None
    assert process.wait(timeout=60) == 0  # the whole run came before anything read it
    viewer_up = now_ms()
    times = orjson.loads(times_file.read_bytes())
    assert None not in times["read"], "nobody read the agent's lines while it ran"
    app = StreamviewApp(source)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.ended)
        call = app.state.sessions[0].tool_calls[0]
        viewer_times = (call.start_recv, call.end_recv)
    lines = [orjson.loads(line) for line in record.read_bytes().splitlines() if line.strip()]
    stamps = [line["streamview_recv_ms"] for line in lines]
    assert len(stamps) == 6, stamps
    for index, stamp in enumerate(stamps):
        written, next_read = times["written"][index], times["read"][index + 1]
        assert written <= stamp <= next_read, (index, written, stamp, next_read)
    assert max(stamps) < viewer_up, (stamps, viewer_up)
    # the tool call started on the third line and ended on the fourth
    assert viewer_times == (stamps[2], stamps[3]), (viewer_times, stamps)
    assert stamps[3] > stamps[2]
