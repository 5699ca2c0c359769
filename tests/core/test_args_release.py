"""A file folded for the viewer lets go of its finished calls' arguments, which its
lines hold (issue 27.5: 11 MB a 200 MB session); a call's details, search and ``o``
read them back from the file (:mod:`streamview.core.args_store`)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

import streamview.core.args_store as args_store
from streamview.core.call_records import load_records
from streamview.core.export_calls import call_parts
from streamview.core.linestore import FileLineStore
from streamview.core.model import ToolCall
from streamview.core.timeline import fold_indexed
from streamview.ui.details.handoff import file_of

from .helpers import completed, full_fold, init, result, started, stream

CALLS = 1500
NOTE = 3000
"""Characters of each call's arguments: 4.5 MB of them in all."""


def args_of(number: int) -> dict[str, object]:
    return {"path": f"src/f{number}.py", "offset": number + 1, "note": f"{number} " * (NOTE // 5)}


@pytest.fixture(scope="module")
def calls_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = [init()]
    for number in range(CALLS):
        call_id = f"call-{number}"
        records.append(started(call_id, "read", args_of(number)))
        records.append(completed(call_id, "read", result={"success": {"content": "x"}}))
    records.append(started("call-open", "read", args_of(CALLS)))  # still running
    records.append(result())
    path = tmp_path_factory.mktemp("calls") / "calls.ndjson"
    path.write_bytes(stream(*records[:-1]))  # no result: the last call stays open
    return path


def test_a_folded_file_keeps_no_finished_calls_arguments(
    calls_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,500 finished calls of 3 KB of arguments each, folded for the viewer in chunks
    of 64 KB: what the fold holds is under a third of their arguments (traced; all of
    them, 9 MB, before), and each call's arguments read back are the ones it had."""
    data = calls_file.read_bytes()
    monkeypatch.setattr(args_store, "SWEEP_EVERY", 1 << 20)
    chunks = [data[start : start + (1 << 16)] for start in range(0, len(data), 1 << 16)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        state, _timeline = fold_indexed(chunks, FileLineStore(calls_file))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < CALLS * NOTE / 3, held
    store = FileLineStore(calls_file)
    store.agent = "cursor"
    store.remember_lines(data.split(b"\n")[:-1])
    calls = state.sessions[0].tool_calls
    kept = full_fold([data]).sessions[0].tool_calls
    assert len(calls) == len(kept) == CALLS + 1
    for call, whole in zip(calls, kept, strict=True):
        assert load_records(call, store, raw=False).args == whole.args == args_of(call.index)
        assert call.target == whole.target
    assert calls[-1].args == args_of(CALLS)  # running: kept
    assert all(args_store.args_in_lines(call) for call in calls[:-1])
    assert file_of(calls[7], "/work", store) == ("/work/src/f7.py", 8)  # o opens at line 8
    assert file_of(calls[7], "/work") == ("/work/src/f7.py", None)  # no store, no line


def test_only_calls_finished_with_their_lines_let_go(calls_file: Path) -> None:
    """A call an approval request gave its arguments keeps them (its lines may not have
    them), as does one with no started line; a state whose calls a front let go is left.
    The release alone (``pack=False``: the oracle ``test_call_columns`` compares with)."""
    state = full_fold([calls_file.read_bytes()])
    session = state.sessions[0]
    approved, no_start = session.tool_calls[0], session.tool_calls[1]
    approved.approval = "allowed"
    no_start.started_line = None
    release = args_store.ArgsRelease(pack=False)
    release.sweep(state.sessions)
    assert approved.args == args_of(0) and no_start.args == args_of(1)
    assert release.released == CALLS - 2
    session.tool_calls = []
    release.sweep(state.sessions)  # fewer calls than seen: nothing
    assert release.released == CALLS - 2


def test_packed_calls_keep_the_arguments_their_lines_may_not_hold(calls_file: Path) -> None:
    """What the viewer does (``ArgsRelease()`` packs): every finished call gets a row
    (the open one too: the whole fold marked it ended at the end of the file); read
    back, an approved call and one with no started line still have their arguments,
    every other finished one reads them from its lines; a sweep after a front let the
    calls go packs nothing more."""
    state = full_fold([calls_file.read_bytes()])
    session = state.sessions[0]
    session.tool_calls[0].approval = "allowed"
    session.tool_calls[1].started_line = None
    release = args_store.ArgsRelease()
    cut = session.tool_calls[CALLS]
    assert cut.status != "running" and cut.completed_line is None
    release.sweep(state.sessions)
    assert release.packed == CALLS + 1
    calls = session.tool_calls
    assert calls[0].args == args_of(0) and calls[0].approval == "allowed"
    assert calls[1].args == args_of(1) and calls[1].started_line is None
    assert all(args_store.args_in_lines(calls[n]) for n in range(2, CALLS))
    assert calls[CALLS].args == args_of(CALLS)  # no completed line: kept
    assert calls[CALLS].status == cut.status
    session.tool_calls = []
    release.sweep(state.sessions)
    assert release.packed == CALLS + 1


@pytest.mark.parametrize("pack", [False, True])
def test_finished_calls_share_equal_targets_and_summaries(pack: bool) -> None:
    """A sweep makes a finished call's target and summary the copy of an equal one seen
    before (the same text: the table, details and exports show the same), whether the
    calls stay objects or are packed in columns and made again when read."""
    records = [init()]
    for number in range(6):
        call_id = f"call-{number}"
        args = {"path": f"src/f{number % 2}.py"}
        records.append(started(call_id, "read", args))
        records.append(completed(call_id, "read", result={"success": {"content": "x"}}))
    session = full_fold([stream(*records)]).sessions[0]
    before = [(call.target, call.summary) for call in session.tool_calls]
    assert session.tool_calls[0].target is not session.tool_calls[2].target
    assert session.tool_calls[0].summary is not None
    args_store.ArgsRelease(pack=pack).sweep([session])
    calls = list(session.tool_calls)
    assert [(call.target, call.summary) for call in calls] == before
    assert all(calls[n].target is calls[n % 2].target for n in range(6))
    assert all(call.summary is calls[0].summary for call in calls[:6])


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _each_dialect() -> list[Path]:
    """The largest fixture of each dialect, and the recordings' calls' file."""
    files = [
        max(folder.glob("*.*json*"), key=lambda path: path.stat().st_size)
        for folder in sorted((FIXTURES / "dialects").iterdir())
        if folder.is_dir() and any(folder.glob("*.*json*"))
    ]
    return [
        *files,
        Path(__file__).resolve().parents[2] / "recordings" / "success-multi-tool.ndjson",
    ]


def _folded(path: Path) -> tuple[list[ToolCall], FileLineStore]:
    data = path.read_bytes()
    store = FileLineStore(path)
    state, _timeline = fold_indexed(
        [data[at : at + 4096] for at in range(0, len(data), 4096)], store
    )
    return [call for session in state.sessions for call in session.tool_calls], store


def test_every_reader_sees_a_released_calls_arguments_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each dialect's file folded as the viewer folds it, with a sweep after every
    chunk and with none: the details' and search's records, the exports' parts, ``o``'s
    file and line and the target are the same for every call let go."""
    released = 0
    for path in _each_dialect():
        monkeypatch.setattr(args_store, "SWEEP_EVERY", 1 << 60)
        kept, kept_store = _folded(path)
        monkeypatch.setattr(args_store, "SWEEP_EVERY", 1)
        calls, store = _folded(path)
        assert len(calls) == len(kept), path
        for call, whole in zip(calls, kept, strict=True):
            if not args_store.args_in_lines(call):
                continue
            released += 1
            where = (path.name, call.call_id)
            assert load_records(call, store).args == load_records(whole, kept_store).args, where
            assert call_parts(call, store) == call_parts(whole, kept_store), where
            assert file_of(call, "/w", store) == file_of(whole, "/w", kept_store), where
            assert call.target == whole.target, where
    assert released > 100, released
