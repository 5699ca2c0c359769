"""The viewer's plainest command lines, read without argparse, are read as its parser
reads them; every other is left to the parser (``streamview.cli.plain_args``)."""

from __future__ import annotations

import pytest

from streamview.cli.parsers import build_parser
from streamview.cli.plain_args import defaults, plain_view_args

READ_HERE = [
    ["--json", "run.ndjson"],
    ["run.ndjson", "--json"],
    ["--events", "run.ndjson"],
    ["--print", "run.ndjson"],
    ["--print", "--time", "run.ndjson"],
    ["--json", "-f", "run.ndjson"],
    ["--follow", "--events", "run.ndjson"],
    ["run.ndjson"],
    ["a file with spaces.ndjson", "--json"],
    ["opencode.db#ses_1", "--json"],
    ["--json", "last"],  # a FILE named as a command: the command's word came first
]


@pytest.mark.parametrize("arguments", READ_HERE)
def test_a_plain_command_line_is_read_as_the_parser_reads_it(arguments: list[str]) -> None:
    plain = plain_view_args(arguments)
    assert plain is not None
    assert vars(plain) == vars(build_parser().parse_args(arguments))


LEFT_TO_THE_PARSER = [
    [],  # stdin
    ["--json"],  # stdin
    ["--json", "-"],  # stdin, named
    ["--json", "--events", "run.ndjson"],  # two modes: the parser says so
    ["--json", "--json", "run.ndjson"],
    ["-f", "--follow", "run.ndjson"],
    ["--json", "a.ndjson", "b.ndjson"],  # two files: the parser says so
    ["--json", ""],
    ["--js", "run.ndjson"],  # an abbreviation argparse accepts
    ["--json", "--agent", "qwen", "run.ndjson"],
    ["--json", "--agent=qwen", "run.ndjson"],
    ["--json", "--max-line", "1M", "run.ndjson"],
    ["--json", "--", "run.ndjson"],
    ["--json", "-x.ndjson"],
    ["-fjson", "run.ndjson"],
    ["--help"],
    ["--version"],
]


@pytest.mark.parametrize("arguments", LEFT_TO_THE_PARSER)
def test_any_other_command_line_is_left_to_the_parser(arguments: list[str]) -> None:
    assert plain_view_args(arguments) is None


def test_the_defaults_are_the_parsers_own() -> None:
    """An option added to the parser must be added to ``defaults`` too."""
    assert defaults() == vars(build_parser().parse_args([]))


def test_each_reading_has_its_own_list() -> None:
    first, second = plain_view_args(["--json", "a"]), plain_view_args(["--json", "b"])
    assert first is not None and second is not None
    first.cwd_map.append(("/a", "/b"))
    assert second.cwd_map == []
