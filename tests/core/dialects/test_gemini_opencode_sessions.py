"""Gemini CLI's and opencode's interactive session files fold to the account their
headless stream gives for the same turn (issue 27.1), folding records by id."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.core.dialects import detect
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState
from streamview.core.summary import session_summary
from streamview.sources.base import FileSource, Source
from streamview.sources.session_files import session_source_for

SESSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions"
GEMINI_JSONL = SESSIONS / "gemini" / "session-2026-11-20T10-00-3f2a9c1e.jsonl"
GEMINI_JSON = SESSIONS / "gemini" / "session-2026-11-20T10-00-3f2a9c1e.json"
OPENCODE_DB = SESSIONS / "opencode" / "opencode.db"


def folded(source: Source) -> StreamState:
    """A source read to its end, every event applied (the dialect recognised)."""
    state = StreamState(track_changes=False)
    reader = EventReader()
    for chunk in source.chunks(threading.Event()):
        for event in reader.feed(chunk):
            state.apply(event)
    for event in reader.finish():
        state.apply(event)
    state.finish()
    return state


def source_of(path: Path) -> Source:
    """What ``streamview FILE`` reads ``path`` with."""
    return session_source_for(path) or FileSource(path)


def the_account(state: StreamState) -> dict[str, Any]:
    """What a person is told of the run: prompt, answer, calls and usage."""
    assert len(state.sessions) == 1
    said = session_summary(state.sessions[0])
    calls = [
        (c["call_id"], c["kind"], c["target"], c["status"], c["summary"])
        for c in said["tool_calls"]
    ]
    outcome = said["outcome"]
    return {
        "session_id": said["session_id"],
        "prompt": said["prompt"],
        "text": said["text"],
        "calls": calls,
        "status": outcome["status"],
        "usage": outcome["usage"],
        "cost": outcome["cost_usd"],
    }


@pytest.mark.parametrize("session", [GEMINI_JSONL, GEMINI_JSON], ids=["jsonl", "legacy-json"])
def test_a_gemini_session_folds_as_its_headless_stream(session: Path) -> None:
    """Both formats: the message re-appended four times under one id gives each call
    once, with its final status, and the usage of every message's last ``tokens``."""
    headless = the_account(folded(FileSource(SESSIONS / "gemini" / "headless-equivalent.ndjson")))
    state = folded(source_of(session))
    assert the_account(state) == headless
    assert headless["calls"][1][3] == "error" and headless["usage"]["input_tokens"] == 2700
    assert state.sessions[0].agent == "gemini" and state.sessions[0].model == "gemini-2.5-pro"


def test_an_unknown_gemini_record_is_counted_never_painted() -> None:
    state = folded(FileSource(GEMINI_JSONL))
    assert [u.type for u in state.unknown] == ["$futureOp"]
    assert "futureOp" not in (session_summary(state.sessions[0])["text"] or "")


def test_a_gemini_record_appended_again_changes_only_what_changed(tmp_path: Path) -> None:
    """Last wins: a call seen running, then ended, is one call; tokens replaced, not
    added; a rewind is said in the event log."""
    lines = GEMINI_JSONL.read_bytes().splitlines()
    records = [orjson.loads(line) for line in lines]
    answer = records[9]  # the answer, with its tokens
    again = {**answer, "tokens": {"input": 1500, "output": 30, "cached": 1000, "total": 1530}}
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"\n".join([*lines, orjson.dumps(again), b'{"$rewindTo":"zz"}']) + b"\n")
    state = folded(FileSource(path))
    account = the_account(state)
    assert len(account["calls"]) == 2
    assert account["usage"]["output_tokens"] == 40 + 30  # the answer's last tokens only
    assert [n for n in state.notices if "rewound" in getattr(n, "text", "")]


def test_an_opencode_database_folds_as_its_headless_stream_and_is_left_untouched(
    tmp_path: Path,
) -> None:
    """Read with mode=ro: the file's bytes and mtime are those before the read."""
    database = tmp_path / "opencode.db"
    shutil.copy2(OPENCODE_DB, database)
    with closing(sqlite3.connect(database)) as writer:  # opencode keeps it in WAL mode
        assert writer.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["opencode.db"]
    before = (database.read_bytes(), os.stat(database).st_mtime_ns)
    headless = folded(FileSource(SESSIONS / "opencode" / "headless-equivalent.ndjson"))
    state = folded(source_of(database))
    assert (database.read_bytes(), os.stat(database).st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["opencode.db"]  # no -wal, no -shm
    account = the_account(state)
    expected = the_account(headless)
    assert account["prompt"] == "Read config.json and tell me the port"
    expected["prompt"] = account["prompt"]  # the headless stream prints no prompt
    assert account == expected
    assert state.sessions[0].cwd == "/work/app"
    assert [u.type for u in state.unknown] == ["part/future-part"]


@pytest.mark.parametrize(
    ("session", "name"),
    [
        (GEMINI_JSONL, "gemini-session"),
        (GEMINI_JSON, "gemini-session"),
        (OPENCODE_DB, "opencode-session"),
    ],
)
def test_a_session_file_is_recognised_without_agent(session: Path, name: str) -> None:
    data = b"".join(source_of(session).chunks(threading.Event()))
    assert detect(orjson.loads(line) for line in data.splitlines()).name == name


@pytest.mark.parametrize("session", [GEMINI_JSON, OPENCODE_DB], ids=["legacy-json", "opencode-db"])
def test_a_session_read_whole_is_read_again_from_its_start(session: Path) -> None:
    """The viewer peeks at an input before reading it: a second read is whole too."""
    source = source_of(session)
    first = b"".join(source.chunks(threading.Event()))
    assert first and b"".join(source.chunks(threading.Event())) == first


def test_a_rewound_gemini_session_shows_what_is_left_and_says_so(tmp_path: Path) -> None:
    """``/rewind`` (``$rewindTo``) takes messages back: a file read whole shows the
    conversation as the CLI resumes it, and the event log says a rewind happened."""
    header, prompt = (
        orjson.loads(GEMINI_JSONL.read_bytes().splitlines()[0]),
        {
            "id": "u1",
            "type": "user",
            "content": "first try",
        },
    )
    records = [
        header,
        prompt,
        {"id": "g1", "type": "gemini", "content": "an answer taken back"},
        {"$rewindTo": "u1"},
        {"id": "u2", "type": "user", "content": "second try"},
        {"id": "g2", "type": "gemini", "content": "the answer kept"},
    ]
    path = tmp_path / "session-rewound.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    state = folded(source_of(path))
    said = session_summary(state.sessions[0])
    assert (said["prompt"], said["text"]) == ("second try", "the answer kept")
    assert [n for n in state.notices if "rewound" in getattr(n, "text", "")]


def test_gemini_info_warning_and_error_messages_go_to_the_event_log() -> None:
    """``info`` is what the CLI tells the person, ``warning``/``error`` as the headless
    stream's ``error`` record says them; none is the answer."""
    header = GEMINI_JSONL.read_bytes().splitlines()[0]
    said = [
        {"id": "i1", "type": "info", "content": "Switched to gemini-2.5-flash"},
        {"id": "w1", "type": "warning", "content": "Loop detected"},
    ]
    state = fold([header + b"\n" + b"".join(orjson.dumps(r) + b"\n" for r in said)])
    kinds = [(type(n).__name__, getattr(n, "subtype", None)) for n in state.notices]
    assert kinds == [("AgentNotice", None), ("ConnectionNotice", "warning")]
    assert not session_summary(state.sessions[0])["text"]
