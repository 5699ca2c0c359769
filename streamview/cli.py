"""Command line: parse arguments and wire a source to a front end."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from typing import TextIO

from streamview import __version__
from streamview.core.reader import EventReader, fold
from streamview.core.sanitize import dumps_for_terminal, one_line
from streamview.core.state import SUCCESS, StreamState
from streamview.core.summary import summarize
from streamview.printer import Printer
from streamview.sources import InputError, Source, source_for

EXIT_SUCCESS = 0
EXIT_RUN_FAILED = 1
"""The run ended with an error, or without a result."""
EXIT_USAGE = 2
"""Bad arguments, or an input that cannot be read."""

DESCRIPTION = """\
Watch, replay and understand runs of the Cursor agent CLI.

Reads the NDJSON that `cursor-agent -p --output-format stream-json` prints, from a
pipe or a file, and shows the session, the answer as it grows, every tool call with
its status, and how the run ended.
"""

EPILOG = """\
examples:
  cursor-agent -p "fix the flaky test" --output-format stream-json | streamview
  streamview recordings/success-multi-tool.ndjson
  streamview --print run.ndjson | less
  streamview --json run.ndjson | jq '.sessions[-1].outcome'

exit status: 0 the (last) run succeeded; 1 it failed or ended without a result;
2 bad usage or unreadable input. In the viewer, press ? for keys.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``streamview``."""
    parser = argparse.ArgumentParser(
        prog="streamview",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "input",
        nargs="?",
        metavar="FILE",
        help="a recorded stream-json file; '-' or nothing reads stdin (a pipe)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--json",
        action="store_true",
        help="no UI: read everything, print one JSON summary object",
    )
    mode.add_argument(
        "--print",
        action="store_true",
        dest="print_mode",
        help="no UI: one readable line per event (default when stdout is not a terminal)",
    )
    parser.add_argument(
        "--follow",
        "-f",
        action="store_true",
        help="keep reading FILE as it grows, like tail -f",
    )
    parser.add_argument(
        "--theme",
        default=None,
        help="Textual theme for the viewer (e.g. textual-dark, textual-light)",
    )
    parser.add_argument("--version", action="version", version=f"streamview {__version__}")
    return parser


def fail(message: str) -> int:
    """Print one clear line on stderr and return the usage exit code."""
    sys.stderr.write(f"streamview: {one_line(message, 2000)}\n")
    return EXIT_USAGE


def exit_code_for(state: StreamState) -> int:
    """0 when the last session succeeded, 1 otherwise."""
    session = state.current
    return (
        EXIT_SUCCESS
        if session is not None and session.outcome.status == SUCCESS
        else EXIT_RUN_FAILED
    )


def run_json(source: Source, out: TextIO) -> int:
    """Fold the whole input and print the JSON summary."""
    import threading

    stop = threading.Event()
    received = 0

    def counted() -> Iterator[bytes]:
        nonlocal received
        for chunk in source.chunks(stop):
            received += len(chunk)
            yield chunk

    state = fold(counted())
    if received == 0:
        return fail(f"{source.label}: input is empty")
    out.write(dumps_for_terminal(summarize(state)) + "\n")
    return exit_code_for(state)


def run_print(source: Source, out: TextIO) -> int:
    """Print one line per happening, as the input arrives."""
    import threading

    state = StreamState(track_changes=False)
    printer = Printer(out, state)
    reader = EventReader()
    stop = threading.Event()
    received = 0
    for chunk in source.chunks(stop):
        received += len(chunk)
        for event in reader.feed(chunk):
            printer.handle(event, state.apply(event))
        out.flush()
    for event in reader.finish():
        printer.handle(event, state.apply(event))
    if received == 0:
        return fail(f"{source.label}: input is empty")
    state.finish()
    printer.finish()
    out.flush()
    return exit_code_for(state)


def main(argv: Sequence[str] | None = None) -> int:
    """Run streamview; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    reading_stdin = args.input in (None, "-")
    if reading_stdin and sys.stdin.isatty():
        parser.print_usage(sys.stderr)
        sys.stderr.write(
            "streamview: no input: pipe a stream into it or name a file (see --help)\n"
        )
        return EXIT_USAGE
    if reading_stdin and args.follow:
        return fail("--follow needs a FILE")
    try:
        source = source_for(args.input, follow=args.follow)
        if args.json:
            return run_json(source, sys.stdout)
        if args.print_mode or not sys.stdout.isatty():
            return run_print(source, sys.stdout)
        from streamview.ui.app import run_app

        return run_app(source, theme=args.theme)
    except InputError as error:
        return fail(str(error))
    except BrokenPipeError:
        # `streamview --print run.ndjson | head`: the reader left; that is not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_SUCCESS
    except OSError as error:
        # A read that fails after the open (EIO on a bad disk, /proc/self/mem).
        return fail(f"cannot read {args.input or 'stdin'}: {error.strerror or error}")
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
