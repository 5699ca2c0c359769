"""Copilot CLI's fast path reads text and reasoning deltas straight from their bytes,
and declines every line it might read otherwise than the general path does.

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path, and this test that the fast path really
takes the lines it is meant to.
"""

from __future__ import annotations

from pathlib import Path

from streamview.core.dialects.copilot import CopilotTranslator

from .fast_taken import taken_lines

FIXTURE = (
    Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "copilot" / "fast-lines.jsonl"
)

TAKEN = {3, 4, 5, 6, 11, 13}
"""Deltas of reasoning and text (non-ASCII, escaped, without an id, naming a model, a
stamp of another length, no stamp); not a null or numeric text, a data list, a numeric
stamp, a ``true`` arrival stamp, a model or message id that is a number."""


def test_the_fast_path_takes_deltas_and_declines_the_unusual() -> None:
    assert taken_lines(CopilotTranslator(), FIXTURE.read_bytes()) == TAKEN
