"""One background thread that lays out long transcript blocks, newest request first.

Laying out a long answer (a 120 KB code fence, a 2,000-row table, 500 KB of text) takes
Rich from a few hundred milliseconds to seconds; on the UI thread that froze keys and
repaints. The transcript hands such blocks to a :class:`LayoutThread` and shows a
placeholder (or the block's previous lines) meanwhile.

A plain daemon thread rather than a Textual thread worker: thread workers are joined
when the app exits, so quitting would wait for a layout nobody will see.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import msgspec
from textual.strip import Strip

from streamview.ui.transcript.block_layout import NOTHING_FROZEN, BlockLayout, Frozen, LayoutStyles


class LayoutResult(msgspec.Struct):
    """What a job produced."""

    lines: list[Strip]
    frozen: Frozen = NOTHING_FROZEN
    seconds: float = 0.0
    """How long the layout took."""


class LayoutJob(msgspec.Struct, eq=False):
    """One block to lay out: everything it needs was captured on the UI thread."""

    key: tuple[object, ...]
    """What the block looked like and how wide it was: equal keys, equal lines."""
    styles: LayoutStyles
    run: Callable[[BlockLayout], LayoutResult]
    """The layout itself, given this thread's :class:`BlockLayout`."""
    done: Callable[[LayoutJob, LayoutResult], None]
    """Called on the layout thread with the result (post a message from it)."""
    cancelled: bool = False
    """Set on the UI thread when the result is no longer wanted."""
    owner: object = msgspec.field(default=None)
    """Whatever the requester needs to find the block again."""


class LayoutThread:
    """Runs :class:`LayoutJob` s one at a time on a daemon thread, newest first.

    Newest first because the newest request is what the user is looking at: the end of
    a followed run, or the block just scrolled into view.
    """

    def __init__(self, name: str = "streamview-layout") -> None:
        self._name = name
        self._jobs: list[LayoutJob] = []
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._layout: BlockLayout | None = None

    def submit(self, job: LayoutJob) -> None:
        """Queue ``job``; the thread starts with the first one."""
        with self._ready:
            if self._closed:
                return
            # Drop what nobody wants any more: a cancelled job may hold megabytes of text.
            self._jobs[:] = [queued for queued in self._jobs if not queued.cancelled]
            self._jobs.append(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._ready.notify()

    def close(self) -> None:
        """Drop what is queued and let the thread end after the job it is on."""
        with self._ready:
            self._closed = True
            self._jobs.clear()
            self._ready.notify()

    @property
    def queued(self) -> int:
        """Jobs waiting (not counting the one running)."""
        with self._ready:
            return len(self._jobs)

    def _next(self) -> LayoutJob | None:
        with self._ready:
            while not self._jobs and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            return self._jobs.pop()

    def _run(self) -> None:
        while (job := self._next()) is not None:
            if job.cancelled:
                continue
            layout = self._layout
            if layout is None or layout.styles is not job.styles:
                layout = self._layout = BlockLayout(job.styles)
            try:
                result = job.run(layout)
            except Exception as error:  # the block is still shown, as a note
                result = _failed(layout, error)
            job.done(job, result)


def _failed(layout: BlockLayout, error: Exception) -> LayoutResult:
    """A note in place of a block whose layout raised (never expected; never a crash)."""
    note = f"· this block could not be laid out ({type(error).__name__}): x exports it whole"
    return LayoutResult(layout.note(note, 200))
