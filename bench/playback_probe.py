"""Open a big recording in the real viewer, headless, and time its first playback keys.

Usage::

    python bench/playback_probe.py FILE [--timeout SECONDS]

Runs :class:`~streamview.ui.frame.app.StreamviewApp` as ``streamview FILE`` builds it (see
:func:`tui_probe.viewer_for_file`) with ``run_test(headless=True, size=(120, 40))``,
waits until the whole run is browsable (the final state on screen), then presses,
as a person would:

1. ``space``: play (the file opened at its end, so from its start);
2. ``5``: seek to 50 % of the run's time (playing on);
3. ``,``: one event back (pauses).

Each is timed from just before the key until a refresh after the screen shows the
new position: the position bar says playing (or paused) at the event the feed is
at, and the app has folded every event up to it. Prints one JSON object:
``browsable_s`` (from the start of this script), ``first_key_s``, ``seek_s``,
``step_back_s``, ``events``, ``peak_rss_mb`` (this process's ``VmHWM``; the bench
takes the child's ``ru_maxrss`` from ``wait4``), ``rss_before_keys_mb``,
``timed_out`` and ``error``.
"""

from __future__ import annotations

import time

STARTED = time.monotonic()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import orjson  # noqa: E402

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from textual.pilot import Pilot  # noqa: E402
from tui_probe import (  # noqa: E402
    SIZE,
    after_refresh,
    final_state_shown,
    keeping_figures,
    peak_rss_mb,
    prepare_process_like_run_app,
    viewer_for_file,
)

from streamview.ui.frame.app import StreamviewApp  # noqa: E402
from streamview.ui.playback.controls import PlaybackBar, describe_position  # noqa: E402
from streamview.ui.playback.feed import PlaybackFeed  # noqa: E402

POLL_SECONDS = 0.002


def current_rss_mb() -> float:
    """This process's resident set now (``VmRSS``), in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def position_shown(app: StreamviewApp, feed: PlaybackFeed, playing: bool) -> bool:
    """The feed is ready, playing (or paused) as asked, every due event is folded in,
    and the position bar says so."""
    if not feed.loaded or feed.playing != playing or app.controls is None:
        return False
    if app.controls.waiting or app.state.counts.total != feed.position or feed.position == 0:
        return False
    bar = app.query_one(PlaybackBar)
    text = str(bar.content)
    return text == describe_position(feed) and text.startswith("▶" if playing else "‖")


async def press_and_wait(
    pilot: Pilot[Any], key: str, ready: Callable[[], bool], timeout: float
) -> float | None:
    """Press ``key``; seconds until a refresh after ``ready()`` holds (``None``: timed out)."""
    began = time.monotonic()
    await pilot.press(key)
    deadline = began + timeout
    while not ready():
        if time.monotonic() > deadline:
            return None
        await asyncio.sleep(POLL_SECONDS)
    return await after_refresh(pilot.app) - began  # type: ignore[arg-type]


async def probe(path: Path, timeout: float, result: dict[str, Any]) -> dict[str, Any]:
    """Open ``path`` headless, wait until it is browsable, then time the keys into ``result``."""
    prepare_process_like_run_app()
    app = viewer_for_file(path)
    feed = app.feed
    assert isinstance(feed, PlaybackFeed)
    result["timed_out"] = False
    async with app.run_test(headless=True, size=SIZE) as pilot:
        deadline = time.monotonic() + timeout
        while not final_state_shown(app):
            if time.monotonic() > deadline:
                result["timed_out"] = True
                return result
            await asyncio.sleep(0.01)
        result["browsable_s"] = await after_refresh(app) - STARTED
        result["events"] = app.state.counts.total
        result["rss_before_keys_mb"] = current_rss_mb()
        result["first_key_s"] = await press_and_wait(
            pilot, "space", lambda: position_shown(app, feed, playing=True), timeout
        )
        schedule = feed.schedule
        wanted = schedule.due_at(schedule.total_ms * 0.5) if schedule is not None else 0

        def seeked() -> bool:
            return feed.position >= wanted and position_shown(app, feed, playing=True)

        result["seek_s"] = await press_and_wait(pilot, "5", seeked, timeout)
        before = feed.position
        await pilot.press("space")  # pause where the seek got to, untimed

        def stepped() -> bool:
            return feed.position < before and position_shown(app, feed, playing=False)

        result["step_back_s"] = await press_and_wait(pilot, "comma", stepped, timeout)
        result["position"] = feed.position
        result["timed_out"] = None in (result["first_key_s"], result["seek_s"])
    feed.stop(timeout=0.5)
    result["peak_rss_mb"] = peak_rss_mb()
    return result


async def probe_safely(path: Path, timeout: float) -> dict[str, Any]:
    """:func:`probe`, keeping the figures if the app raises."""
    return await keeping_figures(probe, path, timeout)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    result = asyncio.run(probe_safely(args.file, args.timeout))
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
