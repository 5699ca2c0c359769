"""The viewer's command line in its plainest forms (``--json FILE``, ``--events FILE``),
read without :mod:`argparse`.

Building the viewer's parser costs more than a small file's ``--json`` does after its
imports: ``argparse`` and ``textwrap`` (~4 ms of imports with their regular expressions)
and the parser itself, whose first help strings go through :mod:`gettext` (its catalogue
looked up on disk, :mod:`locale` imported): ~6 ms of every run (issue 30.8). A command
line made only of the flags below and one FILE is read here, into what the parser would
give (``tests/cli/test_plain_args.py`` holds the two the same); any other goes to the
parser, which also says what is wrong with it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse

FLAGS = {
    "--json": "json",
    "--events": "events",
    "--print": "print_mode",
    "--time": "time",
    "--follow": "follow",
    "-f": "follow",
}
"""The flags read here (each a ``store_true``), by the option each sets."""

MODES = frozenset({"json", "events", "print_mode"})
"""The options of which the parser takes one at most (a mutually exclusive group)."""


def defaults() -> dict[str, Any]:
    """The viewer's options as its parser gives them with no argument at all."""
    return {
        "input": None,
        "json": False,
        "print_mode": False,
        "events": False,
        "time": False,
        "follow": False,
        "max_line": None,
        "theme": None,
        "agent": "auto",
        "record": None,
        "cwd_map": [],
        "replay": False,
        "speed": None,
        "idle_limit": None,
        "serve": False,
        "host": "localhost",
        "port": 8000,
        "public_url": None,
        "max_viewers": None,
        "export_markdown": None,
        "summary": False,
        "export_html": None,
        "export_cast": None,
        "size": None,
        "export_svg": None,
        "redact": False,
        "redact_names": False,
    }


def plain_view_args(arguments: list[str]) -> argparse.Namespace | None:
    """The viewer's options for a command line of :data:`FLAGS` (each once, one mode at
    most) and one FILE that does not start with ``-``; ``None`` for any other (the
    parser reads it)."""
    options = defaults()
    seen: set[str] = set()
    for argument in arguments:
        dest = FLAGS.get(argument)
        if dest is not None:
            if dest in seen or (dest in MODES and not MODES.isdisjoint(seen)):
                return None
            seen.add(dest)
            options[dest] = True
        elif options["input"] is None and argument and argument[0] != "-":
            options["input"] = argument
        else:
            return None
    if options["input"] is None:
        return None
    # Read as the parser's Namespace is (attributes and getattr): not worth argparse.
    return cast("argparse.Namespace", SimpleNamespace(**options))
