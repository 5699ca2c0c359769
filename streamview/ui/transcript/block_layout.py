"""Laying out answer, thinking and prompt text as lines: no widget, safe in any thread.

The transcript lays short blocks out on the UI thread and long ones on its layout
thread (:mod:`streamview.ui.transcript.layout_thread`); both go through a :class:`BlockLayout`.
Each thread keeps its own, because a Rich console is not meant to be shared across
threads. Everything a layout needs from the widget (styles, theme) is captured once,
on the UI thread, in a :class:`LayoutStyles`.

All stream text is untrusted and goes through :func:`streamview.core.sanitize.clean`
before Rich sees it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from typing import ClassVar

import msgspec
from markdown_it import MarkdownIt
from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markdown import CodeBlock, Markdown, MarkdownElement
from rich.segment import Segment
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text
from rich.theme import Theme
from textual.strip import Strip

from streamview.core.sanitize import clean
from streamview.ui.text.highlight import highlight_now, plain_background
from streamview.ui.text.marks import PROMPT_MARK

BLOCK_TEXT_LIMIT = 500_000
"""Characters of one finished answer or thinking block laid out in the transcript.

Laying out a 10 MB answer took seconds; the rest is counted in a note that names where
to read it whole (the Markdown export, ``--print``).
"""
MARKDOWN_LIMIT = 200_000
"""Characters of one block given to the Markdown renderer; the rest is plain text.

Rich needs one to two seconds for 200 KB of Markdown, on the layout thread.
"""
THINKING_MARKDOWN_CHARS = 20_000
"""Thinking longer than this is shown plain: Markdown costs about 20 ms per 20 KB."""
HIGHLIGHT_LIMIT = 30_000
"""Characters of one code block that are syntax-highlighted; a longer one is shown plain."""
FAST_WRAP_CHARS = 100_000
"""Plain text longer than this is cut at the width rather than word-wrapped."""
OPEN_MARKDOWN_LIMIT = 50_000
"""Above this, the growing tail of an open block is shown as plain text until it closes."""
_PIECE_CHARS = 100_000
_PIECE_LINES = 500
"""Plain text longer than ``_PIECE_CHARS`` is rendered ``_PIECE_LINES`` lines at a time."""

_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE)
_FENCE_INFO = re.compile(r"^( {0,3}(?:```|~~~)).*$", re.MULTILINE)
"""A fence line with its language name, which the renderer rightly does not show."""

_DEEP_NESTING = re.compile(
    r"^(?:[ \t]*>){64}|^[ \t]{256}[-*+]|^(?:[ \t]*(?:[-*+]|\d+[.)])[ \t]+){64}", re.MULTILINE
)
"""Nesting deeper than the Markdown parser keeps: it would drop the rest silently."""

THINKING_LABEL = "✻ thinking"


def stable_split(text: str, start: int) -> int:
    """Where the finished paragraphs of a growing Markdown text end.

    Args:
        text: The whole text so far.
        start: Where the part already frozen ends (never inside a code fence).

    Returns:
        An index ``>= start``: everything before it is whole paragraphs outside any
        code fence, safe to render once.
    """
    position = len(text)
    while True:
        cut = text.rfind("\n\n", start, position)
        if cut < 0:
            return start
        if len(_FENCE.findall(text, start, cut)) % 2 == 0:
            return cut + 2
        position = cut


def has_fence(text: str) -> bool:
    """Whether Markdown ``text`` has a code fence."""
    return _FENCE.search(text) is not None


def hard_breaks(text: str) -> str:
    """Keep the model's line breaks: a single newline outside code is a line break.

    Chat answers are written with GitHub's "breaks" convention (a poem, a list of
    steps without bullets); plain Markdown would join such lines into one paragraph.
    """
    if "\n" not in text:
        return text
    out: list[str] = []
    in_fence = False
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif (
            not in_fence
            and line.strip()
            and number + 1 < len(lines)
            and lines[number + 1].strip()
            and not line.startswith(("    ", "\t"))
        ):
            line = line.rstrip(" ") + "  "
        out.append(line)
    return "\n".join(out)


def capped(text: str) -> tuple[str, int]:
    """``text`` cut to :data:`BLOCK_TEXT_LIMIT` at a line end, and how much was left out."""
    if len(text) <= BLOCK_TEXT_LIMIT:
        return text, 0
    cut = text.rfind("\n", 0, BLOCK_TEXT_LIMIT)
    cut = cut if cut > BLOCK_TEXT_LIMIT // 2 else BLOCK_TEXT_LIMIT
    return text[:cut], len(text) - cut


def clean_capped(text: str) -> tuple[str, int]:
    """``text`` made inert and cut like :func:`capped`, cleaning no more than it keeps.

    A 10 MB answer is not cleaned whole for the 500 KB that are shown; the count of
    what is left out mixes cleaned and raw characters (cleaning seldom changes it).
    """
    raw = text[: BLOCK_TEXT_LIMIT + BLOCK_TEXT_LIMIT // 10]
    kept, more = capped(clean(raw))
    return kept, more + len(text) - len(raw)


def _letters(texts: Iterable[str]) -> int:
    """Letters and digits in ``texts``: what any faithful rendering must keep."""
    return sum(sum(map(str.isalnum, text)) for text in texts)


class LongCodeBlock(CodeBlock):
    """A code block that skips syntax highlighting when it is long, or until its
    lexer is built (:mod:`streamview.ui.text.highlight`).

    Rich's ``Syntax`` needs about a second per 20,000 lines even with no lexer, and
    2.7 s for 120 KB of Python; past :data:`HIGHLIGHT_LIMIT` the code is shown plain on
    the theme's background, cut at the width.
    """

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip()
        if len(code) > HIGHLIGHT_LIMIT:
            background = Syntax.get_theme(self.theme).get_background_style()
        elif highlight_now(self.lexer_name, self.theme):
            yield Syntax(code, self.lexer_name, theme=self.theme, word_wrap=True, padding=1)
            return
        else:  # its lexer is being built on a thread: plain until then
            background = plain_background(self.theme)
        width = max(1, options.max_width)
        blank = Segment(" " * width, background)
        yield from (blank, Segment.line())
        for line in code.split("\n"):
            line = line.replace("\t", "    ")
            pieces = (
                [line[i : i + width - 2] for i in range(0, len(line), width - 2)]
                if line.isascii()
                else chop_cells(line, max(1, width - 2))
            )
            for piece in pieces or [""]:
                pad = width - 1 - cell_len(piece)
                yield Segment(" " + piece + " " * max(0, pad), background)
                yield Segment.line()
        yield from (blank, Segment.line())


class AnswerMarkdown(Markdown):
    """Rich Markdown that shows HTML as the text it is instead of dropping it.

    Rich's parser accepts raw HTML and then renders nothing for it, so an answer
    with ``<details>`` or ``<div>`` outside a code fence would lose text. Long code
    blocks are shown without highlighting (:class:`LongCodeBlock`).
    """

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "fence": LongCodeBlock,
        "code_block": LongCodeBlock,
    }

    def __init__(self, markup: str, code_theme: str, parser: MarkdownIt | None = None) -> None:
        # Rich's own __init__ builds a parser (and a linkifier) per call: 0.3 ms, and
        # a hundred objects left for the cyclic GC, on every frame of a growing answer.
        self.markup = markup
        self.parsed = (parser or answer_parser()).parse(markup)
        self.code_theme = code_theme
        self.justify = None
        self.style = "none"
        self.hyperlinks = False
        self.inline_code_lexer = None
        self.inline_code_theme = code_theme


def answer_parser() -> MarkdownIt:
    """A Markdown parser as answers need it (CommonMark without HTML, with strikethrough
    and tables). Build one per thread and reuse it: building costs more than parsing a
    paragraph."""
    return MarkdownIt("commonmark", {"html": False}).enable("strikethrough").enable("table")


class LayoutStyles(msgspec.Struct, frozen=True):
    """What a layout takes from the widget's stylesheet, captured on the UI thread."""

    theme: Theme
    """Rich styles for Markdown (code, headings, links, quotes)."""
    code_theme: str
    """Pygments theme for fenced code."""
    thinking: Style
    thinking_label: Style
    notice: Style
    prompt: Style
    prompt_mark: Style


class Frozen(msgspec.Struct, frozen=True):
    """The finished paragraphs of a growing answer, laid out once and kept."""

    revision: int
    """The block's revision they were taken from."""
    width: int
    """The width they were laid out at."""
    upto: int
    """Characters of the clean text they cover."""
    lines: tuple[Strip, ...] = ()


NOTHING_FROZEN = Frozen(-1, 0, 0)


def offscreen_console(width: int, theme: Theme | None = None) -> Console:
    """A Rich console that only lays out (into strips), never writes: one per thread.

    Segments carry full colour; Textual reduces them to what the terminal has when it
    paints. Markup, emoji codes and highlighting are off: stream text is shown as is.
    """
    return Console(
        file=io.StringIO(),
        width=width,
        color_system="truecolor",
        force_terminal=True,
        legacy_windows=False,
        highlight=False,
        markup=False,
        emoji=False,
        theme=theme,
    )


class BlockLayout:
    """Lays text blocks out as lines of strips, with its own Rich console.

    Args:
        styles: Styles captured from the transcript.
    """

    def __init__(self, styles: LayoutStyles) -> None:
        self.styles = styles
        self.console = offscreen_console(80, styles.theme)
        self.parser = answer_parser()

    # -- the blocks -----------------------------------------------------------------------

    def answer(
        self, text: str, is_open: bool, revision: int, frozen: Frozen, width: int
    ) -> tuple[list[Strip], Frozen]:
        """An answer block (raw text from the stream) as Markdown lines.

        Up to :data:`BLOCK_TEXT_LIMIT` is laid out, with a note counting the rest. A
        growing block keeps its finished paragraphs in ``frozen`` and lays out only what
        came after them.

        Returns:
            The lines, and what is frozen now (pass it back with the next call).
        """
        text, more = clean_capped(text)
        note = self.more_note(more, width)
        if not is_open:
            return self.indent(self.markdown(text, width)) + note, NOTHING_FROZEN
        if frozen.revision != revision or frozen.width != width or frozen.upto > len(text):
            frozen = Frozen(revision, width, 0)
        split = stable_split(text, frozen.upto)
        if split > frozen.upto:
            more_lines = self.indent(self.markdown(text[frozen.upto : split], width))
            between = (Strip.blank(0),) if frozen.lines else ()
            frozen = Frozen(revision, width, split, (*frozen.lines, *between, *more_lines))
        tail = text[frozen.upto :]
        if not tail.strip():
            return [*frozen.lines, *note], frozen
        if len(tail) > OPEN_MARKDOWN_LIMIT:
            rendered = self.plain(tail, width)
        else:
            rendered = self.markdown(tail, width)
        gap = [Strip.blank(0)] if frozen.lines else []
        return [*frozen.lines, *gap, *self.indent(rendered), *note], frozen

    def thinking(self, text: str, is_open: bool, width: int) -> list[Strip]:
        """A thinking block: a label, then the text behind a bar, as Markdown in the
        thinking style (plain past :data:`THINKING_MARKDOWN_CHARS`)."""
        styles = self.styles
        label = THINKING_LABEL + ("…" if is_open else "")
        lines = [Strip([Segment(" "), Segment(label, styles.thinking_label)])]
        body_text, more = clean_capped(text)
        body_text = body_text.strip("\n")
        if len(body_text) <= THINKING_MARKDOWN_CHARS:
            # Models write **bold** and `code` in their thinking too: shown, not spelled.
            thinking = styles.thinking
            body = [strip.apply_style(thinking) for strip in self.markdown(body_text, width - 2)]
        else:
            body = self.plain(body_text, width - 2, styles.thinking)
        bar = [Segment(" "), Segment("│ ", styles.thinking_label)]
        lines += self.indent(body, bar)
        return lines + self.more_note(more, width)

    def prompt(self, text: str, width: int) -> list[Strip]:
        """The user's prompt, plain, behind the prompt mark."""
        styles = self.styles
        kept, more = clean_capped(text)
        strips = self.plain(kept.strip("\n"), width - 2, styles.prompt)
        out = []
        for number, strip in enumerate(strips):
            mark = PROMPT_MARK if number == 0 else "  "
            prefix = [Segment(" "), Segment(mark, styles.prompt_mark)]
            out.append(Strip(prefix + list(strip)))
        return out + self.more_note(more, width)

    def more_note(self, more: int, width: int) -> list[Strip]:
        """A dim line saying how much of a block is not laid out, and where to read it."""
        if not more:
            return []
        note = Text(
            f"… {more:,} more characters not shown here: "
            "x exports the whole transcript as Markdown",
            style=self.styles.notice,
        )
        return self.indent(self.lines_of(note, width))

    def note(self, text: str, width: int) -> list[Strip]:
        """One dim line (already clean), cut at the width."""
        line = Text(text, style=self.styles.notice)
        line.truncate(width, overflow="ellipsis")
        return self.indent(self.lines_of(line, width))

    # -- pieces ---------------------------------------------------------------------------

    def plain(self, text: str, width: int, style: Style | None = None) -> list[Strip]:
        """``text`` (already clean) as lines of ``width`` cells, no Markdown.

        Short text is word-wrapped by Rich. Long text (a model that pasted a whole
        file) is cut at the width instead: Rich's word wrap needs seconds per MB.
        """
        if len(text) <= FAST_WRAP_CHARS:
            return self.lines_of(Text(text, style=style or Style()), width)
        width = max(1, width)
        strips: list[Strip] = []
        for line in text.split("\n"):
            line = line.replace("\t", "    ")
            pieces = (
                [line[i : i + width] for i in range(0, len(line), width)]
                if line.isascii()
                else chop_cells(line, width)
            )
            strips.extend(Strip([Segment(piece, style)]) for piece in pieces or [""])
        return strips

    def lines_of(self, renderable: RenderableType, width: int) -> list[Strip]:
        """Any Rich renderable as lines of ``width`` cells."""
        if isinstance(renderable, Text) and len(renderable) > _PIECE_CHARS:
            # Rich cuts one long segment into lines with str.partition, which is quadratic
            # (a 10 MB answer took minutes). Lines wrap alone, so render a few at a time.
            rows = renderable.split("\n", allow_blank=True)
            if len(rows) > _PIECE_LINES:
                return [
                    strip
                    for start in range(0, len(rows), _PIECE_LINES)
                    for strip in self.lines_of(
                        Text("\n").join(rows[start : start + _PIECE_LINES]), width
                    )
                ]
        console = self.console
        options = console.options.update(width=max(1, width), height=None, highlight=False)
        lines = console.render_lines(renderable, options, pad=False)
        return [Strip(line) for line in lines]

    def markdown(self, text: str, width: int) -> list[Strip]:
        """Markdown lines for ``text`` (already clean), the part past the limit as plain."""
        tail = ""
        if len(text) > MARKDOWN_LIMIT:
            cut = text.rfind("\n", 0, MARKDOWN_LIMIT)
            cut = cut if cut > 0 else MARKDOWN_LIMIT
            text, tail = text[:cut], text[cut:]
        if _DEEP_NESTING.search(text):
            text, tail = "", text
        try:
            strips = self.lines_of(
                AnswerMarkdown(hard_breaks(text), self.styles.code_theme, self.parser), width
            )
        except Exception:  # a Markdown the renderer chokes on is still shown, as text
            strips, tail = [], text + tail
        else:
            shown = _letters(strip.text for strip in strips)
            if shown < _letters([_FENCE_INFO.sub(r"\1", text)]) * 0.8:
                # The renderer lost text (a construct it does not show): show it plainly.
                strips, tail = [], text + tail
        if tail:
            strips += self.plain(tail, width)
        return strips

    @staticmethod
    def indent(strips: list[Strip], prefix: list[Segment] | None = None) -> list[Strip]:
        """``strips`` behind a one-cell margin (or ``prefix``)."""
        margin = prefix or [Segment(" ")]
        return [Strip(margin + list(strip)) for strip in strips]
