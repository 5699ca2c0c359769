"""A search lays out only the blocks whose text can hold the query (issue 27): the
prefilter must let through every block whose laid-out lines hold it, or a hit is lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.style import Style

from streamview.core.state import PROMPT, TEXT, THINKING, Block
from streamview.core.textmatch import Matcher
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.transcript.block_layout import NOTHING_FROZEN, BlockLayout
from streamview.ui.transcript.blocks import layout_styles
from streamview.ui.transcript.search import Matches
from streamview.ui.transcript.search_keys import KeyFinder, may_hold, query_key

from ..conftest import settle
from ..frame.pilot_helpers import RECORDINGS, file_app

LAYOUT = BlockLayout(layout_styles(lambda _name: Style(), dark=True))

PIECES = st.sampled_from(
    [
        "word", "Ab", "ß", "İ", "x1", "42", " ", "  ", "\n", "\n\n", "**", "*", "_", "`",
        "```\n", "~~", "# ", "> ", "- ", "1. ", "3) ", "    ", "\t", "[a](http://b/é)",
        "<http://c>", "&amp;", "&#65;", "|", "| a | b |\n|---|---|\n", "\\", "\x1b[1m",
        "\x9b", "---\n", "é", "ﬁ", "Σ",
    ]
)  # fmt: skip
TEXTS = st.lists(PIECES, min_size=1, max_size=24).map("".join)


def lines_of(kind: str, text: str, width: int) -> list[str]:
    """The texts of ``text``'s lines as the transcript lays a ``kind`` block out."""
    if kind == TEXT:
        lines, _ = LAYOUT.answer(text, False, 0, NOTHING_FROZEN, width)
    elif kind == THINKING:
        lines = LAYOUT.thinking(text, False, width)
    else:
        lines = LAYOUT.prompt(text, width)
    return [strip.text for strip in lines]


@settings(max_examples=500, deadline=None)
@given(
    kind=st.sampled_from([TEXT, THINKING, PROMPT]),
    text=TEXTS,
    width=st.integers(8, 60),
    pick=st.tuples(st.integers(0, 200), st.integers(0, 200), st.integers(1, 12)),
    other=TEXTS,
)
def test_a_block_whose_lines_hold_the_query_is_laid_out(
    kind: str, text: str, width: int, pick: tuple[int, int, int], other: str
) -> None:
    lines = lines_of(kind, text, width) or [""]
    line = lines[pick[0] % len(lines)]
    start = pick[1] % (len(line) + 1)
    for query in (line[start : start + pick[2]], other.strip()):
        key = query_key(query)
        if not query or key is None:
            continue
        holds = any(Matcher.for_query(query).holds(line) for line in lines)
        if holds:
            assert may_hold(Block(kind, 0, [text]), None, KeyFinder(key)), (query, lines)


def test_a_key_finder_finds_what_the_key_holds() -> None:
    finder = KeyFinder(query_key("ab c") or "")
    assert finder("x **A**_b_ C y") and finder("ABC")
    assert not finder("a c b") and not finder("ab")
    assert query_key("re:a.c") is None and query_key("->") is None


QUERIES = ["the", "a", "error", "ok", "re:\\d+", "->", "read", "is not", "`", "1."]


def full_search(app: StreamviewApp, query: str) -> list[tuple[int, int, int, int]]:
    """Every hit of ``query`` in every block laid out (what search found before)."""
    transcript = app.transcript
    transcript._render_all(wait=True)
    matches = Matches(query=query)
    found = matches.find(
        (number, [strip.text for strip in transcript._lines_at(number, copy=True)])
        for number in range(transcript.block_count)
        if transcript._visible(transcript._entries[number])
    )
    return [(hit.entry, hit.line, hit.start, hit.end) for hit in found]


@pytest.mark.parametrize(
    "recording", sorted(path.name for path in RECORDINGS.glob("*.ndjson")), ids=str
)
async def test_every_recording_finds_what_a_search_of_every_block_finds(recording: str) -> None:
    app = file_app(Path(RECORDINGS / recording))
    async with app.run_test(size=(90, 30)) as pilot:
        await settle(pilot)
        transcript = app.transcript
        for query in QUERIES:
            expected = full_search(app, query)
            transcript.search(query)
            found = [(h.entry, h.line, h.start, h.end) for h in transcript._search.hits]
            assert found == expected, query
