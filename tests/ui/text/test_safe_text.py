"""The safe type's constructors and the clipboard's cleaning (issue 26, points 2 and 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from streamview.ui.text.safe_text import (
    CLIPBOARD_LIMIT,
    Safe,
    copy_text,
    phrase,
    safe,
    without_controls,
)


def test_stream_text_is_kept_as_plain_text_not_markup() -> None:
    made = safe("[@click=app.quit]x[/] [/nope]")
    assert made.plain == "[@click=app.quit]x[/] [/nope]"
    assert made.content.plain == made.plain and not made.content.spans


def test_a_phrase_puts_its_parts_in_sanitized_and_never_parses_them() -> None:
    said = phrase(
        "exported {path} · {count:,} calls · {query}",
        path=Path("/tmp/[b]x\x1b]52;c;QQ==\x07.md"),
        count=12345,
        query="{count} [/q]\nrm",
    )
    assert said.plain == "exported /tmp/[b]x␛]52;c;QQ==␇.md · 12,345 calls · {count} [/q]↵rm"


def test_a_long_part_is_cut() -> None:
    assert phrase("copied {what}", what="x" * 500, limit=10).plain == "copied " + "x" * 9 + "…"


def test_only_the_constructors_make_one() -> None:
    with pytest.raises(TypeError):
        Safe("text", object())


@pytest.mark.parametrize(
    ("copied", "kept"),
    [
        ("echo hi\x1b]52;c;SGVsbG8=\x07", "echo hi"),  # OSC 52, ended by BEL
        ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),  # OSC 8, ended by ST
        ("\x1b[200~ls\x1b[201~\nrm -rf ~", "ls\nrm -rf ~"),  # bracketed-paste markers
        ("a\x9b201~b\x9dx\x9cc", "abc"),  # 8-bit CSI and OSC
        ("x\x07\x08\x00\x7f\x85y", "xy"),  # BEL, BS, NUL, DEL, C1
        ("ab\u202ecd\u2066e\u200f", "abcde"),  # bidi controls
        ("a\r\nb\rc", "a\nbc"),
        ("\x1bPq#0;2;0;0;0\x1b\\ok", "ok"),  # DCS
        ("tab\tand\nnewline", "tab\tand\nnewline"),  # kept
    ],
)
def test_what_is_copied_holds_no_control_character(copied: str, kept: str) -> None:
    assert without_controls(copied)[0] == kept


def test_copying_counts_what_was_left_out() -> None:
    assert without_controls("plain [/x] text") == ("plain [/x] text", 0)
    assert without_controls("a\x1b[201~b") == ("ab", 6)


def test_an_unended_sequence_takes_no_more_than_its_line() -> None:
    assert without_controls("a\x1b]52;c;QQ==\nrm -rf ~")[0] == "a\nrm -rf ~"


async def test_a_value_too_long_for_the_clipboard_is_not_copied_and_says_so() -> None:
    """A 10 MB target once went to the terminal as 13 MB of OSC 52: the viewer wrote
    for 40 s. Over the limit nothing is copied, and the toast says why and what to do."""
    app: App[None] = App()
    async with app.run_test() as pilot:
        copy_text(app, "x" * (CLIPBOARD_LIMIT + 1), safe("the target"))
        await pilot.pause()
        assert app.clipboard == ""
        (note,) = [str(n.message) for n in app._notifications]
        assert note.startswith("Not copied: the target is 1.0 MiB, over the 1 MiB")
        assert "x exports it" in note
        copy_text(app, "y" * CLIPBOARD_LIMIT, safe("the target"))
        assert app.clipboard == "y" * CLIPBOARD_LIMIT
