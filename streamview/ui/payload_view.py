"""Turn a tool call's full arguments and result into Rich renderables.

Pure functions, no widget state: the detail screen calls them in a worker thread and
mounts what they return. Every string from the stream is sanitized here (colour in
shell output is parsed into styles, every other control sequence becomes an inert
picture), and every big text is capped so a 40 MB payload cannot freeze the UI.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from typing import Any

from pygments.lexers import get_lexer_for_filename  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]
from rich.ansi import AnsiDecoder
from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Span, Text
from rich.tree import Tree

from streamview.core.formatting import format_duration
from streamview.core.sanitize import clean, one_line

MAX_LINES = 5_000
"""Lines of one text rendered before the rest is cut (unless the user asks for all)."""
MAX_CHARS = 2_000_000
"""Characters of one text rendered before the rest is cut."""
FULL_MAX_LINES = 200_000
"""Lines rendered when the user asks for everything: beyond this, see the raw line.
Texts too long for the normal limits have no such limit: their rows are made when
shown (:class:`LazyRows`, :class:`WrapText`)."""
FULL_MAX_CHARS = 50_000_000
"""Characters rendered when the user asks for everything."""
MAX_LINE_CHARS = 5_000
"""Characters of one line rendered; minified files would otherwise make huge rows."""
MAX_ITEMS = 2_000
"""Entries of a list (files, references, matches) rendered before the rest is cut."""
ARG_VALUE_CHARS = 400
"""Characters of one argument value shown in the arguments table."""
PIECE_CHARS = 1 << 20
"""Characters cleaned or split in one go, so the UI thread never waits long for the GIL."""
SHOW_ALL_KEY = "a"
RAW_KEY = "r"

_ESCAPE_MAX_LENGTH = 80
"""Longer than any colour sequence :func:`~streamview.core.sanitize.clean` keeps."""

_CHECK = {"completed": "✓", "in_progress": "◐", "pending": "○", "cancelled": "✗"}
_CHECK_STYLE = {
    "completed": "green",
    "in_progress": "bold yellow",
    "pending": "",
    "cancelled": "dim strike",
}


@dataclass(frozen=True, slots=True)
class Section:
    """One titled part of a call's detail: its arguments, its output, a diff..."""

    title: str
    """What the part is (``output``, ``diff``, ``content``...)."""
    body: RenderableType
    """What to show."""
    truncated: bool = False
    """The body was cut to the display limits; showing everything would show more."""
    wrap: bool = True
    """Long lines fold; ``False`` for code, diffs and output, which scroll sideways."""


@dataclass(frozen=True, slots=True)
class Capped:
    """A text cut to the display limits."""

    text: str
    """The part to show."""
    lines_left: int = 0
    """Lines not shown."""
    chars_left: int = 0
    """Characters not shown."""
    long_lines: int = 0
    """Lines cut at :data:`MAX_LINE_CHARS`."""
    full: bool = False
    """Cut at the "show all" limits: asking for all again would not show more."""

    @property
    def truncated(self) -> bool:
        """Something was left out."""
        return bool(self.lines_left or self.chars_left or self.long_lines)


def cap_text(text: str, full: bool = False) -> Capped:
    """Cut ``text`` to :data:`MAX_LINES` lines, :data:`MAX_CHARS` characters and
    :data:`MAX_LINE_CHARS` per line (each cut line says how much it lost).

    Only the lines kept are split: a 40 MB text costs a count, not a list of a
    million strings.

    Args:
        text: The text (already clean or not: only ``\\n`` matters here).
        full: Keep every line and character, up to :data:`FULL_MAX_LINES` and
            :data:`FULL_MAX_CHARS`, which no screen can usefully show anyway.
    """
    max_chars, max_lines = (FULL_MAX_CHARS, FULL_MAX_LINES) if full else (MAX_CHARS, MAX_LINES)
    lines_left = chars_left = 0
    total = text.count("\n") + (not text.endswith("\n"))  # the end of the last line is none
    if total > max_lines:
        end = -1
        for _ in range(max_lines):
            end = text.index("\n", end + 1)
            if end > max_chars:
                break
        else:
            if text[end - 1 : end] == "\r":  # the cut line ended with \r\n, not a lone \r
                end -= 1
            text, lines_left = text[:end], total - max_lines
    if len(text) > max_chars:
        chars_left = len(text) - max_chars
        text = text[:max_chars]
    long_lines = 0
    if not full and len(text) > MAX_LINE_CHARS:
        lines = text.split("\n")
        for number, line in enumerate(lines):
            if len(line) > MAX_LINE_CHARS:
                long_lines += 1
                lines[number] = (
                    line[:MAX_LINE_CHARS] + f" … ({len(line) - MAX_LINE_CHARS:,} more characters)"
                )
        if long_lines:
            text = "\n".join(lines)
    return Capped(text, lines_left, chars_left, long_lines, full)


def text_pieces(text: str, size: int | None = None) -> Iterator[str]:
    """``text`` in pieces of about ``size`` characters, each cut after a ``\\n`` if one is near.

    A long line is cut where no colour sequence and no ``\\r\\n`` is broken, so each
    piece can be cleaned on its own. Between pieces the thread gives up the GIL
    (``time.sleep(0)``): a regex or a split over tens of megabytes holds it for
    hundreds of milliseconds, and the UI thread must not wait that long.

    Args:
        text: The text.
        size: Characters in a piece (:data:`PIECE_CHARS` if not given).
    """
    size = size or PIECE_CHARS
    start = 0
    while len(text) - start > size:
        end = text.rfind("\n", start, start + size) + 1
        if end == 0:
            end = _safe_cut(text, start, start + size)
        yield text[start:end]
        start = end
        time.sleep(0)
    yield text[start:] if start else text


def _safe_cut(text: str, start: int, cut: int) -> int:
    """``cut``, moved back (not as far as ``start``) so that it splits no colour
    sequence and no ``\\r\\n``."""
    escape = text.rfind("\x1b", max(start + 1, cut - _ESCAPE_MAX_LENGTH), cut)
    if escape >= 0 and text.find("m", escape, cut) == -1:
        cut = escape
    if text[cut - 1] == "\r" and cut - 1 > start:
        cut -= 1
    return cut


def clean_big(text: str, keep_sgr: bool = False) -> str:
    """:func:`~streamview.core.sanitize.clean`, a piece at a time for big texts."""
    if len(text) <= PIECE_CHARS:
        return clean(text, keep_sgr=keep_sgr)
    pieces = text_pieces(text, PIECE_CHARS)
    return "".join([clean(piece, keep_sgr=keep_sgr) for piece in pieces])


def _clean_capped(capped: Capped, keep_sgr: bool = False) -> Capped:
    """Sanitize what survived the cap (cleaning 20 MB to show 5,000 lines is waste)."""
    return Capped(
        clean_big(capped.text, keep_sgr=keep_sgr),
        capped.lines_left,
        capped.chars_left,
        capped.long_lines,
        capped.full,
    )


def more_note(capped: Capped) -> Text:
    """The line that says what was left out and how to see it."""
    if capped.lines_left:
        what = f"{capped.lines_left:,} more line{'s' if capped.lines_left != 1 else ''}"
    elif capped.chars_left:
        what = f"{capped.chars_left:,} more characters"
    else:
        what = (
            f"long line{'s' if capped.long_lines != 1 else ''} cut at {MAX_LINE_CHARS:,} characters"
        )
    if capped.full:
        how = f"too long to lay out; {RAW_KEY} for the raw JSON"
    else:
        how = f"press {SHOW_ALL_KEY} to show all, {RAW_KEY} for the raw JSON"
    return Text(f"… {what} ({how})", style="italic yellow")


def _with_note(body: RenderableType, capped: Capped) -> RenderableType:
    """``body`` followed, on a line of its own, by what was cut (if anything)."""
    if not capped.truncated:
        return body
    if isinstance(body, Text) and body.end != "\n":
        body = body.copy()
        body.end = "\n"
    return Group(body, more_note(capped))


def sanitize_json(value: Any) -> Any:
    """A copy of a JSON value whose strings (keys included) are clean for display."""
    if isinstance(value, str):
        return clean_big(value)
    if isinstance(value, dict):
        return {clean(str(k)): sanitize_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [sanitize_json(item) for item in value]
    return value


def json_text(value: Any, full: bool = False) -> Capped:
    """``value`` as indented JSON, sanitized and capped."""
    text = json.dumps(sanitize_json(value), indent=2, ensure_ascii=False, default=str)
    return cap_text(text, full)


def raw_json(value: Any, full: bool = False) -> Section:
    """The raw JSON of a record or a payload, pretty-printed and highlighted.

    Shown in full, a text too long for the normal limits is highlighted in blocks when
    shown (:class:`CodeLines`), its long lines going on in rows.
    """
    if full:
        text = json.dumps(sanitize_json(value), indent=2, ensure_ascii=False, default=str)
        if cap_text(text).truncated:
            rows, cut = code_lines(text, "json", numbered=False)
            return Section("raw JSON", rows, cut, wrap=False)
    capped = json_text(value, full)
    body = highlight(capped.text, "json")
    body.rstrip()
    return Section("raw JSON", _with_note(body, capped), capped.truncated, wrap=False)


@lru_cache(maxsize=1_024)
def _foreground(style: str | Style) -> Style:
    """A style's colour and attributes without its background."""
    style = Style.parse(style) if isinstance(style, str) else style
    return Style(
        color=style.color,
        bold=style.bold,
        italic=style.italic,
        underline=style.underline,
        dim=style.dim,
    )


def highlight(text: str, lexer: str) -> Text:
    """``text`` coloured by a Pygments lexer, with no background of its own.

    The theme's background (even ``default``) would paint over the view's own
    background, so only foreground colours and attributes are kept.
    """
    highlighted = Syntax(text, lexer, theme="ansi_dark", tab_size=4).highlight(text)
    highlighted.style = ""
    highlighted.spans = [
        Span(span.start, span.end, _foreground(span.style)) for span in highlighted.spans
    ]
    return highlighted


def lexer_for(path: str | None) -> str:
    """A Pygments lexer name for a file path, ``text`` when none fits."""
    if not path:
        return "text"
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    try:
        lexer = get_lexer_for_filename(name)
    except ClassNotFound:
        return "text"
    except Exception:  # a broken Pygments plugin must not break the view
        return "text"
    return str(lexer.aliases[0] if lexer.aliases else lexer.name)


def code(text: str, path: str | None, start_line: int = 1, full: bool = False) -> Section:
    """File content highlighted by the file's extension, with line numbers.

    Args:
        text: The content (untrusted).
        path: The file's path, to choose the highlighting.
        start_line: Number of the first line (a read with an offset starts later).
        full: Show every line, not just the first :data:`MAX_LINES`: a longer text
            is highlighted in blocks when shown (:class:`CodeLines`).
    """
    lexer = lexer_for(path)
    title = f"content ({lexer})" if lexer != "text" else "content"
    if full and cap_text(text).truncated:
        rows, cut = code_lines(text, lexer, start_line)
        return Section(title, rows, cut, wrap=False)
    capped = _clean_capped(cap_text(text, full))
    highlighted = highlight(capped.text, lexer)
    lines = list(highlighted.split("\n", allow_blank=True))
    if lines and not lines[-1].plain and len(lines) > 1:
        lines = lines[:-1]
    width = len(str(start_line + len(lines) - 1))
    body = Text(no_wrap=True, overflow="ignore", end="")
    for number, line in enumerate(lines, start_line):
        if number > start_line:
            body.append("\n")
        body.append(f"{number:>{width}} │ ", style="dim")
        body.append_text(line)
    return Section(title, _with_note(body, capped), capped.truncated, wrap=False)


def diff_style(line: str) -> str:
    """The style of a line of a unified diff: added green, removed red, hunks cyan."""
    if line.startswith(("+++", "---")):
        return "bold"
    if line.startswith("@@"):
        return "cyan"
    if line.startswith("+"):
        return "green"
    if line.startswith("-"):
        return "red"
    if line.startswith("\\"):
        return "dim italic"
    return ""


def diff_text(diff: str, full: bool = False) -> Section:
    """A unified diff coloured line by line (:func:`diff_style`).

    Shown in full, a diff too long for the normal limits is styled when shown
    (:class:`DiffLines`).
    """
    if full and cap_text(diff).truncated:
        rows, cut = diff_lines(diff)
        return Section("diff", rows, cut, wrap=False)
    capped = _clean_capped(cap_text(diff, full))
    body = Text(no_wrap=True, overflow="ignore", end="")
    for number, line in enumerate(capped.text.split("\n")):
        if number:
            body.append("\n")
        body.append(line, style=diff_style(line))
    return Section("diff", _with_note(body, capped), capped.truncated, wrap=False)


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

_SGR_SEQUENCE = re.compile("\x1b\\[[0-9;:]*m")
_STYLE_AFTER: dict[tuple[Style, str], Style] = {}
"""``(style before, colour sequences)`` to the style after them: shell output repeats a few."""


def style_after(style: Style, text: str) -> Style:
    """The colour in force after ``text`` (clean, colour sequences kept) if ``style`` was before.

    Decodes only the colour sequences after the last full reset, and remembers the
    answer: a million coloured lines cost a million lookups, not a million decodes.
    """
    if "\x1b" not in text:
        return style
    reset = max(text.rfind("\x1b[0m"), text.rfind("\x1b[m"))
    if reset >= 0:
        style, text = Style.null(), text[reset:]
    codes = "".join(_SGR_SEQUENCE.findall(text))
    if not codes:
        return style
    after = _STYLE_AFTER.get((style, codes))
    if after is None:
        decoder = AnsiDecoder()
        decoder.style = style
        decoder.decode_line(codes)
        after = decoder.style
        if len(_STYLE_AFTER) > 4_096:
            _STYLE_AFTER.clear()
        _STYLE_AFTER[style, codes] = after
    return after


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


def _cells(plain: str) -> int:
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
        end = _safe_cut(line, start, start + MAX_ROW_CHARS)
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
        for piece in text_pieces(text, PIECE_CHARS):
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
        cells = _cells(_SGR_SEQUENCE.sub("", plain) if self.keep_sgr else plain)
        heads: list[int] | None = None
        if cells > MAX_ROW_CHARS:
            rows: list[str] = []
            heads = []
            for line in lines:
                heads.append(len(rows))
                rows += _long_line_rows(line)
            cells = max(_cells(_SGR_SEQUENCE.sub("", row)) for row in rows)
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


def _full_capped(text: str) -> Capped:
    """``text`` cut to :data:`FULL_MAX_CHARS` only: every line is kept."""
    chars_left = max(0, len(text) - FULL_MAX_CHARS)
    return Capped(text[:FULL_MAX_CHARS] if chars_left else text, chars_left=chars_left, full=True)


def output_lines(text: str, full: bool = False) -> tuple[OutputLines, bool]:
    """Shell output cut to the display limits, cleaned and split into rows, a piece at a time.

    Args:
        text: The output (untrusted; colour is kept, every other control made inert).
        full: Keep every line, up to :data:`FULL_MAX_CHARS` characters in all.

    Returns:
        The rows, and whether something was cut.
    """
    capped = _full_capped(text) if full else cap_text(text)
    builder = _RowBuilder(keep_sgr=True)
    builder.build(capped.text)
    starts, rows = builder.starts, builder.rows_text()
    while len(starts) > 2 and not _SGR_SEQUENCE.sub("", rows[starts[-2] : starts[-1]]).strip():
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
    capped = _full_capped(text)
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
    capped = _full_capped(diff)
    builder = _RowBuilder(keep_sgr=False, first_number=1)
    builder.build(capped.text)
    assert builder.numbers is not None
    note = more_note(capped) if capped.truncated else None
    rows = DiffLines(builder.rows_text(), builder.starts, builder.numbers, builder.widest, note)
    return rows, capped.truncated


LIST_BATCH_ROWS = 20_000
"""Rows of a long list joined into one string at a time (the UI thread runs between)."""


@dataclass(frozen=True, slots=True, eq=False)
class ListRows(LazyRows):
    """The entries of a long list (matches, files, a directory tree) as rows of clean
    text, each split into its styled parts only when shown.

    A row is a plain lead (indent, tree guides), a dim mark (a line number) and the
    entry in the style of its kind. A million entries cost one string and four arrays:
    no laid-out lines, and nothing for the garbage collector to walk.
    """

    text: str = field(repr=False)
    """Every row, one after the other (no line breaks)."""
    starts: array[int] = field(repr=False)
    """Where each row starts in :attr:`text`, then where the last one ends."""
    leads: array[int] = field(repr=False)
    """Characters of each row's plain lead."""
    marks: array[int] = field(repr=False)
    """Characters of each row's dim mark, after the lead."""
    kinds: array[int] = field(repr=False)
    """Each row's style, as an index into :attr:`styles`."""
    styles: tuple[str, ...] = ("",)
    """The styles of the entries."""
    widest: int = 0
    """Cells of the widest row."""
    note: Text | None = None
    """What was cut and how to see it, shown after the rows."""

    def text_row(self, index: int) -> Text:
        """Row ``index``: its lead, its mark (dim) and its entry (in its kind's style)."""
        line = self.line(index)
        lead, mark = self.leads[index], self.marks[index]
        row = Text(line[:lead], no_wrap=True, overflow="ignore", end="")
        if mark:
            row.append(line[lead : lead + mark], style="dim")
        row.append(line[lead + mark :], style=self.styles[self.kinds[index]])
        return row

    def joined(self, count: int | None = None) -> Text:
        """The first ``count`` rows (all if ``None``) as one text, a line each."""
        count = self.line_count if count is None else min(count, self.line_count)
        return Text("\n", end="").join(self.text_row(index) for index in range(count))


class ListBuilder:
    """Collects the rows of a :class:`ListRows` off the UI thread, joining them into
    one string a batch at a time (strings are not walked by the garbage collector, a
    million :class:`~rich.text.Text` would be)."""

    def __init__(self, styles: tuple[str, ...] = ("",), limit: int | None = None) -> None:
        """Start empty.

        Args:
            styles: The styles of the entries; :meth:`add` takes an index into them.
            limit: Rows kept; the rows added after that are only counted.
        """
        self.styles = styles
        self.limit = limit
        self.skipped = 0
        """Rows not kept (past :attr:`limit`)."""
        self._rows: list[str] = []
        self._texts: list[str] = []
        self._starts = array("q")
        self._end = 0
        self._leads = array("q")
        self._marks = array("q")
        self._kinds = array("B")
        self._widest = 0

    def __len__(self) -> int:
        """Rows added."""
        return len(self._kinds)

    @property
    def full_up(self) -> bool:
        """No more rows are kept: the caller may count them (:meth:`skip`) instead."""
        return self.limit is not None and len(self._kinds) >= self.limit

    def skip(self, count: int = 1) -> None:
        """Count ``count`` rows not kept."""
        self.skipped += count

    def add(self, lead: str, entry: str, kind: int = 0, mark: str = "") -> None:
        """Add a row: ``lead``, then ``mark`` (dim), then ``entry`` (all clean, one line)."""
        if self.full_up:
            self.skipped += 1
            return
        self._rows.append(lead + mark + entry)
        self._leads.append(len(lead))
        self._marks.append(len(mark))
        self._kinds.append(kind)
        if len(self._rows) >= LIST_BATCH_ROWS:
            self._flush()

    def _flush(self) -> None:
        rows = self._rows
        if not rows:
            return
        self._widest = max(self._widest, _cells("\n".join(rows)))
        self._starts.extend(accumulate(map(len, rows), initial=self._end))
        self._end = self._starts.pop()
        self._texts.append("".join(rows))
        rows.clear()
        time.sleep(0)

    def rows(self, note: Text | None = None) -> ListRows:
        """The rows added, and ``note`` after them."""
        self._flush()
        starts = array("q", self._starts)
        starts.append(self._end)
        text = "".join(self._texts)
        return ListRows(
            text,
            starts,
            self._leads,
            self._marks,
            self._kinds,
            self.styles,
            self._widest,
            note,
        )


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
    capped = _full_capped(text)
    pieces: list[str] = []
    ends = array("q")
    offset = 0
    for piece in text_pieces(capped.text, PIECE_CHARS):
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


def ansi_output(text: str, full: bool = False) -> tuple[RenderableType, bool]:
    """Shell output with its colours kept and every other control made inert."""
    return output_lines(text, full)


def plain(text: str, full: bool = False, style: str = "") -> tuple[RenderableType, bool]:
    """Untrusted text, sanitized and capped, shown as it is.

    Shown in full, a text too long for the normal limits is folded to the screen width
    when laid out and its rows are made when shown (:class:`WrapText`).
    """
    if full and cap_text(text).truncated:
        return wrap_text(text, style)
    capped = _clean_capped(cap_text(text, full))
    body = Text(capped.text.rstrip("\n"), style=style, end="")
    return _with_note(body, capped), capped.truncated


def fields(rows: Iterable[tuple[str, Any]]) -> Table:
    """A two-column table of labels and values (values sanitized, one line each)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in rows:
        if value is None or value == "":
            continue
        table.add_row(label, value if isinstance(value, Text) else Text(_scalar(value)))
    return table


def _scalar(value: Any, limit: int = ARG_VALUE_CHARS) -> str:
    """One argument value on at most a few lines: strings as they are, the rest as JSON."""
    if isinstance(value, str):
        text = clean(value)
    else:
        text = clean(json.dumps(value, ensure_ascii=False, default=str))
    if len(text) > limit:
        text = text[: limit - 1] + f"… ({len(text):,} characters; {RAW_KEY} for raw JSON)"
    return text


# -- arguments -------------------------------------------------------------------------

_HIDDEN_ARGS = frozenset({"toolCallId"})
_BIG_ARGS = {"write": "fileText", "edit": "streamContent"}
_MAIN_ARGS = {"shell": ("command", "workingDirectory", "timeout", "isBackground")}
"""Kinds whose arguments carry a lot of bookkeeping: only these are shown in full."""


def args_section(kind: str, args: dict[str, Any] | None, description: str | None = None) -> Section:
    """The call's arguments as a table (big file texts are shown with the result)."""
    if not args and not description:
        return Section("arguments", Text("none recorded", style="dim italic"))
    rows: list[tuple[str, Any]] = []
    if description:
        rows.append(("description", description))
    big = _BIG_ARGS.get(kind)
    main = _MAIN_ARGS.get(kind)
    others: list[str] = []
    for key, value in (args or {}).items():
        if key in _HIDDEN_ARGS or (key == "description" and value == description):
            continue
        if main is not None and key not in main:
            others.append(clean(str(key)))
            continue
        if key == "isBackground" and value is False:
            continue
        if key == big and isinstance(value, str):
            lines = value.count("\n") + 1
            rows.append((key, Text(f"{lines:,} lines, {len(value):,} characters", style="dim")))
            continue
        rows.append((clean(str(key)), value))
    if others:
        note = Text(", ".join(others) + f" ({RAW_KEY} for raw JSON)", style="dim")
        rows.append((f"{len(others)} more", note))
    return Section("arguments", fields(rows))


# -- results ---------------------------------------------------------------------------


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _read(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    content = _str(payload.get("content"))
    path = _str(payload.get("path")) or _str(args.get("path"))
    facts = fields(
        [
            ("path", path),
            ("lines", _int(payload.get("totalLines"))),
            ("size", _size(payload.get("fileSize") or payload.get("totalChars"))),
            ("note", "the file is empty" if payload.get("isEmpty") is True else None),
            ("note", "cut at the read limit" if payload.get("exceededLimit") is True else None),
        ]
    )
    sections = [Section("file", facts)]
    if content:
        start = 1
        read_range = payload.get("readRange")
        if isinstance(read_range, dict) and _int(read_range.get("startLine")):
            start = _int(read_range.get("startLine")) or 1
        elif _int(args.get("offset")):
            start = _int(args.get("offset")) or 1
        sections.append(code(content, path, start, full))
    return sections


def _size(value: Any) -> str | None:
    size = _int(value)
    if size is None:
        return None
    if size < 1024:
        return f"{size:,} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / 1024 / 1024:.1f} MiB"


def _write(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    path = _str(payload.get("path")) or _str(args.get("path"))
    sections = [
        Section(
            "file",
            fields(
                [
                    ("path", path),
                    ("lines", _int(payload.get("linesCreated"))),
                    ("size", _size(payload.get("fileSize"))),
                ]
            ),
        )
    ]
    text = _str(args.get("fileText")) or _str(payload.get("fileText"))
    if text:
        sections.append(code(text, path, 1, full))
    return sections


def _edit(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    path = _str(payload.get("path")) or _str(args.get("path"))
    added, removed = _int(payload.get("linesAdded")), _int(payload.get("linesRemoved"))
    change = f"+{added or 0} -{removed or 0}" if added is not None or removed is not None else None
    sections = [
        Section(
            "file",
            fields([("path", path), ("change", change), ("message", payload.get("message"))]),
        )
    ]
    diff = _str(payload.get("diffString"))
    before = _str(payload.get("beforeFullFileContent"))
    after = _str(payload.get("afterFullFileContent"))
    if diff:
        sections.append(diff_text(diff, full))
    elif after is not None and (before is not None or path):
        sections.append(diff_text(unified_diff(before or "", after, path or "file"), full))
    else:
        stream = _str(args.get("streamContent"))
        if stream:
            section = code(stream, path, 1, full)
            sections.append(Section("new content", section.body, section.truncated, wrap=False))
    return sections


def unified_diff(before: str, after: str, path: str) -> str:
    """A unified diff of two versions of a file (for edits without ``diffString``)."""
    lines = difflib.unified_diff(
        before.splitlines(),
        after.splitlines(),
        fromfile=f"a/{path}" if before else "/dev/null",
        tofile=f"b/{path}",
        lineterm="",
        n=3,
    )
    return "\n".join(lines)


def _shell(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    command = _str(payload.get("command")) or _str(args.get("command"))
    cwd = _str(payload.get("workingDirectory")) or _str(args.get("workingDirectory"))
    code_ = _int(payload.get("exitCode"))
    exit_text = None
    if code_ is not None:
        exit_text = Text(str(code_), style="green" if code_ == 0 else "bold red")
    signal = _str(payload.get("signal"))
    time = _int(payload.get("executionTime"))
    facts = fields(
        [
            ("command", command if command != _str(args.get("command")) else None),
            ("directory", cwd if cwd != _str(args.get("workingDirectory")) else None),
            ("exit code", exit_text),
            ("signal", signal),
            ("time", format_duration(time) if time is not None else None),
        ]
    )
    sections = [Section("result", facts)]
    output = _str(payload.get("interleavedOutput"))
    if output:
        body, cut = ansi_output(output, full)
        sections.append(Section("output", body, cut, wrap=False))
    else:
        for key in ("stdout", "stderr"):
            text = _str(payload.get(key))
            if text:
                body, cut = ansi_output(text, full)
                sections.append(Section(key, body, cut, wrap=False))
    if len(sections) == 1 and code_ is not None:
        sections.append(Section("output", Text("no output", style="dim italic")))
    return sections


def _glob(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    files = payload.get("files")
    total = _int(payload.get("totalFiles"))
    truncated = payload.get("clientTruncated") is True or payload.get("ripgrepTruncated") is True
    facts = fields(
        [
            ("pattern", _str(args.get("globPattern")) or _str(payload.get("pattern"))),
            ("directory", _str(args.get("targetDirectory")) or _str(payload.get("path"))),
            ("files", total if total is not None else None),
            ("note", "the tool cut the list" if truncated else None),
        ]
    )
    sections = [Section("search", facts)]
    if isinstance(files, list):
        sections.append(_listing("files", [str(f) for f in files], full))
    return sections


def _listing(title: str, items: list[str], full: bool) -> Section:
    if full and len(items) > MAX_ITEMS:
        builder = ListBuilder()
        for item in items:
            builder.add("", one_line(item, 1000))
        return Section(title, builder.rows(), wrap=False)
    shown = items if full else items[:MAX_ITEMS]
    text = "\n".join(one_line(item, 1000) for item in shown) or "none"
    capped = Capped(text, len(items) - len(shown))
    body = Text(text, style="" if items else "dim italic", end="")
    return Section(title, _with_note(body, capped), capped.truncated, wrap=False)


def _grep(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    facts = fields(
        [
            ("pattern", _str(args.get("pattern"))),
            ("path", _str(args.get("path"))),
            ("glob", _str(args.get("glob"))),
            ("mode", _str(args.get("outputMode"))),
        ]
    )
    sections = [Section("search", facts)]
    results = payload.get("workspaceResults")
    if results is None:
        return [*sections, raw_json(payload, full)]
    rows = ListBuilder(_GREP_STYLES, limit=None if full else MAX_ITEMS)
    _grep_lines(results, rows)
    if not len(rows):
        return [*sections, Section("matches", Text("no matches", style="dim italic"))]
    if full and len(rows) > MAX_ITEMS:
        return [*sections, Section("matches", rows.rows(), wrap=False)]
    body = rows.rows().joined()
    capped = Capped("", rows.skipped)
    return [*sections, Section("matches", _with_note(body, capped), capped.truncated, wrap=False)]


_GREP_STYLES = ("", "bold magenta", "bold")
"""Styles of a grep's rows: a match or other line, a file, a directory or other key."""


def _grep_lines(node: Any, out: ListBuilder, depth: int = 0) -> None:
    """Walk a ``workspaceResults`` tree of unknown exact shape into readable rows.

    Known pieces: a directory key, file entries with ``file`` and ``matches`` (each
    with ``lineNumber`` and ``content``), plain file lists. Anything else is shown as
    its key and a short JSON value. Past the builder's limit, matches and files are
    only counted.
    """
    indent = "  " * depth
    if isinstance(node, dict):
        file = _str(node.get("file"))
        matches = node.get("matches")
        if file is not None:
            if out.full_up:
                out.skip(1 + (len(matches) if isinstance(matches, list) else 0))
                return
            out.add(indent, one_line(file, 1000), 1)
            if isinstance(matches, list):
                for match in matches:
                    _match_line(match, indent + "  ", out)
            return
        for key, value in node.items():
            if isinstance(value, dict | list):
                if key not in ("content", "matches", "files", "output"):
                    out.add(indent, one_line(str(key), 500), 2)
                    _grep_lines(value, out, depth + 1)
                else:
                    _grep_lines(value, out, depth)
            elif key not in ("totalLines", "totalMatchedLines", "clientTruncated"):
                out.add(indent, f"{one_line(str(key), 100)}: {_scalar(value, 200)}")
    elif isinstance(node, list):
        for item in node:
            match = isinstance(item, dict) and ("lineNumber" in item or "content" in item)
            if out.full_up and (match or isinstance(item, str)):
                out.skip()
            elif match:
                _match_line(item, indent, out)
            elif isinstance(item, str):
                out.add(indent, one_line(item, 1000))
            else:
                _grep_lines(item, out, depth)


def _match_line(match: Any, indent: str, out: ListBuilder) -> None:
    if not isinstance(match, dict):
        out.add(indent, _scalar(match, 500))
        return
    number = _int(match.get("lineNumber"))
    content = match.get("content")
    mark = f"{number}: " if number is not None else ""
    out.add(
        indent,
        one_line(content, 500) if isinstance(content, str) else _scalar(match, 500),
        mark=mark,
    )


def _ls(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    root = payload.get("directoryTreeRoot")
    if not isinstance(root, dict):
        return [raw_json(payload, full)]
    label = _str(root.get("absPath")) or _str(args.get("path")) or "."
    if full:
        rows = ListBuilder(_LS_STYLES)
        rows.add("", one_line(label, 500), 1)
        _ls_rows(root, rows, "")
        if len(rows) > MAX_ITEMS:
            return [Section("tree", rows.rows(), wrap=False)]
    tree = Tree(Text(one_line(label, 500), style="bold"))
    budget = [10**9 if full else MAX_ITEMS]
    _ls_tree(root, tree, budget)
    sections = [Section("tree", tree)]
    if budget[0] < 0:
        sections.append(
            Section(
                "",
                Text(f"… more entries (press {SHOW_ALL_KEY} to show all)", style="italic yellow"),
                True,
            )
        )
    return sections


def _ls_tree(node: dict[str, Any], tree: Tree, budget: list[int]) -> None:
    dirs = node.get("childrenDirs") or node.get("directories") or []
    files = node.get("childrenFiles") or node.get("files") or []
    for child in dirs if isinstance(dirs, list) else []:
        budget[0] -= 1
        if budget[0] < 0:
            return
        if not isinstance(child, dict):
            tree.add(Text(_scalar(child, 200)))
            continue
        name = (
            _str(child.get("name"))
            or (_str(child.get("absPath")) or "?").rstrip("/").rsplit("/", 1)[-1]
        )
        branch = tree.add(Text(one_line(name, 300) + "/", style="bold blue"))
        _ls_tree(child, branch, budget)
    for child in files if isinstance(files, list) else []:
        budget[0] -= 1
        if budget[0] < 0:
            return
        file_name = _str(child.get("name")) if isinstance(child, dict) else _str(child)
        tree.add(Text(one_line(file_name or _scalar(child, 200), 300)))


_LS_STYLES = ("", "bold", "bold blue")
"""Styles of a directory tree's rows: a file, the root, a directory."""
_GUIDES = ("├── ", "└── ", "│   ", "    ")
"""The lines Rich's :class:`~rich.tree.Tree` draws: a child, the last child, and
what goes under each."""


TREE_LEAD_CHARS = 160
"""Characters of tree guides before an entry: deeper entries show the last ones after
``…`` (a hostile tree 500 levels deep would otherwise make rows of 2,000 guides)."""


def _ls_rows(node: dict[str, Any], out: ListBuilder, lead: str) -> None:
    """The entries under ``node`` as rows drawn as Rich draws a tree (every entry)."""
    if len(lead) > TREE_LEAD_CHARS:
        lead = "…" + lead[len(lead) - TREE_LEAD_CHARS + 1 :]
    dirs = node.get("childrenDirs") or node.get("directories") or []
    files = node.get("childrenFiles") or node.get("files") or []
    children = [
        *(dirs if isinstance(dirs, list) else []),
        *(("file", child) for child in (files if isinstance(files, list) else [])),
    ]
    last = len(children) - 1
    for number, child in enumerate(children):
        guide, under = (_GUIDES[1], _GUIDES[3]) if number == last else (_GUIDES[0], _GUIDES[2])
        if isinstance(child, tuple):
            file = child[1]
            name = _str(file.get("name")) if isinstance(file, dict) else _str(file)
            out.add(lead + guide, one_line(name or _scalar(file, 200), 300))
        elif not isinstance(child, dict):
            out.add(lead + guide, _scalar(child, 200))
        else:
            name = (
                _str(child.get("name"))
                or (_str(child.get("absPath")) or "?").rstrip("/").rsplit("/", 1)[-1]
            )
            out.add(lead + guide, one_line(name, 300) + "/", 2)
            _ls_rows(child, out, lead + under)


def _web_search(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    references = payload.get("references")
    sections = [Section("search", fields([("query", _str(args.get("searchTerm")))]))]
    if not isinstance(references, list):
        return [*sections, raw_json(payload, full)]
    parts: list[RenderableType] = []
    title = "references"
    cut = len(references) > MAX_ITEMS and not full
    for number, reference in enumerate(references[: None if full else MAX_ITEMS], 1):
        if not isinstance(reference, dict):
            parts.append(Text(_scalar(reference)))
            continue
        head = Text(f"{number}. ", style="dim")
        head.append(one_line(_str(reference.get("title")) or "(no title)", 300), style="bold")
        parts.append(head)
        url = _str(reference.get("url"))
        if url:
            parts.append(Text("   " + one_line(url, 500), style="cyan"))
        chunk = _str(reference.get("chunk"))
        if chunk and full and cap_text(chunk).truncated:  # folded when laid out
            sections.append(Section(title, Group(*parts)))
            sections.append(Section("", wrap_text(chunk, "dim", indent="   ")[0]))
            title, parts = "", []
        elif chunk:
            capped = _clean_capped(cap_text(chunk, full))
            text = capped.text if full else capped.text[:1500]
            more = " …" if len(text) < len(chunk) else ""
            cut = cut or bool(more)
            parts.append(Text("   " + text.replace("\n", "\n   ") + more, style="dim"))
        parts.append(Text(""))
    if not parts and title:
        parts.append(Text("no results", style="dim italic"))
    return [*sections, Section(title, Group(*parts), cut)]


def _web_fetch(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    url = _str(payload.get("url")) or _str(args.get("url"))
    sections = [Section("page", fields([("url", url)]))]
    markdown = _str(payload.get("markdown"))
    if markdown is not None:
        body, cut = plain(markdown, full)
        sections.append(Section("content (markdown, as text)", body, cut))
    return sections


def _mcp(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    content = payload.get("content")
    sections: list[Section] = []
    if payload.get("isError") is True:
        sections.append(Section("tool", Text("the tool reported an error", style="red")))
    if not isinstance(content, list):
        return [*sections, raw_json(payload, full)]
    for number, item in enumerate(content, 1):
        title = f"item {number}"
        if isinstance(item, dict) and isinstance(item.get("text"), dict | str):
            text = item["text"]
            text = text.get("text") if isinstance(text, dict) else text
            if isinstance(text, str):
                body, cut = plain(text, full)
                sections.append(Section(f"{title}: text", body, cut))
                continue
        if isinstance(item, dict) and isinstance(item.get("image"), dict):
            image = item["image"]
            data = image.get("data")
            size = f", {len(data):,} characters of data" if isinstance(data, str) else ""
            mime = _str(image.get("mimeType")) or "image"
            sections.append(
                Section(f"{title}: image", Text(f"{one_line(mime)}{size}", style="dim"))
            )
            continue
        if full:
            text = json.dumps(sanitize_json(item), indent=2, ensure_ascii=False, default=str)
            if cap_text(text).truncated:  # folded when laid out
                sections.append(Section(f"{title}: {_item_kind(item)}", wrap_text(text)[0]))
                continue
        capped = json_text(item, full)
        sections.append(
            Section(
                f"{title}: {_item_kind(item)}",
                _with_note(Text(capped.text), capped),
                capped.truncated,
            )
        )
    return sections


def _item_kind(item: Any) -> str:
    if isinstance(item, dict) and len(item) == 1:
        return one_line(str(next(iter(item))), 40)
    return "data"


def todo_list(todos: list[Any]) -> RenderableType:
    """A checklist: ✓ done, ◐ in progress, ○ pending, ✗ cancelled."""
    lines: list[Text] = []
    for todo in todos:
        if not isinstance(todo, dict):
            lines.append(Text("? " + _scalar(todo, 300)))
            continue
        status = _str(todo.get("status")) or "pending"
        mark = _CHECK.get(status, "?")
        line = Text(f"{mark} ", style=_CHECK_STYLE.get(status, ""))
        line.append(
            one_line(_str(todo.get("content")) or "", 500), style=_CHECK_STYLE.get(status, "")
        )
        if status not in _CHECK:
            line.append(f"  ({one_line(status, 40)})", style="dim")
        lines.append(line)
    return Text("\n", end="").join(lines) if lines else Text("no todos", style="dim italic")


def _todos(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    todos = payload.get("todos")
    if not isinstance(todos, list):
        todos = args.get("todos")
    if not isinstance(todos, list):
        return [raw_json(payload, full)]
    return [Section("todos", todo_list(todos))]


def _message(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    message = _str(payload.get("message"))
    if message is None:
        return [raw_json(payload, full)]
    body, cut = plain(message, full)
    return [Section("result", body, cut)]


_SUCCESS = {
    "read": _read,
    "write": _write,
    "edit": _edit,
    "shell": _shell,
    "glob": _glob,
    "grep": _grep,
    "ls": _ls,
    "webSearch": _web_search,
    "webFetch": _web_fetch,
    "mcp": _mcp,
    "updateTodos": _todos,
    "delete": _message,
}


def error_message(payload: Any) -> str | None:
    """The message of an ``error`` result, whichever field holds it."""
    if isinstance(payload, str):
        return payload
    if isinstance(payload, dict):
        for key in ("message", "error", "errorMessage"):
            value = payload.get(key)
            if isinstance(value, str) and value:
                return value
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                return str(value["message"])
    return None


def result_sections(
    kind: str,
    args: dict[str, Any] | None,
    outcome: str | None,
    payload: Any,
    *,
    approval: str | None = None,
    full: bool = False,
) -> list[Section]:
    """Everything worth showing about a call's result, as titled sections.

    Args:
        kind: The tool kind (``read``, ``shell``...).
        args: The call's arguments, if known.
        outcome: The key of the result union (``success``, ``rejected``...), ``None``
            when the call has no result.
        payload: The value under that key.
        approval: What the approval traffic said about the call, if anything.
        full: Render every line of big texts instead of the first :data:`MAX_LINES`.

    Returns:
        Sections to show in order. Never raises on odd input: an unexpected shape
        falls back to the raw JSON.
    """
    args = args if isinstance(args, dict) else {}
    try:
        return _result_sections(kind, args, outcome, payload, approval, full)
    except Exception as error:  # odd input must show up, not crash the screen
        note = Text(f"could not lay this result out ({one_line(repr(error), 200)})", style="yellow")
        return [Section("result", note), raw_json(payload, full)]


def _result_sections(
    kind: str,
    args: dict[str, Any],
    outcome: str | None,
    payload: Any,
    approval: str | None,
    full: bool,
) -> list[Section]:
    if outcome is None:
        return [Section("result", Text("no result (yet)", style="dim italic"))]
    if outcome == "rejected":
        reason = payload.get("reason") if isinstance(payload, dict) else None
        rows: list[tuple[str, Any]] = [
            (
                "reason",
                Text(clean(reason)) if reason else Text("no reason given", style="dim italic"),
            ),
            ("approval", None if approval in (f"rejected: {reason}", "rejected") else approval),
        ]
        if isinstance(payload, dict):
            rows += [
                (clean(str(key)), value)
                for key, value in payload.items()
                if key not in ("reason",) and value not in (None, "")
            ]
        return [Section("rejected", fields(rows))]
    if outcome == "error":
        message = error_message(payload)
        if message is None:
            return [
                Section("error", Text("no message", style="dim italic")),
                raw_json(payload, full),
            ]
        body, cut = plain(message, full, style="red")
        sections = [Section("error", body, cut)]
        if isinstance(payload, dict) and _str(payload.get("path")):
            sections.insert(0, Section("file", fields([("path", payload["path"])])))
        return sections
    if outcome in ("success", "failure") and isinstance(payload, dict):
        build = _SUCCESS.get(kind)
        if build is not None:
            sections = build(args, payload, full)
            if approval:
                sections.append(Section("approval", Text(clean(approval))))
            return sections
        return [raw_json(payload, full)]
    return [
        Section("result", Text(f"result key {one_line(outcome, 80)!r}", style="yellow")),
        raw_json(payload, full),
    ]
