"""BlockLayout on its own: what a block looks like, laid out off any widget."""

from __future__ import annotations

from rich.style import Style
from rich.theme import Theme

from streamview.ui.transcript.block_layout import (
    BLOCK_TEXT_LIMIT,
    HIGHLIGHT_LIMIT,
    NOTHING_FROZEN,
    BlockLayout,
    LayoutStyles,
)


def layout() -> BlockLayout:
    """A layout with plain styles and a dark code theme."""
    return BlockLayout(LayoutStyles(Theme({}), "monokai", *[Style()] * 5))


def texts(strips: list) -> list[str]:  # type: ignore[type-arg]
    return [strip.text.strip() for strip in strips]


def test_a_short_code_block_is_highlighted() -> None:
    """Keywords and numbers get their own colours in a short fence."""
    lines, _ = layout().answer(
        "```python\ndef f():\n    return 1\n```\n", False, 0, NOTHING_FROZEN, 60
    )
    line = next(strip for strip in lines if "def f" in strip.text)
    colours = {segment.style.color for segment in line if segment.style and segment.text.strip()}
    assert len(colours) > 1


def test_a_long_code_block_is_shown_whole_and_plain() -> None:
    """Past the highlight limit every line is there, on one background, cut at the width."""
    rows = [f"value_{n} = {n}  # {'漢' * (n % 50)}" for n in range(HIGHLIGHT_LIMIT // 20)]
    code = "\n".join(rows)
    assert len(code) > HIGHLIGHT_LIMIT
    lines, _ = layout().answer("```python\n" + code + "\n```\n", False, 0, NOTHING_FROZEN, 60)
    shown = "\n".join(texts(lines))
    for n in (0, len(rows) // 2, len(rows) - 1):
        assert f"value_{n} = {n}" in shown
    assert max(strip.cell_length for strip in lines) <= 61  # margin + width
    backgrounds = {segment.style.bgcolor for strip in lines for segment in strip if segment.style}
    assert len(backgrounds - {None}) == 1


def test_an_unclosed_long_fence_keeps_every_line() -> None:
    """A fence that never closes (the model was cut off) still shows all of its lines."""
    code = "".join(f"line_{n}\n" for n in range(10_000))
    lines, _ = layout().answer("```\n" + code, False, 0, NOTHING_FROZEN, 80)
    shown = set(texts(lines))
    assert all(f"line_{n}" in shown for n in range(10_000))


def test_a_markdown_table_under_the_limit_is_drawn_as_a_table() -> None:
    """2,000 rows (55 KB) are laid out as a table, not as raw pipes."""
    table = "| a | b |\n|---|---|\n" + "".join(f"| {n} | **{n}** |\n" for n in range(2_000))
    lines, _ = layout().answer(table, False, 0, NOTHING_FROZEN, 80)
    shown = texts(lines)
    assert not any(line.lstrip().startswith("|") for line in shown)
    assert any("1999" in line and "**" not in line for line in shown)


def test_a_block_over_the_limit_is_cut_with_a_note() -> None:
    """Over 500 KB: the first part, then a note counting the rest and naming the export."""
    text = "word " * (BLOCK_TEXT_LIMIT // 5 + 20_000)
    lines, _ = layout().answer(text, False, 0, NOTHING_FROZEN, 100)
    note = texts(lines)[-1]
    assert "more characters not shown here" in note and "x exports" in note


def test_thinking_is_markdown_not_spelled_out() -> None:
    """A model's **bold** and `code` in thinking are shown as such, as in the answer."""
    lines = layout().thinking("**Reading the test**\n\nIt calls `parse('')`.", False, 60)
    text = "\n".join(strip.text for strip in lines)
    assert "Reading the test" in text and "**" not in text
    assert "parse('')" in text and "`" not in text
    bold = [seg for strip in lines for seg in strip if "Reading" in seg.text]
    assert bold and bold[0].style is not None and bold[0].style.bold
