"""The signals that end streamview (SIGINT, SIGTERM, SIGHUP), handled like Ctrl+C.

Every front end stops the same way whatever stops it: the agent's process group is
stopped with Ctrl+C's escalation, the recording is flushed and closed, the terminal
restored, the closing lines printed, and the exit status is 128 + the signal (130,
143, 129), as a shell reports a program the signal killed. :data:`received` keeps
the first such signal for the exit status; :func:`handled` installs the handlers of
the plain front ends (the viewer's are in :mod:`streamview.ui.frame.signals`).

``signal`` (its enums: ~0.8 ms) and ``queue`` are imported when first needed, not on
every start-up: ``--events`` installs its handlers with ``_signal``, and only a signal
that arrives makes a :class:`signal.Signals` of it (issue 30.8).
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal.signal without the enums
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import signal

TERMINATING: tuple[int, ...] = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
"""What a person (Ctrl+C), a process manager (SIGTERM) or a closed terminal (SIGHUP)
sends to say "stop" (their numbers)."""

received: list[signal.Signals] = []
"""The terminating signals streamview got, first first."""


def note(signum: int) -> signal.Signals:
    """Remember a terminating signal; returns it as a :class:`signal.Signals`."""
    import signal  # a lookup where it is imported already (the viewer, run)

    sig = signal.Signals(signum)
    received.append(sig)
    return sig


last_resort: list[Callable[[], None]] = []
"""What must still happen if the viewer cannot leave in time after a signal (stop the
agent, close the recording): run before the process ends by force."""


def first() -> signal.Signals | None:
    """The first terminating signal streamview got, if any."""
    return received[0] if received else None


def exit_status(otherwise: int) -> int:
    """128 + the first terminating signal streamview got, else ``otherwise``."""
    sig = first()
    return otherwise if sig is None else 128 + sig


@contextlib.contextmanager
def handled(on_signal: Callable[[signal.Signals], None]) -> Iterator[None]:
    """While inside, SIGINT, SIGTERM and SIGHUP call ``on_signal`` instead of ending
    streamview at once (the handler runs on the main thread between two bytecodes:
    it must only signal and note, never block)."""

    def handler(signum: int, frame: object) -> None:
        on_signal(note(signum))

    previous = {sig: _signal.signal(sig, handler) for sig in TERMINATING}
    try:
        yield
    finally:
        for sig, action in previous.items():
            _signal.signal(sig, action)


@contextlib.contextmanager
def handed_over(on_signal: Callable[[signal.Signals], None]) -> Iterator[None]:
    """As :func:`handled`, for an ``on_signal`` that takes locks: it runs on a thread of
    its own, the handler only hands the signal over.

    A handler runs on the main thread between two bytecodes, also in the middle of the
    previous signal's handler: one that took a lock the interrupted code held waited for
    itself for ever (``streamview run`` given three SIGTERMs 0.3 s apart at load 10,
    while the first was still signalling the agent's group). :class:`queue.SimpleQueue`'s
    ``put`` is safe to call there (it takes no lock that can be held).
    """
    import queue

    handed: queue.SimpleQueue[signal.Signals | None] = queue.SimpleQueue()

    def forward() -> None:
        while (sig := handed.get()) is not None:
            on_signal(sig)

    thread = threading.Thread(target=forward, name="streamview-signals", daemon=True)
    thread.start()
    try:
        with handled(handed.put):
            yield
    finally:
        handed.put(None)
        thread.join(timeout=5)


class SignalStop(threading.Event):
    """A stop event a signal handler may set.

    :meth:`threading.Event.set` takes a lock that the code the handler interrupted may
    hold (inside :meth:`~threading.Event.wait`): the handler would wait for itself.
    This one sets a flag, and waits by sleeping (a signal's handler runs during the
    sleep), so a source polling it sees the stop within its poll interval.
    """

    POLL_SECONDS = 0.05

    def __init__(self) -> None:
        super().__init__()
        self._stopped = False

    def set(self) -> None:
        """Stop (safe in a signal handler: no lock)."""
        self._stopped = True

    def is_set(self) -> bool:
        """Whether it was set."""
        return self._stopped

    def wait(self, timeout: float | None = None) -> bool:
        """Sleep until set or ``timeout`` seconds passed; whether it is set."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._stopped:
            left = self.POLL_SECONDS if deadline is None else deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(left, self.POLL_SECONDS))
        return self._stopped
