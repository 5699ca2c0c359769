"""Memory of long runs (issue 20, point 7): ``--replay`` of a big file, and a big live
pipe at full speed, in the real viewer, headless.

Usage::

    python bench/memory_probe.py FILE --replay [--timeout SECONDS]
    python bench/memory_probe.py FILE --pipe [--timeout SECONDS]

``--replay`` builds the app as ``streamview --replay FILE`` does (a
:class:`~streamview.ui.playback.feed.PlaybackFeed` playing from the start) and times the
first event on screen from the start of this script (``first_event_s``); it then waits
until the whole file is folded for playback (``indexed_s``) and plays on a moment.
``--pipe`` feeds the file through a pipe (``cat FILE |``) as fast as the viewer reads
it, until every line is folded (``all_folded_s``). Prints one JSON object with
``events`` and ``peak_rss_mb`` (``VmHWM``; the bench takes ``ru_maxrss`` from ``wait4``).
"""

from __future__ import annotations

import time

STARTED = time.monotonic()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import orjson  # noqa: E402

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from tui_probe import SIZE, after_refresh, keeping_figures, peak_rss_mb  # noqa: E402

from streamview.sources.base import FileSource, PipeSource  # noqa: E402
from streamview.ui.feed.reader import Feed  # noqa: E402
from streamview.ui.frame.app import StreamviewApp  # noqa: E402
from streamview.ui.frame.launch import prepare_process  # noqa: E402
from streamview.ui.playback.feed import PlaybackFeed  # noqa: E402


async def replay(path: Path, timeout: float, result: dict[str, Any]) -> dict[str, Any]:
    """``streamview --replay FILE``: first event on screen, then the whole file indexed."""
    prepare_process()
    source = FileSource(path)
    feed = PlaybackFeed(source, playing=True, speed=1.0, idle_limit=None)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    deadline = time.monotonic() + timeout
    async with app.run_test(headless=True, size=SIZE):
        result["first_frame_s"] = await after_refresh(app) - STARTED
        while app.state.counts.total == 0:
            if time.monotonic() > deadline:
                result["timed_out"] = True
                return result
            await asyncio.sleep(0.002)
        result["first_event_s"] = await after_refresh(app) - STARTED
        while not feed.folded:
            if time.monotonic() > deadline:
                result["timed_out"] = True
                return result
            await asyncio.sleep(0.05)
        result["indexed_s"] = time.monotonic() - STARTED
        await asyncio.sleep(1.0)  # playing on, from the whole file's timeline
        result["events"] = feed.total
        result["shown"] = app.state.counts.total
    feed.stop(timeout=0.5)
    result["peak_rss_mb"] = peak_rss_mb()
    return result


async def pipe(path: Path, timeout: float, result: dict[str, Any]) -> dict[str, Any]:
    """``cat FILE | streamview``: every line folded, as fast as the viewer reads."""
    prepare_process()
    producer = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE)
    assert producer.stdout is not None
    source = PipeSource(producer.stdout.fileno(), label="stdin")
    app = StreamviewApp(source)
    deadline = time.monotonic() + timeout
    async with app.run_test(headless=True, size=SIZE):
        feed = app.feed
        assert isinstance(feed, Feed)
        while not (feed.ended and app.state.counts.total and not feed.pending):
            if time.monotonic() > deadline:
                result["timed_out"] = True
                break
            await asyncio.sleep(0.05)
        await after_refresh(app)
        result["all_folded_s"] = time.monotonic() - STARTED
        result["events"] = app.state.counts.total
    producer.wait()
    result["peak_rss_mb"] = peak_rss_mb()
    return result


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--replay", action="store_true")
    mode.add_argument("--pipe", action="store_true")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    run = replay if args.replay else pipe
    result = asyncio.run(keeping_figures(run, args.file, args.timeout))
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
