"""Big texts as rows made when shown: shell output, file content and diffs.

A text too long to lay out whole (a million lines of output, a minified file shown in
full) is cleaned and split off the UI thread into one string and an array of offsets;
a view asks only for the rows it shows, and each is styled then. Long lines go on in
rows of at most :data:`MAX_ROW_CHARS` characters.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import accumulate

from rich.ansi import AnsiDecoder
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from streamview.core.sanitize import clean
from streamview.ui.text.capping import cap_text, full_capped, more_note, safe_cut, text_pieces
from streamview.ui.text.style import SGR_SEQUENCE, diff_style, highlight, style_after

MAX_ROW_CHARS = 20_000
"""Characters of one row of a big text (:class:`LazyRows`): a longer line goes on in rows."""
CHECKPOINT_ROWS = 256
"""Rows between two remembered colour states of shell output."""
CODE_BLOCK_ROWS = 200
"""Rows of file content highlighted together when shown in full..."""
CODE_BLOCK_CHARS = 8_192
"""... if they start within this many characters."""
HIGHLIGHT_ROW_CHARS = 500
"""Characters of the longest row of file content highlighted when shown in full."""
CODE_BLOCKS_KEPT = 32
"""Highlighted blocks of file content kept (scrolling back is then free)."""


class LazyRows:
    """Rows of a big text kept as one string and offsets, styled only when shown.

    Built off the UI thread; a view asks only for the rows it shows (:meth:`row`). A
    million lines cost one string and an array of offsets: no million laid-out lines,
    and nothing for the garbage collector to walk. Rendered by Rich as a whole, it
    paints every row, one per line.
    """

    __slots__ = ()

    text: str
    starts: array[int]
    widest: int
    note: Text | None

    @property
    def line_count(self) -> int:
        """Rows of text (a line longer than :data:`MAX_ROW_CHARS` makes several)."""
        return len(self.starts) - 1

    def __len__(self) -> int:
        """Rows, the note included."""
        return self.line_count + (self.note is not None)

    def line(self, index: int) -> str:
        """Row ``index`` as clean text."""
        return self.text[self.starts[index] : self.starts[index + 1]]

    def row(self, index: int) -> Text:
        """Row ``index`` as styled text (the last one is the note, if any)."""
        if index == self.line_count and self.note is not None:
            note = self.note.copy()
            note.end = ""
            return note
        return self.text_row(index)

    def text_row(self, index: int) -> Text:
        """Row ``index`` of the text, styled."""
        raise NotImplementedError

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Every row, one per line."""
        last = len(self) - 1
        for index in range(len(self)):
            text = self.row(index)
            if index < last:
                text.end = "\n"
            yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As wide as the widest row."""
        return Measurement(self.widest, self.widest)


@dataclass(frozen=True, slots=True, eq=False)
class OutputLines(LazyRows):
    """Shell output as rows of clean text with colour sequences kept: it paints what
    ``Text.from_ansi`` would paint for the whole output."""

    text: str = field(repr=False)
    """Every row, one after the other (no line breaks)."""
    starts: array[int] = field(repr=False)
    """Where each row starts in :attr:`text`, then where the last one ends."""
    checkpoints: list[Style] = field(repr=False)
    """The colour in force at the start of row 0, :data:`CHECKPOINT_ROWS`, twice that..."""
    widest: int = 0
    """Cells of the widest row."""
    note: Text | None = None
    """What was cut and how to see it, shown after the rows."""
    _last: list[tuple[int, Style]] = field(default_factory=list, repr=False)
    """The last row styled and the colour at its start: the next row starts from there."""

    def style_at(self, index: int) -> Style:
        """The colour in force at the start of row ``index`` (set on an earlier row)."""
        start = index - index % CHECKPOINT_ROWS
        style = self.checkpoints[index // CHECKPOINT_ROWS]
        if self._last and start <= self._last[0][0] <= index:
            start, style = self._last[0]
        if start < index:
            style = style_after(style, self.text[self.starts[start] : self.starts[index]])
        self._last[:] = [(index, style)]
        return style

    def text_row(self, index: int) -> Text:
        """Row ``index``, its colour sequences turned into styles."""
        decoder = AnsiDecoder()
        decoder.style = self.style_at(index)
        text = decoder.decode_line(self.line(index))
        text.no_wrap = True
        text.end = ""
        return text


@dataclass(frozen=True, slots=True, eq=False)
class CodeLines(LazyRows):
    """File content as rows with line numbers, highlighted a block of rows at a time
    (:meth:`block`) when first shown.

    Each block is lexed on its own: a string or comment that spans two blocks is
    coloured as if the second began the file (only in texts too long to lay out whole).
    """

    text: str = field(repr=False)
    """Every row, one after the other (no line breaks)."""
    starts: array[int] = field(repr=False)
    """Where each row starts in :attr:`text`, then where the last one ends."""
    numbers: array[int] = field(repr=False)
    """Each row's line number; 0 for a row that goes on with the line before."""
    lexer: str = "text"
    """The Pygments lexer."""
    number_width: int = 1
    """Digits of the biggest line number (0: no line numbers)."""
    widest: int = 0
    """Cells of the widest row, its line number included."""
    note: Text | None = None
    """What was cut and how to see it, shown after the rows."""
    _blocks: dict[int, list[Text]] = field(default_factory=dict, repr=False)
    """Highlighted blocks, by first row (the last few shown)."""

    def block(self, index: int) -> range:
        """The rows highlighted with row ``index``: at most :data:`CODE_BLOCK_ROWS` rows
        starting within the same :data:`CODE_BLOCK_CHARS` characters (lexing costs by
        the token, and a block must take a moment, not seconds)."""
        first = index - index % CODE_BLOCK_ROWS
        last = min(first + CODE_BLOCK_ROWS, self.line_count)
        chars = self.starts[index] - self.starts[index] % CODE_BLOCK_CHARS
        starts = self.starts
        return range(
            bisect_left(starts, chars, first, last),
            bisect_left(starts, chars + CODE_BLOCK_CHARS, first, last),
        )

    def highlighted(self, rows: range) -> list[Text]:
        """``rows`` highlighted together (but the rows longer than
        :data:`HIGHLIGHT_ROW_CHARS`, shown plain)."""
        key = rows.start
        lines = self._blocks.get(key)
        if lines is None:
            texts = [self.line(number) for number in rows]
            short = [text if len(text) <= HIGHLIGHT_ROW_CHARS else "" for text in texts]
            lines = list(highlight("\n".join(short), self.lexer).split("\n", allow_blank=True))
            for number, text in enumerate(texts):
                if len(text) > HIGHLIGHT_ROW_CHARS and number < len(lines):
                    lines[number] = Text(text)
            if len(self._blocks) >= CODE_BLOCKS_KEPT:
                self._blocks.clear()
            self._blocks[key] = lines
        return lines

    def text_row(self, index: int) -> Text:
        """Row ``index``: its line number (``┆`` if it goes on with the line before)
        and its highlighted text."""
        rows = self.block(index)
        lines = self.highlighted(rows)
        offset = index - rows.start
        number, width = self.numbers[index], self.number_width
        row = Text(no_wrap=True, overflow="ignore", end="")
        if width:
            row.append(f"{number:>{width}} │ " if number else f"{'':>{width}} ┆ ", style="dim")
        if offset < len(lines):
            row.append_text(lines[offset])
        return row


@dataclass(frozen=True, slots=True, eq=False)
class DiffLines(LazyRows):
    """A unified diff as rows, each styled by its line's first characters when shown."""

    text: str = field(repr=False)
    """Every row, one after the other (no line breaks)."""
    starts: array[int] = field(repr=False)
    """Where each row starts in :attr:`text`, then where the last one ends."""
    numbers: array[int] = field(repr=False)
    """Each row's line number; 0 for a row that goes on with the line before."""
    widest: int = 0
    """Cells of the widest row."""
    note: Text | None = None
    """What was cut and how to see it, shown after the rows."""

    def text_row(self, index: int) -> Text:
        """Row ``index`` in the style of its line."""
        head = index
        while head > 0 and not self.numbers[head]:
            head -= 1
        style = diff_style(self.line(head))
        return Text(self.line(index), style=style, no_wrap=True, overflow="ignore", end="")


def widest_cells(plain: str) -> int:
    """Cells of the widest line of ``plain`` (clean, colour sequences removed)."""
    if plain.isascii() and "\t" not in plain:
        return max(map(len, plain.split("\n")))
    widest = 0
    for line in plain.split("\n"):
        if "\t" in line:
            text = Text(line)
            text.expand_tabs()
            widest = max(widest, text.cell_len)
        else:
            widest = max(widest, cell_len(line))
    return widest


def _long_line_rows(line: str) -> list[str]:
    """``line`` cut into rows of at most :data:`MAX_ROW_CHARS` characters."""
    rows = []
    start = 0
    while len(line) - start > MAX_ROW_CHARS:
        end = safe_cut(line, start, start + MAX_ROW_CHARS)
        rows.append(line[start:end])
        start = end
    rows.append(line[start:])
    return rows


class _RowBuilder:
    """Cleans and splits a big text into rows, a piece at a time: one string of all the
    rows, their offsets, their line numbers if asked for, and the widest row's cells."""

    def __init__(self, keep_sgr: bool, first_number: int | None = None) -> None:
        self.keep_sgr = keep_sgr
        self.texts: list[str] = []
        self.starts = array("q")
        self.end = 0
        self.widest = 0
        self.numbers = array("q") if first_number is not None else None
        self.number = first_number or 1
        """Number of the next line to start."""
        self.open = False
        """The last row added is not the end of its line."""

    def build(self, text: str) -> None:
        """Add every line of ``text`` (untrusted) as rows."""
        pending = ""
        for piece in text_pieces(text):
            lines = clean(piece, keep_sgr=self.keep_sgr).split("\n")
            lines[0] = pending + lines[0]
            pending = lines.pop()
            if lines:
                self.add(lines)
            if len(pending) > MAX_ROW_CHARS:
                *done, pending = _long_line_rows(pending)
                self.add(["".join(done)], goes_on=True)
        self.add([pending])
        self.starts.append(self.end)
        self.texts[:] = ["".join(self.texts)]

    def add(self, lines: list[str], goes_on: bool = False) -> None:
        """Add ``lines`` as rows, cutting the ones too long.

        The first goes on with the line left open by the call before, if any; with
        ``goes_on`` the last is left open.
        """
        plain = "\n".join(lines)
        cells = widest_cells(SGR_SEQUENCE.sub("", plain) if self.keep_sgr else plain)
        heads: list[int] | None = None
        if cells > MAX_ROW_CHARS:
            rows: list[str] = []
            heads = []
            for line in lines:
                heads.append(len(rows))
                rows += _long_line_rows(line)
            cells = max(widest_cells(SGR_SEQUENCE.sub("", row)) for row in rows)
        else:
            rows = lines
        self.widest = max(self.widest, cells)
        if self.numbers is not None:
            self._number(len(rows), heads)
        self.open = goes_on
        self.starts.extend(accumulate(map(len, rows), initial=self.end))
        self.end = self.starts.pop()
        self.texts.append("".join(rows))

    def _number(self, count: int, heads: list[int] | None) -> None:
        """Number ``count`` new rows; ``heads``: those that start a line (all if None).

        The first row, if it goes on with a line left open, has no number of its own.
        """
        assert self.numbers is not None
        goes_on = int(self.open)
        if heads is None:
            if goes_on:
                self.numbers.append(0)
            self.numbers.extend(range(self.number, self.number + count - goes_on))
            self.number += count - goes_on
            return
        numbers = array("q", bytes(8 * count))
        for head in heads[goes_on:]:
            numbers[head] = self.number
            self.number += 1
        self.numbers.extend(numbers)

    def rows_text(self) -> str:
        """All the rows, one after the other."""
        return self.texts[0] if self.texts else ""


def output_lines(text: str, full: bool = False) -> tuple[OutputLines, bool]:
    """Shell output cut to the display limits, cleaned and split into rows, a piece at a time.

    Args:
        text: The output (untrusted; colour is kept, every other control made inert).
        full: Keep every line, up to :data:`FULL_MAX_CHARS` characters in all.

    Returns:
        The rows, and whether something was cut.
    """
    capped = full_capped(text) if full else cap_text(text)
    builder = _RowBuilder(keep_sgr=True)
    builder.build(capped.text)
    starts, rows = builder.starts, builder.rows_text()
    while len(starts) > 2 and not SGR_SEQUENCE.sub("", rows[starts[-2] : starts[-1]]).strip():
        starts.pop()
    checkpoints = []
    style = Style.null()
    for first in range(0, len(starts) - 1, CHECKPOINT_ROWS):
        checkpoints.append(style)
        last = min(first + CHECKPOINT_ROWS, len(starts) - 1)
        style = style_after(style, rows[starts[first] : starts[last]])
        if first % (CHECKPOINT_ROWS * 64) == 0:
            time.sleep(0)
    note = more_note(capped) if capped.truncated else None
    output = OutputLines(rows, starts, checkpoints, builder.widest, note)
    return output, capped.truncated


def code_lines(
    text: str, lexer: str, start_line: int = 1, numbered: bool = True
) -> tuple[CodeLines, bool]:
    """File content, every line of it, cleaned and split into numbered rows a piece at
    a time (highlighted later, when shown).

    Args:
        text: The content (untrusted), up to :data:`FULL_MAX_CHARS` characters shown.
        lexer: The Pygments lexer.
        start_line: Number of the first line.
        numbered: Show line numbers.

    Returns:
        The rows, and whether something was cut.
    """
    capped = full_capped(text)
    builder = _RowBuilder(keep_sgr=False, first_number=start_line)
    builder.build(capped.text)
    starts, numbers = builder.starts, builder.numbers
    assert numbers is not None
    if len(starts) > 2 and starts[-2] == starts[-1] and numbers[-1]:  # the file's last \n
        starts.pop()
        numbers.pop()
    width = len(str(max(numbers, default=start_line))) if numbered else 0
    widest = builder.widest + (width + 3 if numbered else 0)
    note = more_note(capped) if capped.truncated else None
    rows = CodeLines(builder.rows_text(), starts, numbers, lexer, width, widest, note)
    return rows, capped.truncated


def diff_lines(diff: str) -> tuple[DiffLines, bool]:
    """A unified diff, every line of it, cleaned and split into rows a piece at a time.

    Args:
        diff: The diff (untrusted), up to :data:`FULL_MAX_CHARS` characters shown.

    Returns:
        The rows, and whether something was cut.
    """
    capped = full_capped(diff)
    builder = _RowBuilder(keep_sgr=False, first_number=1)
    builder.build(capped.text)
    assert builder.numbers is not None
    note = more_note(capped) if capped.truncated else None
    rows = DiffLines(builder.rows_text(), builder.starts, builder.numbers, builder.widest, note)
    return rows, capped.truncated
