"""One run per agent for the exports' tests: each dialect's ``success-tools`` fixture
(its richest run), else the first fixture of its folder in ``tests/fixtures/dialects``."""

from __future__ import annotations

from pathlib import Path

from streamview.core.dialects import REGISTRY

DIALECTS = Path(__file__).resolve().parent / "fixtures" / "dialects"


def one_run_per_agent() -> list[tuple[str, Path]]:
    """``(dialect, fixture)`` for every dialect streamview reads, headless streams and
    session files alike, in :data:`~streamview.core.dialects.REGISTRY`'s order."""
    runs = []
    for name, _ in REGISTRY:  # session formats included (one registry, issue 27.1)
        folder = DIALECTS / name
        chosen = folder / "success-tools.jsonl"
        if not chosen.exists():
            chosen = min(p for p in folder.iterdir() if p.suffix in (".jsonl", ".ndjson"))
        runs.append((name, chosen))
    return runs


RECORDINGS = Path(__file__).resolve().parents[1] / "recordings"


def demo_recordings() -> list[tuple[str, Path]]:
    """``("cursor", recording)`` for each demo recording the README plays (all Cursor's)."""
    return [("cursor", path) for path in sorted(RECORDINGS.glob("*.ndjson"))]


def run_id(run: tuple[str, Path]) -> str:
    """A test id: the dialect, or the demo recording's name."""
    agent, path = run
    return path.stem if path.parent == RECORDINGS else agent
