"""An opencode subagent (a ``task`` call's child session) is nested under that call.

opencode's task tool (``packages/opencode/src/tool/task.ts``) creates a session with
``parentID`` set to the caller's and names it in the call's ``state.metadata.sessionId``.
The rows added here to a copy of the fixture database follow those shapes (see
``tests/fixtures/sessions/opencode/SOURCES.md``).
"""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import orjson

from streamview.core.state import StreamState
from tests.core.dialects.test_gemini_opencode_sessions import OPENCODE_DB, folded, source_of

PARENT = "ses_4b1f0c2a7ffeA1b2C3d4E5f6G7"
CHILD = "ses_child01"
GRANDCHILD = "ses_grandchild01"


def add_subagent(
    db: sqlite3.Connection, parent: str, child: str, after: str, call: str, prompt: str
) -> None:
    """A ``task`` call in ``parent`` (its part ids after ``after``) whose subagent
    session ``child`` read one file and answered."""
    project, directory = db.execute(
        "SELECT project_id, directory FROM session WHERE id = ?", (parent,)
    ).fetchone()
    message = db.execute("SELECT message_id FROM part WHERE id = ?", (after,)).fetchone()[0]
    task = {
        "type": "tool",
        "callID": call,
        "tool": "task",
        "state": {
            "status": "completed",
            "input": {"description": "find the port", "prompt": prompt, "subagent_type": "general"},
            "output": "<task_result>8080</task_result>",
            "title": "find the port",
            "metadata": {"sessionId": child},
            "time": {"start": 1763632801300, "end": 1763632805000},
        },
    }
    db.execute(
        "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
        (after + "z", message, parent, 1763632801300, 1763632805000, orjson.dumps(task).decode()),
    )
    db.execute(
        "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version,"
        " time_created, time_updated) VALUES (?, ?, ?, 'child', ?, ?, '1.0.0', ?, ?)",
        (child, project, parent, directory, "find the port (@general subagent)",
         1763632801400, 1763632804900),
    )  # fmt: skip
    rows = [
        ("u", "user", [{"type": "text", "text": prompt}]),
        ("a", "assistant", [
            {"type": "step-start"},
            {"type": "reasoning", "text": "Look in the config.", "time": {"start": 1, "end": 2}},
            {"type": "tool", "callID": f"{child}-read", "tool": "read", "state": {
                "status": "completed", "input": {"filePath": "/work/app/config.json"},
                "output": "port 8080", "metadata": {},
                "time": {"start": 1763632802000, "end": 1763632802500}}},
            {"type": "text", "text": "It is 8080.", "time": {"start": 3, "end": 4}},
            {"type": "step-finish", "reason": "stop", "cost": 0.5, "tokens": {
                "input": 9000, "output": 9, "reasoning": 0, "cache": {"read": 0, "write": 0}}},
        ]),
    ]  # fmt: skip
    for number, (suffix, role, parts) in enumerate(rows):
        mid = f"msg_{child}_{suffix}"
        info = {"role": role, "modelID": "m-sub"} if role == "assistant" else {"role": role}
        stamp = 1763632801500 + number
        db.execute(
            "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
            (mid, child, stamp, stamp, orjson.dumps(info).decode()),
        )
        for index, part in enumerate(parts):
            pid = f"prt_{child}_{suffix}{index}"
            db.execute(
                "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
                (pid, mid, child, stamp, stamp, orjson.dumps(part).decode()),
            )


def read(tmp_path: Path, grandchild: bool = False) -> StreamState:
    database = tmp_path / "opencode.db"
    shutil.copy2(OPENCODE_DB, database)
    with closing(sqlite3.connect(database)) as db:
        add_subagent(db, PARENT, CHILD, "prt_b4", "toolu_task", "Find the port in config.json")
        if grandchild:  # the subagent started one of its own
            add_subagent(db, CHILD, GRANDCHILD, f"prt_{CHILD}_a2", "toolu_deeper", "Look deeper")
        db.commit()
    return folded(source_of(database))


def test_a_subagent_session_is_nested_under_its_task_call(tmp_path: Path) -> None:
    """The child's read call is the task call's child; its words and prompt are not the
    session's; its usage stays its own; it opens no session of its own."""
    state = read(tmp_path)
    assert len(state.sessions) == 1
    session = state.sessions[0]
    calls = {call.call_id: call for call in session.tool_calls}
    assert calls[f"{CHILD}-read"].parent_call_id == "toolu_task"
    assert calls[f"{CHILD}-read"].target == "/work/app/config.json"
    assert [c.call_id for c in session.tool_calls if c.parent_call_id is None] == [
        "toolu_01", "toolu_02", "toolu_task",
    ]  # fmt: skip
    assert session.prompt == "Read config.json and tell me the port"
    assert "It is 8080." not in session.text
    assert session.text.strip() == "The port is 8080."
    assert session.outcome.status == "success"
    assert session.outcome.usage is not None
    assert session.outcome.usage.get("inputTokens") == 2300  # the parent's two steps only
    assert session.outcome.cost_usd == 0.0163


def test_a_subagent_of_a_subagent_nests_under_the_call_that_started_it(tmp_path: Path) -> None:
    state = read(tmp_path, grandchild=True)
    calls = {call.call_id: call for call in state.sessions[0].tool_calls}
    assert calls["toolu_deeper"].parent_call_id == "toolu_task"
    assert calls[f"{GRANDCHILD}-read"].parent_call_id == "toolu_deeper"
