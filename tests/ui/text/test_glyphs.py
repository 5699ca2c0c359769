"""Glyphs the viewer draws render in common terminal fonts.

The "Miscellaneous Technical" block (U+2300-U+23FF: ⏺ ⏸ ⏵ ⏹ ...) is missing from many
monospace fonts, which draw a box instead: the first screenshots showed ⏺ and ⏸ as
boxes. Nothing the package draws may come from it.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "streamview"


def test_no_glyph_from_the_miscellaneous_technical_block() -> None:
    found = []
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.tcss")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            bad = [char for char in line if 0x2300 <= ord(char) <= 0x23FF]
            if bad:
                found.append(f"{path.relative_to(PACKAGE)}:{number}: {''.join(bad)}")
    assert not found, "\n".join(found)
