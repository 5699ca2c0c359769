"""How untrusted text gets its colours: Pygments highlighting, diff lines, ANSI colour.

No background colour is ever taken from a theme, and a colour sequence is decoded
once per distinct sequence (:func:`style_after`), however many lines repeat it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pygments.lexers import get_lexer_for_filename  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]
from rich.ansi import AnsiDecoder
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Span, Text


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


SGR_SEQUENCE = re.compile("\x1b\\[[0-9;:]*m")
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
    codes = "".join(SGR_SEQUENCE.findall(text))
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
