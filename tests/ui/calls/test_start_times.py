"""When each call started: +m:ss after the session's start in the table (w for the wall
clock), and the same offsets in ``--print --time``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from streamview.core.formatting import format_clock, format_offset
from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"


def test_offsets_and_clock() -> None:
    assert format_offset(7_400) == "+0:07"
    assert format_offset(83_000) == "+1:23"
    assert format_offset(3_723_000) == "+1:02:03"
    assert format_offset(None) == ""
    stamp = 1_789_644_720_000
    assert format_clock(stamp) == time.strftime("%H:%M:%S", time.localtime(stamp / 1000))


async def test_the_table_shows_start_offsets_and_w_switches_to_the_clock() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    async with app.run_test(size=(130, 40)) as pilot:
        await settle(pilot)
        table = app.tool_table
        header = table.render_line(0).text
        assert " start " in header
        first = app.state.sessions[-1].tool_calls[0]
        session_start = app.state.sessions[-1].first_time_ms
        assert first.start_ms is not None and session_start is not None
        offset = format_offset(first.start_ms - session_start)
        assert offset in table.render_line(1).text
        await pilot.press("tab", "w")
        await pilot.pause()
        assert format_clock(first.start_ms) in table.render_line(1).text
        assert offset not in table.render_line(1).text


def printed(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "streamview", "--print", *args, str(RECORDING)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return done.stdout.splitlines()


def test_print_time_starts_each_line_with_its_offset() -> None:
    lines = printed("--time")
    assert lines[0].startswith("  +0:00 == session ")
    assert all(line[:8].strip().startswith("+") for line in lines)
    assert lines[-1].startswith("  +0:35 == success")  # the playback bar says 0:35 too
    plain = printed()
    assert [line[8:] for line in lines] == plain
