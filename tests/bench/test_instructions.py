"""``bench/instructions.py``'s own reading loop reads every headless dialect's real
captures to the end (callgrind itself is not run here: it is a bench, not a test)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

from instructions import DIALECTS, dialect_loop  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures" / "dialects"


@pytest.mark.parametrize("dialect", DIALECTS.split(","))
def test_the_dialect_loop_reads_every_line_of_a_real_capture(dialect: str) -> None:
    captures = sorted(
        path
        for path in (FIXTURES / dialect).rglob("*")
        if path.suffix in (".ndjson", ".jsonl") and path.stat().st_size
    )
    read = 0
    for path in captures:
        lines = [line for line in path.read_bytes().splitlines() if line.strip()]
        if any(not line.lstrip().startswith(b"{") for line in lines):
            continue  # a capture holding a line that is not JSON: the bare loop's too
        assert dialect_loop(dialect, str(path)) == len(lines)
        read += 1
    assert read, f"no capture of {dialect} read"
