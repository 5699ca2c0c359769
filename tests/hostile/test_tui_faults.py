"""The viewer under faults and fuzz: resizes while streaming, mutated real captures."""

from __future__ import annotations

import itertools
import os
import random
import threading
import time
from pathlib import Path

import pytest

from streamview.sources.base import PipeSource
from streamview.ui.calls.table import ToolCallTable

from .helpers import real_captures
from .mutate import expected_total, mutate
from .tui import make_app, screen_problems, settled, wait_until

CAPTURES = real_captures()
SIZES = [(120, 40), (20, 5), (1, 1), (300, 100), (80, 24), (151, 30), (149, 30), (40, 60)]


def feed_slowly(fd: int, data: bytes, pieces: int, delay: float) -> threading.Thread:
    """Write ``data`` to a pipe in ``pieces`` chunks cut anywhere, then close it."""
    rng = random.Random(len(data))
    cuts = sorted(rng.randrange(len(data)) for _ in range(pieces - 1))
    bounds = [0, *cuts, len(data)]

    def run() -> None:
        try:
            for start, end in itertools.pairwise(bounds):
                os.write(fd, data[start:end])
                time.sleep(delay)
        finally:
            os.close(fd)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


async def test_resized_repeatedly_while_streaming() -> None:
    """Sizes from 1x1 to 300x100, over and over, while a stream arrives through a pipe."""
    data = b"".join(path.read_bytes() for path in CAPTURES)
    read_fd, write_fd = os.pipe()
    app = make_app(PipeSource(read_fd, label="pipe"))
    async with app.run_test(size=(120, 40)) as pilot:
        writer = feed_slowly(write_fd, data, pieces=120, delay=0.01)
        round_ = 0
        while not app.state.ended:
            width, height = SIZES[round_ % len(SIZES)]
            await pilot.resize_terminal(width, height)
            round_ += 1
            assert round_ < 5_000, "the stream never ended"
        writer.join(10)
        await pilot.resize_terminal(160, 50)
        await settled(pilot)
        counts = app.state.counts
        assert counts.total == expected_total(data)
        assert counts.total == counts.events + counts.malformed + counts.unknown
        assert screen_problems(app) == []
    os.close(read_fd)


@pytest.mark.parametrize("seed", range(4))
async def test_mutated_capture_in_the_viewer(tmp_path: Path, seed: int) -> None:
    """A mutated real capture: it loads, counts add up, keys and detail views work."""
    rng = random.Random(seed)
    original = rng.choice(CAPTURES).read_bytes()
    data, applied = mutate(original, rng, rounds=rng.randint(2, 8))
    path = tmp_path / "mutated.ndjson"
    path.write_bytes(data)
    app = make_app(path)
    async with app.run_test(size=(160, 50)) as pilot:
        await settled(pilot)
        counts = app.state.counts
        assert counts.total == expected_total(data), applied
        assert counts.total == counts.events + counts.malformed + counts.unknown
        for key in ("end", "pageup", "t", "]", "[", "home"):
            await pilot.press(key)
            await pilot.pause()
        assert screen_problems(app) == [], applied
        if app.session_index is not None:
            calls = app.state.sessions[app.session_index].tool_calls
            main = app.screen
            for index in range(min(len(calls), 3)):
                app.post_message(ToolCallTable.OpenDetail(index))
                await wait_until(pilot, lambda: app.screen is not main, 10)
                await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), 20)
                assert screen_problems(app, svg=False) == [], applied
                await pilot.press("escape")
                await wait_until(pilot, lambda: app.screen is main, 10)
        await pilot.press("l")
        await pilot.pause(0.2)
        assert screen_problems(app, svg=False) == [], applied
