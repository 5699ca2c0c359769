"""The viewer on a live pipe: long silences, a producer that dies mid-line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from streamview.sources.base import PipeSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.status_bar import StatusBar

from .streams import dumps, text_message
from .test_faults import head_lines
from .tui import NOW_MS, wait_until


class Clock:
    """A wall clock the test moves."""

    def __init__(self) -> None:
        self.now = NOW_MS

    def __call__(self) -> int:
        return self.now


async def test_minutes_of_silence_then_resume() -> None:
    """Five silent minutes show as idle with the open call named; then the run completes."""
    read_fd, write_fd = os.pipe()
    clock = Clock()
    app = StreamviewApp(PipeSource(read_fd, label="pipe"), clock=clock)
    async with app.run_test(size=(160, 40)) as pilot:
        os.write(write_fd, b"".join(head_lines()))
        await wait_until(pilot, lambda: app.state.counts.total == 3, 20)
        clock.now += 5 * 60 * 1000
        status = app.query_one(StatusBar)
        await wait_until(pilot, lambda: "idle 5m" in status.text, 20)
        assert "1 call open" in status.text and "sleep 100" in status.text
        os.write(
            write_fd,
            dumps(text_message("assistant", "back", session_id="s"))
            + dumps({"type": "result", "subtype": "success", "session_id": "s"}),
        )
        os.close(write_fd)
        await wait_until(pilot, lambda: "success" in status.text, 20)
        assert app.exit_code == 0
    os.close(read_fd)


async def test_producer_dies_mid_line() -> None:
    """The pipe closes on half a line: shown as incomplete, the half line in the log."""
    read_fd, write_fd = os.pipe()
    app = StreamviewApp(PipeSource(read_fd, label="pipe"), clock=Clock())
    async with app.run_test(size=(160, 40)) as pilot:
        os.write(write_fd, b"".join(head_lines()) + b'{"type":"assistant","mess')
        os.close(write_fd)
        await wait_until(pilot, lambda: app.state.ended, 20)
        status = app.query_one(StatusBar)
        await wait_until(pilot, lambda: "without a result" in status.text, 20)
        assert "1 call interrupted" in status.text
        counts = app.state.counts
        assert (counts.total, counts.events, counts.malformed) == (4, 3, 1)
        assert app.state.malformed[0].raw == b'{"type":"assistant","mess'
        assert app.exit_code == 1
    os.close(read_fd)


async def test_recording_fails_while_viewing(tmp_path: Path) -> None:
    """Disk full under ``--record``: the viewer says so once and keeps showing the run."""
    from streamview.runs.recording import Recorder, RecordingSource

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    read_fd, write_fd = os.pipe()
    recorder = Recorder(Path("/dev/full"))
    recorder.open()
    source = RecordingSource(PipeSource(read_fd, label="pipe"), recorder)
    app = StreamviewApp(source, clock=Clock())
    async with app.run_test(size=(160, 40)) as pilot:
        os.write(write_fd, b"".join(head_lines()))
        await wait_until(pilot, lambda: recorder.failed, 20)
        await wait_until(
            pilot,
            lambda: any("recording cut: disk full" in n.message for n in app._notifications),
            20,
        )
        os.write(write_fd, dumps({"type": "result", "subtype": "success", "session_id": "s"}))
        os.close(write_fd)
        await wait_until(pilot, lambda: app.state.ended, 20)
        assert app.state.counts.total == 4
        assert app.exit_code == 0
    os.close(read_fd)
