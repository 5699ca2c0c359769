"""``--events``: one normalized event per line, as the input is read.

Built on :func:`streamview.fronts.events_api.event_batches`, the same events
:func:`streamview.read_events` gives. The contract (README, "Normalized events"): the
first line is ``stream.start``, the last ``stream.end`` (with the exit status), even
when the input is empty or cannot be read to its end; each line is written and flushed
as soon as the input bytes it comes from are read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TextIO

from streamview.cli.common import say
from streamview.core.event_stream import EventStream
from streamview.core.exit_status import EXIT_USAGE
from streamview.core.state import StreamState
from streamview.fronts.events_api import Event, to_json_lines
from streamview.sources.base import InputError, Source, empty_input


def run_events(
    source: Source,
    out: TextIO,
    agent: str | None = None,
    allow_empty: bool = False,
    process: Callable[[], dict[str, Any]] | None = None,
    exit_code: Callable[[int], int] | None = None,
    stop: threading.Event | None = None,
    settle: Callable[[StreamState], None] | None = None,
) -> int:
    """Print the input's normalized events, one JSON object a line; returns the exit status.

    Args:
        source: The input.
        out: Where the lines go.
        agent: The dialect to read the input as; ``None`` or ``auto`` recognises it.
        allow_empty: An empty input is not an error (run mode: the agent may fail first).
        process: In run mode, gives the agent's ``{"exit_code", "stderr", ...}`` once the
            input ended (stopping it if it lingers): written as ``process.exit``.
        exit_code: In run mode, the exit status given the stream's own.
        stop: Set to stop reading (a signal): what was read is finished and
            ``stream.end`` is still written.
        settle: In run mode, says of the finished state what only the process knows
            (``stopped (Ctrl+C)``, the agent's exit).
    """
    write = _writer(out)
    stream = EventStream(agent)
    write([stream.start()])
    stop = stop or threading.Event()
    error: str | None = None
    chunks = source.chunks(stop)
    while True:
        # Only the read is guarded: a write's OSError (a broken stdout) is the caller's.
        try:
            chunk = next(chunks)
        except StopIteration:
            break
        except InputError as problem:
            error = str(problem)
            break
        except OSError as problem:  # a read that fails after the open (EIO)
            error = f"cannot read {source.label}: {problem.strerror or problem}"
            break
        batch = stream.feed(chunk)
        if batch:
            write(batch)
    stop.set()
    tail: list[Event] = stream.finish(settle)
    code = stream.exit_code
    if error is None and stream.state.counts.total == 0 and not allow_empty:
        error = empty_input(source, stream.received)
    if process is not None:
        tail.append(stream.process_exit(process()))
    if exit_code is not None:
        code = exit_code(code)
    if error is not None:
        say(error)
        code = EXIT_USAGE
    tail.append(stream.end(code, error))
    write(tail)
    return code


def _writer(out: TextIO) -> Callable[[list[Event]], None]:
    """Write a batch of events as JSON lines and flush: the bytes to ``out``'s buffer
    when it has one (stdout), else the text."""
    raw = getattr(out, "buffer", None)
    if raw is not None:
        out.flush()

        def write_bytes(batch: list[Event]) -> None:
            raw.write(to_json_lines(batch))
            raw.flush()

        return write_bytes

    def write_text(batch: list[Event]) -> None:
        out.write(to_json_lines(batch).decode("utf-8"))
        out.flush()

    return write_text
