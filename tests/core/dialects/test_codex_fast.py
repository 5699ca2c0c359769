"""Codex's fast path reads the items most of a run is made of straight from their bytes
and declines every line it might read otherwise than the general path does.

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path, and this test that the fast path really
takes the lines it is meant to (else that check would prove nothing).
"""

from __future__ import annotations

from pathlib import Path

from streamview.core.dialects.codex import CodexTranslator

from .fast_taken import taken_lines

FIXTURE = (
    Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "codex" / "fast-lines.jsonl"
)

TAKEN = {3, 4, 5, 6, 7, 8, 9, 10, 16, 17, 24, 25, 26, 27, 28, 29, 30, 35}
"""Commands (ran, declined, failed; non-ASCII, escaped, without an id), plain file
changes, calls completed as another kind, reasoning and messages."""


def test_the_fast_path_takes_commands_changes_and_text_and_declines_the_unusual() -> None:
    assert taken_lines(CodexTranslator(), FIXTURE.read_bytes()) == TAKEN
