"""The viewer shows and copies a block whose text its fold moved to a temporary file
(issue 27.5, :mod:`streamview.core.block_spill`) as it shows a kept one."""

from __future__ import annotations

from pathlib import Path

import pytest

import streamview.core.block_spill as block_spill
from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.feed import PlaybackFeed
from tests.core.test_block_spill import claude_session

from ..conftest import settle, wait_for
from .test_select_copy import drag


async def test_a_spilled_block_is_shown_and_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``streamview FILE`` with a sweep every 4 KB: the first answer's text is in the
    file, the transcript shows it, and dragging over it then c copies it."""
    monkeypatch.setattr(block_spill, "SWEEP_EVERY", 4096)
    path = tmp_path / "session.jsonl"
    path.write_bytes(claude_session(30, filler=4))
    source = FileSource(path)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        blocks = app.state.sessions[0].blocks
        assert isinstance(blocks[1].parts, block_spill.InTheFile)  # the first answer
        transcript = app.transcript
        transcript.scroll_home(animate=False)
        await pilot.pause()

        def shown() -> list[str]:
            return [transcript.render_line(y).text for y in range(transcript.size.height)]

        await wait_for(pilot, lambda: any("Turn 0: the word0 é✓" in line for line in shown()))
        lines = shown()
        row = next(y for y, line in enumerate(lines) if "Turn 0: the word0" in line)
        start = lines[row].index("Turn 0")
        await drag(pilot, transcript, (start, row), (start + len("Turn 0: the word0 é✓") - 1, row))
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == "Turn 0: the word0 é✓"
