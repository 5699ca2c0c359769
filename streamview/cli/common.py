"""What every ``streamview`` command shares: messages, argument types, the front end."""

from __future__ import annotations

import math
import re
import sys
import threading
from typing import TYPE_CHECKING

from streamview.core.exit_status import EXIT_USAGE
from streamview.core.formatting import counted
from streamview.core.sanitize import one_line
from streamview.sources.base import Source

if TYPE_CHECKING:
    import argparse

    from streamview.runs.recording import Recorder  # only the recording modes import it

UI = "ui"
JSON = "json"
PRINT = "print"
EVENTS = "events"


def say(message: str) -> None:
    """One line on stderr, prefixed with the program's name."""
    try:
        sys.stderr.write(f"streamview: {one_line(message, 2000)}\n")
        sys.stderr.flush()
    except OSError:  # stderr closed, or its terminal is gone (SIGHUP): nobody to tell
        pass


def fail(message: str) -> int:
    """Print one clear line on stderr and return the usage exit code."""
    say(message)
    return EXIT_USAGE


def _bad_value(message: str) -> Exception:
    """argparse's error for a value its type refuses (imported by the parser that asks:
    ``--json FILE`` is read without it, :mod:`streamview.cli.plain_args`)."""
    import argparse

    return argparse.ArgumentTypeError(message)


def positive_number(text: str) -> float:
    """An argparse type: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise _bad_value(f"not a number: {text!r}") from None
    if not 0 < value < math.inf:
        raise _bad_value(f"must be more than 0: {text}")
    return value


def run_number(text: str) -> int:
    """An argparse type: a run's number in ``streamview runs`` (1 the latest)."""
    try:
        value = int(text)
    except ValueError:
        raise _bad_value(f"not a run number: {text!r}") from None
    if value < 1:
        raise _bad_value(f"runs are numbered from 1, not {value}")
    return value


def count(text: str) -> int:
    """An argparse type: a whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise _bad_value(f"not a whole number: {text!r}") from None
    if value < 1:
        raise _bad_value(f"must be 1 or more, not {value}")
    return value


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise _bad_value(f"not a port number: {text!r}") from None
    if not 1 <= value <= 65535:
        raise _bad_value(f"a port is 1 to 65535, not {value}")
    return value


SCREEN_COLUMNS = (40, 500)
"""The narrowest and widest ``--size`` accepted."""
SCREEN_ROWS = (10, 200)
"""The lowest and tallest ``--size`` accepted."""


def screen_size(text: str) -> tuple[int, int]:
    """``--size COLSxROWS`` (``100x30``) as ``(columns, rows)``.

    Raises:
        ValueError: Not two whole numbers joined by ``x``, or out of range (the message
            says which and what would do).
    """
    match = re.fullmatch(r"\s*(\d{1,5})\s*[xX\u00d7]\s*(\d{1,5})\s*", text)
    if match is None:
        raise ValueError(f"--size: not COLUMNSxROWS: {one_line(text, 40)!r} (e.g. 100x30)")
    columns, rows = int(match[1]), int(match[2])
    (low_c, high_c), (low_r, high_r) = SCREEN_COLUMNS, SCREEN_ROWS
    if not (low_c <= columns <= high_c and low_r <= rows <= high_r):
        raise ValueError(
            f"--size: {columns}x{rows} is out of range "
            f"({low_c}-{high_c} columns, {low_r}-{high_r} rows)"
        )
    return columns, rows


def front_end(args: argparse.Namespace) -> str:
    """``json``, ``events``, ``print`` (asked for, or stdout is not a terminal) or ``ui``."""
    if args.json:
        return JSON
    if getattr(args, "events", False):
        return EVENTS
    from streamview.fronts.serve import served  # a socket module, for the other fronts only

    if args.print_mode or not (sys.stdout.isatty() or served()):
        return PRINT
    return UI


def first_content(source: Source) -> int | None:
    """``None`` if the input holds a non-blank byte, else how many (blank) bytes it holds.

    Reads only up to the first non-blank byte, so a big file costs one chunk.
    """
    received = 0
    stop = threading.Event()
    for chunk in source.chunks(stop):
        if chunk.strip():
            stop.set()
            return None
        received += len(chunk)
    return received


def report_recording(recorder: Recorder, ui: bool) -> None:
    """On exit: seal the recording's sidecar; say where the recording is, or why it
    stopped (the viewer could not say it)."""
    recorder.seal()
    if recorder.error is not None:
        if ui:
            say(recorder.error)
        if recorder.cut is None:
            return
    cut = f" (cut: {recorder.cut})" if recorder.cut is not None else ""
    say(f"recorded {counted(recorder.lines, 'line')} to {recorder.path}{cut}")
