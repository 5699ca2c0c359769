"""The viewer's screen as terminal output: each line as ANSI, and a frame as the lines
that changed since the last one.

What reaches the cast is what the compositor paints: stream text there was already
made safe by the panes. Each cell's text is cleaned once more on its way out (a widget
that forgot would otherwise write a live escape into every player), and links (OSC 8)
are dropped: a cast replays pictures, not actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.app import App

from streamview.core.sanitize import clean

HIDE_CURSOR = "\x1b[?25l"
CLEAR = "\x1b[H\x1b[2J"
RESET = "\x1b[0m"


def screen_strips(app: App[Any]) -> list[list[Segment]]:
    """The lines of the app's screen as painted now, the segments of each.

    The same full render :meth:`textual.app.App.export_screenshot` takes (Textual has no
    public call that hands the lines over), screens under a modal included.
    """
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    lines: list[Iterable[Iterable[Segment]]] = getattr(update, "strips", [])
    return [[segment for strip in line for segment in strip] for line in lines]


def line_ansi(segments: Iterable[Segment], styles: dict[Style, str]) -> str:
    """One screen line as text with SGR colours (one sequence per change of style).

    Args:
        segments: The line's segments (control segments are skipped).
        styles: A cache of each style's SGR opening, filled as styles are met.
    """
    out: list[str] = []
    current = ""
    for text, style, control in segments:
        if control or not text:
            continue
        opening = "" if style is None else styles.get(style)
        if opening is None:
            assert style is not None
            plain = style.update_link(None) if style.link else style
            rendered = plain.render("x")
            opening = styles[style] = rendered[: rendered.index("x")]
        if opening != current:
            out.append(RESET + opening)  # attributes add up: start each span afresh
            current = opening
        out.append(clean(text).replace("\n", " ").replace("\t", " "))
    if current:
        out.append(RESET)
    return "".join(out)


class FrameDiff:
    """Turns successive screens into what a terminal must be sent to show each one."""

    def __init__(self) -> None:
        self._previous: list[str] | None = None
        self._styles: dict[Style, str] = {}

    def lines(self, strips: Sequence[Iterable[Segment]]) -> list[str]:
        """The screen's lines as ANSI."""
        return [line_ansi(strip, self._styles) for strip in strips]

    def update(self, lines: Sequence[str]) -> str:
        """The output that turns the last screen into ``lines`` ("" when nothing changed).

        The first screen is drawn whole, on a cleared terminal with the cursor hidden;
        later ones rewrite only their changed lines, each from its first column.
        """
        previous = self._previous
        out: list[str] = []
        if previous is None or len(previous) != len(lines):
            out.append(HIDE_CURSOR + RESET + CLEAR)
            previous = [""] * len(lines)
        for row, (old, new) in enumerate(zip(previous, lines, strict=True)):
            if old != new:
                out.append(f"\x1b[{row + 1};1H{new}")  # each line ends with its colours reset
        self._previous = list(lines)
        return "".join(out)
