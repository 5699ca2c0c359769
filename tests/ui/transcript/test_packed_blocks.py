"""The transcript shows a session whose closed blocks are packed in columns (issue 27.5,
:mod:`streamview.core.block_columns`) as it shows the same session unpacked: the same
lines, the same places after End, Up, Page Up and Home, the same search hits, the same
copy; thinking hidden alike. A live pipe's blocks are packed as they pile up."""

from __future__ import annotations

import os
from typing import Any

import orjson
import pytest
from textual.geometry import Offset
from textual.pilot import Pilot
from textual.selection import Selection

import streamview.core.block_spill as block_spill
from streamview.core.block_columns import PackedBlocks, packed_count
from streamview.sources.base import PipeSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.transcript.transcript import Transcript

from ..conftest import wait_for
from .test_far_blocks import at_rest, long_run, screen
from .test_transcript import Stream, TranscriptApp, show


def thoughtful_run() -> Stream:
    """The far-blocks run, with a thinking block every tenth step."""
    stream = long_run()
    for number in range(0, 300, 10):
        stream.add(type="thinking", subtype="delta", text=f"musing {number}", timestamp_ms=1)
        stream.add(type="thinking", subtype="completed", timestamp_ms=1)
        stream.text(f"After musing {number}.")
    return stream


async def tour(pilot: Pilot[None], transcript: Transcript) -> dict[str, Any]:
    """What the transcript shows along the keys and searches a person uses."""
    seen: dict[str, Any] = {"lines": transcript.plain_lines()}
    transcript.focus()
    for key in ("end", "up", "pageup", "home", "pagedown", "end"):
        await pilot.press(key)
        await at_rest(pilot, transcript)
        seen[key] = (transcript.scroll_y, screen(transcript))
    seen["found"] = transcript.search("line 2 of step")
    transcript.go_to_match(7)
    await at_rest(pilot, transcript)
    seen["match"] = (transcript.scroll_y, screen(transcript))
    seen["musing"] = transcript.search("musing 2")
    offsets = transcript._offsets
    selection = Selection(Offset(2, offsets[20] + 1), Offset(7, offsets[30] + 1))
    seen["copied"] = transcript.get_selection(selection)
    transcript.set_show_thinking(False)
    await at_rest(pilot, transcript)
    seen["hidden"] = (transcript.plain_lines(), transcript.search("musing 2"))
    return seen


async def test_a_packed_session_shows_as_the_same_session_unpacked() -> None:
    seen = []
    for packed in (False, True):
        stream = thoughtful_run()
        session = stream.session
        if packed:
            block_spill.BlockSpill().sweep([session])
            assert isinstance(session.blocks, PackedBlocks)
            assert packed_count(session.blocks) == len(session.blocks) - 1
        app = TranscriptApp()
        async with app.run_test(size=(100, 30)) as pilot:
            transcript = await show(pilot, stream)
            await at_rest(pilot, transcript)
            seen.append(await tour(pilot, transcript))
    unpacked, packed_seen = seen
    assert unpacked["found"] == 375 and unpacked["musing"] > 0
    assert unpacked["end"][0] - 1 == unpacked["up"][0]  # one line up, not the top
    for name, value in unpacked.items():
        assert packed_seen[name] == value, name


def one_word(words: int) -> bytes:
    """A Cursor run whose answer comes as ``words`` one-word messages (a block each)."""
    sid = "f0083303-4d76-4e22-904a-70b0437c354a"
    init = {"type": "system", "subtype": "init", "session_id": sid, "model": "Auto", "cwd": "/w"}
    lines = [orjson.dumps(init)]
    for number in range(words):
        content = [{"type": "text", "text": f"w{number:04d}"}]
        message = {"role": "assistant", "content": content}
        lines.append(orjson.dumps({"type": "assistant", "message": message, "session_id": sid}))
    return b"\n".join(lines) + b"\n"


async def test_a_live_pipe_packs_its_blocks_as_they_pile_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An endless pipe of one-word messages (here 600, swept every 100 blocks): its
    blocks are packed while it runs, and the transcript shows and finds every word."""
    monkeypatch.setattr(block_spill, "SWEEP_BLOCKS", 100)
    read_fd, write_fd = os.pipe()
    app = StreamviewApp(PipeSource(read_fd))
    async with app.run_test(size=(100, 30)) as pilot:
        data = one_word(600)
        os.write(write_fd, data[: len(data) // 2])
        await wait_for(pilot, lambda: app.state.counts.total > 250)
        os.write(write_fd, data[len(data) // 2 :])
        await wait_for(pilot, lambda: app.state.counts.total == 601)
        blocks = app.state.sessions[0].blocks
        assert isinstance(blocks, PackedBlocks) and packed_count(blocks) >= 500
        transcript = app.transcript
        await pilot.pause()
        lines = [line.strip() for line in transcript.plain_lines() if line.strip()]
        assert lines == [f"w{number:04d}" for number in range(600)]
        assert transcript.search("w0123") == 1
        await at_rest(pilot, transcript)
        assert "w0123" in screen(transcript)
        os.close(write_fd)
