"""Calls whose result is only a display text (Gemini's "Listed 3 item(s).", a Cline or
pi listing) get a summary that says what came back, not the listing's first line."""

from __future__ import annotations

import pytest

from streamview.core.tools import summary_of


@pytest.mark.parametrize(
    ("kind", "message", "summary"),
    [
        ("ls", "Listed 3 item(s).", "Listed 3 item(s)."),
        ("grep", "Found 1 match", "Found 1 match"),
        ("ls", "__init__.py\nparse.py\ntests/\n", "3 entries"),
        ("ls", "Directory listing for /work/app/src:\n__init__.py\nparse.py", "2 entries"),
        ("ls", "Directory listing for /w:\nonly.py", "1 entry"),
        ("grep", "src/a.py:3:def a():\nsrc/b.py:9:def b():\n", "2 matching lines"),
        ("webFetch", "Example Domain\n\nThis domain is for examples.", "Example Domain"),
    ],
)
def test_a_display_text_is_summarised_by_what_it_says(
    kind: str, message: str, summary: str
) -> None:
    assert summary_of(kind, "success", {"message": message}) == summary
