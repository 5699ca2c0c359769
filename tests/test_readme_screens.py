"""The README's pictures exist and can be made again: each one it shows is an SVG in
``screenshots/`` that ``screenshots/make_screenshots.py`` writes from the bundled
recordings (so regenerating them keeps the README current), or the PNG of the
``--export-html`` page that ``screenshots/make_html_screenshot.py`` takes in a browser,
and the Screens table captions each picture it shows."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
SHOTS = REPO / "screenshots"
IMAGE = re.compile(r"!\[([^\]]*)\]\(screenshots/([^)]+)\)")
SHOT = re.compile(r"await shoot\(\s*\w+,\s*\"([^\"]+)\"")


def test_every_picture_the_readme_shows_exists_and_the_script_makes_it() -> None:
    text = README.read_text(encoding="utf-8")
    shown = IMAGE.findall(text)
    assert len(shown) >= 10, "no pictures found in the README"
    made = set(SHOT.findall((SHOTS / "make_screenshots.py").read_text(encoding="utf-8")))
    browser_scripts = "".join(  # the HTML page's, Phoenix's trace
        path.read_text(encoding="utf-8") for path in sorted(SHOTS.glob("make_*_screenshot.py"))
    )
    for alt, name in shown:
        path = SHOTS / name
        assert path.is_file(), f"the README shows {name}, which is not in screenshots/"
        assert alt.strip(), f"{name} has no alt text"
        if path.suffix == ".png":
            # A page photographed in a browser by a script of its own.
            assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), name
            assert f'"screenshots" / "{name}"' in browser_scripts, f"{name} is made by no script"
            continue
        assert path.read_text(encoding="utf-8").lstrip().startswith("<svg"), name
        assert path.stem in made, f"{name} is not made by make_screenshots.py"


def test_the_screens_table_has_a_caption_for_each_picture() -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Screens\n")
    section = text[start : text.index("\n## ", start + 1)]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    pictures = [row for row in rows if "](screenshots/" in row]
    captions = [row for row in rows if row not in pictures and not set(row) <= set("|- ")]
    assert len(pictures) >= 4
    assert len(captions) == len(pictures), "a row of pictures without its captions"
    for caption, picture in zip(captions, pictures, strict=True):
        assert caption.count("|") == picture.count("|"), (caption, picture)
