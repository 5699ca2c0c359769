"""Gemini CLI's result patterns, compiled by their first use, match as compiled ones do
(``gemini_tools._Pattern``: no module's import compiles them, issue 30.8)."""

from __future__ import annotations

import re

import pytest

import streamview.core.dialects.gemini_tools as gemini_tools

TEXTS = [
    "",
    "Command exited with code: 1",
    "Command exited with code: -2  \n",
    "command exited with code: 1",
    "Read lines 1-40 of 120 from a.py",
    "read all 3 lines",
    "Found 2 matching files",
    "found 1 file",
    "Found 3 matches for pattern",
    "No matches found",
    "see https://example.com/a?b=c) and http://x.y",
    "nothing here",
]
PATTERNS = ["_EXITED", "_READ_DISPLAY", "_FOUND", "_READ_OF", "_URL", "_SHORT"]


@pytest.mark.parametrize("name", PATTERNS)
@pytest.mark.parametrize("first", ["match", "search"])
def test_a_pattern_compiled_by_its_first_use_matches_as_a_compiled_one(
    name: str, first: str
) -> None:
    kept = getattr(gemini_tools, name)
    fresh = gemini_tools._Pattern(kept._source, kept._flags)
    compiled = re.compile(kept._source, kept._flags)
    assert "match" not in vars(fresh) and "search" not in vars(fresh)  # not compiled yet
    for text in TEXTS:
        for method in (first, "search" if first == "match" else "match"):
            found, expected = getattr(fresh, method)(text), getattr(compiled, method)(text)
            assert (found and (found.span(), found.groups())) == (
                expected and (expected.span(), expected.groups())
            ), (name, method, text)
    assert vars(fresh)["match"] == compiled.match  # the compiled pattern's own, from now on
