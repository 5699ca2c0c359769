"""Starting the viewer: the process's settings, and running the app on a source until
the user quits, with the exit status the command returns."""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable
from typing import Any

from streamview.core.exit_status import EXIT_SOFTWARE, EXIT_USAGE
from streamview.sources.base import PipeSource, Source, detach_stdin_for_keys, empty_input
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.crash import Crash, report, thread_hook
from streamview.ui.frame.hangup import hangup_aware
from streamview.ui.frame.signals import leave_on_signal


def prepare_process() -> None:
    """Process-wide settings the viewer runs with (the benches apply them too).

    The fold allocates millions of small, long-lived objects: collecting the young
    generation every 700 allocations cost about a fifth of the viewer's CPU, and every
    full collection of them holds the GIL for tens of milliseconds.
    """
    gc.set_threshold(100_000, 50, 100)


def run_app(
    source: Source,
    theme: str | None = None,
    app_class: Callable[..., StreamviewApp] = StreamviewApp,
    **options: Any,
) -> int:
    """Run the viewer on ``source`` until the user quits.

    A pipe on stdin is moved to another descriptor first, so that Textual can read
    keys from the terminal on fd 0.

    Args:
        source: The input.
        theme: A Textual theme name.
        app_class: Makes the app (the sessions list's viewer goes back on Escape).
        **options: Passed to :class:`StreamviewApp`.

    Returns:
        The exit status: 0 when the last session succeeded, 1 otherwise, 2 when the
        input was empty or could not be read (the reason goes to stderr), 70 when
        the viewer failed (one line on stderr, the traceback in a file it names).

    Raises:
        InputError: No terminal for keys, or an unknown theme.
    """
    if isinstance(source, PipeSource) and source.fd == 0:
        source = PipeSource(detach_stdin_for_keys(), label=source.label)
    prepare_process()
    app = app_class(source, theme=theme, **options)
    app.driver_class = hangup_aware(app.driver_class)
    previous_hook = threading.excepthook
    threading.excepthook = thread_hook(app)
    try:
        with leave_on_signal(app):
            app.run()
    except Exception as error:  # raised past Textual's own handling (its start, its end)
        app.crash = app.crash or Crash.of(error)
    finally:
        threading.excepthook = previous_hook
        app.feed.stop(timeout=0.5)
    if app.crash is not None:
        sys.stderr.write(f"streamview: {report(app.crash)}\n")
        return EXIT_SOFTWARE
    if app.read_error is not None:
        sys.stderr.write(f"streamview: {app.read_error}\n")
        return EXIT_USAGE
    if app.state.ended and not app.state.counts.total:
        sys.stderr.write(f"streamview: {empty_input(source, app.feed.bytes_read)}\n")
        return EXIT_USAGE
    return app.exit_code
