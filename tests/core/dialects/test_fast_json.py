"""``--json`` is the same whether a dialect's fast path reads its hot records or not.

The fold takes the records most of a run is made of (deltas, growing messages, some
tool items) apart without events (a translator's ``fast`` and ``fast_line``); every
other record goes the general way, an event at a time. Here each dialect's fixtures are
folded both ways, the second with the fast path turned off, and the summaries that
``--json`` prints must be the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import streamview.core.dialects as dialects
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.core.summary import summary_json

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
STREAMS = sorted(
    path
    for path in FIXTURES.glob("*/*.*json*")
    if dialects.by_name(path.parent.name) is not None
    and path.parent.name not in dialects.SESSION_FILES
)


def summary(data: bytes, agent: str) -> bytes:
    """``--json``'s one-line summary of ``data`` read as ``agent``'s stream."""
    state = fold([data], StreamState(track_changes=False, compact=True), agent=agent)
    return b"".join(summary_json(state, None))


def general_summary(data: bytes, agent: str, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """:func:`summary` with the dialect's fast path turned off: every record the general
    way, an event at a time."""
    dialect = dialects.by_name(agent)
    assert dialect is not None
    translator: Any = type(dialect.translator())
    monkeypatch.setattr(translator, "fast", lambda *_: None)
    monkeypatch.setattr(translator, "fast_line", None, raising=False)
    return summary(data, agent)


def test_every_stream_dialect_has_fixtures() -> None:
    names = {d.name for d in dialects.DIALECTS if d.name not in dialects.SESSION_FILES}
    assert names <= {path.parent.name for path in STREAMS}


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_fast_path_and_the_general_path_give_the_same_json(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = path.parent.name
    data = path.read_bytes()
    fast = summary(data, agent)
    assert general_summary(data, agent, monkeypatch) == fast


def with_a_bad_byte(data: bytes) -> bytes:
    """``data`` with a field no dialect reads, holding a byte that is not UTF-8, added
    at the end of every record (a fast path's decoder skips that field unread)."""
    lines = []
    for line in data.splitlines():
        stripped = line.rstrip()
        if stripped.startswith(b"{") and stripped.endswith(b"}"):
            line = stripped[:-1] + b',"zz_unread":"caf\xe9"}'
        lines.append(line)
    return b"\n".join(lines) + b"\n"


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_byte_that_is_not_utf8_is_noticed_on_the_fast_path_too(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The general path repairs such a line and says so (``input/invalid-utf8``); the
    fast path must not take the line and say nothing."""
    agent = path.parent.name
    data = with_a_bad_byte(path.read_bytes())
    fast = summary(data, agent)
    assert general_summary(data, agent, monkeypatch) == fast
