"""opencode's (and Kilo's) fast path reads a step's start, its text and a step that
called tools straight from their bytes, and declines every line it might read otherwise
than the general path does.

``fast-lines.jsonl`` (in ``opencode/`` and ``kilo/``) holds both kinds;
``test_fast_json.py`` checks that ``--json`` is the same with and without the fast
path, and this test that the fast path really takes the lines it is meant to.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from streamview.core.dialects.opencode import OpenCodeTranslator

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"

TAKEN = {2, 4, 5, 6, 7, 17, 20, 23}
"""Steps' starts, text (non-ASCII, escaped) and steps that called tools, in the run
already started; not the first record, a step after one that ended ``unknown``, a
step that ends the run, nor a record of another session."""


def test_the_fast_path_takes_steps_and_text_and_declines_the_unusual() -> None:
    data = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes()
    assert (FIXTURES / "kilo" / "fast-lines.jsonl").read_bytes() == data
    translator = OpenCodeTranslator()
    taken = set()
    for number, line in enumerate(data.splitlines(), 1):
        if translator.fast_line(line, number) is not None:
            taken.add(number)
        else:  # as the fold does: the general way, keeping the translator's state
            translator.translate(orjson.loads(line), number, None)
    assert taken == TAKEN
