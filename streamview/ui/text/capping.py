"""How much of a big text is shown: the display limits, and the cuts made to fit them.

Every big text from the stream is capped before it is laid out, so a 40 MB payload
cannot freeze the UI, and cleaned a piece at a time, so the UI thread never waits long
for the GIL. What was cut is said on a line of its own (:func:`more_note`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from streamview.core.sanitize import clean

MAX_LINES = 5_000
"""Lines of one text rendered before the rest is cut (unless the user asks for all)."""
MAX_CHARS = 2_000_000
"""Characters of one text rendered before the rest is cut."""
FULL_MAX_LINES = 200_000
"""Lines rendered when the user asks for everything: beyond this, see the raw line.
Texts too long for the normal limits have no such limit: their rows are made when
shown (:class:`~streamview.ui.text.rows.LazyRows`, :class:`~streamview.ui.text.wrap.WrapText`)."""
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
"""The key that shows a cut text whole."""
RAW_KEY = "r"
"""The key that shows the raw JSON."""

_ESCAPE_MAX_LENGTH = 80
"""Longer than any colour sequence :func:`~streamview.core.sanitize.clean` keeps."""


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
            end = safe_cut(text, start, start + size)
        yield text[start:end]
        start = end
        time.sleep(0)
    yield text[start:] if start else text


def safe_cut(text: str, start: int, cut: int) -> int:
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
    pieces = text_pieces(text)
    return "".join([clean(piece, keep_sgr=keep_sgr) for piece in pieces])


def clean_capped(capped: Capped, keep_sgr: bool = False) -> Capped:
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


def with_note(body: RenderableType, capped: Capped) -> RenderableType:
    """``body`` followed, on a line of its own, by what was cut (if anything)."""
    if not capped.truncated:
        return body
    if isinstance(body, Text) and body.end != "\n":
        body = body.copy()
        body.end = "\n"
    return Group(body, more_note(capped))


def full_capped(text: str) -> Capped:
    """``text`` cut to :data:`FULL_MAX_CHARS` only: every line is kept."""
    chars_left = max(0, len(text) - FULL_MAX_CHARS)
    return Capped(text[:FULL_MAX_CHARS] if chars_left else text, chars_left=chars_left, full=True)
