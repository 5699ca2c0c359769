"""``streamview run [options] -- COMMAND ARGS...``: start an agent, watch and record it."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from streamview.cli.common import UI, fail, front_end, report_recording, say
from streamview.cli.fronts import run_json, run_print
from streamview.core.exit_status import EXIT_RUN_FAILED
from streamview.process import ProcessSource
from streamview.recording import Recorder, default_recording_path
from streamview.sources import InputError

LINGER_SECONDS = 2.0
"""Without the viewer, how long an agent may run on after its ``result`` before it is stopped."""
STDERR_LINES = 40
"""Lines of the agent's stderr ``--print`` shows when it failed."""


def main_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``streamview run [options] -- COMMAND ARGS...``; returns the exit status.

    Args:
        args: The parsed options and command.
        parser: The ``run`` subparser (its usage is printed when the command is missing).
    """
    command = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        parser.print_usage(sys.stderr)
        return fail("run: no command given (streamview run -- COMMAND ARGS...)")
    ui = front_end(args) == UI
    claim = args.record is None  # a new private file of its own in the runs directory
    path = default_recording_path(command) if claim else Path(args.record)
    recorder = Recorder(path, on_error=None if ui else say, claim=claim)
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
    recorder.attach(source)  # its exit code and stderr go into the recording's sidecar
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
        from streamview.ui.frame.launch import run_app

        return run_app(source, theme=args.theme)
    with forwarded_sigint(source):
        if args.json:

            def process() -> dict[str, Any]:
                stop_agent(source, ui=False)
                return source.summary()

            return run_json(source, sys.stdout, process=process)
        if args.events:
            from streamview.cli.events_front import run_events

            def ended() -> dict[str, Any]:
                stop_agent(source, ui=False)
                return source.summary()

            return run_events(
                source,
                sys.stdout,
                allow_empty=True,
                process=ended,
                exit_code=lambda code: run_exit_code(code, source),
            )
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
