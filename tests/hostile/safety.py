"""Check that what the viewer paints holds no control character from the stream.

The widgets clean every string with :func:`streamview.core.sanitize.clean` before it
becomes a :class:`~rich.text.Text`. These helpers check the result where it matters,
after rendering: in the segments of a widget's lines and in an SVG screenshot. Tests
use them on hostile streams; they cost nothing at run time because nothing calls them
there.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator

from rich.segment import Segment
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from streamview.core.sanitize import UNSAFE_CHARS

_UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")
_NUMERIC_REFERENCE = re.compile(r"&#(?:x([0-9a-fA-F]+)|([0-9]+));")


def unsafe_in_text(text: str, where: str = "") -> list[str]:
    """Describe each unsafe character in ``text`` (empty when there is none).

    Args:
        text: Rendered text.
        where: A label for the messages (a widget, a line number).
    """
    return [
        f"{where}{match.group()!r} at {match.start()}: "
        f"{text[max(0, match.start() - 30) : match.end() + 30]!r}"
        for match in _UNSAFE.finditer(text)
    ]


def unsafe_in_segments(segments: Iterable[Segment], where: str = "") -> list[str]:
    """Unsafe characters in rendered segments, and any control segment at all.

    Rich marks cursor moves and the like as *control* segments; a widget's line must
    never hold one, whatever its text.
    """
    problems: list[str] = []
    for segment in segments:
        if segment.control:
            problems.append(f"{where}control segment {segment.control!r}")
        problems.extend(unsafe_in_text(segment.text, where))
    return problems


def rendered_lines(widget: Widget) -> Iterator[Strip]:
    """Every line ``widget`` currently shows, as rendered strips."""
    for y in range(widget.size.height):
        yield widget.render_line(y)


def unsafe_in_widget(widget: Widget) -> list[str]:
    """Unsafe characters anywhere in the lines ``widget`` currently shows."""
    problems: list[str] = []
    name = widget.id or type(widget).__name__
    for y, strip in enumerate(rendered_lines(widget)):
        problems.extend(unsafe_in_segments(strip, f"{name} line {y}: "))
    return problems


def unsafe_on_screen(widgets: Iterable[Widget]) -> list[str]:
    """Unsafe characters in every visible widget of ``widgets`` (``screen.walk_children()``)."""
    problems: list[str] = []
    for widget in widgets:
        if widget.display and widget.size.area and widget.region != Region():
            problems.extend(unsafe_in_widget(widget))
    return problems


def unsafe_in_svg(svg: str) -> list[str]:
    """Unsafe characters in an SVG screenshot, raw or written as ``&#27;``-style references."""
    problems = unsafe_in_text(svg, "svg: ")
    for match in _NUMERIC_REFERENCE.finditer(svg):
        hex_code, decimal = match.groups()
        code = int(hex_code, 16) if hex_code else int(decimal)
        if code > 0x10FFFF or _UNSAFE.match(chr(code)):
            problems.append(f"svg: reference {match.group()} at {match.start()}")
    text = html.unescape(svg)
    problems.extend(unsafe_in_text(text, "svg text: "))
    return problems
