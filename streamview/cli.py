"""Command line: parse arguments and wire a source to a front end."""

from __future__ import annotations

import argparse
import contextlib
import gc
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from streamview import __version__
from streamview.core import dialects
from streamview.core.exit_status import EXIT_RUN_FAILED, EXIT_SUCCESS, EXIT_USAGE, exit_code_for
from streamview.core.reader import EventReader, fold
from streamview.core.sanitize import dumps_for_terminal, one_line
from streamview.core.state import StreamState
from streamview.core.summary import summarize
from streamview.printer import Printer
from streamview.process import ProcessSource
from streamview.recording import Recorder, RecordingSource, default_recording_path
from streamview.sources import (
    InputError,
    PipeSource,
    Source,
    detach_stdin_for_keys,
    empty_input,
    open_file,
    source_for,
)

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
  streamview --replay --speed 4 --idle-limit 2 run.ndjson
  streamview run -- cursor-agent -p "fix it" --output-format stream-json
  producer | streamview --record run.ndjson

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
    parser.add_argument(
        "--agent",
        choices=dialects.names(),
        default=dialects.AUTO,
        help="the agent whose stream this is (default: auto, recognised from the stream)",
    )
    parser.add_argument(
        "--record",
        metavar="PATH",
        help="save the live input to PATH as it arrives, each line with its arrival time",
    )
    replay = parser.add_argument_group("replay and demos")
    replay.add_argument(
        "--replay",
        action="store_true",
        help="play FILE back in time (by default a file opens at its final state)",
    )
    replay.add_argument(
        "--speed", type=positive_number, metavar="X", help="with --replay: play X times as fast"
    )
    replay.add_argument(
        "--idle-limit",
        type=positive_number,
        metavar="S",
        help="with --replay: play any silence longer than S seconds as S seconds",
    )
    replay.add_argument(
        "--serve",
        action="store_true",
        help="show the viewer in a web browser (needs textual-serve), for presentations",
    )
    replay.add_argument("--port", type=int, default=8000, help="port for --serve (8000)")
    replay.add_argument(
        "--export-markdown",
        metavar="PATH",
        help="no UI: write the transcript and tool calls as Markdown to PATH",
    )
    replay.add_argument(
        "--export-svg",
        metavar="PATH",
        help="no UI: write an SVG screenshot of the viewer at the final state to PATH",
    )
    parser.add_argument("--version", action="version", version=f"streamview {__version__}")
    return parser


def positive_number(text: str) -> float:
    """An argparse type: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be more than 0: {text}")
    return value


def fail(message: str) -> int:
    """Print one clear line on stderr and return the usage exit code."""
    sys.stderr.write(f"streamview: {one_line(message, 2000)}\n")
    return EXIT_USAGE


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


def run_json(
    source: Source,
    out: TextIO,
    process: Callable[[], dict[str, Any]] | None = None,
    agent: str | None = None,
) -> int:
    """Fold the whole input and print the JSON summary.

    Args:
        source: The input.
        out: Where the JSON goes.
        process: In run mode, gives the agent's ``{"exit_code", "stderr", ...}`` once
            the input ended; an empty input is then not an error.
    """

    stop = threading.Event()
    received = 0

    def counted() -> Iterator[bytes]:
        nonlocal received
        for chunk in source.chunks(stop):
            received += len(chunk)
            yield chunk

    # The fold keeps every summary alive and makes no reference cycles: a collection
    # would only rescan that growing heap, again and again (10% of the time).
    gc.disable()
    try:
        state = fold(counted(), StreamState(track_changes=False, compact=True), agent=agent)
    finally:
        gc.enable()
    if state.counts.total == 0 and process is None:
        return fail(empty_input(source, received))
    summary = summarize(state, process=process() if process is not None else None)
    out.write(dumps_for_terminal(summary))
    out.write("\n")
    return exit_code_for(state)


def run_print(
    source: Source, out: TextIO, allow_empty: bool = False, agent: str | None = None
) -> int:
    """Print one line per happening, as the input arrives.

    Args:
        source: The input.
        out: Where the lines go.
        allow_empty: An empty input is not an error (run mode: the agent may fail first).
    """

    state = StreamState(track_changes=False)
    printer = Printer(out, state)
    reader = EventReader(agent=agent)
    stop = threading.Event()
    received = 0
    for chunk in source.chunks(stop):
        received += len(chunk)
        for event in reader.feed(chunk):
            printer.handle(event, state.apply(event))
        out.flush()
    for event in reader.finish():
        printer.handle(event, state.apply(event))
    if state.counts.total == 0 and not allow_empty:
        return fail(empty_input(source, received))
    state.finish()
    printer.finish()
    out.flush()
    return exit_code_for(state)


def main(argv: Sequence[str] | None = None) -> int:
    """Run streamview; returns the process exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["run"]:
        return main_run(arguments[1:])
    parser = build_parser()
    args = parser.parse_args(arguments)
    reading_stdin = args.input in (None, "-")
    if reading_stdin and sys.stdin.isatty():
        parser.print_usage(sys.stderr)
        sys.stderr.write(
            "streamview: no input: pipe a stream into it or name a file (see --help)\n"
        )
        return EXIT_USAGE
    if reading_stdin and args.follow:
        return fail("--follow needs a FILE")
    problem = check_options(args, reading_stdin)
    if problem is not None:
        return fail(problem)
    if args.serve:
        from streamview.serve import serve

        return serve(arguments, port=args.port)
    recorder = None
    if args.record is not None:
        ui = front_end(args) == UI
        recorder = Recorder(Path(args.record), on_error=None if ui else say)
    try:
        source = open_source(args, recorder)
        if args.export_markdown is not None or args.export_svg is not None:
            return run_export(source, args)
        return view(source, args)
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
    finally:
        if recorder is not None:
            report_recording(recorder, front_end(args) == UI)


# -- front ends, recording, replay and export ------------------------------------------

UI = "ui"
JSON = "json"
PRINT = "print"
LINGER_SECONDS = 2.0
"""Without the viewer, how long an agent may run on after its ``result`` before it is stopped."""
STDERR_LINES = 40
"""Lines of the agent's stderr ``--print`` shows when it failed."""


def say(message: str) -> None:
    """One line on stderr, prefixed with the program's name."""
    sys.stderr.write(f"streamview: {one_line(message, 2000)}\n")
    sys.stderr.flush()


def front_end(args: argparse.Namespace) -> str:
    """``json``, ``print`` (asked for, or stdout is not a terminal) or ``ui``."""
    from streamview.serve import served

    if args.json:
        return JSON
    if args.print_mode or not (sys.stdout.isatty() or served()):
        return PRINT
    return UI


def check_options(args: argparse.Namespace, reading_stdin: bool) -> str | None:
    """Why this combination of options cannot work, or ``None``."""
    exporting = args.export_markdown is not None or args.export_svg is not None
    if args.replay and reading_stdin:
        return "--replay needs a FILE"
    if args.replay and args.follow:
        return "--replay plays a finished file; it does not go with --follow"
    if (args.speed is not None or args.idle_limit is not None) and not args.replay:
        return "--speed and --idle-limit need --replay"
    if args.record is not None:
        if not (reading_stdin or args.follow):
            return "--record needs live input: a pipe, --follow FILE, or `streamview run`"
        if args.input not in (None, "-") and _same_file(args.record, args.input):
            return "--record would overwrite the file being read"
    if args.serve:
        if reading_stdin:
            return "--serve needs a FILE (every browser tab opens its own viewer)"
        if args.json or args.print_mode or args.record is not None or exporting:
            return "--serve shows the viewer: not with --json, --print, --record or --export-*"
    if exporting and (args.follow or args.replay or args.json or args.print_mode):
        return "--export-markdown/--export-svg read the whole input: not with other modes"
    return None


def _same_file(first: str, second: str) -> bool:
    try:
        return Path(first).resolve() == Path(second).resolve()
    except OSError:
        return False


def open_source(args: argparse.Namespace, recorder: Recorder | None) -> Source:
    """The input the options ask for: a replay, a file, a pipe, maybe recorded.

    Raises:
        InputError: The input cannot be opened.
    """
    if args.replay:
        from streamview.replay import ReplaySource

        path = Path(args.input)
        open_file(path).close()
        return ReplaySource(path, speed=args.speed or 1.0, idle_limit=args.idle_limit)
    source = source_for(args.input, follow=args.follow)
    if recorder is not None:
        if isinstance(source, PipeSource) and source.fd == 0 and front_end(args) == UI:
            # The viewer reads keys from fd 0: move the pipe first (run_app cannot see
            # it inside the recording source).
            source = PipeSource(detach_stdin_for_keys(), label=source.label)
        recorder.open()
        source = RecordingSource(source, recorder)
    return source


def view(source: Source, args: argparse.Namespace) -> int:
    """Show ``source`` with the front end the options ask for."""
    chosen = front_end(args)
    agent = getattr(args, "agent", None)
    if chosen == JSON:
        return run_json(source, sys.stdout, agent=agent)
    if chosen == PRINT:
        return run_print(source, sys.stdout, agent=agent)
    from streamview.ui.app import run_app

    options: dict[str, Any] = {"agent": agent}
    if args.input not in (None, "-") and not args.follow:
        from streamview.sources import FileSource
        from streamview.ui.playback import PlaybackFeed

        source = FileSource(Path(args.input))
        received = first_content(source)
        if received is not None:
            # A finished file with nothing to show: say so instead of opening a blank UI.
            return fail(empty_input(source, received))
        feed = PlaybackFeed(
            source,
            playing=args.replay,
            speed=args.speed or 1.0,
            idle_limit=args.idle_limit,
            agent=agent,
        )
        options["feed"] = feed
        options["clock"] = feed.recorded_now_ms
        code = run_app(source, theme=args.theme, **options)
        # Quitting mid-playback: the exit status still says how the recorded run ended.
        return exit_code_for(feed.final_state()) if feed.loaded else code
    return run_app(source, theme=args.theme, **options)


def run_export(source: Source, args: argparse.Namespace) -> int:
    """Read the whole input and write the Markdown and/or SVG exports."""
    from streamview.core.markdown_export import to_markdown
    from streamview.sources import MemorySource

    data = b"".join(source.chunks(threading.Event()))
    if not data.strip():
        return fail(empty_input(source, len(data)))
    if args.export_markdown is not None:
        text = to_markdown(fold([data], agent=getattr(args, "agent", None)), title=source.label)
        try:
            Path(args.export_markdown).write_text(text, encoding="utf-8")
        except OSError as error:
            return fail(f"cannot write {args.export_markdown}: {error.strerror or error}")
        say(f"wrote {args.export_markdown}")
    if args.export_svg is not None:
        from streamview.ui.svg_export import export_svg

        try:
            export_svg(MemorySource(data, source.label), Path(args.export_svg), theme=args.theme)
        except OSError as error:
            return fail(f"cannot write {args.export_svg}: {error.strerror or error}")
        say(f"wrote {args.export_svg}")
    return EXIT_SUCCESS


def report_recording(recorder: Recorder, ui: bool) -> None:
    """On exit: where the recording is, or why it stopped (the viewer could not say it)."""
    if recorder.error is not None:
        if ui:
            say(recorder.error)
        return
    say(f"recorded {recorder.lines} lines to {recorder.path}")


# -- streamview run --------------------------------------------------------------------

RUN_DESCRIPTION = """\
Start the agent, show its stream as it runs, and record it.

Reads the agent's stdout as the stream, and keeps its stderr and exit code to show
when the run fails. Ctrl+C stops the agent (SIGINT, then SIGTERM and SIGKILL if it
does not stop) and leaves the viewer open on the interrupted run. Every run is
recorded: to --record PATH, or to a new file in the user's state directory, whose
path is printed on exit.
"""

RUN_EPILOG = """\
examples:
  streamview run -- cursor-agent -p "fix the flaky test" --output-format stream-json
  streamview run --print --record run.ndjson -- cursor-agent -p "..." --output-format stream-json
  streamview run --json -- cursor-agent -p "..." --output-format stream-json | jq .process

exit status: the agent's own when it failed (130 after Ctrl+C); otherwise 0 when the
run succeeded and 1 when it ended without a result; 2 bad usage or a command that
cannot start.
"""


def build_run_parser() -> argparse.ArgumentParser:
    """The argument parser for ``streamview run``."""
    parser = argparse.ArgumentParser(
        prog="streamview run",
        description=RUN_DESCRIPTION,
        epilog=RUN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--record",
        metavar="PATH",
        help="where to record the run (default: a new file in the user's state directory)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="no UI: print one JSON summary")
    mode.add_argument(
        "--print", action="store_true", dest="print_mode", help="no UI: one line per event"
    )
    parser.add_argument("--theme", default=None, help="Textual theme for the viewer")
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND ARGS",
        help="the agent to run, after --",
    )
    return parser


def main_run(arguments: list[str]) -> int:
    """``streamview run [options] -- COMMAND ARGS...``; returns the exit status."""
    parser = build_run_parser()
    args = parser.parse_args(arguments)
    command = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        parser.print_usage(sys.stderr)
        return fail("run: no command given (streamview run -- COMMAND ARGS...)")
    ui = front_end(args) == UI
    if args.record is not None:
        path = Path(args.record)
    else:
        path = default_recording_path(command)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
    recorder = Recorder(path, on_error=None if ui else say)
    source = ProcessSource(
        command,
        recorder=recorder,
        linger_seconds=None if ui else LINGER_SECONDS,
        stdin=None if ui or sys.stdin.isatty() else 0,
    )
    try:
        source.start()
    except InputError as error:
        return fail(str(error))
    recorder.open()
    code = EXIT_RUN_FAILED
    try:
        code = run_front_end(source, args, ui)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        stop_agent(source, ui)
        report_recording(recorder, ui)
    return run_exit_code(code, source)


def run_front_end(source: ProcessSource, args: argparse.Namespace, ui: bool) -> int:
    """Show a running agent; returns the exit status the stream alone gives."""
    if ui:
        from streamview.ui.app import run_app

        return run_app(source, theme=args.theme)
    with forwarded_sigint(source):
        if args.json:

            def process() -> dict[str, Any]:
                stop_agent(source, ui=False)
                return source.summary()

            return run_json(source, sys.stdout, process=process)
        code = run_print(source, sys.stdout, allow_empty=True)
        stop_agent(source, ui=False)
        print_process(source, sys.stdout)
        return code


@contextlib.contextmanager
def forwarded_sigint(source: ProcessSource) -> Iterator[None]:
    """While it runs, Ctrl+C stops the agent (harder each time) instead of streamview."""

    def handler(signum: int, frame: object) -> None:
        sent = source.interrupt()
        if sent is not None:
            say(f"sent {sent} to the agent (pid {source.pid}); Ctrl+C again to insist")

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_agent(source: ProcessSource, ui: bool) -> None:
    """Stop an agent still running when streamview is done with it, and say so."""
    if not source.running:
        return
    pid = source.pid
    source.stop()
    if ui:
        say(f"stopped the agent (pid {pid}): it was still running when the viewer closed")


def print_process(source: ProcessSource, out: TextIO) -> None:
    """``--print`` in run mode: how the agent process ended, with its stderr if it failed."""
    state = source.state()
    if source.lingered:
        out.write("!! the agent was still running after its result: stopped it\n")
    elif state.failed:
        out.write(f"!! agent {state.describe()}\n")
        for line in state.stderr.rstrip("\n").split("\n")[-STDERR_LINES:]:
            out.write(f"   stderr: {line}\n" if line else "   stderr:\n")
    out.flush()


def run_exit_code(stream_code: int, source: ProcessSource) -> int:
    """The agent's exit status when it failed on its own, else what the stream says."""
    status = source.exit_code
    if status is None or status == 0 or source.lingered:
        return stream_code
    return status
