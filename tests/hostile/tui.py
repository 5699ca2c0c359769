"""Helpers for driving the viewer headless over hostile and huge inputs."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from textual.pilot import Pilot
from textual.widget import Widget

from streamview.sources.base import FileSource, PipeSource, Source
from streamview.ui.frame.app import StreamviewApp

from .safety import unsafe_in_svg, unsafe_on_screen

NOW_MS = 1_789_650_100_000


def make_app(source: Source | Path) -> StreamviewApp:
    """The viewer on a file (or any source), with a fixed clock."""
    if isinstance(source, Path):
        source = FileSource(source)
    return StreamviewApp(source, clock=lambda: NOW_MS)


async def wait_until(pilot: Pilot[int], condition: Callable[[], bool], timeout: float) -> None:
    """Let the app run until ``condition()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the viewer did not get there in time"
        await pilot.pause(0.05)
    await pilot.pause()


async def settled(pilot: Pilot[int], timeout: float = 60.0) -> StreamviewApp:
    """Wait until the whole input is read, folded and shown (long blocks laid out too)."""
    app = pilot.app
    assert isinstance(app, StreamviewApp)
    await wait_until(pilot, lambda: app.state.ended, timeout)
    await pilot.pause(0.1)
    await wait_until(pilot, lambda: not app.transcript.laying_out, timeout)
    return app


def screen_problems(app: StreamviewApp, svg: bool = True) -> list[str]:
    """Unsafe characters on the current screen: every widget's lines, and the SVG."""
    problems = unsafe_on_screen(app.screen.walk_children(Widget))
    if svg:
        problems += unsafe_in_svg(app.export_screenshot())
    return problems


def screen_text(app: StreamviewApp) -> str:
    """All text the current screen's widgets show."""
    lines: list[str] = []
    for widget in app.screen.walk_children(Widget):
        if widget.display and widget.size.area:
            lines.extend(widget.render_line(y).text for y in range(widget.size.height))
    return "\n".join(lines)


class FreezeMeter:
    """Measure the longest time the app's event loop did not run a 20 ms timer.

    Attach with :meth:`attach` inside ``run_test``; read :attr:`longest` (seconds). For
    the bench's figures: tests never assert on time.
    """

    def __init__(self) -> None:
        self.longest = 0.0
        self._last: float | None = None

    def attach(self, app: StreamviewApp) -> None:
        """Start measuring."""
        self._last = time.perf_counter()
        app.set_interval(0.02, self._tick, name="freeze meter")

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.longest = max(self.longest, now - self._last)
        self._last = now


class PacedPipe:
    """A producer thread writing lines into a pipe at a steady rate, like a live agent.

    Args:
        lines: The lines to write (each ends with a newline).
        per_second: Lines written per second.
    """

    def __init__(self, lines: Sequence[bytes], per_second: float) -> None:
        self.read_fd, self._write_fd = os.pipe()
        self._lines = lines
        self._interval = 1.0 / per_second
        self.finished_at: float | None = None
        """When the last line was written and the pipe closed (perf_counter seconds)."""
        self._thread = threading.Thread(target=self._write, name="paced-pipe", daemon=True)

    def source(self) -> PipeSource:
        """The viewer's side of the pipe."""
        return PipeSource(self.read_fd, label="pipe")

    def start(self) -> None:
        """Start writing."""
        self._thread.start()

    def _write(self) -> None:
        started = time.perf_counter()
        try:
            for number, line in enumerate(self._lines):
                os.write(self._write_fd, line)
                delay = started + (number + 1) * self._interval - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
        finally:
            os.close(self._write_fd)
            self.finished_at = time.perf_counter()

    def close(self) -> None:
        """Wait for the writer; close the read end."""
        self._thread.join(30)
        os.close(self.read_fd)
