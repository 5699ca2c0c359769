"""A dialect's ``fast_line`` (from a line's bytes) gives what its ``fast`` gives for the
decoded line, record by record, and leaves its translator as ``fast`` does.

``test_fast_json.py`` compares ``--json``'s bytes, which hold no record's time: here the
time each hot record carries (Gemini CLI's ``timestamp``, Goose's ``created``) is
compared too. The fixtures are in the compact form the agents print, so ``fast_line``
reads them (issue 30.8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

import streamview.core.dialects as dialects

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
CASES = [
    ("gemini", "fast-line-stamps.jsonl"),
    ("goose", "fast-line-chunks.jsonl"),
    ("gemini", "real-shell-echo.jsonl"),
    ("goose", "real-frames.jsonl"),
]


CACHES = {"_stamp", "_stamp_ms"}
"""Gemini's memo of the last time stamp ``fast_line`` read: only it keeps one."""


def _state(translator: Any) -> dict[str, Any]:
    return {k: v for k, v in vars(translator).items() if k not in CACHES}


@pytest.mark.parametrize(("agent", "name"), CASES, ids=lambda c: str(c))
def test_fast_line_gives_what_fast_gives(agent: str, name: str) -> None:
    dialect = dialects.by_name(agent)
    assert dialect is not None
    by_bytes: Any = dialect.translator()
    by_dict: Any = dialect.translator()
    taken = 0
    lines = (FIXTURES / agent / name).read_bytes().splitlines()
    for number, data in enumerate(lines, 1):
        record = orjson.loads(data)
        from_bytes = by_bytes.fast_line(data, number)
        from_dict = by_dict.fast(record, number)
        if from_bytes is not None:  # fast_line may decline more, never differ
            assert from_bytes == from_dict, data
            taken += 1
        elif from_dict is None:
            by_bytes.translate(record, number, None)
            by_dict.translate(record, number, None)
        else:  # fast_line declined what fast took: the dict's reading stands for both
            by_bytes.fast(record, number)
        assert _state(by_bytes) == _state(by_dict), data
    if not name.startswith("real"):  # a real capture has what it has
        assert taken >= 8
