"""A Claude Code session read whole: its subagents' own files nested under the calls
that started them, and the branch a ``/rewind`` left out.

Fixture: ``tests/fixtures/sessions/claude/ae4a77f8-...jsonl`` (the first 101 lines of a
real Claude Code 2.1.39 session) with its ``subagents/agent-aac57f5.jsonl`` and the
compaction request ``agent-acompact-946d2b.jsonl`` beside it (SOURCES.md).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.core import tools
from streamview.core.dialects import CallReparser, by_name
from streamview.core.events import ConnectionNotice
from streamview.core.linestore import LineStore
from streamview.core.model import PROMPT
from streamview.core.reader import EventReader, fold
from streamview.core.state import StreamState
from streamview.sources import claude_session_files
from streamview.sources.claude_session_files import subagent_files
from streamview.sources.claude_session_follow import ClaudeFollowSource
from streamview.sources.claude_session_scan import TreeIndex
from streamview.sources.session_files import session_source_for

from .test_claude_session import SESSIONS, account, headless, records

SESSION = SESSIONS / "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"
AGENT = SESSIONS / SESSION.stem / "subagents" / "agent-aac57f5.jsonl"
TASK = "toolu_01Hf8v1Za7y4af8VUwSR4CXU"


def read_whole(path: Path) -> bytes:
    source = session_source_for(path)
    assert source is not None, path
    return b"".join(source.chunks(threading.Event()))


def own(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def test_a_subagents_own_file_nests_under_the_task_call_that_started_it() -> None:
    """The subagent's whole transcript (its file) is fed in under its Task call: every
    call it made, each once (the session's partial mirror of it is left out), nested."""
    assert [p.name for p in subagent_files(SESSION)] == ["agent-aac57f5.jsonl"]  # no acompact
    data = read_whole(SESSION)
    state = fold([data])
    (session,) = state.sessions
    (task,) = [c for c in session.tool_calls if c.kind == "task"]
    assert task.call_id == TASK and task.status == tools.SUCCEEDED
    nested = [c for c in session.tool_calls if c.parent_call_id == TASK]
    made = [
        block["id"]
        for record in own(AGENT)
        if record["type"] == "assistant"
        for block in record["message"]["content"]
        if block["type"] == "tool_use"
    ]
    assert [c.call_id for c in nested] == made
    assert len(made) == 12  # the Task result's toolUseResult says totalToolUseCount 12
    assert all(c.status == tools.SUCCEEDED for c in nested)
    assert state.counts.unknown == 0
    # The subagent's last words are its answer to the call, not the session's answer.
    last = own(AGENT)[-1]["message"]["content"][0]["text"]
    assert last[:60] not in session.text
    prompts = [b.text for b in session.blocks if b.kind == PROMPT]
    assert len(prompts) == 1 and prompts[0].startswith("Work on bead spotter-4te")
    # Opening a nested call reads its record back: the subagent's own line.
    store = LineStore()
    reader = EventReader(store)
    replayed = StreamState(track_changes=False)
    for event in [*reader.feed(data), *reader.finish()]:
        replayed.apply(event)
    call = next(c for c in replayed.sessions[0].tool_calls if c.call_id == made[0])
    assert call.completed_line is not None
    line = store.get(call.completed_line)
    assert line is not None and orjson.loads(line)["agentId"] == "aac57f5"
    done = CallReparser(by_name("claude-session"), call.call_id)(line, call.completed_line)
    assert done is not None and done.completed


def test_a_session_with_its_subagent_folds_to_the_account_of_its_headless_stream() -> None:
    """The headless stream of the same run prints the subagent's messages under the Task
    call (``parent_tool_use_id``) while it works: the session and its subagent's file
    read whole fold to that account (prompt, answer, thinking, calls by kind, status and
    parent, usage counted once per response, model)."""
    main = records(SESSION.name)
    mirrored = [
        n
        for n, r in enumerate(main)
        if r["type"] == "progress" and r["data"].get("type") == "agent_progress"
    ]
    subagent = [
        {"type": "progress", "parentToolUseID": TASK,
         "data": {"type": "agent_progress", "message": record}}
        for record in own(AGENT)
    ]  # fmt: skip
    stream = [*main[: mirrored[0]], *subagent]
    stream += [r for n, r in enumerate(main) if n >= mirrored[0] and n not in mirrored]
    expected = account(fold([headless(stream)]))
    got = account(fold([read_whole(SESSION)]))
    assert got == expected
    plain = account(fold([SESSION.read_bytes()]))  # the mirror alone: part of the work
    assert got["usage"] != plain["usage"] and got["thinking"] != plain["thinking"]
    kinds = [(kind, status) for _, kind, _, status, parent in got["calls"] if parent == TASK]
    assert len(kinds) == 12 and ("webSearch", tools.SUCCEEDED) in kinds


def test_a_subagent_still_at_work_is_found_by_its_prompt(tmp_path: Path) -> None:
    """Before its result names it, a subagent's file is linked to the open call whose
    prompt it was given (the newer releases write no mirror in the session)."""
    main = records(SESSION.name)
    result = next(
        n for n, r in enumerate(main) if isinstance(r.get("toolUseResult"), dict)
        and r["toolUseResult"].get("agentId") == "aac57f5"
    )  # fmt: skip
    kept = [
        r for r in main[:result]
        if not (r["type"] == "progress" and r["data"].get("type") == "agent_progress")
    ]  # fmt: skip
    path = tmp_path / SESSION.name
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in kept))
    folder = tmp_path / SESSION.stem / "subagents"
    folder.mkdir(parents=True)
    (folder / AGENT.name).write_bytes(AGENT.read_bytes())
    (session,) = fold([read_whole(path)]).sessions
    (task,) = [c for c in session.tool_calls if c.kind == "task"]
    assert task.completed_line is None  # no result yet: the file ends with it at work
    assert len([c for c in session.tool_calls if c.parent_call_id == task.call_id]) == 12


@pytest.mark.parametrize("block", [None, 97])
def test_a_rewound_session_read_whole_shows_the_branch_of_its_newest_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int | None
) -> None:
    """After a ``/rewind`` to the second prompt, the branch leading to the newest record
    is the account (turn 1, then the new prompt and its answer): the second turn, left
    behind, is not shown, and a notice says where it is in the file. The same when the
    file is searched for its branches 97 bytes at a time (every line spans blocks)."""
    if block is not None:
        monkeypatch.setattr(claude_session_files, "BLOCK_BYTES", block)
    lines = records("tool_heavy.jsonl")
    sid = lines[-1]["sessionId"]
    second = next(
        n for n, r in enumerate(lines) if r["type"] == "user"
        and str(r["message"]["content"]).startswith("scrolling back")
    )  # fmt: skip
    prompt = {
        "parentUuid": lines[second]["parentUuid"], "isSidechain": False, "cwd": "/",
        "userType": "external", "sessionId": sid, "version": "2.1.38", "type": "user",
        "uuid": "rewound-1", "timestamp": "2026-02-12T20:00:00.000Z",
        "message": {"role": "user", "content": "try it another way"},
    }  # fmt: skip
    back = next(r for r in lines if r.get("type") == "assistant")
    reply = dict(back, parentUuid="rewound-1", uuid="rewound-2")
    reply["message"] = dict(
        back["message"], id="msg_rewound", content=[{"type": "text", "text": "Another way."}]
    )
    path = tmp_path / "rewound.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in [*lines, prompt, reply]))
    state = fold([read_whole(path)])
    turn_one = fold([b"".join(orjson.dumps(r) + b"\n" for r in [*lines[:second], prompt, reply])])
    got, expected = account(state), account(turn_one)
    assert got["prompts"] == ["start phoenix in background", "try it another way"]
    assert got == expected and got["calls"]
    assert got["text"].endswith("Another way.")
    (rewind,) = [
        n for n in state.notices if isinstance(n, ConnectionNotice) and n.subtype == "rewound"
    ]
    assert rewind.detail is not None
    assert rewind.detail.startswith("the conversation goes on from line ")
    assert f"lines {second + 1}-" in rewind.detail and "not shown" in rewind.detail
    # Read as it grows (followed), the branch is said where it comes: nothing to hide.
    assert isinstance(session_source_for(path, follow=True), ClaudeFollowSource)


def test_a_session_with_neither_is_read_as_its_file() -> None:
    """No subagent file, no branch: the file is the stream (its lines keep their
    places, and --replay has their times)."""
    for name in ("short.jsonl", "tool_heavy.jsonl", "subagent.jsonl"):
        assert session_source_for(SESSIONS / name) is None, name
    assert session_source_for(SESSION, replay=True) is None


def test_a_followed_session_shows_its_subagent_as_its_file_grows(tmp_path: Path) -> None:
    """Newer releases write a subagent's work only in its own file: followed, the file
    is found in ``subagents/`` once it appears, linked to the open call by its prompt,
    and its calls nest under that call as they are written, each once."""
    main = records(SESSION.name)
    task_line = next(
        n for n, r in enumerate(main) if r["type"] == "assistant"
        and any(b.get("id") == TASK for b in r["message"]["content"])
    )  # fmt: skip
    mirror = {n for n, r in enumerate(main) if r["type"] == "progress"}
    before = [r for n, r in enumerate(main[: task_line + 1]) if n not in mirror]
    after = [r for n, r in enumerate(main) if n > task_line and n not in mirror]
    path = tmp_path / SESSION.name
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in before))
    agent_lines = AGENT.read_bytes().splitlines(keepends=True)
    folder = tmp_path / SESSION.stem / "subagents"
    source = session_source_for(path, follow=True)
    assert isinstance(source, ClaudeFollowSource)
    state = StreamState(track_changes=False)
    reader = EventReader()
    lock = threading.Lock()
    stop = threading.Event()

    def read() -> None:
        for chunk in source.chunks(stop):
            with lock:
                for event in reader.feed(chunk):
                    state.apply(event)

    def nested() -> list[str]:
        with lock:
            calls = state.sessions[0].tool_calls if state.sessions else []
            return [c.call_id for c in calls if c.parent_call_id == TASK]

    def wait_for(low: int, high: int) -> None:
        end = time.monotonic() + 15
        while not low <= len(nested()) <= high and time.monotonic() < end:
            time.sleep(0.02)
        assert low <= len(nested()) <= high, nested()

    threading.Thread(target=read, daemon=True).start()
    try:
        folder.mkdir(parents=True)
        (folder / AGENT.name).write_bytes(b"".join(agent_lines[:10]))
        wait_for(1, 11)  # its first calls, before the session says anything of it
        with open(folder / AGENT.name, "ab") as handle:
            handle.write(b"".join(agent_lines[10:]))
        with open(path, "ab") as handle:
            handle.write(b"".join(orjson.dumps(r) + b"\n" for r in after))
        wait_for(12, 12)
        end = time.monotonic() + 15
        while time.monotonic() < end:
            with lock:
                task = state.sessions[0].calls_by_id[TASK]
            if task.status == tools.SUCCEEDED:
                break
            time.sleep(0.02)
        assert task.status == tools.SUCCEEDED
        assert len(set(nested())) == 12
    finally:
        stop.set()


def test_the_tree_index_finds_each_uuid_s_newest_line_and_the_lines_between() -> None:
    """What the branch search keeps of each line (its number and its uuid's hash) finds
    a parent's line (the newest, should a uuid come twice), nothing for a uuid never
    seen, and the conversation lines between two lines."""
    index = TreeIndex()
    for number, uuid in [(0, "a"), (2, "b"), (3, "c"), (7, "b"), (9, "d")]:
        index.add(uuid, number)
    assert [index.line_of(uuid) for uuid in "abcdz"] == [0, 7, 3, 9, None]
    assert index.between(0, 9) == [2, 3, 7] and index.between(3, 4) == []
