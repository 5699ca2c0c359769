"""Droid's fast path reads an assistant ``message``, a ``tool_call`` and a plain
``tool_result`` straight from their bytes, gives what :meth:`fast` gives for the decoded
line, and declines every line it might read otherwise (issue 30.8).

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path.
"""

from __future__ import annotations

from pathlib import Path

from streamview.core.dialects.droid import DroidTranslator

from .fast_taken import assert_fast_line_agrees, said_built, taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "droid"
DATA = (FIXTURES / "fast-lines.jsonl").read_bytes()

TAKEN = {3, 4, 5, 8, 9, 12, 16, 17, 19}
"""An answer (non-ASCII, escaped), calls (one whose parameters hold an integer past 64
bits, one stamped on arrival, one whose ``session_id`` is null, an MCP tool's) and
results (a read, an error without an ``error`` object answering the oldest open call, one
with no ``session_id``, one whose ``value`` is null); not the prompt, the reasoning nor
the answer after it, a call whose id is a number, a result with an ``error`` object or
an object ``value``, a time stamp that is a string or ``true``, an arrival stamp that is
a string, a text that is a number, nor the init and the ``completion``."""


def test_the_fast_path_takes_answers_calls_and_results_and_declines_the_unusual() -> None:
    assert taken_lines(DroidTranslator(), DATA) == TAKEN


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    """An integer past 64 bits in a call's parameters included: read as the general
    path reads it (``orjson``: a float)."""
    assert_fast_line_agrees(DroidTranslator(), DroidTranslator(), DATA, said_built)


def test_a_whole_run_is_taken_but_its_prompt_thought_and_ends() -> None:
    """The success fixture: every answer, call and result after the first thought but
    the failed command's (its ``error`` object)."""
    data = (FIXTURES / "success-tools.jsonl").read_bytes()
    assert taken_lines(DroidTranslator(), data) == set(range(5, 30)) - {8}
    assert_fast_line_agrees(DroidTranslator(), DroidTranslator(), data, said_built)
