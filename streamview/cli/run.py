"""``streamview run [options] -- COMMAND ARGS...``: start an agent, watch and record it."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from streamview.cli.common import UI, fail, front_end, report_recording, say
from streamview.cli.fronts import run_json, run_print
from streamview.cli.output import EXIT_OUTPUT_CLOSED, GuardedOutput, release_stdout
from streamview.core.endings import exited
from streamview.core.exit_status import EXIT_RUN_FAILED, EXIT_SOFTWARE
from streamview.core.state import StreamState
from streamview.fronts.printer import Output
from streamview.runs.recording import Recorder, default_recording_path
from streamview.runs.run_meta import exit_words, stop_words
from streamview.sources import signals
from streamview.sources.base import InputError
from streamview.sources.process import ProcessSource

if TYPE_CHECKING:
    from streamview.fronts.otlp.forward import LiveForwarder

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
    forwarder = None
    if args.otlp:  # a bad endpoint or header stops the run before the agent starts
        from streamview.cli.otlp import settings_of
        from streamview.fronts.otlp.forward import LiveForwarder

        settings = settings_of(args)
        if isinstance(settings, int):
            return settings
        forwarder = LiveForwarder(settings, agent=args.agent)  # the SDK loads on its thread
    claim = args.record is None  # a new private file of its own in the runs directory
    path = default_recording_path(command) if claim else Path(args.record)
    recorder = Recorder(path, on_error=None if ui else say, claim=claim)
    source = ProcessSource(
        command,
        recorder=recorder,
        linger_seconds=None if ui else LINGER_SECONDS,
        stdin=None if ui or sys.stdin.isatty() else 0,
        exit_grace=args.exit_grace,
        keep_children=args.keep_children,
    )
    try:
        source.start()
    except InputError as error:
        return fail(str(error))
    recorder.attach(source)  # its exit code and stderr go into the recording's sidecar
    if forwarder is not None:
        recorder.tap = forwarder.feed
    recorder.open()
    if recorder.warning is not None:  # before the viewer takes the screen
        say(recorder.warning)
    if ui:  # the viewer may have to end by force after a signal: these still happen
        signals.last_resort.append(lambda: stop_agent(source, ui))
        signals.last_resort.append(lambda: report_recording(recorder, ui))
        if forwarder is not None:
            signals.last_resort.append(lambda: close_forwarder(forwarder, source))
            # The run's end sends the last spans on the reader's thread, and what was
            # dropped goes to the event log too.
            source.ending = partial(forwarder.ended_notice, settle_run(source))
    code = EXIT_RUN_FAILED
    try:
        code = run_front_end(source, args, ui)
    except OSError:  # stdout closed where a front end does not guard it
        release_stdout()
        code = EXIT_OUTPUT_CLOSED
    finally:
        stop_agent(source, ui)
        report_left_behind(source, ui or args.json)
        report_recording(recorder, ui)
        if forwarder is not None:
            close_forwarder(forwarder, source)
    return run_exit_code(code, source)


def close_forwarder(forwarder: LiveForwarder, source: ProcessSource) -> None:
    """The run ended: its last spans go (a short grace at most); say once on stderr
    what did not reach the backend. The run's exit status does not change."""
    dropped = forwarder.close(settle=settle_run(source))
    if dropped is not None:
        say(dropped)


def run_front_end(source: ProcessSource, args: argparse.Namespace, ui: bool) -> int:
    """Show a running agent; returns the exit status the stream alone gives."""
    agent = args.agent
    if ui:
        from streamview.ui.frame.launch import run_app

        return run_app(source, theme=args.theme, agent=agent)
    with signals.handed_over(lambda sig: forward(source, sig)):
        if args.json:

            def process() -> dict[str, Any]:
                stop_agent(source, ui=False)
                return source.summary()

            return run_json(
                source, sys.stdout, process=process, agent=agent, ended_by=settle_run(source)
            )
        if args.events:
            from streamview.cli.events_front import run_events

            def ended() -> dict[str, Any]:
                stop_agent(source, ui=False)
                return source.summary()

            return run_events(
                source,
                sys.stdout,
                allow_empty=True,
                agent=agent,
                process=ended,
                exit_code=lambda code: run_exit_code(code, source),
                settle=settle_run(source),
            )
        out = GuardedOutput(sys.stdout)
        code = run_print(source, out, allow_empty=True, agent=agent, ended_by=settle_run(source))
        stop_agent(source, ui=False)
        print_process(source, out)
        return code


def forward(source: ProcessSource, sig: signal.Signals) -> None:
    """A terminating signal reached streamview: stop the agent, harder each time (its
    stream then ends, and is shown and recorded to its end)."""
    sent = source.interrupt()
    if sent is None:
        return
    again = "Ctrl+C" if sig == signal.SIGINT else sig.name
    got = "" if sig == signal.SIGINT else f"got {sig.name}: "
    say(f"{got}sent {sent} to the agent (pid {source.pid}); {again} again to insist")


def stop_agent(source: ProcessSource, ui: bool) -> None:
    """Stop an agent still running when streamview is done with it, and say so.

    After a terminating signal the stop is gentle (SIGINT first, as Ctrl+C), and
    reaches what the agent left behind even with ``--keep-children``.
    """
    sig = signals.first()
    if sig is not None:
        source.keep_children = False
    if not source.group_alive() or (not source.running and source.keep_children):
        source.release_watch()
        return
    pid = source.pid
    was_running = source.running
    source.stop(gentle=sig is not None)
    if not was_running:
        return  # what it left behind: reported by report_left_behind
    if sig is not None:
        say(f"got {sig.name}: stopped the agent (pid {pid}) and its process group")
    elif ui:
        say(f"stopped the agent (pid {pid}): it was still running when the viewer closed")


def report_left_behind(source: ProcessSource, to_stderr: bool) -> None:
    """On stderr: what the agent left running when it exited (``--print`` has it in
    its output already)."""
    state = source.state()
    told = state.describe_left_behind()
    if told is None or not to_stderr:
        return
    say(f"the agent {told}")
    for member in state.left_behind:
        say(f"  {member}")


def print_process(source: ProcessSource, out: Output) -> None:
    """``--print`` in run mode: how the agent process ended, with its stderr if it
    failed, and what it left running."""
    state = source.state()
    if source.lingered:
        out.write("!! the agent was still running after its result: stopped it\n")
    elif state.failed or (state.interrupted and not state.result_seen):
        how = stopped(source) or exit_words(state.exit_code)
        out.write(f"!! agent {how}\n")
        stderr = state.stderr.rstrip("\n")
        for line in stderr.split("\n")[-STDERR_LINES:] if stderr.strip() else ():
            out.write(f"   stderr: {line}\n" if line else "   stderr:\n")
    told = state.describe_left_behind()
    if told is not None:
        out.write(f"!! the agent {told}\n")
        for member in state.left_behind:
            out.write(f"   {member}\n")
    out.flush()


def settle_run(source: ProcessSource) -> Callable[[StreamState], None]:
    """What the process says of a run its stream did not end: stopped (Ctrl+C), or
    the agent's exit for an agent whose runs end without a final record."""

    def settle(state: StreamState) -> None:
        state.ended_because(stopped(source))
        exited(state.current, source.exit_code)

    return settle


def stopped(source: ProcessSource) -> str | None:
    """``stopped (Ctrl+C)``, ``stopped (SIGTERM)``: streamview stopped the agent before
    its result, and why; ``None`` when it did not."""
    if not source.interrupted or source.result_seen:
        return None
    sig = signals.first()
    return stop_words(source.stopped_by or (sig.name if sig is not None else ""))


def run_exit_code(stream_code: int, source: ProcessSource) -> int:
    """The exit status of a run.

    70 when the viewer failed; 128 + the signal when one stopped streamview; 141 when
    the output closed before the run's end; the agent's own when it failed on its own;
    else what the stream says (0 success, 1 failed or no result).
    """
    if stream_code == EXIT_SOFTWARE:
        return stream_code
    if signals.first() is not None:
        return signals.exit_status(stream_code)
    if stream_code == EXIT_OUTPUT_CLOSED:
        return stream_code
    status = source.exit_code
    if status is None or status == 0 or source.lingered:
        return stream_code
    return status
