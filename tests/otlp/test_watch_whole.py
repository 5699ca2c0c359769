"""``sessions --watch --otlp`` on sessions read whole: a legacy Gemini CLI session (one
JSON object, rewritten whole on each change) and opencode's database (read read-only).
Each span goes once, across rewrites, a restart and a database the agent holds locked
(the SDK's in-memory exporter as the backend)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

import streamview.fronts.otlp.whole as whole
from streamview.core.otlp_spans import spans_of
from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.export import SpanExport
from streamview.fronts.otlp.watch import SessionWatch, Watched, WatchLedger
from streamview.sources.opencode_db import read_session
from streamview.sources.session_source import gemini_records
from tests.otlp.helpers import REPO

SESSIONS = REPO / "tests" / "fixtures" / "sessions"
GEMINI = SESSIONS / "gemini" / "session-2026-11-20T10-00-3f2a9c1e.json"
OPENCODE = SESSIONS / "opencode" / "opencode.db"
SESSION = "ses_4b1f0c2a7ffeA1b2C3d4E5f6G7"
SETTINGS = OtlpSettings(endpoint="http://unused.invalid/v1/traces")


def _watch(folder: Path, exporter: Any) -> SessionWatch:
    ledger = WatchLedger(folder, SETTINGS.endpoint)
    ledger.open()
    return SessionWatch(ledger, SpanExport(SETTINGS, exporter=exporter))


def _ids(exporter: Any) -> list[int]:
    return sorted(span.context.span_id for span in exporter.get_finished_spans())


def test_a_rewritten_gemini_session_is_sent_once_across_a_restart(tmp_path: Path) -> None:
    """The file holds one call, then is rewritten whole with a second call and the
    answer: the rewrite sends the new call only; a watch started again sends nothing
    it sent; once quiet, the session's root goes, and every span went once."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    document = json.loads(GEMINI.read_bytes())
    first_call = dict(document["messages"][1], toolCalls=document["messages"][1]["toolCalls"][:1])
    session = tmp_path / GEMINI.name
    session.write_text(json.dumps(dict(document, messages=[document["messages"][0], first_call])))
    backend = InMemorySpanExporter()
    watch = _watch(tmp_path / "state", backend)
    assert watch.look([Watched(session, live=True)]) == 1
    assert [s.name for s in backend.get_finished_spans()] == ["execute_tool glob"]
    session.write_text(json.dumps(document, indent=2))  # the whole file, rewritten
    assert watch.look([Watched(session, live=True)]) == 1
    assert watch.look([Watched(session, live=True)]) == 0
    watch.ledger.close()

    again = _watch(tmp_path / "state", backend)
    assert again.look([Watched(session, live=True)]) == 0
    assert again.look([Watched(session, live=False)]) == 1  # quiet: the root
    assert again.look([Watched(session, live=False)]) == 0
    expected = spans_of(whole.folded(gemini_records(session) or []), anchor_ms=0)
    assert _ids(backend) == sorted(span.span_id for span in expected)
    assert [s.name for s in backend.get_finished_spans()][-1] == "invoke_agent gemini"


def test_an_opencode_database_is_read_only_and_each_span_goes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """History is not sent and the database is left as it was (no byte changed, no
    file made beside it); a session that goes on is sent as its calls end, a look
    while opencode holds the database locked sends nothing and waits no longer than
    the busy timeout, the next sends it; a restart repeats nothing, and the root goes
    once the session is quiet."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    database = tmp_path / "opencode" / "opencode.db"
    database.parent.mkdir()
    shutil.copy(OPENCODE, database)
    digest = hashlib.sha256(database.read_bytes()).hexdigest()
    backend = InMemorySpanExporter()
    watch = _watch(tmp_path / "state", backend)
    assert watch.look([Watched(database, live=False)]) == 0  # history
    assert hashlib.sha256(database.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in database.parent.iterdir()) == ["opencode.db"]

    writer = sqlite3.connect(database)  # opencode, going on with the session
    writer.execute("PRAGMA journal_mode=WAL")
    now = int(time.time() * 1000)
    message = {"role": "assistant", "modelID": "claude-sonnet-4-5", "time": {"created": now}}
    writer.execute(
        "INSERT INTO message VALUES ('msg_d1', ?, ?, ?, ?)",
        (SESSION, now, now, json.dumps(message)),
    )
    state = {"status": "running", "input": {"filePath": "/work/app/b.txt"}, "time": {"start": now}}
    part = {"type": "tool", "callID": "toolu_03", "tool": "read", "state": state}
    writer.execute(
        "INSERT INTO part VALUES ('prt_d1', 'msg_d1', ?, ?, ?, ?)",
        (SESSION, now, now, json.dumps(part)),
    )
    writer.commit()
    assert watch.look([Watched(database, live=True)]) == 2  # its ended calls, not the open one

    writer.execute("PRAGMA locking_mode=EXCLUSIVE")  # held until the writer closes
    state.update(status="completed", output="b", time={"start": now, "end": now + 5})
    writer.execute(
        "UPDATE part SET data = ?, time_updated = ? WHERE id = 'prt_d1'",
        (json.dumps(part), now + 5),
    )
    writer.commit()
    assert watch.look([Watched(database, live=True)]) == 0  # busy: the next look
    writer.close()
    assert watch.look([Watched(database, live=True)]) == 1
    watch.ledger.close()

    again = _watch(tmp_path / "state", backend)
    assert again.look([Watched(database, live=True)]) == 0
    monkeypatch.setattr(whole, "LIVE_SECONDS", 0.0)  # the session went quiet
    assert again.look([Watched(database, live=False)]) == 1
    assert again.look([Watched(database, live=False)]) == 0
    expected = spans_of(whole.folded(read_session(database, SESSION) or []), anchor_ms=0)
    assert _ids(backend) == sorted(span.span_id for span in expected)  # each once
    assert [s.name for s in backend.get_finished_spans()][-1] == "invoke_agent opencode"
