"""``streamview redact IN > OUT``: the recording itself, redacted."""

from __future__ import annotations

import argparse
import sys
import threading

from streamview.cli.common import fail, say
from streamview.cli.output import EXIT_OUTPUT_CLOSED, release_stdout
from streamview.sources.base import InputError, source_for
from streamview.sources.redacting_source import RedactingSource, make_redactor


def main_redact(args: argparse.Namespace) -> int:
    """Write ``args.input`` redacted to stdout; the counts go to stderr."""
    if args.input == "-" and sys.stdin.isatty():
        return fail("no input: pipe a recording into `streamview redact -` or name a file")
    redactor = make_redactor(names=args.names)
    out = sys.stdout.buffer
    try:
        source = RedactingSource(source_for(args.input, follow=False), redactor)
        for chunk in source.chunks(threading.Event()):
            out.write(chunk)
        out.flush()
    except InputError as error:
        return fail(str(error))
    except BrokenPipeError:
        release_stdout()
        return EXIT_OUTPUT_CLOSED
    except OSError as error:
        return fail(f"cannot read {args.input}: {error.strerror or error}")
    say(redactor.report())
    return 0
