"""Open a recording in the real viewer, headless, and time what a person would see.

Usage::

    python bench/tui_probe.py FILE [--t0 MONOTONIC] [--timeout SECONDS]

Runs :class:`~streamview.ui.frame.app.StreamviewApp`, built as ``streamview FILE`` builds
it, with ``run_test(headless=True, size=(120, 40))`` on ``FILE`` and prints one JSON
object (seconds are counted from ``--t0``, a ``time.monotonic()`` reading taken by the
parent just before it started this process, so interpreter start-up and imports
count; without it, from the first line of this script):

``first_frame_s``
    The first frame is painted (the app is mounted and one refresh has happened).
``tail_visible_s``
    The tail of the run is on screen: the session shown is the file's last one (its
    ``session_id`` is read from the end of the file first, untimed), the status bar
    shows its outcome, and a refresh happened after that, whether or not the rest of
    the file is folded yet (a viewer may show a preview of the tail first).
``final_state_s``
    The final state is on screen: the reader reached the end of the file, every
    event is folded in, the last session is the one shown, the status bar shows its
    outcome (success, error or "ended without a result") and a refresh happened
    after that.
``browsable_s``
    Everything is folded, so any session and any call can be opened: the same
    moment as ``final_state_s``.
``events``
    Lines folded into the state.
``peak_rss_mb``
    This process's peak resident memory (``VmHWM``).
``timed_out``
    The final state was not reached within ``--timeout``.
``error``
    An exception the app raised, if any (the figures gathered before it are kept).
"""

from __future__ import annotations

import time

STARTED = time.monotonic()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import sys  # noqa: E402
from collections.abc import Awaitable, Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import orjson  # noqa: E402

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from streamview.core.state import RUNNING  # noqa: E402
from streamview.sources.base import FileSource  # noqa: E402
from streamview.ui.frame.app import StreamviewApp  # noqa: E402
from streamview.ui.frame.launch import prepare_process  # noqa: E402
from streamview.ui.frame.status_bar import StatusBar  # noqa: E402
from streamview.ui.playback.feed import PlaybackFeed  # noqa: E402

SIZE = (120, 40)
"""Terminal size of every headless measurement."""
POLL_SECONDS = 0.005


def prepare_process_like_run_app() -> None:
    """Set the process up as :func:`streamview.ui.frame.app.run_app` does before ``app.run()``."""
    prepare_process()


def viewer_for_file(path: Path) -> StreamviewApp:
    """The app ``streamview FILE`` runs: fed by a :class:`PlaybackFeed` at its final state.

    Built as ``cli.view`` builds it (keep in step), since the probe cannot go through
    the command line to drive the app headless.
    """
    source = FileSource(path)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    return StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)


def peak_rss_mb() -> float:
    """This process's peak resident set (``VmHWM``) in MB, from ``/proc``."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def after_refresh(app: StreamviewApp) -> float:
    """Wait for the next screen refresh; return when it happened (monotonic)."""
    painted: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    def mark() -> None:
        if not painted.done():
            painted.set_result(time.monotonic())

    app.call_after_refresh(mark)
    app.screen.refresh()
    return await painted


def last_session_id(path: Path, window: int = 4 << 20) -> str | None:
    """The ``session_id`` of the file's last record that has one, read from its tail."""
    with path.open("rb") as handle:
        handle.seek(max(0, path.stat().st_size - window))
        lines = handle.read().split(b"\n")
    for line in reversed(lines):
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("session_id"), str):
            return str(record["session_id"])
    return None


def tail_shown(app: StreamviewApp, session_id: str | None) -> bool:
    """The file's last session is on show with its outcome, folded in full or not."""
    state = app.state
    if session_id is None or not state.sessions:
        return False
    if app.session_index != len(state.sessions) - 1:
        return False
    session = app.query_one(StatusBar).info.session
    return (
        session is state.sessions[-1]
        and session.session_id == session_id
        and session.outcome.status != RUNNING
    )


def final_state_shown(app: StreamviewApp) -> bool:
    """Everything is folded and the last session's outcome is on the status bar."""
    state = app.state
    if not state.ended or not state.sessions:
        return False
    last = len(state.sessions) - 1
    if app.session_index != last:
        return False
    info = app.query_one(StatusBar).info
    return (
        info.ended
        and info.session is state.sessions[last]
        and info.session.outcome.status != RUNNING
    )


async def probe(path: Path, t0: float, timeout: float, result: dict[str, Any]) -> dict[str, Any]:
    """Open ``path`` headless and time the first frame and the final state into ``result``."""
    last_id = last_session_id(path)
    prepare_process_like_run_app()
    app = viewer_for_file(path)
    result["timed_out"] = False
    async with app.run_test(headless=True, size=SIZE):
        result["first_frame_s"] = await after_refresh(app) - t0
        deadline = time.monotonic() + timeout
        tail = None
        while not final_state_shown(app):
            if tail is None and tail_shown(app, last_id):
                tail = await after_refresh(app) - t0
            if time.monotonic() > deadline:
                result["timed_out"] = True
                break
            await asyncio.sleep(POLL_SECONDS)
        final = await after_refresh(app) - t0
        result["final_state_s"] = None if result["timed_out"] else final
        result["browsable_s"] = result["final_state_s"]
        result["tail_visible_s"] = tail if tail is not None else result["final_state_s"]
        result["events"] = app.state.counts.total
        result["status"] = app.query_one(StatusBar).text
    app.feed.stop(timeout=0.5)
    result["peak_rss_mb"] = peak_rss_mb()
    return result


async def keeping_figures(
    run: Callable[..., Awaitable[dict[str, Any]]], *args: Any
) -> dict[str, Any]:
    """``run(*args, result)``, keeping the figures it put in ``result`` if the app
    raises (say, while shutting down), and the peak RSS in any case."""
    result: dict[str, Any] = {}
    try:
        result = await run(*args, result)
    except Exception as error:  # reported; the figures are kept
        result["error"] = f"{type(error).__name__}: {error}"
    result.setdefault("peak_rss_mb", peak_rss_mb())
    return result


async def probe_safely(path: Path, t0: float, timeout: float) -> dict[str, Any]:
    """:func:`probe`, keeping the figures if the app raises."""
    return await keeping_figures(probe, path, t0, timeout)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--t0", type=float, default=STARTED, help="monotonic start time")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    result = asyncio.run(probe_safely(args.file, args.t0, args.timeout))
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
