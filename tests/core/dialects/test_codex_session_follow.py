"""A followed Codex rollout (``--follow``, a live run opened from ``streamview
sessions``) picks up the rollouts of the threads it spawns as they are written, each
nested under its ``spawn_agent`` call.

Fixture: ``tests/fixtures/sessions/codex/spawned/2026/09/28/`` (SOURCES.md): a parent
rollout and the rollout of the thread it spawned, in the lines of Codex 0.156.1.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import orjson

from streamview.core import tools
from tests.core.dialects.session_follower import Follower

DAY = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "codex" / "spawned"
DAY = DAY / "2026" / "09" / "28"
PARENT = DAY / "rollout-2026-09-28T13-01-29-01a0e81b-2a8b-7240-b94c-ad2ada7813da.jsonl"
CHILD = DAY / "rollout-2026-09-28T13-01-37-01a0e81b-4af7-7330-a113-bad47ba77c3e.jsonl"
SPAWN = "call_SdAv8h0y9zwTrmpiNTHyAPTW"
EXEC = "call_jUEy1f2dcNuBFV9H9BmIeTCG"


def records(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def lines(records: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in records)


def append(path: Path, data: bytes) -> None:
    with open(path, "ab") as handle:
        handle.write(data)


def test_a_followed_rollout_nests_a_thread_spawned_after_it_was_opened(tmp_path: Path) -> None:
    """The real 0.156.1 lines: the parent followed from before its spawn call's
    output; the child's rollout appears, then grows: its call nests under the spawn
    call while that call is still open, then both end, each call once."""
    day = tmp_path / "2026" / "09" / "28"
    day.mkdir(parents=True)
    parent, child = records(PARENT), records(CHILD)
    path = day / PARENT.name
    path.write_bytes(lines(parent[:3]))  # the prompt and the spawn call, no output yet
    follower = Follower(path)
    try:
        follower.wait(lambda calls: [c[0] for c in calls] == [SPAWN])
        (day / CHILD.name).write_bytes(lines(child[:5]))  # up to its exec call
        follower.wait(lambda calls: (EXEC, tools.RUNNING, SPAWN) in calls)
        assert (SPAWN, tools.RUNNING, None) in follower.calls()  # not answered yet
        append(day / CHILD.name, lines(child[5:]))
        append(path, lines(parent[3:]))
        follower.wait(
            lambda calls: calls == [(SPAWN, tools.SUCCEEDED, None), (EXEC, tools.SUCCEEDED, SPAWN)]
        )
        with follower.lock:
            (session,) = follower.state.sessions
            assert session.text == "The subagent printed sub-ok."  # the child's is its own
            assert follower.state.counts.unknown == 0
    finally:
        follower.stop.set()


def test_a_thread_named_only_by_its_spawn_event_waits_for_it(tmp_path: Path) -> None:
    """Older rollouts name the child only in ``collab_agent_spawn_end`` (no task name,
    no agent path): its lines, written first, are held until the parent names it; a
    rollout spawned by another thread is never fed in."""
    day = tmp_path / "2026" / "09" / "28"
    day.mkdir(parents=True)
    parent, child = records(PARENT), records(CHILD)
    parent[2]["payload"]["arguments"] = '{"message": "run echo sub-ok"}'
    parent[3]["payload"]["output"] = "{}"
    spawn_end = {
        "timestamp": "2026-09-28T13:01:38.000Z", "type": "event_msg",
        "payload": {"type": "collab_agent_spawn_end", "call_id": SPAWN,
                    "new_thread_id": child[0]["payload"]["id"]},
    }  # fmt: skip
    del child[0]["payload"]["agent_path"]
    stranger = [dict(r) for r in child]
    stranger[0] = orjson.loads(orjson.dumps(child[0]))
    stranger[0]["payload"]["id"] = "01a0e81b-0000-7000-8000-000000000000"
    stranger[0]["payload"]["parent_thread_id"] = "01a0e81b-ffff-7000-8000-000000000000"
    stranger[0]["payload"]["source"]["subagent"]["thread_spawn"]["parent_thread_id"] = (
        "01a0e81b-ffff-7000-8000-000000000000"
    )
    path = day / PARENT.name
    path.write_bytes(lines(parent[:3]))
    follower = Follower(path)
    try:
        stranger_lines = lines(stranger).replace(EXEC.encode(), b"call_stranger")
        (day / "rollout-2026-09-28T13-01-36-stranger.jsonl").write_bytes(stranger_lines)
        (day / CHILD.name).write_bytes(lines(child))
        follower.wait(lambda calls: [c[0] for c in calls] == [SPAWN])
        time.sleep(1.2)  # two looks at the folder: the child is found, and held
        # (this can only fail, never pass, by a wrong link: a slow machine passes it)
        assert follower.calls() == [(SPAWN, tools.RUNNING, None)]
        append(path, lines([spawn_end, *parent[3:]]))
        follower.wait(
            lambda calls: calls == [(SPAWN, tools.SUCCEEDED, None), (EXEC, tools.SUCCEEDED, SPAWN)]
        )
    finally:
        follower.stop.set()


def test_a_thread_already_written_comes_in_the_rollouts_order() -> None:
    """Opened while its thread has already written (a live run opened from the list):
    the thread's work is handed on right after the call that spawned it, before the
    parent's answer, as a whole read shows it."""
    follower = Follower(PARENT)
    try:
        follower.wait(
            lambda calls: calls == [(SPAWN, tools.SUCCEEDED, None), (EXEC, tools.SUCCEEDED, SPAWN)]
        )
        follower.wait(lambda calls: bool(follower.state.sessions[0].text))
        with follower.lock:
            session = follower.state.sessions[0]
            kinds = [
                session.tool_calls[b.call_index].call_id if b.call_index is not None else b.kind
                for b in session.blocks
            ]
        assert kinds.index(EXEC) < kinds.index("text"), kinds
    finally:
        follower.stop.set()
