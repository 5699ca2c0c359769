"""Code blocks never wait for a lexer: plain at first, coloured once it is built."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from rich.style import Style
from rich.syntax import Syntax
from rich.theme import Theme
from textual.strip import Strip

from streamview.ui.text import highlight
from streamview.ui.transcript.block_layout import BlockLayout, LayoutStyles
from streamview.ui.transcript.blocks import BACKGROUND_MARKDOWN_CHARS

from ..conftest import wait_for
from ..transcript.test_transcript import Stream, TranscriptApp, show

CODE = "Here:\n\n```python\ndef greet(name):\n    return f'hi {name}'\n```\n"


@pytest.fixture
def deferred(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deferral on, as in the app, with no lexer known to be ready yet."""
    monkeypatch.setattr(highlight, "DEFER", True)
    monkeypatch.setattr(highlight, "_ready", set())
    monkeypatch.setattr(highlight, "_building", set())
    monkeypatch.setattr(highlight, "_held", None)


def code_colours(strips: list[Strip]) -> set[str]:
    """The foreground colours of the segments that show the code."""
    return {
        str(segment.style.color.name)
        for strip in strips
        for segment in strip
        if segment.style is not None
        and segment.style.color is not None
        and segment.text.strip() in {"def", "greet", "return", "f'hi {name}'", "name"}
    }


def code_text(strips: list[Strip]) -> str:
    return "\n".join(strip.text.rstrip() for strip in strips)


def layout() -> BlockLayout:
    return BlockLayout(LayoutStyles(Theme({}), "monokai", *[Style()] * 5))


def test_the_first_block_is_plain_on_the_theme_background_then_coloured(deferred: None) -> None:
    ready = threading.Event()
    stop = highlight.on_ready(lambda language: language == "python" and ready.set())
    try:
        first = layout().markdown(CODE, 60)
        assert "def greet(name):" in code_text(first)
        assert code_colours(first) == set()  # no colours: the lexer is not built yet
        background = Syntax.get_theme("monokai").get_background_style().bgcolor
        assert any(
            segment.style is not None and segment.style.bgcolor == background
            for strip in first
            for segment in strip
            if "greet" in segment.text
        )
        assert ready.wait(10), "the lexer thread never said it was done"
        again = layout().markdown(CODE, 60)
        assert len(code_colours(again)) >= 2  # keywords and names in their colours
        assert [s.text.rstrip() for s in again] == [s.text.rstrip() for s in first]
    finally:
        stop()


def test_each_pair_is_built_once(deferred: None, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[str, str]] = []
    release = threading.Event()

    def slow_build(language: str, theme: str) -> None:
        started.append((language, theme))
        release.wait(10)

    monkeypatch.setattr(highlight, "_build", slow_build)
    assert not highlight.highlight_now("rust", "monokai")
    assert not highlight.highlight_now("rust", "monokai")
    assert not highlight.highlight_now("rust", "default")
    release.set()
    assert sorted(started) == [("rust", "default"), ("rust", "monokai")]


def test_without_deferral_a_block_is_coloured_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(highlight, "_ready", set())
    assert highlight.highlight_now("python", "monokai")  # DEFER is off in tests
    assert len(code_colours(layout().markdown(CODE, 60))) >= 2


@pytest.mark.parametrize("theme", sorted(highlight.BACKGROUNDS))
def test_plain_backgrounds_are_the_themes_own(theme: str) -> None:
    expected = Syntax.get_theme(theme).get_background_style().bgcolor
    assert highlight.plain_background(theme).bgcolor == expected


async def test_the_transcript_colours_the_block_when_the_lexer_is_ready(
    deferred: None,
) -> None:
    stream = Stream()
    stream.text(CODE)
    async with TranscriptApp().run_test(size=(80, 20)) as pilot:
        transcript = await show(pilot, stream)
        lines = [strip for entry in transcript._entries for strip in entry.lines or ()]
        assert "def greet(name):" in code_text(lines)
        await wait_for(
            pilot,
            lambda: len(code_colours([s for e in transcript._entries for s in e.lines or ()])) >= 2,
        )
        assert "def greet(name):" in "\n".join(transcript.plain_lines())


async def test_a_long_block_laid_out_on_the_layout_thread_is_coloured_too(
    deferred: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    build = highlight._build

    def held_build(language: str, theme: str) -> None:
        release.wait(10)
        build(language, theme)

    monkeypatch.setattr(highlight, "_build", held_build)
    filler = "A paragraph of prose that pads the answer out.\n\n" * (
        BACKGROUND_MARKDOWN_CHARS // 40
    )
    stream = Stream()
    stream.text(CODE + filler)

    def code_lines() -> list[Strip]:
        return [strip for entry in transcript._entries for strip in entry.lines or ()]

    async with TranscriptApp().run_test(size=(80, 20)) as pilot:
        transcript = await show(pilot, stream)
        transcript.scroll_home(animate=False)
        await wait_for(pilot, lambda: "def greet(name):" in code_text(code_lines()))
        assert code_colours(code_lines()) == set()  # laid out plain: no lexer yet
        release.set()
        await wait_for(pilot, lambda: len(code_colours(code_lines())) >= 2)


async def test_a_block_laid_out_plain_while_the_lexer_arrives_is_laid_out_again(
    deferred: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The layout thread lays a long block out plain, and before its lines reach the
    transcript the lexer is ready: those plain lines must not be the last word."""
    release_build, laid_out, go_on = threading.Event(), threading.Event(), threading.Event()
    build, answer = highlight._build, BlockLayout.answer

    def held_build(language: str, theme: str) -> None:
        release_build.wait(10)
        build(language, theme)

    def held_answer(self: BlockLayout, *args: Any) -> Any:
        result = answer(self, *args)
        if threading.current_thread() is not threading.main_thread() and not laid_out.is_set():
            laid_out.set()  # the first layout, plain, is held back here
            go_on.wait(10)
        return result

    monkeypatch.setattr(highlight, "_build", held_build)
    monkeypatch.setattr(BlockLayout, "answer", held_answer)
    stream = Stream()
    stream.text(CODE + "A paragraph of prose that pads the answer out.\n\n" * 120)
    async with TranscriptApp().run_test(size=(80, 20)) as pilot:
        transcript = await show(pilot, stream)
        transcript.scroll_home(animate=False)
        await wait_for(pilot, laid_out.is_set)
        release_build.set()
        await wait_for(pilot, lambda: ("python", "monokai") in highlight._ready)
        await pilot.pause(0.1)  # the news of the lexer is handled
        go_on.set()

        def lines() -> list[Strip]:
            return [strip for entry in transcript._entries for strip in entry.lines or ()]

        await wait_for(pilot, lambda: len(code_colours(lines())) >= 2)


def test_builds_asked_for_while_held_start_on_release(
    deferred: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the first screen is painted no lexer thread competes with it; the builds
    asked for meanwhile start when it is released, each once."""
    started: list[tuple[str, str]] = []
    monkeypatch.setattr(highlight, "_build", lambda *key: started.append(key))
    highlight.hold()
    assert not highlight.highlight_now("python", "monokai")
    assert not highlight.highlight_now("python", "monokai")
    assert not highlight.highlight_now("go", "monokai")
    assert not any(thread.name == "streamview-lexer" for thread in threading.enumerate())
    assert started == []
    highlight.release()
    deadline = time.monotonic() + 10
    while len(started) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(started) == [("go", "monokai"), ("python", "monokai")]
    assert not highlight.highlight_now("rust", "monokai")  # released: at once now
    while len(started) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert started[-1] == ("rust", "monokai")
