"""The command line's grammar: the viewer's options and each command's (subparsers)."""

from __future__ import annotations

import argparse
import textwrap

from streamview import __version__
from streamview.cli.commands import COMMANDS
from streamview.cli.common import count, port_number, positive_number, run_number
from streamview.cli.otlp import EXPORT_DESCRIPTION, EXPORT_EPILOG, add_otlp_options
from streamview.cli.sessions_parser import SESSIONS_DESCRIPTION, add_sessions_options
from streamview.core import dialects
from streamview.core.local_paths import parse_cwd_map

EXIT_GRACE = 1.0
"""``--exit-grace``'s default (:data:`streamview.sources.process.EXIT_GRACE`, which imports
more than the parser should)."""


USAGE = """\
streamview [options] [FILE]
       streamview run [options] -- COMMAND [ARGS...]
       streamview runs [--prune AGE [--yes] | --open N]
       streamview last [N] [options]
       streamview export --otlp [options] FILE...
       streamview redact [--names] IN > OUT

       streamview sessions [--json] [--agent A] [--project P] [--grep TEXT] [--dir D]"""

DESCRIPTION = """\
Watch, replay and understand the runs of headless coding agents.

Reads the NDJSON a coding agent prints in headless mode ({agents}; for example Claude
Code's `claude -p --output-format stream-json --verbose` or Codex's `codex exec
--json`), from a pipe or a file, recognises which agent it is, and shows the session,
the answer as it grows, every tool call with its status, and how the run ended. It
reads the session files agents keep of their interactive runs the same way
({sessions}); `streamview sessions` lists every run on this machine.
"""
"""The viewer's description; ``{agents}`` is filled from the dialect registry when the
help is shown (:func:`agents_named`)."""


def agents_named(sessions: bool = False) -> str:
    """Every agent streamview reads, by the name its header shows, in the registry's
    order: ``Cursor, Amp, ... and pi``; with ``sessions``, the agents whose session files
    it reads (``Claude Code, Codex, ...``). Imports every dialect: call it only for help."""
    if sessions:
        found = (dialects.by_name(name) for name in dialects.SESSION_FILES)
        labels = [d.label.removesuffix(" (session)") for d in found if d is not None]
    else:
        every = dialects.every_dialect()
        labels = [d.label for d in every if d.name not in dialects.SESSION_FILES]
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def fill_paragraphs(text: str, width: int = 86) -> str:
    """``text`` with each paragraph refilled to ``width`` columns (the raw formatter
    keeps line breaks as written, and a filled-in list breaks them)."""
    paragraphs = text.strip().split("\n\n")
    return "\n\n".join(textwrap.fill(" ".join(p.split()), width) for p in paragraphs) + "\n"


EXAMPLES = """\
examples:
  cursor-agent -p "fix the flaky test" --output-format stream-json | streamview
  claude -p "fix the flaky test" --output-format stream-json --verbose | streamview
  streamview recordings/success-multi-tool.ndjson
  streamview --print run.ndjson | less
  streamview --json run.ndjson | jq '.sessions[-1].outcome'
  claude -p "..." --output-format stream-json --verbose | streamview --events | my-harness
  streamview --replay -s 4 -i 2 run.ndjson
  streamview run -- cursor-agent -p "fix it" --output-format stream-json
  streamview runs; streamview last
  producer | streamview --record run.ndjson

settings: the viewer remembers its theme, whether thinking is shown and the tool-call
filter in {settings}; flags such as --theme win over it.

exit status: 0 the (last) run succeeded; 1 it failed or ended without a result;
2 bad usage or unreadable input; 141 the output closed (| head) before a live input
told how the run ended; 128 + N after signal N (143 SIGTERM, 129 SIGHUP); 70 the
viewer failed (an internal error: the traceback's file is named on stderr). In the
viewer, press ? for keys, Ctrl+P for every action.
"""

RUN_DESCRIPTION = """\
Start the agent, show its stream as it runs, and record it.

Reads the agent's stdout as the stream, and keeps its stderr and exit code to show
when the run fails. Ctrl+C stops the agent and its process group (SIGINT, then
SIGTERM and SIGKILL 3 s apart while any of it runs) and leaves the viewer open on the
interrupted run. SIGTERM, SIGHUP (a closed terminal) and, without the viewer, SIGINT
stop it the same way, then streamview shows how the run ended, closes the recording,
restores the terminal and exits. The run ends when the agent exits: its output is
read --exit-grace seconds more, then what it left running is listed and stopped
(--keep-children leaves it running). Every run is
recorded: to --record PATH, or to a new file in the user's state directory
(`streamview runs` lists them), whose path is printed on exit.
"""

RUN_EPILOG = """\
examples:
  streamview run -- cursor-agent -p "fix the flaky test" --output-format stream-json
  streamview run --print -- claude -p "..." --output-format stream-json --verbose
  streamview run --json -- cursor-agent -p "..." --output-format stream-json | jq .process

exit status: 128 + the signal when one stopped streamview (130 Ctrl+C, 143 SIGTERM,
129 SIGHUP); 141 when its output closed before the run ended (| head); the agent's
own when it failed; otherwise 0 when the run succeeded and 1 when it ended without a
result; 2 bad usage or a command that cannot start; 70 the viewer failed.
"""

RUNS_DESCRIPTION = """\
List the runs `streamview run` recorded in the user's state directory, newest
first: when (to the second), which agent, how it ended (success, error, no result,
stopped (Ctrl+C), failed (exit 3), crashed (a signal), or the
recording cut short: disk full), the agent's exit code, the
size, the file and the prompt. `streamview last N` or `runs --open N` opens run N.
`--prune AGE` lists the recordings older than AGE and asks before deleting them;
without a terminal to ask on, it deletes only with --yes.
"""


def cwd_pair(text: str) -> tuple[str, str]:
    """``--cwd-map OLD=NEW`` as a pair of absolute directories (argparse's type)."""
    try:
        return parse_cwd_map(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_view_options(parser: argparse.ArgumentParser, file: bool = True) -> None:
    """The options of the viewer (and of ``last``, which has no FILE)."""
    if file:
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
        help="no UI: read everything, print one JSON summary (indented on a terminal)",
    )
    mode.add_argument(
        "--print",
        action="store_true",
        dest="print_mode",
        help="no UI: one readable line per event (default when stdout is not a terminal)",
    )
    mode.add_argument(
        "--events",
        action="store_true",
        help="no UI: one normalized JSON event per line, as it is read, whatever the "
        "agent (for programs; see the README's 'Normalized events')",
    )
    parser.add_argument(
        "--time",
        action="store_true",
        help="with --print: start each line with the time since its session started (+1:23)",
    )
    parser.add_argument(
        "--follow",
        "-f",
        action="store_true",
        help="keep reading FILE as it grows, like tail -F (truncated or replaced: read afresh)",
    )
    parser.add_argument(
        "--max-line",
        metavar="SIZE",
        help="longest line read whole (default 64M, or max_line in the settings file); "
        "a longer one keeps its first 64 KiB and is shown as too long",
    )
    parser.add_argument(
        "--theme", default=None, help="Textual theme for the viewer (e.g. textual-light)"
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
    parser.add_argument(
        "--cwd-map",
        metavar="OLD=NEW",
        action="append",
        type=cwd_pair,
        default=[],
        help="o (open in $EDITOR) looks for files the run recorded under directory OLD "
        "in NEW, a local checkout (repeatable; also [cwd_map] in the settings; without "
        "it, a path missing here is looked for under the current directory)",
    )
    replay = parser.add_argument_group("replay and demos")
    replay.add_argument(
        "--replay",
        action="store_true",
        help="play FILE back in time (by default a file opens at its final state)",
    )
    replay.add_argument(
        "-s",
        "--speed",
        type=positive_number,
        metavar="X",
        help="with --replay or --export-cast: play X times as fast",
    )
    replay.add_argument(
        "-i",
        "--idle-limit",
        type=positive_number,
        metavar="S",
        help="with --replay or --export-cast: play any silence longer than S seconds as S seconds",
    )
    replay.add_argument(
        "--serve",
        action="store_true",
        help="show the viewer of FILE in a web browser (needs textual-serve); each tab "
        "opens its own viewer of the file, so a pipe cannot be served",
    )
    replay.add_argument(
        "--host",
        default="localhost",
        help="interface --serve listens on (default localhost: this machine only; "
        "0.0.0.0 shows FILE to anyone who can reach this machine)",
    )
    replay.add_argument(
        "--port", type=port_number, default=8000, help="port for --serve (default 8000)"
    )
    replay.add_argument(
        "--public-url",
        metavar="URL",
        help="with --serve behind a proxy: the address browsers use (https://host/path); "
        "the page's scripts and websocket are written under it",
    )
    replay.add_argument(
        "--max-viewers",
        type=count,
        metavar="N",
        help="with --serve: browser tabs given a viewer at once, each a process "
        "(default 4, or max_viewers in the settings file); more are refused",
    )
    replay.add_argument(
        "--export-markdown",
        metavar="PATH",
        help="no UI: write the transcript and tool calls as Markdown to PATH (- for stdout)",
    )
    replay.add_argument(
        "--summary",
        action="store_true",
        help="with --export-markdown: write a CI job's summary instead (under 200 KB: the "
        "outcome, tool calls with failures first, each failure's output folded; "
        'for GitHub Actions: --export-markdown - --summary >> "$GITHUB_STEP_SUMMARY")',
    )
    replay.add_argument(
        "--export-html",
        metavar="PATH",
        help="no UI: write the run as one self-contained HTML page to PATH (opens offline "
        "in any browser: the answer, every tool call with its detail, search)",
    )
    replay.add_argument(
        "--export-cast",
        metavar="PATH",
        help="no UI: write the viewer replaying the run as an asciicast v2 file to PATH "
        "(asciinema's player, agg, doc sites), made faster than real time and timed as "
        "--replay with -s/-i would play it",
    )
    replay.add_argument(
        "--size",
        metavar="COLSxROWS",
        help="with --export-cast: the terminal's size (default 100x30)",
    )
    replay.add_argument(
        "--export-svg",
        metavar="PATH",
        help="no UI: write an SVG screenshot of the viewer at the final state to PATH",
    )
    replay.add_argument(
        "--redact",
        action="store_true",
        help="before anything reads the input: secrets (gitleaks' rules: keys, tokens, "
        "private keys, passwords in URLs) become [REDACTED:kind] and home directories ~; "
        "for every export, --json, --events and the viewer; counts on stderr",
    )
    replay.add_argument(
        "--redact-names",
        action="store_true",
        help="with --redact: this machine's user and host names go too",
    )


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``streamview run``."""
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
    mode.add_argument(
        "--events", action="store_true", help="no UI: one normalized JSON event per line"
    )
    parser.add_argument("--theme", default=None, help="Textual theme for the viewer")
    parser.add_argument(
        "--agent",
        choices=dialects.names(),
        default=dialects.AUTO,
        help="the agent whose stream this is (default: auto, recognised from the stream; "
        "Kilo Code is told from opencode only by --agent kilo)",
    )
    parser.add_argument(
        "--keep-children",
        action="store_true",
        help="leave running what the agent started and left behind when it exited (a dev "
        "server started with &); by default those are listed and stopped",
    )
    parser.add_argument(
        "--exit-grace",
        type=positive_number,
        default=EXIT_GRACE,
        metavar="S",
        help="once the agent exited, read its output S seconds more, then end the run even "
        f"if a process it left still holds its stdout (default {EXIT_GRACE:g})",
    )
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND ARGS",
        help="the agent to run, after --",
    )


def build_command_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """``streamview COMMAND ...``: the parser, and its subparser for each command."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog="streamview", formatter_class=raw)
    commands = parser.add_subparsers(dest="subcommand", metavar="COMMAND", required=True)
    run = commands.add_parser(
        "run",
        prog="streamview run",
        usage="streamview run [-h] [--record PATH] [--json | --print | --events] "
        "[--theme THEME] [--agent NAME] [--keep-children] [--exit-grace S] "
        "[--otlp ...] -- COMMAND [ARGS...]",
        help=COMMANDS["run"],
        description=RUN_DESCRIPTION,
        epilog=RUN_EPILOG,
        formatter_class=raw,
    )
    add_run_options(run)
    add_otlp_options(run)
    runs = commands.add_parser(
        "runs",
        prog="streamview runs",
        help=COMMANDS["runs"],
        description=RUNS_DESCRIPTION,
        formatter_class=raw,
    )
    runs_action = runs.add_mutually_exclusive_group()
    runs_action.add_argument(
        "--prune",
        metavar="AGE",
        help="delete recordings older than AGE (e.g. 30d, 12h, 2w) instead of listing: "
        "lists them and asks first",
    )
    runs_action.add_argument(
        "--open",
        type=run_number,
        metavar="N",
        help="open run N of the list in the viewer (as `streamview last N`)",
    )
    runs.add_argument(
        "-y",
        "--yes",
        action="store_true",
        help="with --prune: delete without asking (needed without a terminal)",
    )
    last = commands.add_parser(
        "last",
        prog="streamview last",
        help=COMMANDS["last"],
        description="Open the run `streamview run` recorded last (or the Nth latest, as "
        "`streamview runs` numbers them), as `streamview FILE` would.",
        formatter_class=raw,
    )
    last.add_argument(
        "number",
        nargs="?",
        type=run_number,
        default=1,
        metavar="N",
        help="which run: 1 the latest (default), 2 the one before...",
    )
    add_view_options(last, file=False)
    export = commands.add_parser(
        "export",
        prog="streamview export",
        help=COMMANDS["export"],
        description=EXPORT_DESCRIPTION,
        epilog=EXPORT_EPILOG,
        formatter_class=raw,
    )
    export.add_argument("files", nargs="+", metavar="FILE", help="recorded runs ('-': stdin)")
    export.add_argument(
        "--agent",
        choices=dialects.names(),
        default=dialects.AUTO,
        help="the agent whose stream these are (default: auto, recognised from each)",
    )
    add_otlp_options(export, required=True)
    redact = commands.add_parser(
        "redact",
        prog="streamview redact",
        help=COMMANDS["redact"],
        description=fill_paragraphs(
            "Write IN to stdout with every secret gitleaks' rules find (and passwords "
            "in URLs) as [REDACTED:kind] and home directories as ~: each JSON line "
            "keeps its shape (every string redacted), so OUT is a stream of the same "
            "agent, to share or to view. What was removed is counted on stderr."
        ),
        formatter_class=raw,
    )
    redact.add_argument("input", metavar="IN", help="the recording ('-': stdin)")
    redact.add_argument(
        "--names", action="store_true", help="this machine's user and host names go too"
    )
    sessions = commands.add_parser(
        "sessions",
        prog="streamview sessions",
        help=COMMANDS["sessions"],
        description=SESSIONS_DESCRIPTION,
        formatter_class=raw,
    )
    add_sessions_options(sessions)
    return parser, {
        "run": run,
        "runs": runs,
        "last": last,
        "export": export,
        "redact": redact,
        "sessions": sessions,
    }


class _ViewParser(argparse.ArgumentParser):
    """Its help names the settings file and every agent: looked up (platformdirs, 6 ms
    of imports; every dialect's module) only when the help is shown, not on every run."""

    checking = True  # add_argument's metavar check: no terminal width (shutil), 30.8

    def _get_formatter(self) -> argparse.HelpFormatter:
        checked = self.checking and argparse.HelpFormatter(prog=self.prog, width=80)
        return checked or super()._get_formatter()

    def format_help(self) -> str:
        if self.description is not None and "{agents}" in self.description:
            self.description = fill_paragraphs(
                self.description.replace("{agents}", agents_named()).replace(
                    "{sessions}", agents_named(sessions=True)
                )
            )
        if self.epilog is not None and "{settings}" in self.epilog:
            from streamview.config.settings import settings_path

            self.epilog = self.epilog.replace("{settings}", str(settings_path()))
        return super().format_help()


def build_parser() -> argparse.ArgumentParser:
    """``streamview [options] [FILE]``, whose help lists the commands too."""
    listing = "".join(f"  {name:<8} {text}\n" for name, text in COMMANDS.items())
    parser = _ViewParser(
        prog="streamview",
        usage=USAGE,
        description=DESCRIPTION,
        epilog=f"commands (streamview COMMAND --help):\n{listing}\n" + EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_view_options(parser)
    parser.add_argument("--version", action="version", version=f"streamview {__version__}")
    parser.checking = False
    return parser
