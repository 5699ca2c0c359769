"""Cline's fast path reads a growing answer's next print (``say`` ``text``,
``partial: true``) straight from its bytes, gives what :meth:`fast` gives for the
decoded line, and declines every line it might read otherwise (issue 30.8).

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from streamview.core.dialects.cline import ClineTranslator

from .fast_taken import taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
DATA = (FIXTURES / "cline" / "fast-lines.jsonl").read_bytes()

TAKEN = {4, 5, 6, 7, 11, 14, 15}
"""Partial texts in the started session: grown, the same again (nothing new), rewritten,
stamped on arrival, non-ASCII; not the first (it starts the session), a ``ts`` that is a
string or past 64 bits, a ``partial`` of 1, a text that is a number, a final text,
another kind, nor a line whose ``ts`` is not written first (``fast`` reads that one)."""


def test_the_fast_path_takes_growing_texts_and_declines_the_unusual() -> None:
    assert taken_lines(ClineTranslator(), DATA) == TAKEN


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    by_bytes, by_dict = ClineTranslator(), ClineTranslator()
    for number, data in enumerate(DATA.splitlines(), 1):
        record = orjson.loads(data)
        from_bytes = by_bytes.fast_line(data, number)
        from_dict = by_dict.fast(record, number)
        if from_bytes is not None:
            assert from_bytes == from_dict, data
        elif from_dict is None:
            by_bytes.translate(record, number, None)
            by_dict.translate(record, number, None)
        else:  # declined what fast took (a ``ts`` not written first)
            by_bytes.fast(record, number)
        assert vars(by_bytes) == vars(by_dict), data
