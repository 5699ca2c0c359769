"""A Gemini CLI session read whole with its subagents' sessions
(``chats/<session id>/<agent id>.jsonl``, ``kind: "subagent"``), each nested under
the call that ran it.

Fixture: ``tests/fixtures/sessions/gemini/subagent/`` (SOURCES.md: built from
gemini-cli's ``chatRecordingService.ts``, ``local-executor.ts`` and ``geminiChat.ts``).
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import orjson

from streamview.core import tools
from streamview.core.model import PROMPT
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.sources.session_files import session_source_for
from tests.core.dialects.session_follower import Follower

CHATS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "gemini" / "subagent"
PARENT = CHATS / "session-2026-11-21T09-30-7c1e9b2a.jsonl"
AGENT = (
    CHATS / "7c1e9b2a-4d6f-4a8e-9b3c-2e5f7a9c1d3b" / "5d3f8e21-9a4b-4c7d-8e6f-1a2b3c4d5e6f.jsonl"
)
INVOKE = "invoke_agent-1763717405000-3c1d"
NESTED = [
    ("read_file-1763717410000-8a2f", "read", tools.SUCCEEDED, INVOKE),
    ("complete_task-1763717419000-1b7e", "complete_task", tools.SUCCEEDED, INVOKE),
]


def read_whole(path: Path) -> StreamState:
    source = session_source_for(path)
    assert source is not None, path
    return fold([b"".join(source.chunks(threading.Event()))])


def test_a_subagents_calls_nest_under_the_call_that_ran_it() -> None:
    state = read_whole(PARENT)
    (session,) = state.sessions  # the subagent's header starts no session of its own
    calls = [(c.call_id, c.kind, c.status, c.parent_call_id) for c in session.tool_calls]
    assert calls == [(INVOKE, "task", tools.SUCCEEDED, None), *NESTED]
    assert session.calls_by_id[INVOKE].target == "codebase_investigator"
    assert [b.text for b in session.blocks if b.kind == PROMPT] == [
        "Where are the settings loaded?"
    ]  # the subagent's "Get Started!" is not the person's
    assert session.text == "The settings are loaded by load_settings() in src/settings.py."
    alone = fold([PARENT.read_bytes()])
    assert [c.call_id for c in alone.sessions[0].tool_calls] == [INVOKE]  # as its file
    # The parent's usage is the parent's: the subagent's tokens are its own.
    assert session.outcome.usage == alone.sessions[0].outcome.usage
    assert state.counts.unknown == 0


def test_an_agent_call_without_agent_id_takes_the_next_subagent(tmp_path: Path) -> None:
    """Records from before ``agentId`` was kept (April 2026): the agent call is linked
    to the subagent started in its turn, in order; a subagent's file alone is its own
    session, and a session with no subagent folder is read as its file."""
    lines = [orjson.loads(line) for line in PARENT.read_bytes().splitlines()]
    for record in lines:
        for call in record.get("toolCalls", []):
            del call["agentId"]
    parent = tmp_path / PARENT.name
    parent.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in lines))
    assert session_source_for(parent) is None  # no subagent folder yet
    shutil.copytree(AGENT.parent, tmp_path / AGENT.parent.name)
    (session,) = read_whole(parent).sessions
    nested = [(c.call_id, c.kind, c.status, c.parent_call_id) for c in session.tool_calls[1:]]
    assert nested == NESTED
    assert session_source_for(tmp_path / AGENT.parent.name / AGENT.name) is None


def test_a_followed_session_nests_its_subagent_once_the_call_is_written(
    tmp_path: Path,
) -> None:
    """Followed (``--follow``, a live run opened from ``streamview sessions``): the
    subagent's session is written while it runs, the parent's call only once it has
    ended; the subagent's records are held, then handed on under the call."""
    parent_lines = PARENT.read_bytes().splitlines(keepends=True)
    path = tmp_path / PARENT.name
    path.write_bytes(b"".join(parent_lines[:5]))  # the prompt and the model's first words
    follower = Follower(path)
    try:
        follower.wait(lambda calls: bool(follower.state.sessions))
        shutil.copytree(AGENT.parent, tmp_path / AGENT.parent.name)  # the subagent ran
        with open(path, "ab") as handle:
            handle.write(b"".join(parent_lines[5:]))  # the call, ended, and the answer
        follower.wait(
            lambda calls: (
                [(c, s, p) for c, s, p in calls]
                == [(INVOKE, tools.SUCCEEDED, None), *[(c, s, p) for c, _, s, p in NESTED]]
            )
        )
        with follower.lock:
            (session,) = follower.state.sessions
            assert [b.text for b in session.blocks if b.kind == PROMPT] == [
                "Where are the settings loaded?"
            ]
    finally:
        follower.stop.set()


def legacy(path: Path) -> bytes:
    """A JSONL session as the CLI kept it before its JSONL (one pretty-printed
    ``ConversationRecord``: the header, ``$set`` applied, each message's last version),
    without ``agentId`` (kept since 2026-04-10, after the JSONL)."""
    records = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    header, messages = dict(records[0]), {}
    for record in records[1:]:
        if "$set" in record:
            header.update(record["$set"])
        else:
            for call in record.get("toolCalls", []):
                call.pop("agentId", None)
            messages[record["id"]] = record
    return orjson.dumps({**header, "messages": list(messages.values())}, option=orjson.OPT_INDENT_2)


def test_a_legacy_json_sessions_subagent_nests_under_its_call(tmp_path: Path) -> None:
    """``session-*.json`` from 2026-03-26 until the JSONL (gemini-cli 104587bae8 to
    f744913584): the subagent wrote ``chats/<session id>/<agent id>.json``, a whole
    file too; its calls nest under the agent call, linked in order, as the JSONL's do."""
    parent = tmp_path / PARENT.with_suffix(".json").name
    parent.write_bytes(legacy(PARENT))
    (session,) = read_whole(parent).sessions
    assert [c.call_id for c in session.tool_calls] == [INVOKE]  # no folder: as its file
    folder = tmp_path / AGENT.parent.name
    folder.mkdir()
    (folder / AGENT.with_suffix(".json").name).write_bytes(legacy(AGENT))
    state = read_whole(parent)
    (session,) = state.sessions
    calls = [(c.call_id, c.kind, c.status, c.parent_call_id) for c in session.tool_calls]
    assert calls == [(INVOKE, "task", tools.SUCCEEDED, None), *NESTED]
    assert [b.text for b in session.blocks if b.kind == PROMPT] == [
        "Where are the settings loaded?"
    ]
    assert session.text == "The settings are loaded by load_settings() in src/settings.py."
    assert state.counts.unknown == 0


def test_an_older_legacy_sessions_subagent_beside_it_nests_under_its_call(
    tmp_path: Path,
) -> None:
    """Before 2026-03-26 (gemini-cli d2d345f41a): the subagent's whole file was a
    ``session-*.json`` beside its parent's, with the parent's ``sessionId`` and
    ``kind: "subagent"``; read alone, it is its own run."""
    parent = tmp_path / PARENT.with_suffix(".json").name
    parent.write_bytes(legacy(PARENT))
    child = orjson.loads(legacy(AGENT))
    child["sessionId"] = orjson.loads(parent.read_bytes())["sessionId"]
    beside = tmp_path / "session-2026-11-21T09-31-7c1e9b2a.json"
    beside.write_bytes(orjson.dumps(child, option=orjson.OPT_INDENT_2))
    (session,) = read_whole(parent).sessions
    calls = [(c.call_id, c.kind, c.status, c.parent_call_id) for c in session.tool_calls]
    assert calls == [(INVOKE, "task", tools.SUCCEEDED, None), *NESTED]
    (alone,) = read_whole(beside).sessions
    assert [c.parent_call_id for c in alone.tool_calls] == [None, None]
