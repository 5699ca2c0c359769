"""A Cursor agent transcript read whole with its subagents' transcripts
(``<id>/subagents/<child id>.jsonl``), each nested under the call that started it.

Fixture: ``tests/fixtures/sessions/cursor/subagent/`` (SOURCES.md: the child's lines
copied from a public test fixture, the parent hand-written).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import orjson

from streamview.core import tools
from streamview.core.model import PROMPT
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.sources.session_files import session_source_for
from tests.core.dialects.session_follower import Follower

PARENT_ID = "a1b2c3d4-e5f6-7890-abcd-ef1234567890"
CHILD_ID = "d88b213c-84e1-427d-bb5e-3859c1011087"
FOLDER = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "cursor" / "subagent"
PARENT = FOLDER / PARENT_ID / f"{PARENT_ID}.jsonl"
CHILD = FOLDER / PARENT_ID / "subagents" / f"{CHILD_ID}.jsonl"


def read_whole(path: Path) -> StreamState:
    source = session_source_for(path)
    assert source is not None, path
    return fold([b"".join(source.chunks(threading.Event()))])


def lines(*records: dict[str, Any]) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in records)


def said(role: str, *blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": role, "message": {"content": list(blocks)}}


def text(words: str) -> dict[str, Any]:
    return {"type": "text", "text": words}


def delegate(prompt: str) -> dict[str, Any]:
    return {"type": "tool_use", "name": "Subagent", "input": {"prompt": prompt}}


def shell(command: str) -> dict[str, Any]:
    return {"type": "tool_use", "name": "Shell", "input": {"command": command}}


def test_a_subagents_calls_nest_under_the_call_that_started_it() -> None:
    state = read_whole(PARENT)
    (session,) = state.sessions
    calls = [(c.kind, c.status, c.parent_call_id) for c in session.tool_calls]
    assert calls == [
        ("task", tools.COMPLETED, None),
        ("shell", tools.COMPLETED, "subagent 2.2"),
    ]
    assert session.tool_calls[0].call_id == "subagent 2.2"  # its line and block
    assert [b.text for b in session.blocks if b.kind == PROMPT] == [
        "Ask a subagent to list the workspace, then tell me how many entries it has."
    ]  # the subagent's prompt is not the person's
    assert session.text.endswith("The workspace has 12 entries.")
    assert "Done. The directory has 12 entries." not in session.text  # the child's own
    assert state.counts.unknown == 0
    (alone,) = fold([PARENT.read_bytes()]).sessions  # read as its file: nothing under it
    assert [c.kind for c in alone.tool_calls] == ["task"]
    # the same id both ways: the OTLP watch reads the file alone, then whole once the
    # subagent's file is there, and a span id made of another call id would go twice
    assert alone.tool_calls[0].call_id == "subagent 2.2"


def test_subagents_are_linked_by_their_prompt_never_to_another_call(tmp_path: Path) -> None:
    """Two calls at once: the child whose first words are the second call's prompt is
    that call's, though written first; the child whose words no call gave is a run of
    its own, attached to no call (it once took the call left, which asked for something
    else); a child's call left open ends when the parent goes on; a transcript with no
    ``subagents/`` folder, or a child read alone, is read as its file."""
    home = tmp_path / PARENT_ID
    (home / "subagents").mkdir(parents=True)
    parent = home / f"{PARENT_ID}.jsonl"
    parent.write_bytes(
        lines(
            said("user", text("<user_query>\nCheck both folders.\n</user_query>")),
            said("assistant", delegate("List src"), delegate("List docs")),
            said("assistant", text("Both listed.")),
        )
    )
    assert session_source_for(parent) is None  # no subagent written yet
    docs = home / "subagents" / "docs.jsonl"
    docs.write_bytes(lines(said("user", text("List docs")), said("assistant", shell("ls docs"))))
    other = home / "subagents" / "other.jsonl"
    other.write_bytes(
        lines(
            said("user", text("<user_query>\nList the sources\n</user_query>")),
            said("assistant", shell("ls src")),
        )
    )
    os.utime(docs, ns=(1_000_000_000, 1_000_000_000))  # written before the other
    (session,) = read_whole(parent).sessions
    by_parent = {c.call_id: c.parent_call_id for c in session.tool_calls}
    shells = {c.args.get("command"): c for c in session.tool_calls if c.kind == "shell"}
    # line 2 of the parent: block 1 asked "List src", block 2 "List docs"
    assert by_parent[shells["ls docs"].call_id] == "subagent 2.2"
    run = "unlinked subagent other.jsonl"
    assert by_parent[shells["ls src"].call_id] == run
    assert run not in by_parent.values() or by_parent[run] is None  # a row of its own
    unlinked = session.calls_by_id[run]
    assert (unlinked.kind, unlinked.description) == (
        "task",
        "subagent run not attached to any call",
    )
    assert unlinked.summary == "not attached to any call"
    assert "subagent 2.1" not in by_parent.values()  # the call that asked "List src"
    assert session.outcome.status == "success"  # the parent's answer is still its last word
    assert all(c.status == tools.COMPLETED for c in session.tool_calls)
    assert session_source_for(docs) is None


def test_a_followed_transcript_nests_a_subagent_written_after_it_was_opened(
    tmp_path: Path,
) -> None:
    """Followed (``--follow``, a live run opened from ``streamview sessions``): the
    subagent's transcript appears once the parent's call is written, and its calls nest
    under that call as they are written; the parent going on ends them all."""
    home = tmp_path / PARENT_ID
    home.mkdir()
    parent_lines = PARENT.read_bytes().splitlines(keepends=True)
    child_lines = CHILD.read_bytes().splitlines(keepends=True)
    path = home / PARENT.name
    path.write_bytes(b"".join(parent_lines[:2]))  # the query and the Subagent call
    follower = Follower(path)
    call = "subagent 2.2"
    try:
        follower.wait(lambda calls: calls == [(call, tools.RUNNING, None)])
        (home / "subagents").mkdir()
        (home / "subagents" / CHILD.name).write_bytes(b"".join(child_lines[:2]))
        follower.wait(lambda calls: len(calls) == 2 and calls[1][1:] == (tools.RUNNING, call))
        assert follower.calls()[0] == (call, tools.RUNNING, None)  # the parent waits
        with open(home / "subagents" / CHILD.name, "ab") as handle:
            handle.write(b"".join(child_lines[2:]))
        follower.wait(lambda calls: calls[1][1] == tools.COMPLETED)  # the child went on
        with open(path, "ab") as handle:
            handle.write(b"".join(parent_lines[2:]))
        follower.wait(lambda calls: [c[1] for c in calls] == [tools.COMPLETED] * 2)
        with follower.lock:
            assert follower.state.sessions[0].text.endswith("The workspace has 12 entries.")
    finally:
        follower.stop.set()


def test_a_followed_child_whose_words_no_call_gave_waits_for_its_call(tmp_path: Path) -> None:
    """Followed, a child whose first words no written call gave is held (its call may
    not be written yet), never handed on under the call that asked for something else;
    it goes under its call once that is written."""
    from streamview.sources.cursor_session_follow import _Live

    live = _Live(tmp_path / "parent.jsonl")
    assert live.main(lines(said("assistant", delegate("List src"))))  # subagent 1.1
    assert live.agent("other", lines(said("user", text("List the sources")))) == []
    assert live.linked() == []  # once, the first call left took it
    (handed,) = live.main(lines(said("assistant", delegate("List the sources"))))[1:]
    assert orjson.loads(handed)["parent_tool_use_id"] == "subagent 2.1"
