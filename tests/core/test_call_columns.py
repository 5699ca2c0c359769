"""A session's finished calls packed into columns (``core/call_columns.py``) read back
exactly as the fold's objects were: every field, ``calls_by_id``, a finished call named
again, checkpoints and seeks, and what the readers count from the columns.

The reference is the same fold with the same sweeps that only lets arguments go
(``ArgsRelease(pack=False)``, what the viewer did before): a sweep after every line of
every recording, dialect fixture and synthetic stream.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from streamview.core import args_store, call_reading
from streamview.core.args_store import ArgsRelease
from streamview.core.call_columns import CallColumns, pack_session
from streamview.core.call_ids import CallIds
from streamview.core.checkpoints import PlaybackIndex
from streamview.core.linestore import FileLineStore
from streamview.core.model import Session, ToolCall
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.core.sweeps import swept
from streamview.core.timeline import FileTimeline
from streamview.core.value_columns import CodeColumn, IntColumn

from .test_checkpoints import ACROSS, DIALECT_FILES, RECORDINGS
from .test_fast_fold import SYNTHETIC, dump

REPO = Path(__file__).resolve().parents[2]


def lines_of(data: bytes) -> list[bytes]:
    """``data`` a line a chunk (a sweep after each)."""
    return data.splitlines(keepends=True)


def folded(path: Path, pack: bool, every: int = 3) -> tuple[StreamState, FileTimeline]:
    """``path`` folded as the viewer folds a file, swept after every line, calls packed
    (``pack``) or their arguments only let go; checkpoints every ``every`` events."""
    store = FileLineStore(path)
    index = PlaybackIndex(every, 0)
    state = StreamState(track_changes=False)
    release = ArgsRelease(pack)
    chunks = swept(lines_of(path.read_bytes()), lambda: release.sweep(state.sessions), 1)
    state = fold(chunks, state, store=store, index=index)
    return state, FileTimeline(store, index)


def plain(state: StreamState) -> Any:
    """Everything a front end reads of ``state``, packed calls read as a list."""
    sessions = [
        msgspec.structs.replace(
            session,
            tool_calls=list(session.tool_calls),
            calls_by_id={key: session.calls_by_id[key] for key in session.calls_by_id},
        )
        for session in state.sessions
    ]
    shown = [
        (
            dump(session),
            [dump(call) for call in session.open_calls],
            session.turn_complete,
            sorted(session.calls_by_id),
        )
        for session in sessions
    ]
    return (shown, dump(state.counts), state.ended)


def files() -> list[Path]:
    """Every recording and dialect fixture."""
    return [*RECORDINGS, *DIALECT_FILES]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The synthetic streams as files."""
    folder = tmp_path_factory.mktemp("synthetic")
    paths = {}
    for number, (name, data) in enumerate({**SYNTHETIC, "across": ACROSS}.items()):
        path = folder / f"{number}.ndjson"
        path.write_bytes(data)
        paths[name] = path
    return paths


@pytest.mark.parametrize("path", files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_packed_calls_read_back_as_the_folds(path: Path) -> None:
    """Every field of every call, ``calls_by_id``, the open calls: as without packing."""
    packed, _ = folded(path, True)
    kept, _ = folded(path, False)
    assert plain(packed) == plain(kept)
    for session in packed.sessions:
        if session.tool_calls:
            assert isinstance(session.tool_calls, CallColumns)
            assert_readers_agree(session)


def test_synthetic_streams_and_seeks(synthetic: dict[str, Path]) -> None:
    """The synthetic streams, and a seek to every event through the checkpoints of the
    packed fold equals the one through the unpacked fold's."""
    for path in synthetic.values():
        packed, packed_line = folded(path, True, 2)
        kept, kept_line = folded(path, False, 2)
        assert plain(packed) == plain(kept)
        for count in range(len(kept_line) + 1):
            assert plain(seek(packed_line, count)) == plain(seek(kept_line, count)), count
        assert plain(packed) == plain(kept), "a seek changed nothing of the fold's state"


@pytest.mark.parametrize("name", ["success-multi-tool.ndjson", "denied-tools.ndjson"])
def test_seeks_of_recordings(name: str) -> None:
    """Seeks of packed recordings at every event."""
    path = REPO / "recordings" / name
    _, packed_line = folded(path, True, 3)
    _, kept_line = folded(path, False, 3)
    for count in range(len(kept_line) + 1):
        assert plain(seek(packed_line, count)) == plain(seek(kept_line, count)), count


def seek(timeline: FileTimeline, count: int) -> StreamState:
    """The state at ``count``: its checkpoint, the events after it applied."""
    state, start = timeline.state_before(count)
    for event in timeline.between(start, count):
        state.apply(event)
    return state


def assert_readers_agree(session: Session) -> None:
    """What the readers count from the columns equals counting the calls one by one."""
    calls = session.tool_calls
    listed = list(calls)
    assert call_reading.status_counts(calls) == call_reading.status_counts(listed)
    assert call_reading.kind_counts(calls) == call_reading.kind_counts(listed)
    assert call_reading.nested_count(calls) == call_reading.nested_count(listed)
    assert call_reading.running_places(calls) == call_reading.running_places(listed)
    assert [c.index for c in call_reading.with_parent(calls)] == [
        c.index for c in listed if c.parent_call_id
    ]
    measured = call_reading.measure(calls)
    assert measured is not None
    widest = max((len(c.kind) + (2 if c.parent_call_id else 0) for c in listed), default=0)
    assert measured[0] == widest
    assert measured[1] == any(c.start_ms is not None for c in listed)


def call(index: int, call_id: str, status: str = "success", **fields: Any) -> ToolCall:
    """A finished call."""
    return ToolCall(index, call_id, fields.pop("kind", "read"), status=status, **fields)


def test_a_call_is_one_object_while_held_and_a_named_one_is_changed_in_place() -> None:
    """``is`` holds for a packed call while anything holds it; ``calls_by_id.get`` makes
    it the fold's object again, changed in place, and packed again with the change."""
    session = Session(0)
    for index in range(600):
        made = call(index, f"c{index}", started_line=index + 1, completed_line=index + 2)
        session.tool_calls.append(made)
        session.calls_by_id[made.call_id] = made
    assert pack_session(session) == 600
    calls = session.tool_calls
    held = calls[5]
    for index in range(600):  # more than the calls made are kept for
        assert calls[index].index == index
    assert calls[5] is held
    named = session.calls_by_id.get("c5")
    assert named is held
    named.summary = "again"
    assert calls[5].summary == "again"
    assert "c5" in session.calls_by_id and "c600" not in session.calls_by_id
    assert session.calls_by_id.get("c600") is None
    pack_session(session)
    del held, named
    assert calls[5].summary == "again"
    assert calls[4].summary is None


def test_a_reused_id_stands_for_its_last_call_and_a_fork_for_its_own() -> None:
    """An id on two rows maps to the later one; a fork made before the later one was
    added maps it to the earlier one."""
    session = Session(0)
    first = call(0, "same")
    session.tool_calls.append(first)
    session.calls_by_id["same"] = first
    pack_session(session)
    columns = session.tool_calls
    assert isinstance(columns, CallColumns)
    fork = columns.fork(1, {})
    later = call(1, "same", summary="later")
    session.tool_calls.append(later)
    session.calls_by_id["same"] = later
    pack_session(session)
    assert session.calls_by_id["same"].index == 1
    twin = call_reading.CallsView(fork, [0])
    assert twin[0].index == 0
    from streamview.core.call_columns import packed_session_ids

    assert packed_session_ids(fork).get("same").index == 0


def test_a_running_call_stays_an_object_until_it_finishes() -> None:
    """A call running at a sweep is not packed; the next sweep packs it once finished."""
    session = Session(0)
    running = call(0, "r", status="running")
    done = call(1, "d")
    for made in (running, done):
        session.tool_calls.append(made)
        session.calls_by_id[made.call_id] = made
    assert pack_session(session) == 1
    assert session.open_calls == [running]
    assert session.tool_calls[0] is running
    running.status = "success"
    assert pack_session(session) == 1
    assert session.open_calls == []
    assert call_reading.status_counts(session.tool_calls) == {"success": 2}


@pytest.mark.parametrize(
    "values",
    [
        [None, 1, None, 2],
        [1, 1 << 40, None],
        [-(1 << 31), 5],  # the 4-byte column's own mark of None
        [-(1 << 63), 1 << 40],  # the 8-byte one's
        [1 << 70, None, 3],  # past 64 bits
        [True, False, 1],  # a bool is not an int here
        [1.5, "x", None],
        [None, None],
    ],
)
def test_an_int_column_gives_back_what_it_was_given(values: list[Any]) -> None:
    """Row by row, and in a batch, with any mix of values."""
    for batch in (False, True):
        column = IntColumn()
        if batch:
            column.extend(0, values)
            column.extend(len(values), values)
        else:
            for row, value in enumerate(values * 2):
                column.put(row, value)
        back = [column.get(row) for row in range(2 * len(values))]
        assert back == values * 2
        assert [type(value) for value in back] == [type(value) for value in values * 2]


def test_a_code_column_widens_and_keeps_unhashable_values() -> None:
    """Past 255 strings the codes take two bytes; a value that cannot be a key is kept."""
    column = CodeColumn()
    values: list[Any] = [f"s{n}" for n in range(300)] + [None, ["a list"], "s1"]
    column.extend(0, values[:100])
    for row, value in enumerate(values[100:], 100):
        column.put(row, value)
    column.extend(len(values), values)
    assert [column.get(row) for row in range(2 * len(values))] == values * 2
    assert column.codes.typecode == "H"


def test_calls_made_from_rows_are_let_go() -> None:
    """Calls made from rows and held by nothing else are not kept."""
    session = Session(0)
    for index in range(2000):
        made = call(index, f"c{index}")
        session.tool_calls.append(made)
    session.calls_by_id = {}
    pack_session(session)
    calls = session.tool_calls
    assert isinstance(calls, CallColumns)
    for made in calls:
        assert made.kind == "read"
    assert len(calls._made) <= 512
    held = calls[1999]
    assert sys.getrefcount(held) > 2
    assert isinstance(session.calls_by_id, CallIds)


def test_the_viewers_fold_packs_a_long_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """``fold_indexed`` (opening a file) packs the calls once a sweep is due."""
    from streamview.core.timeline import fold_indexed

    monkeypatch.setattr(args_store, "SWEEP_EVERY", 1)
    path = REPO / "recordings" / "success-multi-tool.ndjson"
    state, _ = fold_indexed(lines_of(path.read_bytes()), FileLineStore(path))
    assert all(isinstance(s.tool_calls, CallColumns) for s in state.sessions if s.tool_calls)
