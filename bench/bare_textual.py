"""The yardstick of the first-screen figure: the smallest Textual app that shows a line.

Usage::

    python bench/bare_textual.py

Shows :data:`LINE` (a ``Static`` in the default screen) until it is killed (or
ctrl+q). ``bench/first_screen.py`` starts it on a pseudo-terminal exactly as it
starts ``streamview FILE`` and times both until their first full screen is painted.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

LINE = "bare Textual app: one line"


class BareApp(App[None]):
    """One line of text, Textual's defaults otherwise."""

    def compose(self) -> ComposeResult:
        yield Static(LINE)


if __name__ == "__main__":
    BareApp().run()
