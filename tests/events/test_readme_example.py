"""The README's ``read_events`` example, run as written (issue 26.9c: it failed on its
first event, ``event.type`` not existing on the structs)."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import msgspec
import pytest

import streamview

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def readme_example() -> str:
    """The README's Python block that calls ``read_events``."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", readme, re.DOTALL | re.MULTILINE)
    found = [block for block in blocks if "read_events(" in block]
    assert len(found) == 1, found
    return found[0]


def test_the_readme_read_events_example_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(CLAUDE, tmp_path / "run.ndjson")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(readme_example(), "README.md", "exec"), {})
    ends = [
        e for e in streamview.read_events(CLAUDE) if msgspec.to_builtins(e)["type"] == "tool.end"
    ]
    assert len(ends) == 8
    expected = [f"{e.kind} {e.target} {e.status} {e.duration_ms}" for e in ends]
    assert out.getvalue().splitlines() == expected
    assert "shell python -m pytest -q tests/test_parse.py failed None" in expected


def test_every_event_type_is_the_tag_events_writes() -> None:
    for event in streamview.read_events(CLAUDE.read_bytes()):
        assert event.type == msgspec.to_builtins(event)["type"]
