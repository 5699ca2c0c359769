"""An exception nothing in the viewer handled: the viewer leaves with the terminal given
back, streamview exits 70 (``EX_SOFTWARE``, never 0) with one line on stderr, and the
traceback goes to a file in the state directory, not to the terminal (where it would
carry stream text and take a screen).

:class:`CrashHooks` is mixed into the app: Textual calls ``_handle_exception`` with any
exception raised in a handler, a worker or a timer; threads of ours that die go through
:func:`thread_hook`. :func:`report` writes the file and says the line.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.app import App

from streamview.core.exit_status import EXIT_SOFTWARE
from streamview.core.sanitize import clean

MESSAGE_LIMIT = 200
"""Characters of the exception's message the one line keeps."""


@dataclass(frozen=True)
class Crash:
    """What an unhandled exception left: its one-line summary and its traceback."""

    summary: str
    """``KeyError: 'x'``: the type and the message, on one line, safe to print."""
    details: str
    """The whole traceback, as Python formats it."""

    @classmethod
    def of(cls, error: BaseException) -> Crash:
        """The crash ``error`` is."""
        message = " ".join(clean(str(error)).split())
        if len(message) > MESSAGE_LIMIT:
            message = message[: MESSAGE_LIMIT - 1] + "…"
        summary = type(error).__name__ + (f": {message}" if message else "")
        details = "".join(traceback.format_exception(error))
        return cls(summary, details)


class CrashHooks(App[int]):
    """Mixed into the viewer: an unhandled exception ends it with 70, its traceback kept."""

    crash: Crash | None = None
    """The first unhandled exception, once one happened."""

    def _handle_exception(self, error: Exception) -> None:
        """Textual's hook for an unhandled exception: note it, leave with 70, and keep
        the traceback off the terminal (:func:`report` puts it in a file)."""
        if self.crash is None:
            self.crash = Crash.of(error)
        super()._handle_exception(error)
        self._exit_renderables.clear()
        self._return_code = EXIT_SOFTWARE

    def crash_from_thread(self, error: BaseException) -> None:
        """A thread of ours died of ``error``: the viewer ends as for any crash."""
        if isinstance(error, Exception):
            try:  # Textual renders the exception being handled: make it that one
                raise error
            except Exception as raised:
                self._handle_exception(raised)
        else:  # SystemExit, KeyboardInterrupt in a thread: nothing to show
            self.exit(EXIT_SOFTWARE)


def thread_hook(app: CrashHooks) -> Any:
    """A :data:`threading.excepthook` that ends ``app`` as a crash (while it runs)."""

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            return
        try:
            app.call_from_thread(app.crash_from_thread, args.exc_value)
        except RuntimeError:  # the app is not running: nothing on the screen to spare
            sys.__excepthook__(args.exc_type, args.exc_value, args.exc_traceback)

    return hook


def crash_folder() -> Path:
    """Where tracebacks go: ``user_state_dir("streamview")/crashes``."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("streamview")) / "crashes"


def report(crash: Crash, folder: Path | None = None) -> str:
    """Write the traceback to a private file; the one line for stderr, naming the file.

    The state directory first, the temporary one if that cannot be written.
    """
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    reasons = []
    for where in (folder or crash_folder(), Path(tempfile.gettempdir())):
        path = where / name
        try:
            where.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as out:
                out.write(crash.details)
        except OSError as error:
            reasons.append(error.strerror or str(error))
            continue
        return f"internal error: {crash.summary} (details in {path})"
    return f"internal error: {crash.summary} (the details could not be saved: {reasons[-1]})"
