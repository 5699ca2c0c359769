"""Kimi CLI's fast path reads a tool's result straight from its bytes, gives what
:meth:`fast` gives for the decoded line, and declines every line it might read
otherwise; from the decoded line it also takes an answer alone and a call alone
(issue 30.8).

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from streamview.core.dialects.kimi import KimiTranslator

from .fast_taken import assert_fast_line_agrees, said_built, taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "kimi"
DATA = (FIXTURES / "fast-lines.jsonl").read_bytes()

TAKEN = {3, 5, 7, 13, 15, 16, 21}
"""Results: a read with a note and an image part, a failed command stamped on arrival,
a bare string, one without a ``tool_call_id``, a null content, a refusal after a
``think`` part; not a result before the run's first message, a text that is a number, a
part that is no object, an arrival stamp that is a string, a result with a ``type``, an
id that is a number, a line that does not start with its ``role``, nor the assistant's
messages."""


def test_the_fast_path_takes_results_and_declines_the_unusual() -> None:
    assert taken_lines(KimiTranslator(), DATA) == TAKEN


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), DATA, said_built)


def test_every_result_of_a_whole_run_is_taken() -> None:
    data = (FIXTURES / "success-tools.jsonl").read_bytes()
    results = {n for n, line in enumerate(data.splitlines(), 1) if b'"role":"tool"' in line}
    assert len(results) == 11
    assert taken_lines(KimiTranslator(), data) == results
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), data, said_built)


ANSWERS_AND_CALLS = {4, 6, 17, 18, 20, 26}
"""Calls alone (``content`` empty or ``""``) and answers alone (a string, text parts,
an empty ``tool_calls``, stamped on arrival); not a text said with a call (two events),
a thought, two calls, ``tool_calls`` that is no list, an empty text, a call whose
``function`` is no object."""


def test_fast_takes_an_answer_alone_and_a_call_alone_but_not_both() -> None:
    """Through the dict (``fast``): what the long way makes one event of."""
    translator = KimiTranslator()
    taken = set()
    for number, line in enumerate(DATA.splitlines(), 1):
        record = orjson.loads(line)
        if record.get("role") == "assistant" and translator.fast(record, number) is not None:
            taken.add(number)
        elif translator.fast(record, number) is None:
            translator.translate(record, number, None)
    assert taken == ANSWERS_AND_CALLS
