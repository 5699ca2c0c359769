"""What a search looks for: plain text, or a regular expression after ``re:``."""

from __future__ import annotations

import pytest

from streamview.core.textmatch import BadPattern, Matcher


def test_plain_text_is_found_case_insensitively_without_overlaps() -> None:
    matcher = Matcher.for_query("Parse")
    assert list(matcher.spans("parse(PARSE) reparse")) == [(0, 5), (6, 11), (15, 20)]
    assert list(Matcher.for_query("aa").spans("aaaa")) == [(0, 2), (2, 4)]
    assert not Matcher.for_query("").holds("anything")


def test_re_prefix_makes_a_regular_expression() -> None:
    matcher = Matcher.for_query(r"re:exit \d+")
    assert list(matcher.spans("ok; EXIT 12; exit x")) == [(4, 11)]
    assert Matcher.for_query("re:").holds("re:")  # nothing after it: plain text
    assert not Matcher.for_query(r"re:x*").holds("abc")  # empty matches are not hits


def test_a_broken_expression_says_why() -> None:
    with pytest.raises(BadPattern, match=r"not a regular expression: \(unclosed"):
        Matcher.for_query("re:(unclosed")
