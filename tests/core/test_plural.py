""":func:`streamview.core.tools.plural` remembers the texts it wrote: each reads as the
format it stands for, whatever was asked before, and whatever the count's type."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core import tools


def _said(count: object, word: str) -> str:
    """The text without the table: the format itself."""
    plural = word if count == 1 else {"match": "matches", "entry": "entries"}.get(word, word + "s")
    return f"{count:,} {plural}"


WORDS = st.sampled_from(["line", "match", "entry", "file", "result", "item", "char", "x"])


@settings(max_examples=300, deadline=None)
@given(
    asked=st.lists(
        st.tuples(st.one_of(st.integers(-5, 5), st.integers(-(10**12), 10**12)), WORDS),
        max_size=30,
    )
)
def test_plural_says_the_format_again_and_again(asked: list[tuple[int, str]]) -> None:
    for count, word in asked + asked:
        assert tools.plural(count, word) == _said(count, word)


def test_a_count_equal_to_an_int_but_not_one_is_formatted_as_itself() -> None:
    """``2.0 == 2`` and ``True == 1`` hash alike: the table must not answer for them."""
    tools.plural(2, "line")
    tools.plural(1, "line")
    assert tools.plural(2.0, "line") == "2.0 lines"  # type: ignore[arg-type]
    assert tools.plural(1.0, "match") == "1.0 match"  # type: ignore[arg-type]
    assert tools.plural(True, "line") == "1 line"
    assert tools.plural(False, "line") == "0 lines"
    assert tools.plural(2, "line") == "2 lines"


def test_plural_forgets_past_its_limit_and_still_says_the_same() -> None:
    for count in range(tools._COUNTED_KEPT * 2 + 3):
        assert tools.plural(count, "entry") == _said(count, "entry")
    assert len(tools._COUNTED["entry"]) <= tools._COUNTED_KEPT
    assert tools.plural(7, "entry") == "7 entries"
