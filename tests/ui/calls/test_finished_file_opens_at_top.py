"""A finished file opens with the tool table's cursor on call #1, at the top, every
time, however the file reaches the viewer (issue 21.1 keeps following the newest call
for a live run only). It used not to: a file read in batches (over
``FOLD_AT_ONCE_BYTES``, or from a slow disk) was shown half-read on some runs, and the
rest of its calls then pulled the cursor to the last one, about one run in three.

A live pipe carrying the same bytes follows the newest call, also every time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from streamview.core.preview import PREVIEW_FROM_BYTES
from streamview.sources.base import FileSource, Source
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.opening import FOLD_AT_ONCE_BYTES
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import FakeClock, ScriptedSource, settle, wait_for

REPO = Path(__file__).resolve().parents[3]
LONG_RUN = REPO / "recordings" / "long-run.ndjson"
SIZE = (120, 36)
ROUNDS = 10


class SlowDisk(FileSource):
    """A finished file that arrives in pieces, as from a slow disk or a network share:
    its first half once :attr:`start` is set (at once, by default), then, once the test
    sets :attr:`rest` (the viewer having painted that half), the rest a piece at a time."""

    def __init__(self, path: Path, pause: float) -> None:
        super().__init__(path)
        self.pause = pause
        self.start = threading.Event()
        self.start.set()
        self.rest = threading.Event()

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """The file's first half, then the rest in 64 KiB pieces with pauses between."""
        data = self.path.read_bytes()
        half = len(data) // 2
        for gate, piece in ((self.start, data[:half]), (self.rest, b"")):
            while not gate.wait(0.01):
                if stop.is_set():
                    return
            if piece:
                yield piece
        for start in range(half, len(data), 64 * 1024):
            if stop.is_set():
                return
            yield data[start : start + 64 * 1024]
            time.sleep(self.pause)


def viewer(source: Source, how: str) -> StreamviewApp:
    """The viewer on ``source``: as ``streamview FILE`` opens a file (``playback``), or
    with the plain reader (``--export-svg``, the screenshots)."""
    if how == "playback":
        feed = PlaybackFeed(source)
        return StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    return StreamviewApp(source, clock=FakeClock())


def row_text(table: ToolCallTable, y: int) -> str:
    """Screen line ``y`` of the table as drawn (line 0 is its header)."""
    return table.render_line(y).text


def first_call_on_top(table: ToolCallTable) -> None:
    """The cursor is on call #1, and call #1 is the first row drawn under the header,
    in the cursor's colours."""
    assert table.cursor == 0 and table.cursor_call == 0, f"cursor on row {table.cursor}"
    assert round(table.scroll_y) == 0
    assert row_text(table, 1).split()[:1] == ["1"]
    cursor_style = table.get_component_rich_style("tool-table--cursor", partial=True)
    drawn = table.render_line(1)
    assert any(seg.style and seg.style.bgcolor == cursor_style.bgcolor for seg in drawn)
    assert not any(
        seg.style and seg.style.bgcolor == cursor_style.bgcolor for seg in table.render_line(2)
    )


def newest_in_view(table: ToolCallTable) -> None:
    """The cursor is on the newest call and its row is on screen."""
    newest = table.total_calls - 1
    rows = table.scrollable_content_region.height - 1
    top = round(table.scroll_y)
    cursor = table.cursor
    assert table.cursor_call == newest, f"cursor on call {table.cursor_call} of {newest}"
    assert cursor is not None and top <= cursor < top + rows
    assert row_text(table, cursor - top + 1).split()[:1] == [str(newest + 1)]


def test_the_recording_is_read_in_batches() -> None:
    """The bundled long run is bigger than what is folded before the first frame."""
    assert LONG_RUN.stat().st_size > FOLD_AT_ONCE_BYTES


@pytest.mark.parametrize("how", ["reader", "playback"])
async def test_a_finished_file_opens_on_call_1_every_time(how: str) -> None:
    """Ten openings, the first frames meeting the reader at different moments."""
    for round_ in range(ROUNDS):
        app = viewer(FileSource(LONG_RUN), how)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.005 * round_)  # the first frames meet the reader anywhere
            await settle(pilot)
            await pilot.pause(0.02 * (round_ % 3))
            table = app.tool_table
            assert table.total_calls > 100
            first_call_on_top(table)


@pytest.mark.parametrize("pause", [0.005, 0.02])
async def test_a_finished_file_from_a_slow_disk_opens_on_call_1(pause: float) -> None:
    """Half of the file is on screen before the rest arrives: the rest does not pull
    the cursor down (a file's calls arrive as it is read, not as the run went)."""
    source = SlowDisk(LONG_RUN, pause)
    app = viewer(source, "reader")
    async with app.run_test(size=SIZE) as pilot:
        table = app.tool_table
        await wait_for(pilot, lambda: table.total_calls > 0)
        await pilot.pause(0.05)
        first_call_on_top(table)  # half of the file on screen
        source.rest.set()
        await settle(pilot)
        first_call_on_top(table)


async def test_follow_keys_before_the_file_shows_leave_call_1_on_top() -> None:
    """``f`` twice before anything is shown (follow off, then on: the table is told
    to follow while it has no session yet) changes nothing for a finished file; ``f``
    twice once it is shown is the person asking for the newest call, and gets it."""
    source = SlowDisk(LONG_RUN, 0.005)
    source.start.clear()
    app = viewer(source, "reader")
    async with app.run_test(size=SIZE) as pilot:
        table = app.tool_table
        await pilot.press("f", "f")
        assert table.session is None and app.transcript.following
        source.start.set()
        source.rest.set()
        await settle(pilot)
        first_call_on_top(table)
        await pilot.press("f", "f")
        await pilot.pause(0.1)
        newest_in_view(table)


@pytest.mark.parametrize("attempt", range(3))  # every time: three apps, one a test
@pytest.mark.parametrize("pieces", [1, 60])
async def test_a_live_pipe_follows_the_newest_call_every_time(pieces: int, attempt: int) -> None:
    """The same bytes from a pipe: the newest call, whether they came in one piece
    (all read before the first frame) or in many. The three attempts were one test,
    26.6 s beside another copy of the suite (issue 30.7)."""
    data = LONG_RUN.read_bytes()
    source = ScriptedSource()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=SIZE) as pilot:
        step = len(data) // pieces + 1
        for start in range(0, len(data), step):
            source.push(data[start : start + step])
            await pilot.pause(0.01)
        source.close()
        await settle(pilot)
        await pilot.pause(0.05)
        newest_in_view(app.tool_table)


async def test_a_playback_follows_its_playhead_once_moved() -> None:
    """Opened at its end, a file shows call #1; moved by a playback key (half way,
    a step back, G to the end), the table follows the playhead: the newest call of
    the run as it stood there."""
    source = FileSource(LONG_RUN)
    app = viewer(source, "playback")
    feed = app.feed
    assert isinstance(feed, PlaybackFeed)
    async with app.run_test(size=SIZE) as pilot:
        table = app.tool_table
        await settle(pilot)
        await wait_for(pilot, lambda: feed.loaded)
        first_call_on_top(table)
        for keys in (("5",), ("comma",), ("G",)):
            await pilot.press(*keys)
            await wait_for(pilot, lambda: app.state.counts.total == feed.position)
            await pilot.pause(0.1)
            newest_in_view(table)
        assert table.total_calls == len(feed.final_state().sessions[-1].tool_calls)


async def test_a_replay_follows_its_playhead_while_it_plays() -> None:
    """``--replay``: the run plays from its start (for a few seconds here), the table
    on its newest call at every moment it is looked at."""
    source = FileSource(LONG_RUN)
    feed = PlaybackFeed(
        source, playing=True, speed=40.0, idle_limit=0.5
    )  # at 100x (2 s) a load of 14 ended it before a second look
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    async with app.run_test(size=SIZE) as pilot:
        table = app.tool_table
        moments: set[int] = set()
        while not app.state.ended:
            await pilot.pause(0.05)
            if table.total_calls and not app.state.ended:
                newest_in_view(table)
                moments.add(table.total_calls)
        await settle(pilot)
        newest_in_view(table)
        assert len(moments) >= 3  # seen while playing, not only at the end


async def test_a_big_file_opens_on_call_1_through_its_preview(tmp_path: Path) -> None:
    """A file big enough to be previewed first (its start and end, then the whole
    fold): call #1 is on top in the preview and in the whole file."""
    data = LONG_RUN.read_bytes()
    path = tmp_path / "big.ndjson"
    path.write_bytes(data * (PREVIEW_FROM_BYTES // len(data) + 1))
    source = SlowDisk(path, 0.0)
    source.start.clear()  # the whole fold waits: the preview stays on screen
    app = viewer(source, "playback")
    feed = app.feed
    assert isinstance(feed, PlaybackFeed)
    async with app.run_test(size=SIZE) as pilot:
        table = app.tool_table
        await wait_for(pilot, lambda: table.total_calls > 0, timeout=30)
        await pilot.pause(0.1)
        assert feed.is_preview(app.state)
        first_call_on_top(table)
        source.start.set()
        source.rest.set()
        await wait_for(pilot, lambda: feed.folded and app.state is feed.final_state(), timeout=60)
        await pilot.pause(0.1)
        first_call_on_top(table)
