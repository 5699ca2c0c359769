"""A Codex rollout read whole with the rollouts of the threads it spawned, each nested
under its ``spawn_agent`` call.

Fixture: ``tests/fixtures/sessions/codex/spawned/2026/09/28/`` (SOURCES.md): a parent
rollout and the rollout of the thread it spawned, in the lines of Codex 0.156.1.
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

SESSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "codex"
DAY = SESSIONS / "spawned" / "2026" / "09" / "28"
PARENT = DAY / "rollout-2026-09-28T13-01-29-01a0e81b-2a8b-7240-b94c-ad2ada7813da.jsonl"
CHILD = DAY / "rollout-2026-09-28T13-01-37-01a0e81b-4af7-7330-a113-bad47ba77c3e.jsonl"
SPAWN = "call_SdAv8h0y9zwTrmpiNTHyAPTW"


def read_whole(path: Path) -> StreamState:
    source = session_source_for(path)
    assert source is not None, path
    return fold([b"".join(source.chunks(threading.Event()))])


def test_a_spawned_threads_calls_nest_under_the_spawn_call() -> None:
    state = read_whole(PARENT)
    (session,) = state.sessions  # the child's session_meta starts no session of its own
    assert session.session_id == "01a0e81b-2a8b-7240-b94c-ad2ada7813da"
    calls = [(c.call_id, c.kind, c.target, c.status, c.parent_call_id) for c in session.tool_calls]
    assert calls == [
        (SPAWN, "task", "echo_task", tools.SUCCEEDED, None),
        ("call_jUEy1f2dcNuBFV9H9BmIeTCG", "exec",
         'text(await tools.exec_command({cmd:"echo sub-ok"}));\n', tools.SUCCEEDED, SPAWN),
    ]  # fmt: skip
    prompts = [b.text for b in session.blocks if b.kind == PROMPT]
    assert prompts == [orjson.loads(PARENT.read_bytes().splitlines()[1])["payload"]["message"]]
    assert session.text == "The subagent printed sub-ok."  # the child's answer is its own
    assert session.outcome.status == "success" and session.outcome.usage is None
    assert state.counts.unknown == 0
    # Read as its file, the parent alone has the spawn call and nothing under it.
    (alone,) = fold([PARENT.read_bytes()]).sessions
    assert [c.call_id for c in alone.tool_calls] == [SPAWN]


def test_a_thread_named_by_its_spawn_event_is_found_the_next_day(tmp_path: Path) -> None:
    """Older rollouts link the child by ``collab_agent_spawn_end.new_thread_id`` (no
    ``agent_path``); a thread spawned before midnight has its rollout in the next
    day's folder."""
    parent_day = tmp_path / "2026" / "09" / "28"
    child_day = tmp_path / "2026" / "09" / "29"
    parent_day.mkdir(parents=True)
    child_day.mkdir(parents=True)
    records = [orjson.loads(line) for line in PARENT.read_bytes().splitlines()]
    records[3]["payload"]["output"] = "{}"  # the output names nothing
    records[2]["payload"]["arguments"] = '{"message": "run echo sub-ok"}'
    records.insert(4, {
        "timestamp": "2026-09-28T13:01:38.000Z", "type": "event_msg",
        "payload": {"type": "collab_agent_spawn_end", "call_id": SPAWN,
                    "new_thread_id": "01a0e81b-4af7-7330-a113-bad47ba77c3e"},
    })  # fmt: skip
    parent = parent_day / PARENT.name
    parent.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    child = [orjson.loads(line) for line in CHILD.read_bytes().splitlines()]
    del child[0]["payload"]["agent_path"]
    (child_day / CHILD.name).write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in child))
    shutil.copy(PARENT, child_day / "rollout-2026-09-29T00-00-00-unrelated.jsonl")
    (session,) = read_whole(parent).sessions
    nested = [c.call_id for c in session.tool_calls if c.parent_call_id == SPAWN]
    assert nested == ["call_jUEy1f2dcNuBFV9H9BmIeTCG"]


def test_a_rollout_that_spawned_nothing_is_read_as_its_file() -> None:
    for path in SESSIONS.glob("rollout-*.jsonl"):
        assert session_source_for(path) is None, path
    assert session_source_for(CHILD) is None  # a child read alone is its own session
