"""``streamview [options] [FILE]``: view, print, summarise or export one input."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from streamview.cli.common import (
    EVENTS,
    JSON,
    PRINT,
    UI,
    fail,
    first_content,
    front_end,
    report_recording,
    say,
    screen_size,
)
from streamview.cli.limits import apply_line_limit
from streamview.cli.output import EXIT_OUTPUT_CLOSED, release_stdout
from streamview.cli.plain_args import plain_view_args
from streamview.core.exit_status import EXIT_SOFTWARE, EXIT_USAGE, exit_code_for
from streamview.runs import SIDECAR_SUFFIX
from streamview.sources.base import (
    FileSource,
    InputError,
    PipeSource,
    Source,
    detach_stdin_for_keys,
    empty_input,
    is_fifo,
    open_file,
    source_for,
)

if TYPE_CHECKING:
    import argparse

    from streamview.runs.recording import Recorder
    from streamview.runs.run_meta import RunMeta


# What only some modes need is imported where they start (the fronts, recording,
# exports): the viewer's first screen waits for every import (issue 21;
# tests/ui/frame/test_first_screen_imports.py keeps it so).


def main_view(arguments: list[str], args: argparse.Namespace | None = None) -> int:
    """``streamview [options] [FILE]``; returns the exit status.

    Args:
        arguments: The command line (``--serve`` hands it on to each browser tab).
        args: The options, already parsed (``streamview last``); else parsed here.
    """
    if args is None:
        # ``--json FILE`` and its like without argparse (~6 ms of a run: plain_args).
        args = plain_view_args(arguments) or _parsed(arguments)
    reading_stdin = args.input in (None, "-")
    if reading_stdin and sys.stdin.isatty():
        from streamview.cli.parsers import build_parser

        build_parser().print_usage(sys.stderr)
        sys.stderr.write(
            "streamview: no input: pipe a stream into it or name a file (see --help)\n"
        )
        return EXIT_USAGE
    if reading_stdin and args.follow:
        return fail("--follow needs a FILE")
    warn = say if front_end(args) != UI else None  # the viewer's toast says it
    problem = check_options(args, reading_stdin) or apply_line_limit(args.max_line, warn)
    if problem is not None:
        return fail(problem)
    if args.serve:
        from streamview.fronts.serve import serve

        # Every browser tab would open its own viewer of FILE: check it here, once.
        problem = unviewable(Path(args.input))
        if problem is not None:
            return fail(problem)
        return serve(
            arguments,
            host=args.host,
            port=args.port,
            public_url=args.public_url,
            max_viewers=args.max_viewers,
        )
    recorder = None
    if args.record is not None:
        from streamview.runs.recording import Recorder

        ui = front_end(args) == UI
        recorder = Recorder(Path(args.record), on_error=None if ui else say)
    redactor = None
    try:
        source = open_source(args, recorder)
        if getattr(args, "redact", False):
            from streamview.sources.redacting_source import RedactingSource, make_redactor

            redactor = make_redactor(names=args.redact_names)
            source = RedactingSource(source, redactor)
        if exporting(args):
            return run_export(source, args)
        return view(source, args)
    except InputError as error:
        return fail(str(error))
    except BrokenPipeError:
        # A write the front ends do not guard (they return the run's status themselves):
        # the reader left before the outcome was known.
        release_stdout()
        return EXIT_OUTPUT_CLOSED
    except OSError as error:
        # A read that fails after the open (EIO on a bad disk, /proc/self/mem).
        return fail(f"cannot read {args.input or 'stdin'}: {error.strerror or error}")
    except KeyboardInterrupt:
        import signal  # imported when it is needed: not on --json's start-up (30.8)

        return 128 + signal.SIGINT
    finally:
        if recorder is not None:
            report_recording(recorder, front_end(args) == UI)
        if redactor is not None:
            say(redactor.report())


def _parsed(arguments: list[str]) -> argparse.Namespace:
    """The viewer's options as its parser reads them (exits on a usage error)."""
    from streamview.cli.parsers import build_parser

    return build_parser().parse_args(arguments)


def exporting(args: argparse.Namespace) -> bool:
    """Whether one of the ``--export-*`` options was given."""
    return any(
        getattr(args, name, None) is not None
        for name in ("export_markdown", "export_svg", "export_html", "export_cast")
    )


def check_options(args: argparse.Namespace, reading_stdin: bool) -> str | None:
    """Why this combination of options cannot work, or ``None``."""
    export = exporting(args)
    if args.replay and reading_stdin:
        return "--replay needs a FILE"
    if args.replay and args.follow:
        return "--replay plays a finished file; it does not go with --follow"
    cast = getattr(args, "export_cast", None) is not None
    if (args.speed is not None or args.idle_limit is not None) and not (args.replay or cast):
        return "--speed and --idle-limit need --replay or --export-cast"
    if getattr(args, "size", None) is not None:
        if not cast:
            return "--size goes with --export-cast"
        try:
            screen_size(args.size)
        except ValueError as error:
            return str(error)
    fifo = not reading_stdin and is_fifo(Path(args.input))
    if fifo and (args.replay or args.serve):
        return f"{args.input} is a named pipe: --replay and --serve need a finished file"
    if args.record is not None:
        if not (reading_stdin or args.follow or fifo):
            return "--record needs live input: a pipe, --follow FILE, or `streamview run`"
        if args.input not in (None, "-") and _same_file(args.record, args.input):
            return "--record would overwrite the file being read"
    if args.redact_names and not args.redact:
        return "--redact-names goes with --redact"
    if not args.serve and (args.public_url is not None or args.max_viewers is not None):
        return "--public-url and --max-viewers go with --serve"
    if args.serve:
        if reading_stdin:
            return "--serve needs a FILE (every browser tab opens its own viewer)"
        if args.json or args.print_mode or args.events or args.record is not None or export:
            return (
                "--serve shows the viewer: not with --json, --print, --events, --record "
                "or --export-*"
            )
    if getattr(args, "summary", False) and getattr(args, "export_markdown", None) is None:
        return "--summary goes with --export-markdown FILE (- for stdout)"
    if export and (args.follow or args.replay or args.json or args.print_mode or args.events):
        return "--export-markdown/-html/-svg/-cast read the whole input: not with other modes"
    return None


def unviewable(path: Path) -> str | None:
    """Why the viewer would refuse the file ``path`` (missing, unreadable, a directory,
    nothing in it), or ``None``."""
    try:
        open_file(path).close()
    except InputError as error:
        return str(error)
    source = FileSource(path)
    received = first_content(source)
    return None if received is None else empty_input(source, received)


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
    from streamview.sources.session_files import opencode_session_named, session_source_for

    if args.replay:
        from streamview.sources.replay import ReplaySource

        path = Path(args.input)
        open_file(path).close()
        if session_source_for(path, replay=True) is not None:
            raise InputError(
                f"{path}: a session read whole has no timeline: --replay needs a stream"
            )
        return ReplaySource(path, speed=args.speed or 1.0, idle_limit=args.idle_limit)
    named = opencode_session_named(args.input, args.follow)  # opencode.db#ses_...
    source = named or source_for(args.input, follow=args.follow)
    if type(source) is FileSource:  # a session file read whole (Gemini's JSON, opencode's db)
        source = session_source_for(source.path, args.follow) or source
    if recorder is not None:
        if isinstance(source, PipeSource) and source.fd == 0 and front_end(args) == UI:
            # The viewer reads keys from fd 0: move the pipe first (run_app cannot see
            # it inside the recording source).
            source = PipeSource(detach_stdin_for_keys(), label=source.label)
        from streamview.runs.recording import RecordingSource

        recorder.open()
        if recorder.warning is not None:
            say(recorder.warning)
        source = RecordingSource(source, recorder)
    return source


def view(
    source: Source, args: argparse.Namespace, app_class: Callable[..., Any] | None = None
) -> int:
    """Show ``source`` with the front end the options ask for.

    Args:
        source: The input.
        args: The viewer's options.
        app_class: Makes the viewer's app (``streamview sessions`` passes one whose
            Escape goes back to its list); ``None``: the viewer's own.
    """
    chosen = front_end(args)
    agent = getattr(args, "agent", None)
    meta = recorded_run(args)
    if chosen == JSON:
        from streamview.cli.fronts import run_json

        if meta is None:  # no recorded run: its sidecars' module is not needed
            return run_json(source, sys.stdout, agent=agent)
        from streamview.runs import run_meta

        process = lambda: run_meta.summary(meta)  # noqa: E731
        code = run_json(source, sys.stdout, process=process, agent=agent)
        return run_meta.exit_status(code, meta)
    from streamview.sources import signals

    if chosen == EVENTS:
        from streamview.cli.events_front import run_events

        # SIGTERM or Ctrl+C (a --follow never ends by itself): stop reading, finish
        # the events read, and still write stream.end, with 128 + the signal.
        stop = signals.SignalStop()
        with signals.handled(lambda sig: stop.set()):
            return run_events(
                source, sys.stdout, agent=agent, exit_code=signals.exit_status, stop=stop
            )
    from streamview.runs import run_meta  # not --events': a recorded run's sidecar

    if chosen == PRINT:
        from streamview.cli.fronts import run_print

        code = run_print(
            source, sys.stdout, allow_empty=meta is not None, agent=agent, times=args.time
        )
        if meta is not None:
            sys.stdout.write("".join(line + "\n" for line in run_meta.print_lines(meta)))
        return run_meta.exit_status(code, meta)
    from streamview.ui.frame.launch import run_app

    options: dict[str, Any] = {"agent": agent, "cwd_map": getattr(args, "cwd_map", None) or ()}
    if app_class is not None:
        options["app_class"] = app_class
    finished_file = args.input not in (None, "-") and not args.follow
    # --redact: the viewer reads the redacted source, not the file again.
    if finished_file and not getattr(args, "redact", False) and not is_fifo(Path(args.input)):
        from streamview.sources.base import FileSource
        from streamview.sources.session_source import WholeSessionSource
        from streamview.ui.playback.feed import PlaybackFeed

        if not isinstance(source, WholeSessionSource):  # a session read whole stays so
            source = FileSource(Path(args.input))
        received = first_content(source)
        if received is not None and meta is None:
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
        if code == EXIT_SOFTWARE:
            return code
        # Quitting mid-playback: the exit status still says how the recorded run ended.
        code = exit_code_for(feed.final_state()) if feed.loaded else code
        return signals.exit_status(run_meta.exit_status(code, meta))
    code = run_app(source, theme=args.theme, **options)
    return code if code == EXIT_SOFTWARE else signals.exit_status(code)


def recorded_run(args: argparse.Namespace) -> RunMeta | None:
    """The sidecar of the FILE being read (how its run ended), if it has one (a blank
    one when it is there but unreadable: the disk was full when it was made)."""
    if args.input in (None, "-"):
        return None
    path = Path(args.input)
    if not path.with_name(path.name + SIDECAR_SUFFIX).exists():
        return None  # what read_note says of it, without importing it
    from streamview.runs import run_meta
    from streamview.runs.recording_files import recording_held

    meta = run_meta.read_note(path)
    if meta is not None and run_meta.unfinished(meta) and recording_held(path):
        return None  # being recorded now: it has not ended yet, nothing unknown about it
    return meta


def run_export(source: Source, args: argparse.Namespace) -> int:
    """Read the whole input and write the Markdown, HTML, SVG and/or cast exports."""
    from streamview.core.linestore import LineStore
    from streamview.core.markdown_export import to_markdown
    from streamview.core.reader import EventReader
    from streamview.core.state import StreamState
    from streamview.sources.base import MemorySource

    data = b"".join(source.chunks(threading.Event()))
    if not data.strip():
        return fail(empty_input(source, len(data)))
    store = LineStore()
    reader = EventReader(store, agent=getattr(args, "agent", None))
    state = StreamState(track_changes=False)
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    state.counts.blank += reader.blank_lines
    state.finish()
    if args.export_markdown is not None:
        if getattr(args, "summary", False):
            from streamview.core.summary_markdown import ci_summary

            text = ci_summary(state, title=source.label, store=store)
        else:
            text = to_markdown(state, title=source.label, store=store)
        failed = _write_text(args.export_markdown, text)
        if failed is not None:
            return failed
    if getattr(args, "export_html", None) is not None:
        from streamview.core.html_export import to_html

        page = to_html(state, title=source.label, store=store)
        try:
            Path(args.export_html).write_text(page, encoding="utf-8")
        except OSError as error:
            return fail(f"cannot write {args.export_html}: {error.strerror or error}")
        say(f"wrote {args.export_html}")
    if args.export_svg is not None:
        from streamview.ui.frame.svg_export import export_svg

        try:
            export_svg(MemorySource(data, source.label), Path(args.export_svg), theme=args.theme)
        except OSError as error:
            return fail(f"cannot write {args.export_svg}: {error.strerror or error}")
        say(f"wrote {args.export_svg}")
    if getattr(args, "export_cast", None) is not None:
        problem = export_cast(args, data, source.label, state, whole=_read_whole(source))
        if problem is not None:
            return fail(problem)
    # Written, and the status says how the run ended, as --print and --json say it.
    return exit_code_for(state)


def _write_text(path: str, text: str) -> int | None:
    """Write ``text`` to ``path`` (``-``: stdout) and say so; the exit code of a failure."""
    if path == "-":
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            release_stdout()
            return EXIT_OUTPUT_CLOSED
        return None
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        return fail(f"cannot write {path}: {error.strerror or error}")
    say(f"wrote {path}")
    return None


def _read_whole(source: Source) -> bool:
    """Whether ``source`` is a session read whole (its bytes are not the file's)."""
    from streamview.sources.session_source import WholeSessionSource

    return isinstance(source, WholeSessionSource)


def export_cast(
    args: argparse.Namespace, data: bytes, label: str, state: Any, whole: bool = False
) -> str | None:
    """``--export-cast``: write the cast; why it could not be written, or ``None``
    (``whole``: the input is a session read whole, played from ``data``)."""
    from streamview.sources.base import FileSource, MemorySource
    from streamview.ui.cast.export import DEFAULT_SIZE, write_cast

    path = Path(args.export_cast)
    named = args.input not in (None, "-") and Path(args.input).is_file()
    named = named and not getattr(args, "redact", False) and not whole
    # A file is read again by the playback (its lines found by offset); a pipe's bytes
    # are played from memory, and so are a redacted file's (the file holds the secrets).
    source = FileSource(Path(args.input)) if named else MemorySource(data, label)
    try:
        stats = write_cast(
            path,
            source,
            size=screen_size(args.size) if args.size is not None else DEFAULT_SIZE,
            speed=args.speed or 1.0,
            idle_limit=args.idle_limit,
            theme=args.theme,
            agent=getattr(args, "agent", None),
            title_state=state,
        )
    except OSError as error:
        return f"cannot write {args.export_cast}: {error.strerror or error}"
    say(
        f"wrote {args.export_cast}: {stats.frames:,} frames, {stats.duration:.1f} s, "
        f"{max(1, round(stats.size / 1024)):,} KiB"
    )
    return None
