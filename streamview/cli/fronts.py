"""The two front ends without a UI: ``--json`` (one summary) and ``--print`` (a line
per happening)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from streamview.cli.common import fail
from streamview.cli.output import EXIT_OUTPUT_CLOSED, GuardedOutput, release
from streamview.core.exit_status import exit_code_for
from streamview.core.reader import EventReader, fold
from streamview.core.sanitize import dumps_for_terminal
from streamview.core.state import StreamState
from streamview.core.summary import summarize, summary_json
from streamview.core.text_store import TextSpill
from streamview.sources.base import Source, empty_input

if TYPE_CHECKING:
    from streamview.fronts.printer import Output


SWEEP_EVERY = 32 << 20
"""Bytes of input between two moves of closed blocks' text out of memory (``--json``,
:mod:`streamview.core.text_store`): an input shorter than this is never moved (its text
is 4 MB at most), and a 2 GB one holds 0.2 GB less."""


def run_json(
    source: Source,
    out: TextIO,
    process: Callable[[], dict[str, Any]] | None = None,
    agent: str | None = None,
    ended_by: Callable[[StreamState], None] | None = None,
) -> int:
    """Fold the whole input and print the JSON summary.

    Indented on a terminal (a person reads it), one line otherwise (``jq`` reads it).

    Args:
        source: The input.
        out: Where the JSON goes.
        process: In run mode, gives the agent's ``{"exit_code", "stderr", ...}`` once
            the input ended; an empty input is then not an error.
        agent: The dialect to read the input as; ``None`` or ``auto`` recognises it.
        ended_by: In run mode, says of the finished state what only the process
            knows (``stopped (Ctrl+C)``, the agent's exit).
    """

    stop = threading.Event()
    received = 0
    state = StreamState(track_changes=False, compact=True)
    spill = TextSpill()  # closed blocks' text waits on disk for the summary
    sweep_at = SWEEP_EVERY

    def counted() -> Iterator[bytes]:
        nonlocal received, sweep_at
        for chunk in source.chunks(stop):
            received += len(chunk)
            if received >= sweep_at:
                spill.sweep(state.sessions)
                sweep_at = received + SWEEP_EVERY
            yield chunk

    # The fold keeps every summary alive and makes no reference cycles, nor does the
    # summary written from it: a collection would only rescan that growing heap, again
    # and again (10% of the fold; a third of writing a Codex run's summary).
    gc.disable()
    try:
        state = fold(counted(), state, agent=agent)
        if state.counts.total == 0 and process is None:
            return fail(empty_input(source, received))
        ran = process() if process is not None else None
        if ended_by is not None:
            ended_by(state)
        try:
            _write_summary(state, ran, out, spill)
            out.flush()
        except OSError:  # the reader left (EPIPE) or the terminal is gone (EIO)
            release(out)  # the run's outcome is known: it is the exit status still
    finally:
        gc.enable()
        spill.close()
    return exit_code_for(state)


def _write_summary(
    state: StreamState, ran: dict[str, Any] | None, out: TextIO, spill: TextSpill
) -> None:
    """The JSON summary: indented on a terminal (a person reads it), one line otherwise
    (``jq`` reads it)."""
    if _is_terminal(out):  # a person reads it: indented
        out.write(dumps_for_terminal(summarize(state, process=ran), indent=True))
        out.write("\n")
    else:  # a script reads it: one line, written a session at a time
        raw = getattr(out, "buffer", None)
        if raw is not None:
            out.flush()
        for piece in summary_json(state, ran, spill):
            if raw is not None:
                raw.write(piece)
            else:
                out.write(piece.decode("utf-8"))
        out.write("\n")


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def run_print(
    source: Source,
    out: TextIO | Output,
    allow_empty: bool = False,
    agent: str | None = None,
    times: bool = False,
    ended_by: Callable[[StreamState], None] | None = None,
) -> int:
    """Print one line per happening, as the input arrives.

    When the output closes early (``| head``, a closed terminal), a finished input (a
    file) is still read to its end, without printing, so that the exit status is the
    run's whatever the reader did; a live input (a pipe, ``--follow``, an agent) is
    left at once, as ``cat`` would be, with :data:`EXIT_OUTPUT_CLOSED`, unless it had
    already ended.

    Args:
        source: The input.
        out: Where the lines go.
        allow_empty: An empty input is not an error (run mode: the agent may fail first).
        agent: The dialect to read the input as; ``None`` or ``auto`` recognises it.
        times: Start each line with the time since its session started.
        ended_by: In run mode, says of the finished state what only the process
            knows (``stopped (Ctrl+C)``, the agent's exit).
    """

    from streamview.fronts.printer import Printer  # not --json's: imported when printing

    guarded = out if isinstance(out, GuardedOutput) else GuardedOutput(out)
    state = StreamState(track_changes=False)
    printer = Printer(guarded, state, times=times)
    reader = EventReader(agent=agent)
    stop = threading.Event()
    received = 0
    chunks = source.chunks(stop)
    try:
        for chunk in chunks:
            received += len(chunk)
            if guarded.closed_early:
                for event in reader.feed(chunk):  # only to know how the run ended
                    state.apply(event)
                continue
            for event in reader.feed(chunk):
                printer.handle(event, state.apply(event))
            guarded.flush()
            if guarded.closed_early and source.live:
                stop.set()  # a live input's end may be far off: leave now, as `cat` would
                return EXIT_OUTPUT_CLOSED
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # a live source left early: its reader stops, its recording closes
    for event in reader.finish():
        printer.handle(event, state.apply(event))
    if state.counts.total == 0 and not allow_empty:
        return fail(empty_input(source, received))
    state.finish()
    if ended_by is not None:
        ended_by(state)
    printer.finish()
    guarded.flush()
    return exit_code_for(state)
