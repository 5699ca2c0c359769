"""The sanitizer over the hostile corpus: nothing unsafe survives, text around it does."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core import sanitize
from streamview.core.sanitize import UNSAFE_CHARS, clean, dumps_for_terminal, has_controls, one_line

from .corpus import ALL_TEXT, BY_NAME, CORPUS, Sequence

UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")
SGR = re.compile(r"\x1b\[[0-9;:]*m")


def assert_inert(text: str) -> None:
    """No character that can start or take part in a control sequence is left."""
    found = UNSAFE.search(text)
    assert found is None, f"unsafe {found.group()!r} at {found.start()} in {text[:200]!r}"
    assert "\x1b" not in text and "\r" not in text and "\x9b" not in text
    text.encode("utf-8")  # no lone surrogate either


def test_unsafe_class_covers_every_c0_c1_and_del() -> None:
    """Every C0 but tab and newline, DEL and every C1 is in the unsafe class."""
    for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)]:
        char = chr(code)
        assert has_controls(char) is (char not in "\t\n"), hex(code)


@pytest.mark.parametrize("sequence", CORPUS, ids=lambda s: s.name)
def test_corpus_sequence_is_made_inert(sequence: Sequence) -> None:
    """Each sequence, alone and between text, comes out with no control left."""
    for text in (sequence.text, f"before{sequence.text}after", sequence.text * 3):
        assert_inert(clean(text))
        assert_inert(one_line(text))
    wrapped = clean(f"before{sequence.text}after")
    assert wrapped.startswith("before") and wrapped.endswith("after")


@pytest.mark.parametrize("sequence", [s for s in CORPUS if not s.sgr], ids=lambda s: s.name)
def test_non_colour_sequences_stay_visible(sequence: Sequence) -> None:
    """Nothing is hidden: a non-colour sequence leaves a visible trace."""
    cleaned = clean(f"a{sequence.text}b")
    assert cleaned != "ab"
    assert len(cleaned) > 2


def test_pictures_are_the_expected_ones() -> None:
    """ESC, BEL, CR, NUL, DEL get control pictures; C1 and bidi get escapes."""
    assert clean("\x1b[2J") == "␛[2J"
    assert clean("\x1b]0;t\x07") == "␛]0;t␇"
    assert clean("a\rb") == "a␍b"
    assert clean("\x00\x7f") == "␀␡"
    assert clean("\x9b2J") == "\\x9b2J"
    assert clean("x\u202ey") == "x\\u202ey"
    assert clean("\ud800") == "\ufffd"


def test_crlf_becomes_newline_and_lone_cr_is_shown() -> None:
    """``\\r\\n`` line ends are normal output; a lone ``\\r`` would overwrite the line."""
    assert clean("one\r\ntwo\r\n") == "one\ntwo\n"
    assert clean("safe\rEVIL") == "safe␍EVIL"
    assert clean("a\r\r\nb") == "a␍\nb"


def test_colour_is_removed_by_default() -> None:
    """Colour is dropped from plain text, the words stay."""
    assert clean("\x1b[1;31mFAILED\x1b[0m test_x") == "FAILED test_x"


def test_keep_sgr_keeps_only_sgr() -> None:
    """With keep_sgr, every ESC left in the output starts a well-formed SGR."""
    out = clean(ALL_TEXT, keep_sgr=True)
    without_sgr = SGR.sub("", out)
    assert_inert(without_sgr)
    for sequence in CORPUS:
        if sequence.sgr:
            assert sequence.text in out, sequence.name
    assert BY_NAME["sgr-huge-params"].text not in out


def test_keep_sgr_false_removes_every_esc() -> None:
    """Without keep_sgr there is no ESC at all, and all the tags survive in order."""
    out = clean(ALL_TEXT)
    assert_inert(out)
    positions = [out.index(f"<{s.name}>") for s in CORPUS]
    assert positions == sorted(positions)


def test_clean_text_is_returned_as_is() -> None:
    """The fast path: text with nothing unsafe is the same object, not a copy."""
    text = "plain — 日本語 🙂 with\ttabs\nand newlines\u200d"
    assert clean(text) is text
    assert not has_controls(text)


def test_zero_width_joiner_and_emoji_survive() -> None:
    """Legitimate invisible characters that are not controls are left alone."""
    family = "👨\u200d👩\u200d👧"
    assert clean(family + "\x1b[2J") == family + "␛[2J"


def test_one_line_cuts_long_text_without_cleaning_all_of_it() -> None:
    """A 20 MB argument folds to the limit; the cut is marked."""
    text = "\x1b[2J" + "x" * 20_000_000
    line = one_line(text, 50)
    assert len(line) == 50 and line.endswith("…") and line.startswith("␛[2J")
    assert_inert(line)


def test_one_line_sees_past_a_run_of_colour() -> None:
    """Colour removed from a long prefix does not leave the line short."""
    line = one_line("\x1b[m" * 5000 + "visible text", 40)
    assert line == "visible text"


def test_one_line_folds_newlines_and_tabs() -> None:
    """One line means one line: no newline, no tab."""
    assert one_line("a\nb\tc\r\nd") == "a↵b c↵d"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None, exclude_categories=())), st.booleans())
def test_any_text_comes_out_inert(text: str, keep_sgr: bool) -> None:
    """For any string at all, the output has nothing unsafe (SGR aside when kept)."""
    out = clean(text, keep_sgr=keep_sgr)
    assert_inert(SGR.sub("", out) if keep_sgr else out)
    assert_inert(one_line(text))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([s.text for s in CORPUS]),
            st.text(alphabet="ab\n\t[;0123m]\\\x1b\x07\r", max_size=8),
        ),
        max_size=12,
    )
)
def test_corpus_mixtures_come_out_inert(pieces: list[str]) -> None:
    """Sequences glued together or cut across one another are still made inert."""
    text = "".join(pieces)
    assert_inert(clean(text))
    assert_inert(SGR.sub("", clean(text, keep_sgr=True)))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"))))
def test_printable_text_is_unchanged(text: str) -> None:
    """Text without controls, bidi controls or surrogates passes through untouched."""
    bidi = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    if bidi.isdisjoint(text):
        assert clean(text) == text


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.text(alphabet=st.characters(codec=None, exclude_categories=())),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=5), children, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_dumps_for_terminal_is_inert_and_lossless(value: object) -> None:
    """``--json`` output: no raw control of any kind, and it decodes to the same value."""
    import json

    text = dumps_for_terminal(value)
    assert_inert(text)
    assert json.loads(text) == value


def test_dumps_for_terminal_survives_what_orjson_refuses() -> None:
    """Lone surrogates, huge integers and deep nesting are written, not raised."""
    import json

    deep: object = "x"
    for _ in range(400):
        deep = [deep]
    for value in ({"s": "\ud800"}, {"n": 10**40}, deep):
        assert json.loads(dumps_for_terminal(value)) == value


def test_every_character_json_escapes_starts_with_a_byte_checked_first() -> None:
    """``json_for_terminal`` skips its regex when none of the lead bytes is present."""
    leads = {lead[0] for lead in sanitize._JSON_UNSAFE_LEADS}
    for point in range(0x110000):
        if 0xD800 <= point <= 0xDFFF:
            continue
        encoded = chr(point).encode("utf-8")
        if sanitize._JSON_UNSAFE.search(encoded):
            assert encoded[0] in leads, hex(point)


_LEAD_HEAVY = st.sampled_from(
    [
        *(b"a", b"\x7f", b"\xc2", b"\xc2\x85", b"\xc2\xa0", b"\xd8", b"\xd8\x9c", b"\xd8\xa7"),
        *(b"\xe2", b"\xe2\x80", b"\xe2\x80\x9c", b"\xe2\x80\xae", b"\xe2\x81\xa7", b"\xe2\x81"),
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LEAD_HEAVY, max_size=300), st.integers(min_value=0, max_value=4000))
def test_finding_the_leads_agrees_with_the_regex(pieces: list[bytes], plain: int) -> None:
    """The lead-by-lead check says what a search of the whole says, whether leads are
    few (each matched where found) or many (past the budget: the search itself), and
    wherever the one unsafe sequence sits among harmless leads of other kinds."""
    for data in (
        b"".join(pieces),
        b"x" * plain + b"".join(pieces),
        b"".join(pieces) + b"y" * plain,
    ):
        assert sanitize._has_json_unsafe(data) is (sanitize._JSON_UNSAFE.search(data) is not None)


def test_an_unsafe_sequence_after_many_harmless_leads_of_another_kind_is_found() -> None:
    """Past the budget on one lead (Arabic letters lead with \\xd8), a bidi control
    earlier in the text, under another lead, is still found."""
    data = b"\xe2\x80\xae" + b"\xd8\xa7" * 5000
    assert sanitize._has_json_unsafe(data)
    assert sanitize.escape_json_unsafe(data).startswith(b"\\u202e")
