"""The ``streamview`` command: view a stream (the default), or one of the commands
``run``, ``runs``, ``last``, ``export`` and ``sessions`` (see :mod:`streamview.cli.parsers`)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

START_UP_GC_THRESHOLD = 100_000
"""Allocations between two collections of the young generation while streamview starts."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run streamview; returns the process exit status."""
    if argv is None:  # the process's own command line: the process is ours
        # Starting imports some 70,000 objects that live as long as the process
        # (Textual's modules and ours): a collection every 700 of them, Python's default,
        # frees nothing and cost ~10 ms of the viewer's first screen (issue 21.12). The
        # viewer and the fronts then keep to collection policies of their own.
        gc.set_threshold(START_UP_GC_THRESHOLD, *gc.get_threshold()[1:])
    status = _main(list(sys.argv[1:] if argv is None else argv))
    if argv is None:  # the process's own command line: the process ends now
        # Its last collection, at exit, would scan every object still alive, the
        # imported modules' included (5 ms of a small file's --json), to free nothing
        # that matters: streamview flushes and closes its files itself.
        gc.freeze()
    return status


def _main(arguments: list[str]) -> int:
    from streamview.cli.commands import COMMANDS

    if not arguments or arguments[0] not in COMMANDS:
        from streamview.cli.view import main_view

        return main_view(arguments)
    from streamview.cli.parsers import build_command_parser

    parser, subparsers = build_command_parser()
    args = parser.parse_args(arguments)
    from streamview.cli.limits import apply_line_limit

    problem = apply_line_limit(getattr(args, "max_line", None))
    if problem is not None:
        parser.error(problem)
    if args.subcommand == "run":
        from streamview.cli.run import main_run

        return main_run(args, subparsers["run"])
    if args.subcommand == "export":
        from streamview.cli.otlp import main_export

        return main_export(args)
    if args.subcommand == "redact":
        from streamview.cli.redact import main_redact

        return main_redact(args)
    if args.subcommand == "sessions":
        from streamview.cli.sessions import main_sessions

        return main_sessions(args)
    if args.subcommand == "runs" and args.prune is not None:
        from streamview.cli.prune import prune_runs

        return prune_runs(args.prune, sys.stdout, yes=args.yes)
    if args.subcommand == "runs":
        from streamview.cli.runs import main_runs

        return main_runs(args)
    from streamview.cli.runs import main_last

    return main_last(args)
