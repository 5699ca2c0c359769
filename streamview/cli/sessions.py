"""``streamview sessions``: every run on this machine, newest activity first.

On a pipe (or with ``--json``) one line (one JSON object) per run, for scripts; in a
terminal, the list screen (:mod:`streamview.ui.sessions`): Enter opens a run in the
viewer, following it if live, and Escape there comes back to the list.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TextIO

from streamview.cli.common import fail
from streamview.cli.output import EXIT_OUTPUT_CLOSED, release_stdout
from streamview.core.exit_status import EXIT_SUCCESS, EXIT_USAGE
from streamview.core.sanitize import dumps_for_terminal, one_line
from streamview.runs.session_discovery import DescribeCache, RunEntry, discover, shorten
from streamview.runs.session_index import SessionIndex, index_path

DASH = "-"
"""What an unknown value is shown as."""
READABLE_SUFFIXES = (".json", ".jsonl", ".ndjson", ".txt", ".log")
"""What the viewer opens; opencode's ``opencode.db`` and Codex's compressed rollouts are
listed but not opened yet."""


def matches(
    entry: RunEntry, agent: str | None = None, project: str | None = None, text: str | None = None
) -> bool:
    """Whether a run passes the filters (each a case-insensitive part; ``None``: any).

    Args:
        entry: The run.
        agent: A part of its agent's name (``claude`` matches ``Claude Code``).
        project: A part of its directory.
        text: A part of its title, project, agent or path.
    """
    if agent and agent.lower() not in entry.agent.lower():
        return False
    if project:
        wanted = (shorten(project) or project).lower()  # the shell made ~/work /home/me/work
        if wanted not in (entry.project or "").lower():
            return False
    if text:
        haystack = " ".join(
            part or "" for part in (entry.title, entry.project, entry.agent, str(entry.path))
        )
        return text.lower() in haystack.lower()
    return True


def when(seconds: float | None) -> str:
    """Local time of epoch ``seconds`` as ``2027-01-15 09:00``, else a dash."""
    if seconds is None:
        return DASH
    return datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M")


def human_size(size: int) -> str:
    """``532 B``, ``12 KB``, ``3.4 MB``."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def known(value: int | None) -> str:
    """A count, or a dash when it is not known."""
    return DASH if value is None else str(value)


def plain_line(entry: RunEntry) -> str:
    """One run as a tab-separated line: last activity, agent, live, calls, errors,
    tokens, size, project, title, path (titles cleaned of control characters)."""
    fields = [
        when(entry.last_activity),
        entry.agent,
        "live" if entry.live else DASH,
        known(entry.calls),
        known(entry.errors),
        known(entry.tokens),
        human_size(entry.size),
        entry.project or DASH,
        entry.title or DASH,
        str(entry.path),
    ]
    return "\t".join(one_line(field).replace("\t", " ") for field in fields)


def write_entries(entries: Iterable[RunEntry], out: TextIO, as_json: bool) -> None:
    """Each run on a line of its own: JSON objects, or :func:`plain_line`."""
    for entry in entries:
        line = dumps_for_terminal(entry.as_json()) if as_json else plain_line(entry)
        out.write(line + "\n")


READ_BUDGET = 0.8
"""Seconds a pass of the list in a terminal spends reading files: the newest are read
first (the first screen), the rest on the next passes, every few seconds."""


def find(
    args: argparse.Namespace,
    cache: DescribeCache | None = None,
    index: SessionIndex | None = None,
    budget: float | None = None,
) -> list[RunEntry]:
    """The runs the options ask for, newest activity first (files unchanged since
    ``cache``, or the on-disk ``index``, was filled are not read again; with a
    ``budget``, files not read in time are listed pending)."""
    from streamview.cli.runs import runs_directory

    folders = [Path(folder) for folder in args.dir]
    entries = discover(
        runs_folder=runs_directory(),
        folders=folders,
        now=time.time(),
        live_seconds=args.live_seconds,
        cache=index.cache if index is not None else cache,
        budget=budget,
    )
    if index is not None:
        index.save()
    return [entry for entry in entries if matches(entry, args.agent, args.project, args.grep)]


def main_sessions(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``streamview sessions [--json] [--agent A] [--project P] [--grep T] [--dir D]``."""
    for folder in args.dir:
        if not Path(folder).is_dir():
            return fail(f"sessions: --dir {folder}: not a folder")
    if args.watch or args.otlp:  # headless: every run to a tracing backend
        from streamview.cli.sessions_watch import main_watch

        return main_watch(args, find)
    out = out or sys.stdout
    index = SessionIndex(index_path())
    if args.json or not out.isatty():
        try:
            write_entries(find(args, index=index), out, args.json)
            out.flush()
        except BrokenPipeError:
            release_stdout()
            return EXIT_OUTPUT_CLOSED
        return EXIT_SUCCESS
    from streamview.sources.base import InputError

    try:  # the list reloads every few seconds: what changed is read
        return browse(
            lambda: find(args, index=index, budget=READ_BUDGET),
            theme=args.theme,
            places=looked_in(args),
        )
    except InputError as error:  # an unknown theme
        return fail(str(error))


def looked_in(args: argparse.Namespace) -> list[str]:
    """Where the list looks for runs, a line each (``~/.codex/sessions (Codex)``), for
    a list that finds none to say."""
    from streamview.cli.runs import runs_directory
    from streamview.core.dialects import by_name
    from streamview.runs.session_places import agent_homes

    def label(agent: str) -> str:  # the dialect's name for people: "Claude Code"
        dialect = by_name(agent)
        return dialect.label if dialect is not None else agent

    places = [f"{shorten(str(folder))} ({label(agent)})" for agent, folder in agent_homes().items()]
    places.append(f"{shorten(str(runs_directory()))} (what streamview run records)")
    places += [f"{shorten(str(Path(folder).resolve()))} (--dir)" for folder in args.dir]
    return places


def browse(
    load: Callable[[], list[RunEntry]], theme: str | None = None, places: Sequence[str] = ()
) -> int:
    """The list in a terminal; each run chosen opens in the viewer, whose Escape comes
    back to the list where it was left (q in the viewer quits, with its status)."""
    from functools import partial

    from streamview.runs.session_live import LiveTracker
    from streamview.ui.sessions.list_app import SessionsApp

    place = None
    note = None
    tracker = LiveTracker()  # kept across the lists: a run's past is not news again
    marked: set[Path] = set()  # and the runs marked, till looked at
    while True:
        app = SessionsApp(
            load,
            place=place,
            theme=theme,
            note=note,
            tracker=tracker,
            attention=marked,
            places=places,
        )
        chosen = app.run()
        if chosen is None:
            return EXIT_SUCCESS
        place = app.place
        went_back: list[bool] = []
        code, note = open_entry(chosen, theme, partial(went_back.append, True))
        if not went_back and note is None:
            return code


def open_entry(
    entry: RunEntry, theme: str | None, on_back: Callable[[], None]
) -> tuple[int, str | None]:
    """Open a run as ``streamview FILE`` would (``--follow`` when it is live).

    Returns:
        The viewer's exit status, and why it could not open the run (``None`` if it did).
    """
    from functools import partial

    from streamview.cli.parsers import build_parser
    from streamview.cli.view import open_source, unviewable, view
    from streamview.sources.base import InputError
    from streamview.ui.sessions.viewer import ListedViewerApp

    if entry.path.suffix not in READABLE_SUFFIXES:
        return EXIT_USAGE, f"streamview does not read {entry.path.name} yet (a database or archive)"
    arguments = [str(entry.path), *(["--follow"] if entry.live else [])]
    args = build_parser().parse_args([*arguments, *(["--theme", theme] if theme else [])])
    problem = None if entry.live else unviewable(entry.path)
    if problem is not None:
        return EXIT_USAGE, problem
    try:
        source = open_source(args, None)
    except InputError as error:
        return EXIT_USAGE, str(error)
    return view(source, args, app_class=partial(ListedViewerApp, on_back=on_back)), None
