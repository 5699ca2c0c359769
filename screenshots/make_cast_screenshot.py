"""Build ``screenshots/cast.png``: one frame of the asciicast ``--export-cast`` writes, as a
player shows it.

Run from the repository root (pyte and cairosvg needed)::

    python screenshots/make_cast_screenshot.py

The bundled ``recordings/success-multi-tool.ndjson`` is exported as a user exports it
(``--export-cast OUT --size 100x30 -s 4 -i 1``), the cast is played into pyte (a
terminal emulator) up to :data:`MOMENT` seconds, and pyte's screen, its colours
included, is drawn as an SVG (by Rich, in the frame Textual's screenshots have) and
turned into a PNG. The picture is what the cast holds, not the viewer's own screen:
what a reader of the cast sees.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pyte
from rich._export_format import CONSOLE_SVG_FORMAT
from rich.console import Console
from rich.style import Style
from rich.text import Text

REPO = Path(__file__).resolve().parents[1]
RECORDING = Path("recordings") / "success-multi-tool.ndjson"
OUT = REPO / "screenshots" / "cast.png"
OPTIONS = ["--size", "100x30", "-s", "4", "-i", "1"]
MOMENT = 2.0
"""Seconds into the cast: the thinking, a grep, a failed test run, the replay bar at 4x."""
SCALE = 1.25
"""PNG pixels per SVG unit (the SVG's own size is small for a README)."""
FONT = "DejaVu Sans Mono"
"""A monospace font installed here (Rich's SVG asks for Fira Code, which is not, and
the fallback cairosvg picks is proportional: the columns would not line up)."""
FONT_ASPECT = 0.602
"""DejaVu Sans Mono's advance width over its size (1233 / 2048)."""
SVG_FORMAT = CONSOLE_SVG_FORMAT.replace("font-family: Fira Code, monospace", f"font-family: {FONT}")

Cast = tuple[dict[str, Any], list[tuple[float, str, str]]]

NAMED = {"brown": "yellow"}
"""pyte's colour names that Rich spells otherwise (``brightred``: ``bright_red`` below)."""


def export(recording: Path, cast: Path) -> None:
    """Write ``recording`` as a cast, through the command line a user runs."""
    subprocess.run(
        [sys.executable, "-m", "streamview", str(recording), "--export-cast", str(cast), *OPTIONS],
        check=True,
        cwd=REPO,
        capture_output=True,
    )


def read_cast(path: Path) -> Cast:
    """The header and the ``[time, "o", data]`` events of an asciicast v2 file."""
    header, *events = path.read_text(encoding="utf-8").splitlines()
    return json.loads(header), [tuple(json.loads(line)) for line in events]  # type: ignore[misc]


def screen_at(cast: Cast, seconds: float) -> pyte.Screen:
    """The emulated terminal after every event of the cast up to ``seconds``."""
    header, events = cast
    screen = pyte.Screen(header["width"], header["height"])
    stream = pyte.Stream(screen)
    for moment, _, data in events:
        if moment > seconds + 1e-9:
            break
        stream.feed(data)
    return screen


def rich_colour(colour: str) -> str | None:
    """pyte's colour (``default``, a name, or ``rrggbb``) as Rich writes it."""
    if colour == "default":
        return None
    if len(colour) == 6 and all(c in "0123456789abcdefABCDEF" for c in colour):
        return "#" + colour
    colour = NAMED.get(colour, colour)
    return "bright_" + colour[6:] if colour.startswith("bright") else colour


def screen_text(screen: pyte.Screen) -> list[Text]:
    """Each row of pyte's screen as Rich text, a span per run of cells alike."""
    rows: list[Text] = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        text = Text(no_wrap=True)
        run: list[str] = []
        style: Style | None = None
        for x in range(screen.columns):
            char = line[x]
            if char.data == "":
                continue  # the right half of a wide character
            cell = Style(
                color=rich_colour(char.fg),
                bgcolor=rich_colour(char.bg),
                bold=char.bold,
                italic=char.italics,
                underline=char.underscore,
                strike=char.strikethrough,
                reverse=char.reverse,
            )
            if cell != style and run:
                text.append("".join(run), style)
                run = []
            style = cell
            run.append(char.data)
        if run:
            text.append("".join(run), style)
        rows.append(text)
    return rows


def screen_svg(screen: pyte.Screen, title: str) -> str:
    """pyte's screen drawn as an SVG terminal window titled ``title``."""
    console = Console(
        width=screen.columns,
        record=True,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
    )
    for row in screen_text(screen):
        console.print(row, crop=True, overflow="crop")
    return console.export_svg(title=title, code_format=SVG_FORMAT, font_aspect_ratio=FONT_ASPECT)


def shoot(cast: Cast, out: Path, seconds: float = MOMENT) -> str:
    """Write the PNG of the cast at ``seconds`` to ``out``; returns the SVG drawn."""
    import cairosvg

    svg = screen_svg(screen_at(cast, seconds), f"asciicast · {seconds:.1f} s")
    cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(out), scale=SCALE)
    return svg


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        cast = Path(folder) / "run.cast"
        export(RECORDING, cast)
        shoot(read_cast(cast), OUT)
    print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
