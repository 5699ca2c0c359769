"""Shared helpers for the viewer's Pilot and snapshot tests: sources, clocks, captures."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget

from streamview.sources.base import Source
from streamview.ui.frame.app import StreamviewApp

REPO = Path(__file__).resolve().parents[2]
CAPTURES = REPO / "tests" / "fixtures" / "cursor-real"
RECORDINGS = REPO / "recordings"
NOW_MS = 1_789_644_720_000
"""The fixed "now" of the tests (September 2026, just after the captures)."""


class FakeClock:
    """A wall clock the test moves by hand (epoch ms)."""

    def __init__(self, now: int = NOW_MS) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        """Move time on."""
        self.now += ms


class ScriptedSource(Source):
    """A live source that yields the chunks it is given, then stays open (or ends).

    Tests push more with :meth:`push` and end it with :meth:`close`, so a run can be
    shown "in progress" for as long as the test needs.
    """

    live = True

    def __init__(self, chunks: list[bytes] | None = None, label: str = "stdin") -> None:
        self.label = label
        self._chunks: list[bytes] = list(chunks or [])
        self._lock = threading.Lock()
        self._closed = False

    def push(self, data: bytes) -> None:
        """Make ``data`` arrive."""
        with self._lock:
            self._chunks.append(data)

    def close(self) -> None:
        """End the input."""
        self._closed = True

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield what was pushed; end when closed and drained, or when stopped."""
        while not stop.is_set():
            with self._lock:
                pending, self._chunks = self._chunks, []
            yield from pending
            if not pending:
                if self._closed:
                    return
                stop.wait(0.01)


def capture(name: str) -> Path:
    """Path of a real capture in tests/fixtures/cursor-real."""
    path = CAPTURES / name
    assert path.is_file(), f"missing capture {name}"
    return path


def lines_of(name: str) -> list[bytes]:
    """The lines of a capture, each with its newline."""
    return capture(name).read_bytes().splitlines(keepends=True)


def write_pipe_slowly(fd: int, lines: list[bytes], delay: float, close: bool = True) -> None:
    """Write ``lines`` to a pipe one at a time (on a thread), then close it."""

    def run() -> None:
        try:
            for line in lines:
                os.write(fd, line)
                time.sleep(delay)
        finally:
            if close:
                os.close(fd)

    threading.Thread(target=run, daemon=True).start()


PATIENCE = 60.0
"""Seconds a wait on a condition is given before the test fails. Generous: a passing
test never waits it out, and a CI machine running two copies of the suite beside other
work (load 17 on 2 cores) took over 10 s to draw one detail screen."""


async def wait_for(pilot: Pilot[Any], condition: object, timeout: float = PATIENCE) -> None:
    """Let the app run until ``condition()`` holds (fails the test after ``timeout``)."""
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        await pilot.pause(0.02)
    await pilot.pause()


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the whole input is read and shown (long blocks laid out too)."""
    app = pilot.app
    assert isinstance(app, StreamviewApp)
    await wait_for(pilot, lambda: app.state.ended)
    await pilot.pause(0.05)
    await wait_for(pilot, lambda: not app.transcript.laying_out)


async def settle_sections(app: App[Any], pilot: Pilot[Any]) -> None:
    """Wait until a detail or log-entry screen has loaded and laid out its sections."""
    from streamview.ui.details.section_view import SectionView

    for _ in range(50):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.screen.query("#detail-loading, #event-entry-loading"):
            continue
        views = app.screen.query(SectionView)
        if not app.workers._workers and all(
            view.sections is not None and view.lines for view in views
        ):
            return
    raise AssertionError("the screen never finished loading")


def spy_on_glides(widget: Widget) -> list[str]:
    """The attributes ``widget`` animates from now on (a scroll key's glide animates
    ``scroll_y``; a jump sets it)."""
    started: list[str] = []
    animate = widget.animate

    def recording(attribute: str, *args: Any, **kwargs: Any) -> None:
        started.append(attribute)
        animate(attribute, *args, **kwargs)

    widget.animate = recording  # type: ignore[method-assign]
    return started
