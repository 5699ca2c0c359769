"""A live run whose files cannot be written says so in the event log, once each.

A live input is copied to a temporary file (so a call's payload can be opened later),
its closed blocks' text moved to another and its packed rows paged to a third. On a
full disk each keeps working in memory, but the copy's lines read from then on cannot
be opened again: before this, only a file's fold told the event log; a pipe said
nothing. Here all three fail with ENOSPC (the copy writes to ``/dev/full``).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

import streamview.core.block_spill as block_spill
import streamview.core.paged_array as paged_array
from streamview.core.events import AgentNotice
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.log.event_log import EventLogList, EventLogScreen

from ..conftest import FakeClock, ScriptedSource, settle, wait_for

RECORDING = Path(__file__).resolve().parents[3] / "recordings" / "success-multi-tool.ndjson"


def no_space(*_: Any) -> Any:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def ours(app: StreamviewApp) -> list[str]:
    return [
        str(n.subtype)
        for n in app.state.notices
        if isinstance(n, AgentNotice) and n.type == "streamview"
    ]


def shown_text(app: StreamviewApp) -> list[tuple[str, str]]:
    return [(b.kind, b.text) for s in app.state.sessions for b in s.blocks]


async def run_live(lines: list[bytes]) -> StreamviewApp:
    """The recording through a live pipe, a line a chunk, and its end."""
    source = ScriptedSource(lines)
    source.close()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
    return app


async def test_a_full_disk_under_a_live_run_is_told_once_per_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = RECORDING.read_bytes().splitlines(keepends=True)
    monkeypatch.setattr(block_spill, "SWEEP_BLOCKS", 2)  # sweep at every frame
    monkeypatch.setattr("streamview.core.text_store.WRITE_PIECE", 16)  # written at once

    monkeypatch.setattr(paged_array, "_SHARED", paged_array.PageFile(page_bytes=8))
    written = await run_live(lines)
    assert ours(written) == []  # a disk with room: nothing to say

    monkeypatch.setattr(paged_array, "_SHARED", paged_array.PageFile(page_bytes=8))
    monkeypatch.setattr(os, "pwrite", no_space)
    monkeypatch.setattr("streamview.core.text_store.anonymous_file", no_space)
    source = ScriptedSource(lines[:3])
    app = StreamviewApp(source, clock=FakeClock())
    spill = app.feed.spill
    assert spill is not None
    # The copy's descriptor becomes /dev/full (its next write: ENOSPC, as on a full
    # disk) under the same number, which the spill still closes once. (Closing it here
    # and handing the spill another number let its finalizer close the old number again
    # later, by then another test's pipe: a BrokenPipeError in a fresh-clone CI.)
    full = os.open("/dev/full", os.O_WRONLY)
    os.dup2(full, spill.fd)
    os.close(full)
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: "live-copy" in ours(app))
        for line in lines[3:]:
            source.push(line)
        source.close()
        await settle(pilot)
        assert sorted(ours(app)) == ["live-copy", "paging", "spill"]  # each once
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, EventLogScreen))
        text = logged(app)
        assert "cannot be opened again" in text
        assert os.strerror(errno.ENOSPC) in text
        assert "kept in memory" in text
    # Nothing lost: every block's text is what the run with room showed.
    assert shown_text(app) == shown_text(written)


def logged(app: StreamviewApp) -> str:
    """The event log's rows, as the person reads them."""
    log = app.screen.query_one(EventLogList)
    return "\n".join(entry.label for entry in log.entries)
