"""Where each dialect's fixtures live, and how tests read them."""

from __future__ import annotations

from pathlib import Path

from streamview.core.dialects import DIALECTS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
"""``tests/fixtures/dialects/<dialect name>/``: one folder per dialect."""

SUFFIXES = (".jsonl", ".ndjson")


def fixture_files(name: str) -> list[Path]:
    """A dialect's fixture streams, sorted (empty when it has none)."""
    folder = FIXTURES / name
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES)


def every_fixture() -> list[tuple[str, Path]]:
    """``(dialect name, file)`` of every registered dialect's every fixture."""
    return [(d.name, path) for d in DIALECTS for path in fixture_files(d.name)]


def claude(name: str) -> bytes:
    """The bytes of one Claude Code fixture."""
    return (FIXTURES / "claude" / name).read_bytes()


def codex(name: str) -> bytes:
    """The bytes of one Codex fixture."""
    return (FIXTURES / "codex" / name).read_bytes()
