"""Long texts that fold to the screen width (a page, a message, a bad line), folded
off the UI thread and made into rows when shown."""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field
from itertools import accumulate

from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from streamview.core.sanitize import clean
from streamview.ui.text.capping import full_capped, more_note, text_pieces
from streamview.ui.text.rows import LazyRows

WRAP_YIELD_ROWS = 4_096
"""Rows of a folded text found between two pauses that let the UI thread run."""


@dataclass(frozen=True, slots=True, eq=False)
class WrapText:
    """A long text that folds to the screen width (a page, a message, a bad line),
    cleaned and split into lines once; :meth:`rows` finds the rows for a width.

    Built off the UI thread, and folded off it too, when laid out: the rows of any
    width are offsets into the one string, made :class:`~rich.text.Text` when shown.
    Words are kept whole when they fit on a row; tabs are expanded to spaces.
    """

    text: str = field(repr=False)
    """The clean text, lines separated by ``\\n``."""
    ends: array[int] = field(repr=False)
    """Where each line ends in :attr:`text` (its ``\\n``, or the end of the text)."""
    style: str = ""
    """The style of the whole text."""
    note: Text | None = None
    """What was cut and how to see it, shown after the rows."""
    indent: str = ""
    """Put before every row (the rows fold that much narrower)."""

    @property
    def line_count(self) -> int:
        """Lines of text."""
        return len(self.ends)

    def rows(self, width: int) -> WrappedRows:
        """The rows of the text folded to ``width`` cells, its indent included (every
        character is in one row)."""
        width = max(width - cell_len(self.indent), 1)
        text = self.text
        cuts = array("q", [0])
        single = text.isascii()
        start = 0
        for number, end in enumerate(self.ends):
            _fold_line(text, start, end, width, cuts, single)
            cuts.append(end + 1)
            start = end + 1
            if number % WRAP_YIELD_ROWS == 0:
                time.sleep(0)
        cuts[-1] = self.ends[-1]
        return WrappedRows(text, cuts, width, self.style, self.note, self.indent)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Every row at the width given."""
        yield from self.rows(options.max_width).__rich_console__(console, options)


def _fold_line(text: str, start: int, end: int, width: int, cuts: array[int], single: bool) -> None:
    """Append to ``cuts`` where the line ``text[start:end]`` goes on to a new row.

    A row ends after the last space that fits, or where a word too long for a row
    is cut; a space just past the row's end stays with the row (not shown).
    """
    while end - start > (width if single else 0):
        if single:
            cut = start + width
        else:
            window = text[start : min(end, start + 4 * width)]
            if len(window) == end - start and cell_len(window) <= width:
                return
            fitting = chop_cells(window, width)[0] if window else ""
            cut = start + max(len(fitting), 1)
            if cut >= end:
                return
        if text[cut] == " ":
            cut += 1
        else:
            space = text.rfind(" ", start + 1, cut)
            if space >= 0:
                cut = space + 1
        cuts.append(cut)
        start = cut


@dataclass(frozen=True, slots=True, eq=False)
class WrappedRows(LazyRows):
    """A :class:`WrapText` folded to one width: its rows, styled when shown."""

    text: str = field(repr=False)
    """The clean text, lines separated by ``\\n``."""
    starts: array[int] = field(repr=False)
    """Where each row starts in :attr:`text`, then where the last one ends."""
    widest: int = 0
    """The width folded to."""
    style: str = ""
    """The style of the whole text."""
    note: Text | None = None
    """What was cut and how to see it, shown after the rows."""
    indent: str = ""
    """Put before every row."""

    def text_row(self, index: int) -> Text:
        """Row ``index`` (without its line break, or the space it ended on)."""
        line = self.line(index)
        if line.endswith("\n"):
            line = line[:-1]
        if line.endswith(" ") and cell_len(line) > self.widest:
            line = line[:-1]
        return Text(self.indent + line, style=self.style, no_wrap=True, overflow="ignore", end="")


def wrap_text(text: str, style: str = "", indent: str = "") -> tuple[WrapText, bool]:
    """Untrusted text, every line of it (up to :data:`FULL_MAX_CHARS` characters; blank
    lines at the end left out), cleaned a piece at a time and split into lines, to be
    folded when laid out.

    Returns:
        The text, and whether something was cut.
    """
    capped = full_capped(text)
    pieces: list[str] = []
    ends = array("q")
    offset = 0
    for piece in text_pieces(capped.text):
        piece = clean(piece)
        if "\t" in piece:
            piece = piece.expandtabs(8)
        lines = piece.split("\n")
        first = len(ends)
        ends.extend(accumulate((len(line) + 1 for line in lines[:-1]), initial=offset - 1))
        del ends[first]
        offset += len(piece)
        pieces.append(piece)
    joined = "".join(pieces)
    ends.append(len(joined))
    while len(ends) > 1 and ends[-1] == ends[-2] + 1:  # blank lines at the end, as plain()
        ends.pop()
    note = more_note(capped) if capped.truncated else None
    return WrapText(joined, ends, style, note, indent), capped.truncated
