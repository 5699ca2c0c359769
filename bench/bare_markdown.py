"""The framework's floor for a screen that shows an answer: a bare Textual app that shows
a recording's final answer through Rich's Markdown, and one line.

Usage::

    python bench/bare_markdown.py FILE

Reads FILE's ``result`` record (its ``result`` text: the answer), shows :data:`LINE`
and the answer as Rich Markdown below it, each in a ``Static``, and waits until it is
killed (or ctrl+q).
Code blocks are shown without highlighting, as streamview's first screen shows them
(its lexers are built after it). ``bench/first_screen.py`` times it beside the bare app
(:mod:`bench.bare_textual`) and ``streamview FILE``: no viewer that paints Markdown with
Textual and Rich can open faster than this, whatever it imports or builds besides.
Nothing of streamview is imported here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import orjson
from rich.markdown import Markdown
from textual.app import App, ComposeResult
from textual.widgets import Static

LINE = "bare Markdown app: one line"
_FENCE_INFO = re.compile(r"^( {0,3}(?:```|~~~)).*$", re.MULTILINE)


def final_answer(path: Path) -> str:
    """The ``result`` text of the last ``result`` record of ``path`` ("" if none)."""
    answer = ""
    for line in path.read_bytes().splitlines():
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("type") == "result":
            answer = str(record.get("result") or "")
    return answer


class MarkdownApp(App[None]):
    """One line, then an answer as Rich Markdown; Textual's defaults otherwise."""

    def __init__(self, answer: str) -> None:
        super().__init__()
        self.answer = _FENCE_INFO.sub(r"\1", answer)  # no lexer: plain code blocks

    def compose(self) -> ComposeResult:
        yield Static(LINE)
        yield Static(Markdown(self.answer))


if __name__ == "__main__":
    MarkdownApp(final_answer(Path(sys.argv[1]))).run()
