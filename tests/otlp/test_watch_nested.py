"""``sessions --watch --otlp`` on sessions whose subagents write files of their own
(Claude Code's ``<session>/subagents/``, Codex's spawned threads' rollouts): each
subagent call is sent once, under the call that started it, across a restart, with the
ids a whole read gives (the SDK's in-memory exporter as the backend)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import streamview.fronts.otlp.nested as nested
from streamview.core.otlp_spans import spans_of
from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.export import SpanExport
from streamview.fronts.otlp.watch import SessionWatch, Watched, WatchLedger
from streamview.fronts.otlp.whole import folded
from streamview.sources import claude_session_files, codex_session_files
from tests.otlp.helpers import REPO

SESSIONS = REPO / "tests" / "fixtures" / "sessions"
CLAUDE = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"
CODEX_DAY = SESSIONS / "codex" / "spawned" / "2026" / "09" / "28"
CODEX_PARENT = "rollout-2026-09-28T13-01-29-01a0e81b-2a8b-7240-b94c-ad2ada7813da.jsonl"
SETTINGS = OtlpSettings(endpoint="http://unused.invalid/v1/traces")


@pytest.fixture
def no_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole reads as often as the test looks (their pause is tested on its own)."""
    monkeypatch.setattr(nested, "PAUSE_FACTOR", 0.0)


def _watch(folder: Path, exporter: Any) -> SessionWatch:
    ledger = WatchLedger(folder, SETTINGS.endpoint)
    ledger.open()
    return SessionWatch(ledger, SpanExport(SETTINGS, exporter=exporter))


def _backend() -> Any:
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    return InMemorySpanExporter()


def _sent(exporter: Any) -> dict[int, Any]:
    spans = exporter.get_finished_spans()
    ids = [span.context.span_id for span in spans]
    assert len(ids) == len(set(ids)), "a span went twice"
    return {span.context.span_id: span for span in spans}


def _whole(records: Any) -> list[Any]:
    """The spans of a session read whole (as ``export`` reads it)."""
    return spans_of(folded(records or []), anchor_ms=0)


def _under(sent: dict[int, Any], whole: list[Any], call: str) -> list[str]:
    """The names of the spans sent whose parent is the span of the call ``call``."""
    ids = [s.span_id for s in whole if s.attributes.get("gen_ai.tool.call.id") == call]
    assert len(ids) == 1
    return [s.name for s in sent.values() if s.parent and s.parent.span_id == ids[0]]


def _claude_session(folder: Path) -> tuple[Path, list[bytes]]:
    """The subagent fixture as Claude Code writes it today: the subagent's work in its
    own file only (no ``agent_progress`` mirror in the session's)."""
    shutil.copytree(SESSIONS / "claude" / CLAUDE, folder / CLAUDE)
    lines = (SESSIONS / "claude" / f"{CLAUDE}.jsonl").read_bytes().splitlines(keepends=True)
    return folder / f"{CLAUDE}.jsonl", [line for line in lines if b'"agent_progress"' not in line]


def test_a_claude_sessions_subagent_calls_go_once_under_its_task_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_pause: None
) -> None:
    """While the Task call runs, its subagent's ended calls go, each with the Task
    call's span as parent (the session's own file never holds them); then the Task
    call; a watch started again sends nothing; once quiet the session is done, and
    every span went once with the ids of a whole read."""
    session, lines = _claude_session(tmp_path / "project")
    task = "toolu_01Hf8v1Za7y4af8VUwSR4CXU"
    started = next(n for n, line in enumerate(lines) if task.encode() in line)
    session.write_bytes(b"".join(lines[: started + 1]))  # the Task call, running
    backend = _backend()
    watch = _watch(tmp_path / "state", backend)
    assert watch.look([Watched(session, live=True)]) > 0
    sent = _sent(backend)
    under = _under(sent, _whole(claude_session_files.session_records(session)), task)
    assert len(under) == 12 and set(under) == {"execute_tool webSearch", "execute_tool webFetch"}
    assert not any(s.attributes.get("gen_ai.tool.call.id") == task for s in sent.values())

    session.write_bytes(b"".join(lines))  # the subagent answered: the call ended
    assert watch.look([Watched(session, live=True)]) > 0
    assert watch.look([Watched(session, live=True)]) == 0
    whole = _whole(claude_session_files.session_records(session))
    assert len(_under(_sent(backend), whole, task)) == 12
    assert any(s.attributes.get("gen_ai.tool.call.id") == task for s in _sent(backend).values())
    watch.ledger.close()

    again = _watch(tmp_path / "state", backend)
    assert again.look([Watched(session, live=True)]) == 0
    monkeypatch.setattr(nested, "LIVE_SECONDS", 0.0)  # the subagent's file went quiet too
    again.look([Watched(session, live=False)])  # its result ended it: the root went
    assert again.ledger.files[str(session)].done
    assert again.look([Watched(session, live=False)]) == 0
    assert sorted(_sent(backend)) == sorted(span.span_id for span in whole)
    assert [s.name for s in backend.get_finished_spans()][-1].startswith("invoke_agent")


def test_a_codex_spawned_threads_calls_go_once_under_its_spawn_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_pause: None
) -> None:
    """A spawned thread's rollout is no run of its own: its calls go with its parent's
    session, under the spawn call, as its own rollout grows (the parent's unchanged);
    a watch started again sends nothing; once quiet, every span went once with the ids
    of a whole read."""
    day = tmp_path / "sessions" / "2026" / "09" / "28"
    day.mkdir(parents=True)
    parent = day / CODEX_PARENT
    (child_fixture,) = (p for p in CODEX_DAY.glob("rollout-*.jsonl") if p.name != CODEX_PARENT)
    child = day / child_fixture.name
    lines = (CODEX_DAY / CODEX_PARENT).read_bytes().splitlines(keepends=True)
    child_lines = child_fixture.read_bytes().splitlines(keepends=True)
    spawn = "call_SdAv8h0y9zwTrmpiNTHyAPTW"
    answered = next(n for n, line in enumerate(lines) if b"function_call_output" in line)
    parent.write_bytes(b"".join(lines[: answered + 1]))  # the thread spawned
    ran = next(n for n, line in enumerate(child_lines) if b'"custom_tool_call"' in line)
    child.write_bytes(b"".join(child_lines[: ran + 1]))  # its command, running
    backend = _backend()
    watch = _watch(tmp_path / "state", backend)
    watch.look([Watched(parent, live=True)])
    whole = _whole(codex_session_files.session_records(parent))
    assert _under(_sent(backend), whole, spawn) == []

    child.write_bytes(b"".join(child_lines))  # the thread's command ended
    assert watch.look([Watched(parent, live=True)]) == 1
    whole = _whole(codex_session_files.session_records(parent))
    assert _under(_sent(backend), whole, spawn) == ["execute_tool exec"]
    parent.write_bytes(b"".join(lines))  # the parent answered
    watch.look([Watched(parent, live=True)])
    assert watch.look([Watched(parent, live=True)]) == 0
    watch.ledger.close()

    again = _watch(tmp_path / "state", backend)
    assert again.look([Watched(parent, live=True)]) == 0
    monkeypatch.setattr(nested, "LIVE_SECONDS", 0.0)
    again.look([Watched(parent, live=False)])
    assert again.ledger.files[str(parent)].done
    assert again.look([Watched(parent, live=False)]) == 0
    whole = _whole(codex_session_files.session_records(parent))
    assert sorted(_sent(backend)) == sorted(span.span_id for span in whole)
    assert [s.name for s in backend.get_finished_spans()][-1].startswith("invoke_agent")


def _task_under(sent: dict[int, Any], whole: list[Any]) -> list[str]:
    """The names of the spans sent under the session's one ``task`` call."""
    (call,) = (s for s in whole if s.name == "execute_tool task")
    return sorted(s.name for s in sent.values() if s.parent and s.parent.span_id == call.span_id)


@pytest.mark.parametrize(
    ("agent", "cut", "then", "under"),
    [
        # Gemini CLI writes the delegating call once it is done (line 6).
        ("gemini", 5, 7, ["execute_tool complete_task", "execute_tool read"]),
        ("cursor", 2, 2, ["execute_tool shell"]),
    ],
)
def test_gemini_and_cursor_subagents_calls_go_once_under_their_task_call(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_pause: None,
    agent: str,
    cut: int,
    then: int,
    under: list[str],
) -> None:
    """The session's file holds the delegating call (its subagent not started yet:
    read by offset), then the subagent's file appears (read whole from then on): its
    calls go under the task call; the session goes on and ends; a restart sends
    nothing; once quiet, every span went once with the ids of a whole read."""
    from streamview.sources import cursor_session_files, gemini_session_files

    source = SESSIONS / agent / "subagent"
    if agent == "cursor":
        (source,) = (p for p in source.iterdir() if p.is_dir())
        (main,) = source.glob("*.jsonl")
        read = cursor_session_files.session_records
    else:
        (main,) = source.glob("session-*.jsonl")
        read = gemini_session_files.session_records
    folder = tmp_path / "chats"
    shutil.copytree(source, folder)
    session = folder / main.name
    lines = main.read_bytes().splitlines(keepends=True)
    children = [p for p in folder.glob("*/*.jsonl")]
    kept = {p: p.read_bytes() for p in children}
    for child in children:
        child.unlink()
    session.write_bytes(b"".join(lines[:cut]))  # the task call, no subagent yet
    backend = _backend()
    watch = _watch(tmp_path / "state", backend)
    watch.look([Watched(session, live=True)])
    for child, data in kept.items():
        child.write_bytes(data)  # the subagent worked
    session.write_bytes(b"".join(lines[:then]))
    assert watch.look([Watched(session, live=True)]) >= len(under)
    assert _task_under(_sent(backend), _whole(read(session))) == under
    session.write_bytes(b"".join(lines))  # the session went on and ended
    watch.look([Watched(session, live=True)])
    assert watch.look([Watched(session, live=True)]) == 0
    watch.ledger.close()

    again = _watch(tmp_path / "state", backend)
    assert again.look([Watched(session, live=True)]) == 0
    monkeypatch.setattr(nested, "LIVE_SECONDS", 0.0)
    again.look([Watched(session, live=False)])
    assert again.ledger.files[str(session)].done
    assert again.look([Watched(session, live=False)]) == 0
    whole = _whole(read(session))
    assert sorted(_sent(backend)) == sorted(span.span_id for span in whole)
    assert _task_under(_sent(backend), whole) == under


def test_a_live_session_is_read_whole_again_only_after_a_pause_once_quiet_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A look that finds nothing changed reads nothing; a change within the pause
    (``PAUSE_FACTOR`` times the last whole read's duration, made huge here) waits, and
    a session gone quiet is read at once."""
    reads: list[Path] = []
    records = nested._records

    def counted(path: Path, kind: str) -> Any:
        reads.append(path)
        return records(path, kind)

    monkeypatch.setattr(nested, "_records", counted)
    monkeypatch.setattr(nested, "PAUSE_FACTOR", 1e9)
    session, lines = _claude_session(tmp_path / "project")
    task = "toolu_01Hf8v1Za7y4af8VUwSR4CXU"
    started = next(n for n, line in enumerate(lines) if task.encode() in line)
    session.write_bytes(b"".join(lines[: started + 1]))
    backend = _backend()
    watch = _watch(tmp_path / "state", backend)
    assert watch.look([Watched(session, live=True)]) > 0
    assert watch.look([Watched(session, live=True)]) == 0
    assert len(reads) == 1  # unchanged: not read again
    session.write_bytes(b"".join(lines))
    assert watch.look([Watched(session, live=True)]) == 0  # within the pause
    assert len(reads) == 1
    monkeypatch.setattr(nested, "LIVE_SECONDS", 0.0)
    assert watch.look([Watched(session, live=False)]) > 0  # quiet: at once
    assert len(reads) == 2 and watch.ledger.files[str(session)].done
    whole = _whole(claude_session_files.session_records(session))
    assert sorted(_sent(backend)) == sorted(span.span_id for span in whole)


def test_a_claude_2_0_subagent_file_beside_its_session_is_found_by_its_session_id(
    tmp_path: Path, no_pause: None
) -> None:
    """Claude Code 2.0.x wrote ``agent-<id>.jsonl`` beside the session (with other
    sessions' beside it too): the one whose first line names this session is read with
    it, another session's is not."""
    session, lines = _claude_session(tmp_path / "project")
    agent = session.with_suffix("") / "subagents" / "agent-aac57f5.jsonl"
    agent.rename(session.parent / agent.name)
    shutil.rmtree(session.with_suffix(""))
    other = session.parent / "agent-0ther.jsonl"
    other.write_bytes(b'{"sessionId":"another","type":"user","isSidechain":true}\n')
    session.write_bytes(b"".join(lines))
    backend = _backend()
    watch = _watch(tmp_path / "state", backend)
    watch.look([Watched(session, live=True)])
    whole = _whole(claude_session_files.session_records(session))
    assert len(_under(_sent(backend), whole, "toolu_01Hf8v1Za7y4af8VUwSR4CXU")) == 12
    assert watch._nested.subagent_files(session, session.stat()) == [session.parent / agent.name]
