"""Play a run headless on a virtual clock and write what the viewer shows as an
asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/).

No terminal and no waiting: the playback's clock is a number this module moves from
one event's replay time to the next (the recorded arrival times divided by the speed,
silences capped at the idle limit, as ``--replay`` plays them), and after each move
the viewer folds what is due, its timers tick, and the screen is rendered and compared
with the last one. The clock stops at the viewer's frames (30 a second): the events
due within one frame are shown together, as the viewer shows them. A frame is written
only when the screen changed, stamped with the replay time, so the cast lasts as long
as the replay would, however fast it is made.
Between two events the clock also stops at every whole second, as the viewer's own
once-a-second tick does (running calls' timers, the idle counter).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson
from textual.pilot import Pilot

from streamview.core.sanitize import one_line
from streamview.core.state import StreamState
from streamview.sources.base import Source
from streamview.ui.cast.frames import FrameDiff, screen_strips
from streamview.ui.frame.app import FRAME_SECONDS, StreamviewApp
from streamview.ui.playback.feed import PlaybackFeed

DEFAULT_SIZE = (100, 30)
"""Columns and rows of the cast when ``--size`` is not given."""
LOAD_TIMEOUT_SECONDS = 120
"""The longest the viewer may take to read the file before giving up."""
TITLE_LIMIT = 80
"""Characters of the prompt the cast's title keeps."""
EPSILON_SECONDS = 1e-6
"""Added to each stop of the clock: the playhead's float position must not fall a
hair short of an event's whole-millisecond offset."""


class VirtualClock:
    """Monotonic seconds that move only when told (the playback's clock)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class CastStats:
    """What an export wrote."""

    frames: int
    duration: float
    """Seconds of the cast (the replay's length at the chosen speed)."""
    size: int
    """Bytes written."""


def cast_title(state: StreamState, label: str) -> str:
    """The cast's title: the first prompt of the run (else the input's name), made one
    clean line (stream text: no control character reaches a player's title bar)."""
    for session in state.sessions:
        if session.prompt and session.prompt.strip():
            return "streamview: " + one_line(session.prompt.strip(), TITLE_LIMIT)
    return "streamview: " + one_line(label, TITLE_LIMIT)


def cast_header(
    width: int,
    height: int,
    title: str,
    started_ms: int | None,
    idle_limit: float | None,
) -> dict[str, Any]:
    """The header line's fields."""
    header: dict[str, Any] = {
        "version": 2,
        "width": width,
        "height": height,
        "timestamp": (started_ms // 1000) if started_ms is not None else int(time.time()),
        "title": title,
        "env": {"TERM": "xterm-256color", "COLORTERM": "truecolor"},
    }
    if idle_limit is not None:
        header["idle_time_limit"] = idle_limit
    return header


def stops(offsets: Sequence[int], speed: float, fps: float = 1 / FRAME_SECONDS) -> list[float]:
    """The replay times (seconds) the clock stops at: the first of the viewer's frames
    (``fps`` a second) at or after each event, and every whole second between two
    events (the viewer's clock tick).

    Args:
        offsets: Each event's offset from the start, in recording ms (idle limit applied).
        speed: Recording time played per second.
        fps: The viewer's frames a second: events due within one frame show together.
    """
    frames = sorted({math.ceil(offset / 1000 / speed * fps - 1e-9) for offset in offsets})
    moments: list[float] = []
    previous = 0
    for frame in frames:
        tick = (previous // round(fps) + 1) * round(fps)
        while tick < frame:
            moments.append(tick / fps)
            tick += round(fps)
        moments.append(frame / fps)
        previous = frame
    return moments


def export_cast(
    source: Source,
    out: IO[str],
    *,
    size: tuple[int, int] = DEFAULT_SIZE,
    speed: float = 1.0,
    idle_limit: float | None = None,
    theme: str | None = None,
    agent: str | None = None,
    title_state: StreamState | None = None,
) -> CastStats:
    """Write the asciicast of the viewer replaying ``source`` to ``out``.

    Args:
        source: A finished input (a file, or bytes read from a pipe).
        out: Where the cast's lines go (text, written as they are made).
        size: Columns and rows of the viewer.
        speed: Recording time played per second of the cast.
        idle_limit: Longest silence of the recording to play, in seconds.
        theme: A Textual theme name.
        agent: The dialect to read the input as (``None``: recognised).
        title_state: The run folded already (for the title and start time); folded
            from the playback otherwise.

    Returns:
        How many frames, how long, how many bytes.
    """
    clock = VirtualClock()
    feed = PlaybackFeed(
        source, playing=True, speed=speed, idle_limit=idle_limit, clock=clock, agent=agent
    )
    app = StreamviewApp(source, theme=theme, clock=feed.recorded_now_ms, feed=feed, agent=agent)
    return asyncio.run(_record(app, feed, clock, out, size, speed, idle_limit, title_state))


async def _record(
    app: StreamviewApp,
    feed: PlaybackFeed,
    clock: VirtualClock,
    out: IO[str],
    size: tuple[int, int],
    speed: float,
    idle_limit: float | None,
    title_state: StreamState | None,
) -> CastStats:
    written = frames = 0
    last = 0.0
    async with app.run_test(size=size) as pilot:
        await _loaded(pilot, feed)
        schedule = feed.schedule
        assert schedule is not None
        state = title_state or feed.final_state()
        first_ms = next((s.first_time_ms for s in state.sessions if s.first_time_ms), None)
        header = cast_header(*size, cast_title(state, app.source.label), first_ms, idle_limit)
        line = orjson.dumps(header).decode() + "\n"
        out.write(line)
        written += len(line.encode())
        diff = FrameDiff()
        app.transcript.tail_pacing = False
        await pilot.pause()  # the first screen complete (the footer's keys)
        for moment in [0.0, *stops(schedule.offsets, speed)]:
            clock.now = moment + EPSILON_SECONDS
            app.pump()
            app.tick()
            if app.controls is not None:
                app.controls.refresh()
            await _settle(pilot, app)
            data = diff.update(diff.lines(screen_strips(app)))
            if data:
                line = orjson.dumps([round(moment, 6), "o", data]).decode() + "\n"
                out.write(line)
                written += len(line.encode())
                frames += 1
                last = moment
    return CastStats(frames=frames, duration=last, size=written)


async def _loaded(pilot: Pilot[Any], feed: PlaybackFeed) -> None:
    """Wait (real time) until the whole file is read and scheduled for playback."""
    deadline = time.monotonic() + LOAD_TIMEOUT_SECONDS
    while not (feed.loaded and feed.folded and feed.schedule is not None):
        if feed.loaded and feed.source.path is None:
            break  # a pipe's events are held: loaded is all there is
        if time.monotonic() > deadline:
            raise TimeoutError("the input took too long to read")
        await pilot.pause(0.02)
    schedule = feed.schedule
    while schedule is not None and len(schedule) < feed.total:
        await pilot.pause(0.02)
        schedule = feed.schedule


async def _settle(pilot: Pilot[Any], app: StreamviewApp) -> None:
    """Wait until the screen shows everything folded: every message handled, and the
    long blocks sent to the layout thread laid out (a cast must not depend on how fast
    the machine that made it was)."""
    await pilot.pause(0)  # every message handled, the screen updated (no idle wait)
    deadline = time.monotonic() + LOAD_TIMEOUT_SECONDS
    while app.transcript.laying_out and time.monotonic() < deadline:
        await pilot.pause(0.005)
    # What the new layout set off (following the end: a scroll to the new height).
    await pilot.pause(0)


def write_cast(path: Path, source: Source, **options: Any) -> CastStats:
    """:func:`export_cast` into the file ``path`` (UTF-8).

    Raises:
        OSError: ``path`` cannot be written.
    """
    with path.open("w", encoding="utf-8") as out:
        return export_cast(source, out, **options)
