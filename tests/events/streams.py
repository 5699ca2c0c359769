"""Every stream the normalized-event tests read: found by glob, so a dialect (and its
fixtures) added by anyone is covered without a change here."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DIALECT_FIXTURES = REPO / "tests" / "fixtures" / "dialects"
RECORDINGS = REPO / "recordings"
REAL_CURSOR = REPO / "tests" / "fixtures" / "cursor-real"
"""Real Cursor captures, copied into the repository (their sources: SOURCES.md there)."""


def _streams(folder: Path, pattern: str) -> list[Path]:
    """Files under ``folder`` matching ``pattern``, their notes (``*.md``) aside."""
    return sorted(p for p in folder.glob(pattern) if p.is_file() and p.suffix != ".md")


def dialect_fixtures() -> list[Path]:
    """Every file of every dialect's fixtures folder."""
    return _streams(DIALECT_FIXTURES, "*/*")


def every_stream() -> list[Path]:
    """Dialect fixtures, the bundled recordings and the real Cursor captures."""
    return dialect_fixtures() + _streams(RECORDINGS, "*.ndjson") + _streams(REAL_CURSOR, "*")


def name(path: Path) -> str:
    """A test id: the folder and the file."""
    return f"{path.parent.name}/{path.name}"
