"""Markdown from the stream is shown, never acted upon, and never hangs the viewer."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import streams
from .tui import PacedPipe, make_app, screen_problems, screen_text, settled

HEAVY = ("five-mb-line", "unclosed-fence")
"""Cases that take seconds to lay out: each gets its own run."""


@pytest.fixture(scope="module")
def markdown_cases() -> dict[str, str]:
    """Every pathological Markdown answer, by name."""
    return streams.pathological_markdown()


@pytest.mark.parametrize("part", range(3))
async def test_pathological_markdown_sessions(
    tmp_path: Path, markdown_cases: dict[str, str], part: int
) -> None:
    """Deep lists and quotes, brackets, emphasis, links, HTML, a big table: one session
    each, a third of them in each of three tests (all in one took 22 s on a busy machine)."""
    names = [name for name in markdown_cases if name not in HEAVY][part::3]
    assert names
    path = tmp_path / "markdown.ndjson"
    path.write_bytes(
        b"".join(streams.markdown_stream(markdown_cases[name], session=name) for name in names)
    )
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, timeout=120)
        assert len(app.state.sessions) == len(names)
        for index, name in enumerate(names):
            app.show_session(index)
            await pilot.pause()
            for key in ("end", "home"):
                await pilot.press(key)
                await pilot.pause()
            assert screen_problems(app, svg=False) == [], name
            text = screen_text(app)
            assert "evil.example/" not in text or name in ("many-links", "html-and-images")
        assert screen_problems(app) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", HEAVY)
async def test_heavy_markdown(tmp_path: Path, markdown_cases: dict[str, str], name: str) -> None:
    """A 5 MB single line, an unclosed fence of 20,000 lines: shown, scrollable, quit."""
    path = tmp_path / f"{name}.ndjson"
    path.write_bytes(streams.markdown_stream(markdown_cases[name]))
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, timeout=240)
        for key in ("end", "pageup", "home", "pagedown"):
            await pilot.press(key)
            await pilot.pause()
        assert screen_problems(app) == []


@pytest.mark.parametrize(
    "markdown",
    [
        "```python\n" + "".join(f"value_{n} = {n}\n" for n in range(5_000)) + "LAST_OF_ALL = 1\n",
        "| n | code |\n|---|---|\n"
        + "".join(f"| {n} | `{n}` |\n" for n in range(2_000))
        + "\nLAST_OF_ALL\n",
    ],
    ids=["unclosed-fence", "big-table"],
)
async def test_a_growing_heavy_answer_streams_live_and_ends_laid_out(markdown: str) -> None:
    """Streamed live through a pipe in 300 deltas: followed to the end, the last line shown."""
    lines = streams.markdown_stream(markdown, deltas=300).splitlines(keepends=True)
    pipe = PacedPipe(lines, per_second=2_000)
    app = make_app(pipe.source())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            pipe.start()
            await settled(pilot, timeout=120)
            assert app.state.counts.total == len(lines)
            assert "LAST_OF_ALL" in screen_text(app)
            assert screen_problems(app, svg=False) == []
    finally:
        pipe.close()
