"""``streamview sessions --watch --otlp``: every run on this machine, sent to a tracing
backend as it happens, with no screen (a service's job: run it under systemd, tmux or
``nohup``).

Every ``--interval`` seconds the list of runs is read again (only the files that
changed), each run's new lines are folded and its finished spans sent
(:mod:`streamview.fronts.otlp.watch`; a session with subagents' files is read whole
with them: :mod:`streamview.fronts.otlp.nested`). A private state file under ``XDG_STATE_HOME``
says what the backend took, so a restart neither loses nor repeats a span. SIGINT or
SIGTERM stops it after one last look: what it read is sent, the state file written;
a backend that does not answer is waited for :data:`STOP_GRACE` seconds at most then
(a batch in flight included), and what it did not take is said once and kept owed.
"""

from __future__ import annotations

import argparse
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from streamview.cli.common import fail, say
from streamview.core.exit_status import EXIT_SUCCESS
from streamview.core.formatting import counted
from streamview.core.sanitize import one_line
from streamview.runs.session_discovery import DescribeCache, RunEntry

if TYPE_CHECKING:
    from streamview.fronts.otlp.watch import SessionWatch

STOP_GRACE = 1.0
"""Seconds a watch told to stop waits for the backend, at most (not its 10 s timeout)."""


class StopNow(BaseException):  # not Exception: the SDK swallows those
    """A second SIGINT or SIGTERM: stop without the last look (the state file is whole)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def ledger_folder() -> Path:
    """Where the watch's state files live: ``user_state_dir("streamview")/otlp-watch``."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("streamview")) / "otlp-watch"


Find = Callable[[argparse.Namespace, DescribeCache], list[RunEntry]]
"""The runs the options ask for (:func:`streamview.cli.sessions.find`)."""


def main_watch(args: argparse.Namespace, find: Find) -> int:
    """``streamview sessions --watch --otlp [filters]``; returns the exit status."""
    if not args.otlp:
        return fail("sessions: --watch sends runs to a tracing backend: add --otlp")
    if not args.watch:
        return fail("sessions: --otlp sends runs as they happen: add --watch")
    if not args.interval > 0:
        return fail(f"sessions: --interval {args.interval:g}: seconds, more than 0")
    from streamview.cli.otlp import settings_of
    from streamview.config.user_dirs import missing_home
    from streamview.fronts.otlp.export import SpanExport
    from streamview.fronts.otlp.watch import SessionWatch, WatchBusy, WatchLedger

    settings = settings_of(args)
    if isinstance(settings, int):
        return settings
    folder = ledger_folder()
    home = missing_home(folder)
    if home is not None:
        return fail(
            f"sessions --watch: home directory {home} does not exist: "
            "set XDG_STATE_HOME for its state file"
        )
    ledger = WatchLedger(folder, settings.endpoint)
    try:
        ledger.open()
    except WatchBusy as error:
        return fail(str(error))
    except OSError as error:
        return fail(f"sessions --watch: state file {ledger.path}: {error.strerror or error}")
    export = SpanExport(settings)
    watch = SessionWatch(ledger, export, content=settings.content)
    stop = threading.Event()

    def stopping(signum: int, frame: object) -> None:
        if stop.is_set():  # again: do not wait for a slow backend (nothing is lost)
            raise StopNow(signum)
        stop.set()
        name = signal.Signals(signum).name
        export.hurry(STOP_GRACE, f"no answer within {STOP_GRACE:g} s of {name}")

    previous = {sig: signal.signal(sig, stopping) for sig in (signal.SIGINT, signal.SIGTERM)}
    where = one_line(settings.endpoint, 120)
    say(f"sessions --watch: sending runs to {where} (state: {ledger.path})")
    cache: DescribeCache = {}
    warned = False
    try:
        while True:
            look(watch, find(args, cache))
            # Said once (the spans are kept and tried again); after a signal, at the end.
            if watch.owed and not warned and not stop.is_set():
                warned = True
                say(f"sessions --watch: {owed_words(watch, settings.endpoint)}; trying again")
            if stop.wait(args.interval):
                break
        if not watch.owed:  # the last lines read: sent before leaving (not to a dead end)
            look(watch, find(args, cache))
    except StopNow as again:
        say(
            f"sessions --watch: stopped at once after sending {counted(watch.sent, 'span')}; "
            "the rest goes when the watch starts again"
        )
        return 128 + again.signum
    finally:
        for sig, action in previous.items():
            signal.signal(sig, action)
        export.close()
        ledger.close()
    said = f"sessions --watch: sent {counted(watch.sent, 'span')}"
    if watch.owed:
        said += f"; {owed_words(watch, settings.endpoint)} (kept: sent when the watch starts again)"
    say(said)
    return EXIT_SUCCESS


def owed_words(watch: SessionWatch, endpoint: str) -> str:
    """``--otlp: 3 spans not delivered to URL: connection refused``."""
    from streamview.fronts.otlp.send import short_reason

    why = f": {short_reason(watch.reason)}" if watch.reason else ""
    spans = counted(watch.owed, "span")
    return f"--otlp: {spans} not delivered to {one_line(endpoint, 120)}{why}"


def look(watch: SessionWatch, entries: list[RunEntry]) -> None:
    """One look at every run the filters let through."""
    from streamview.fronts.otlp.watch import Watched

    watch.look(Watched(entry.path, entry.live) for entry in entries)
