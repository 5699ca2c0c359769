""" "Show all" on big shell output: every line shown, styled only when on screen."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.strip import Strip

from streamview.core import tools
from streamview.core.call_records import load_records
from streamview.core.linestore import LineStore
from streamview.core.parse import parse_line
from streamview.core.sanitize import clean
from streamview.core.state import ToolCall
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import LaidOutLines, SectionView, render_sections
from streamview.ui.details.sections import Section, code, diff_text
from streamview.ui.details.views import result_sections
from streamview.ui.text import capping
from streamview.ui.text import rows as lazy_rows
from streamview.ui.text.capping import (
    FULL_MAX_LINES,
    MAX_LINES,
    SHOW_ALL_KEY,
    cap_text,
    text_pieces,
)
from streamview.ui.text.rows import (
    CodeLines,
    DiffLines,
    LazyRows,
    OutputLines,
    code_lines,
    diff_lines,
    output_lines,
)

from ..conftest import settle_sections
from .test_detail import STYLESHEET

Cell = tuple[str, Style | None]

PIECES = [
    "ab",
    "界",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\x1b[31m",
    "\x1b[1;4m",
    "\x1b[38;5;2m",
    "\x1b[0m",
    "\x1b[m",
    "\x1b[2J",
    "\x07",
    "\x1b]0;t\x07",
]


def random_output(seed: int) -> str:
    """Shell output made of colour, resets, other controls, tabs and wide characters."""
    chooser = random.Random(seed)
    return "".join(chooser.choice(PIECES) for _ in range(chooser.randint(0, 60)))


def painted_lines(body: RenderableType, width: int = 400) -> list[list[Cell]]:
    """What Rich paints for ``body``, cell by cell, one list per line (trailing blanks
    removed: whitespace at the end of the output is not shown either way)."""
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    lines = console.render_lines(body, console.options.update(no_wrap=True), pad=False)
    out = []
    for line in lines:
        cells = [(char, segment.style or None) for segment in line for char in segment.text]
        while cells and cells[-1][0].isspace():
            cells.pop()
        out.append(cells)
    while len(out) > 1 and not out[-1]:
        out.pop()
    return out


def painted_cells(body: RenderableType) -> list[Cell]:
    """What Rich paints for ``body``, every line's cells one after the other (but the
    whitespace at the very end)."""
    console = Console(width=400, color_system="truecolor", force_terminal=True)
    lines = console.render_lines(body, console.options.update(no_wrap=True), pad=False)
    cells = [(char, seg.style or None) for line in lines for seg in line for char in seg.text]
    while cells and cells[-1][0].isspace():
        cells.pop()
    return cells


def from_ansi(text: str) -> Text:
    """The output as Rich itself decodes it in one go: what rows must paint."""
    body = Text.from_ansi(clean(text, keep_sgr=True), no_wrap=True, end="")
    body.rstrip()
    return body


def colour(style: str | Style) -> int | None:
    """The number of a style's standard foreground colour."""
    assert isinstance(style, Style) and style.color is not None
    return style.color.number


def shell_payload(output: str) -> dict[str, Any]:
    return {"exitCode": 0, "interleavedOutput": output}


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces of 11 characters, rows of at most 12, a colour checkpoint every 3 rows:
    every boundary case happens in a few lines of output (the longest sequence in
    :data:`PIECES` still fits in a piece, as real ones fit in real pieces)."""
    monkeypatch.setattr(capping, "PIECE_CHARS", 11)
    monkeypatch.setattr(lazy_rows, "MAX_ROW_CHARS", 12)
    monkeypatch.setattr(lazy_rows, "CHECKPOINT_ROWS", 3)


# -- rows --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(300))
def test_rows_paint_what_rich_paints_for_the_whole_output(seed: int) -> None:
    text = random_output(seed)
    output, cut = output_lines(text)
    assert not cut
    assert painted_lines(output) == painted_lines(from_ansi(text)), repr(text)


@pytest.mark.parametrize("seed", range(300))
def test_small_pieces_and_rows_change_nothing_but_where_long_lines_go_on(
    seed: int, small_pieces: None
) -> None:
    text = random_output(seed).replace("\t", "  ")  # a tab's width depends on its row
    output, _ = output_lines(text)
    rows = painted_lines(output)
    assert all(len(row) <= 2 * lazy_rows.MAX_ROW_CHARS for row in rows)
    assert painted_cells(output) == painted_cells(from_ansi(text)), repr(text)
    # Styled in any order, each row is the same: colour comes from the checkpoints.
    backwards = [output.row(index) for index in reversed(range(len(output)))][::-1]
    assert [painted_lines(row)[0] for row in backwards] == rows


def test_pieces_split_no_colour_sequence_and_no_crlf() -> None:
    text = ("x" * 5 + "\x1b[38;5;12m" + "y\r\n") * 20 + "z" * 50 + "\x1b[1;31m" + "w\r" * 9
    for size in range(12, 40):  # longer than any colour sequence in the text
        pieces = list(text_pieces(text, size))
        assert "".join(pieces) == text
        assert "".join(clean(piece, keep_sgr=True) for piece in pieces) == clean(
            text, keep_sgr=True
        ), size
        assert all(pieces), size


def test_cap_text_counts_lines_without_splitting_them_all() -> None:
    exactly = "\n".join(str(n) for n in range(MAX_LINES))
    assert not cap_text(exactly).truncated
    one_more = cap_text(exactly + "\nlast")
    assert one_more.lines_left == 1 and one_more.text == exactly
    assert not cap_text(exactly + "\n").truncated  # no line after the last
    two_more = cap_text(exactly + "\nx\n\n")
    assert two_more.lines_left == 2 and two_more.text == exactly
    long = cap_text("a\n" + "b" * 6_000 + "\nc")
    assert long.long_lines == 1 and long.text.startswith("a\n" + "b" * 5_000 + " … (1,000 more")
    assert long.text.endswith("characters)\nc")


def test_show_all_keeps_every_line_of_shell_output_past_the_full_limit() -> None:
    lines = FULL_MAX_LINES + 10
    output = "".join(f"line {n} \x1b[32mok\x1b[0m\r\n" for n in range(lines))
    capped = result_sections("shell", {}, "success", shell_payload(output))[-1]
    assert capped.truncated and isinstance(capped.body, OutputLines)
    assert len(capped.body) == MAX_LINES + 1  # and the note
    assert capped.body.row(MAX_LINES).plain.startswith(f"… {lines - MAX_LINES:,} more lines")
    full = result_sections("shell", {}, "success", shell_payload(output), full=True)[-1]
    body = full.body
    assert not full.truncated and isinstance(body, OutputLines)
    assert body.line_count == lines and len(body) == lines
    assert body.line(lines - 1) == f"line {lines - 1} \x1b[32mok\x1b[0m"
    last = body.row(lines - 1)
    assert last.plain == f"line {lines - 1} ok"
    assert [colour(span.style) for span in last.spans] == [2]  # SGR 32
    assert body.widest == len(f"line {lines - 1} ok")
    assert len(repr(full)) < 300  # worker descriptions and logs never copy the payload


def test_colour_set_on_one_line_goes_on_until_reset() -> None:
    lines = [f"{n}" for n in range(1_000)]
    lines[10] = "\x1b[31mred from here"
    lines[900] = "reset\x1b[0m here"
    body, _ = output_lines("\n".join(lines), full=True)
    assert body.style_at(5) == Style.null() and body.style_at(901) == Style.null()
    for index in (11, 300, 899, 12, 600):  # out of order, across checkpoints
        assert colour(body.style_at(index)) == 1, index  # SGR 31
    assert colour(body.row(500).spans[0].style) == 1


def test_a_huge_line_goes_on_in_rows_and_keeps_its_colour() -> None:
    line = "\x1b[34m" + "0123456789" * 5_000 + "\x1b[0m"
    body, cut = output_lines(line + "\nafter", full=True)
    assert not cut and body.widest == lazy_rows.MAX_ROW_CHARS
    rows = [body.row(index) for index in range(len(body))]
    # Rows are cut every MAX_ROW_CHARS characters, colour sequences included.
    assert [len(row.plain) for row in rows] == [19_995, 20_000, 10_005, 5]
    assert "".join(row.plain for row in rows[:3]) == "0123456789" * 5_000
    assert all(colour(row.spans[0].style) == 4 for row in rows[:3])  # SGR 34
    assert not rows[3].spans


def test_widest_counts_cells_not_characters() -> None:
    body, _ = output_lines("界界界\n\x1b[31mab\x1b[0m\n\tx")
    assert body.widest == 9  # the tab goes to column 8
    body, _ = output_lines("界界界界\nab")
    assert body.widest == 8


# -- the view --------------------------------------------------------------------------


def test_laid_out_lines_join_ready_strips_and_rows_made_when_shown() -> None:
    output, _ = output_lines("one\ntwo\x1b[33m\nthree")
    sections = [
        Section("arguments", Text("a\nb")),
        Section("output", output, wrap=False),
        Section("end", Text("z")),
    ]
    lines, widest = render_sections(sections, 40, Style(bold=True))
    assert isinstance(lines, LaidOutLines)
    texts = [strip.text.rstrip() for strip in lines]
    assert texts == ["arguments", "a", "b", "", "output", "one", "two", "three", "", "end", "z"]
    assert widest == 40 and len(lines) == 11
    assert lines[-1].text == "z" and [s.text for s in lines[5:8]] == ["one", "two", "three"]
    assert lines[6] is lines[6]  # a row is made once, then kept
    assert any(s.style and s.style.color for s in lines[7]._segments)
    with pytest.raises(IndexError):
        lines[11]
    assert isinstance(lines[0], Strip)


class ShellApp(App[None]):
    """A host that opens the detail screen of one shell call."""

    CSS_PATH = STYLESHEET

    def __init__(self, output: str) -> None:
        super().__init__()
        line = orjson.dumps(
            {
                "type": "tool_call",
                "subtype": "completed",
                "call_id": "big",
                "tool_call": {
                    "shellToolCall": {
                        "args": {"command": "seq"},
                        "result": {"success": shell_payload(output)},
                    }
                },
            }
        )
        self.store = LineStore()
        self.store.remember(1, 0, line, parse_line(line, 1))
        self.call = ToolCall(
            index=0, call_id="big", kind="shell", status=tools.SUCCEEDED, completed_line=1
        )

    def on_mount(self) -> None:
        self.push_screen(ToolCallDetailScreen(self.call, self.store))


async def test_show_all_shows_every_line_of_a_big_shell_result() -> None:
    lines = MAX_LINES * 3
    output = "".join(f"line {n} \x1b[32mok\x1b[0m\r\n" for n in range(lines))
    app = ShellApp(output)
    async with app.run_test(size=(80, 20)) as pilot:
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        texts = [view.lines[index].text.rstrip() for index in range(len(view.lines))]
        note = f"… {lines - MAX_LINES:,} more lines (press a to show all, r for the raw JSON)"
        assert texts[-2:] == [f"line {MAX_LINES - 1} ok", note]
        assert app.screen.check_action("show_all", ()) is True
        await pilot.press(SHOW_ALL_KEY)
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        output_title = [strip.text for strip in view.lines].index("output")
        shown = [view.lines[index].text.rstrip() for index in range(len(view.lines))]
        assert shown[output_title + 1 :] == [f"line {n} ok" for n in range(lines)]
        assert app.screen.check_action("show_all", ()) is False
        await pilot.press("end")
        await pilot.pause()
        screen_lines = [view.render_line(y).text.rstrip() for y in range(view.size.height)]
        assert screen_lines[-1] == f"line {lines - 1} ok"


async def test_show_all_is_not_offered_when_nothing_was_cut() -> None:
    app = ShellApp("short\n\x1b[31mred\x1b[0m\n")
    async with app.run_test(size=(80, 20)) as pilot:
        await settle_sections(app, pilot)
        assert app.screen.check_action("show_all", ()) is False
        assert "red" in app.screen.query_one(SectionView).text


def test_raw_records_are_decoded_only_when_asked_for() -> None:
    app = ShellApp("out")
    plain = load_records(app.call, app.store, raw=False)
    raw = load_records(app.call, app.store)
    assert plain.raw == {} and plain.found and plain.payload == raw.payload
    assert raw.raw["completed"]["call_id"] == "big"


# -- file content shown in full ----------------------------------------------------------

CODE = [
    "import os",
    "",
    "def f(a: int) -> str:",
    '    """Doc."""',
    "    return str(a)  # é界",
    "\tx = [1, 2]",
    "class C:",
    "    pass",
]


@pytest.mark.parametrize(("block_rows", "block_chars"), [(1, 8192), (3, 8192), (200, 30)])
def test_code_rows_paint_what_the_whole_file_laid_out_at_once_paints(
    block_rows: int, block_chars: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lazy_rows, "CODE_BLOCK_ROWS", block_rows)
    monkeypatch.setattr(lazy_rows, "CODE_BLOCK_CHARS", block_chars)
    text = "\n".join(CODE * 3) + "\n"
    whole = code(text, "a.py", start_line=7, full=True)  # small: laid out at once
    assert not isinstance(whole.body, LazyRows)
    rows, cut = code_lines(text, "python", start_line=7)
    assert not cut and rows.line_count == len(CODE) * 3
    assert painted_lines(rows) == painted_lines(whole.body)
    assert rows.row(0).plain == " 7 │ import os" and rows.row(23).plain == "30 │     pass"
    assert rows.widest == max(cell_len(line.expandtabs(8)) for line in CODE) + 5


def test_show_all_of_a_long_file_numbers_every_line_and_cuts_huge_ones_into_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lazy_rows, "MAX_ROW_CHARS", 100)
    lines = [f"v{n} = {n}" for n in range(MAX_LINES + 10)]
    lines[3] = "s = '" + "x" * 250 + "'"
    section = code("\n".join(lines), "big.py", full=True)
    rows = section.body
    assert isinstance(rows, CodeLines) and not section.truncated
    assert section.title == "content (python)"
    assert rows.line_count == len(lines) + 2  # line 4 takes three rows
    plains = [rows.row(index).plain for index in (3, 4, 5, 6)]
    width = len(str(len(lines)))
    assert plains[0] == f"{4:>{width}} │ s = '" + "x" * 95
    assert plains[1] == " " * width + " ┆ " + "x" * 100
    assert plains[2] == " " * width + " ┆ " + "x" * 55 + "'"
    assert plains[3] == f"{5:>{width}} │ v4 = 4"
    assert (
        rows.row(rows.line_count - 1).plain
        == f"{len(lines)} │ v{len(lines) - 1} = {len(lines) - 1}"
    )
    small = code("v4 = 4", "big.py").body
    expected = painted_lines(small)[0][len("1 │ ") :]
    assert "".join(char for char, _ in expected) == "v4 = 4"
    assert expected[-1][1] is not None  # the number is coloured, as in a small file
    assert painted_lines(rows.row(6))[0][width + 3 :] == expected


async def test_long_output_lines_scroll_sideways() -> None:
    app = ShellApp("short\n" + "".join(f"{n % 10}" for n in range(300)) + "\nend\n")
    async with app.run_test(size=(80, 20)) as pilot:
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        assert view.virtual_size.width == 300
        row = next(
            y for y in range(view.size.height) if view.render_line(y).text.startswith("0123")
        )
        view.scroll_to(x=105, animate=False)
        await pilot.pause()
        assert view.render_line(row).text.startswith("56789012")
        assert view.render_line(row + 1).text.strip() == ""  # "end" is off to the left


def test_rows_too_long_to_highlight_quickly_are_shown_plain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lazy_rows, "HIGHLIGHT_ROW_CHARS", 10)
    rows, _ = code_lines("x = 1\ny = 'a long line'\nz = 3", "python")
    assert [rows.row(index).plain for index in range(3)] == [
        "1 │ x = 1",
        "2 │ y = 'a long line'",
        "3 │ z = 3",
    ]
    assert len(rows.row(0).spans) > 1 and len(rows.row(2).spans) > 1  # prefix and tokens
    assert len(rows.row(1).spans) == 1  # the line number's only


DIFF = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old \x1b[31mline\n+new\tline 界\n same\n\\ No newline\n"


def test_diff_rows_paint_what_the_whole_diff_laid_out_at_once_paints() -> None:
    whole = diff_text(DIFF)
    assert not isinstance(whole.body, LazyRows)
    rows, cut = diff_lines(DIFF)
    assert not cut and rows.line_count == DIFF.count("\n") + 1
    assert painted_lines(rows) == painted_lines(whole.body)
    assert painted_cells(rows) == painted_cells(whole.body)


def test_show_all_of_a_long_diff_styles_every_row_by_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lazy_rows, "MAX_ROW_CHARS", 100)
    lines = [f"+added {n}" for n in range(MAX_LINES)] + ["-" + "r" * 250, " end"]
    section = diff_text("\n".join(lines), full=True)
    rows = section.body
    assert isinstance(rows, DiffLines) and not section.truncated
    assert rows.line_count == len(lines) + 2  # the removed line takes three rows
    assert rows.row(MAX_LINES - 1).plain == f"+added {MAX_LINES - 1}"
    assert rows.row(MAX_LINES - 1).style == "green"
    removed = [rows.row(index) for index in range(MAX_LINES, MAX_LINES + 3)]
    assert "".join(row.plain for row in removed) == "-" + "r" * 250
    assert [row.style for row in removed] == ["red"] * 3
    assert rows.row(rows.line_count - 1).plain == " end" and not rows.row(rows.line_count - 1).style


async def test_show_all_keeps_the_place_the_person_scrolled_to() -> None:
    """Scrolled down to the "… more lines" note, ``a`` shows the rest from there: the
    lines on screen stay where they were, the view does not jump to the top."""
    lines = MAX_LINES * 3
    app = ShellApp("".join(f"line {n}\n" for n in range(lines)))
    async with app.run_test(size=(80, 20)) as pilot:
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        await pilot.press("end")
        await pilot.pause()
        before = [view.render_line(y).text.rstrip() for y in range(view.size.height)]
        top = round(view.scroll_y)
        note = next(y for y, text in enumerate(before) if "more lines" in text)
        assert top > 0 and before[note - 1] == f"line {MAX_LINES - 1}"
        await pilot.press(SHOW_ALL_KEY)
        await settle_sections(app, pilot)
        await pilot.pause()
        view = app.screen.query_one(SectionView)
        assert round(view.scroll_y) == top
        after = [view.render_line(y).text.rstrip() for y in range(view.size.height)]
        assert after[:note] == before[:note]  # what was on screen stays where it was
        assert after[note] == f"line {MAX_LINES}"  # and the rest goes on below it
