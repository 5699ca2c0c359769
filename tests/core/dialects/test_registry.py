"""Every dialect in the registry has fixtures, reads them without a crash, and folds the
same way through the fast ``fold`` as event by event."""

from __future__ import annotations

from pathlib import Path

import pytest

from streamview.core import dialects
from streamview.core.dialects import DIALECTS, Dialect, by_name, detect, names
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState

from ..test_fast_fold import account
from .fixtures import FIXTURES, every_fixture, fixture_files

SAME_STREAM = {"kilo": "opencode"}
"""Dialects whose CLI prints another's stream, with nothing in it to tell them apart:
recognised as that other one, chosen with ``--agent``."""


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.name)
def test_every_dialect_has_fixtures(dialect: Dialect) -> None:
    """Adding an agent means adding its streams under tests/fixtures/dialects/<name>/."""
    name = dialect.name
    assert fixture_files(name), f"no fixtures in {FIXTURES / name}"


def test_names_are_unique_and_auto_is_not_a_dialect() -> None:
    listed = [d.name for d in DIALECTS]
    assert len(set(listed)) == len(listed)
    assert names() == [*listed, "auto"]
    assert by_name("auto") is None
    assert all(by_name(d.name) is d for d in DIALECTS)


def test_the_registry_names_each_dialect_as_it_names_itself() -> None:
    """The registry lists names without importing the modules: each must be the name its
    module gives, or ``--agent NAME`` would load the wrong one."""
    assert [name for name, _ in dialects.REGISTRY] == [d.name for d in dialects.every_dialect()]


def test_a_cursor_stream_is_read_without_importing_other_dialects() -> None:
    """A Cursor file must not pay for thirteen other dialects' imports (issue 21.12):
    a fresh interpreter reads one and lists the dialect modules it imported."""
    import json
    import subprocess
    import sys

    capture = Path(__file__).parents[3] / "recordings" / "success-multi-tool.ndjson"
    code = (
        "import json, sys\n"
        "from streamview.core.reader import fold\n"
        f"state = fold([open({str(capture)!r}, 'rb').read()])\n"
        "assert state.sessions and state.sessions[0].agent == 'cursor', state.sessions\n"
        "print(json.dumps([m.rsplit('.', 1)[1] for m in sys.modules"
        " if m.startswith('streamview.core.dialects.')]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    others = {where.partition(":")[0] for name, where in dialects.REGISTRY} - {"cursor"}
    assert not loaded & others, loaded & others
    assert "cursor" in loaded


def event_by_event(chunks: list[bytes], agent: str | None = None) -> StreamState:
    """The reference: every line through the reader, every event applied."""
    state = StreamState(track_changes=False)
    reader = EventReader(agent=agent)
    for chunk in chunks:
        for event in reader.feed(chunk):
            state.apply(event)
    for event in reader.finish():
        state.apply(event)
    state.counts.blank += reader.blank_lines
    state.finish()
    return state


def chunked(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)] or [b""]


@pytest.mark.parametrize(("name", "path"), every_fixture(), ids=lambda v: getattr(v, "name", v))
def test_a_fixture_folds_without_a_crash_and_counts_every_line_once(name: str, path: Path) -> None:
    data = path.read_bytes()
    state = fold([data])
    counts = state.counts
    non_blank = sum(1 for line in data.split(b"\n") if line.strip())
    assert counts.total == non_blank
    assert counts.total == counts.events + counts.malformed + counts.unknown
    assert state.sessions, "a fixture with no session"
    assert detect_name(data) == SAME_STREAM.get(name, name)


def detect_name(data: bytes) -> str:
    import orjson

    records = []
    for line in data.split(b"\n"):
        try:
            records.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            records.append(None)
    return detect(records).name


@pytest.mark.parametrize(("name", "path"), every_fixture(), ids=lambda v: getattr(v, "name", v))
@pytest.mark.parametrize("size", [1, 7, 100, 1 << 20])
def test_the_fast_fold_equals_event_by_event(name: str, path: Path, size: int) -> None:
    data = path.read_bytes()
    chunks = chunked(data, size)
    assert account(fold(chunks)) == account(event_by_event(chunks))
    forced = account(fold(chunks, agent=name))
    assert forced == account(event_by_event(chunks, agent=name))
    if name in SAME_STREAM:  # recognised as the other agent: only the name differs
        assert account(fold([data], agent=SAME_STREAM[name])) == account(fold([data]))
    else:
        assert forced == account(fold([data]))
