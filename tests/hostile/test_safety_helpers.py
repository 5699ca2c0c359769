"""The checkers themselves: they must catch a control that does reach the screen."""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from .safety import unsafe_in_segments, unsafe_in_svg, unsafe_on_screen


class Leaky(App[None]):
    """An app that paints a raw escape sequence, as a careless widget would."""

    def compose(self) -> ComposeResult:
        yield Static(Text("before \x1b]0;PWNED\x07 after \x9b2J"), id="leaky")


async def test_a_raw_sequence_on_screen_is_caught() -> None:
    """A widget painting ESC, BEL or C1 is reported, and so is the SVG."""
    app = Leaky()
    async with app.run_test(size=(60, 5)):
        problems = unsafe_on_screen(app.screen.walk_children(Widget))
        assert any("'\\x1b'" in problem for problem in problems), problems
        assert any("'\\x9b'" in problem for problem in problems), problems
        assert unsafe_in_svg(app.export_screenshot()) != []


def test_segments_and_svg_references() -> None:
    """Control segments and ``&#27;`` references count; clean text does not."""
    assert unsafe_in_segments([Segment("fine ␛[2J text")]) == []
    assert unsafe_in_segments([Segment("x\x1b[2Jy")]) != []
    assert unsafe_in_svg("<text>&#27;[2J</text>") != []
    assert unsafe_in_svg("<text>&#x9b;2J</text>") != []
    assert unsafe_in_svg("<text>&#160;ok &#x2502;</text>") == []
