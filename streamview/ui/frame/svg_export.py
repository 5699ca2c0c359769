"""``--export-svg``: a screenshot of the viewer at a recording's final state, no terminal
needed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from streamview.sources.base import Source
from streamview.ui.frame.app import StreamviewApp

SCREEN_SIZE = (120, 40)
"""Terminal size of the screenshot, in cells."""
READ_TIMEOUT_SECONDS = 60
"""The longest the viewer may take to read the input before the shot is taken anyway."""


def export_svg(source: Source, path: Path, theme: str | None = None) -> Path:
    """Write an SVG screenshot of the viewer at ``source``'s final state.

    Args:
        source: The input (read to its end).
        path: Where to write the SVG.
        theme: A Textual theme name.

    Returns:
        ``path``.
    """
    app = StreamviewApp(source, theme=theme)

    async def shoot() -> str:
        async with app.run_test(size=SCREEN_SIZE) as pilot:
            deadline = time.monotonic() + READ_TIMEOUT_SECONDS
            while not app.state.ended and time.monotonic() < deadline:
                await pilot.pause(0.05)
            await pilot.pause(0.1)
            return app.export_screenshot(title=source.label)

    svg = asyncio.run(shoot())
    path.write_text(svg, encoding="utf-8")
    return path
