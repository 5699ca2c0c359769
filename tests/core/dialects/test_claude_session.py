"""Claude Code's interactive session files read as streams.

Fixtures: tests/fixtures/sessions/claude (real files of Claude Code 2.1.38; SOURCES.md
says where each came from). No public file with a rewind was found, and the real one
with a compaction is 3 MB: those tests append lines (the compaction's with the fields of
the real one) to a copy of a real file, in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.core import tools
from streamview.core.dialects import CallReparser, by_name
from streamview.core.events import ConnectionNotice
from streamview.core.model import NOTICE, PROMPT
from streamview.core.reader import fold
from streamview.core.recognise import recognise
from streamview.core.state import StreamState

SESSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "claude"
NOT_WORDS = ("<command-", "<local-command-", "<bash-", "[Request interrupted")


def records(name: str) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in (SESSIONS / name).read_bytes().splitlines() if line]


def headless(lines: list[dict[str, Any]]) -> bytes:
    """The ``claude -p --output-format stream-json --verbose`` stream of the same run:
    ``init``, each message as the headless CLI prints it (a subagent's with
    ``parent_tool_use_id``), the person's prompts, and a ``result`` whose usage counts
    each API response once (the stream-json ``result`` sums the run's requests)."""
    sid = lines[-1]["sessionId"]
    out: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": sid, "tools": [], "cwd": "/"}
    ]
    usage: dict[str, dict[str, int]] = {}
    for line in lines:
        kind, parent, inner = line.get("type"), None, line
        if kind == "progress" and line["data"].get("type") == "agent_progress":
            inner, parent = line["data"]["message"], line["parentToolUseID"]
            kind = inner["type"]
        if kind not in ("user", "assistant"):
            continue
        message = inner["message"]
        content = message["content"]
        if kind == "user" and parent is None:
            if line.get("isMeta"):
                continue  # not the person's words (a caveat, a skill's expanded text)
            words = content if isinstance(content, str) else None
            if words is not None and words.startswith(NOT_WORDS):
                continue  # a slash command and its output: no headless stream has them
            if isinstance(content, list) and any(
                b.get("type") == "text" and b["text"].startswith(NOT_WORDS) for b in content
            ):
                continue
        if kind == "assistant":
            usage.setdefault(message["id"], message["usage"])
        out.append(
            {
                "type": kind,
                "message": message,
                "session_id": sid,
                "parent_tool_use_id": parent,
                "tool_use_result": inner.get("toolUseResult"),
            }
        )
    total = {
        key: sum(u.get(key, 0) for u in usage.values())
        for key in ("input_tokens", "output_tokens", "cache_read_input_tokens")
    }
    out.append({"type": "result", "subtype": "success", "session_id": sid, "usage": total})
    return b"\n".join(orjson.dumps(r) for r in out) + b"\n"


def account(state: StreamState) -> dict[str, Any]:
    """What a person reads of a run: prompts, answer, thinking, calls, usage."""
    (session,) = state.sessions
    usage = session.outcome.usage or {}
    return {
        "prompts": [b.text for b in session.blocks if b.kind == PROMPT],
        "text": session.text,
        "thinking": [b.text for b in session.blocks if b.kind == "thinking"],
        "calls": [
            (c.call_id, c.kind, c.target, c.status, c.parent_call_id) for c in session.tool_calls
        ],
        "usage": {
            key: usage.get(key)
            for key in ("input_tokens", "output_tokens", "cache_read_input_tokens")
        },
        "model": session.model,
    }


@pytest.mark.parametrize("name", ["short.jsonl", "tool_heavy.jsonl", "subagent.jsonl"])
def test_a_session_file_folds_to_the_account_of_its_headless_stream(name: str) -> None:
    data = (SESSIONS / name).read_bytes()
    dialect, _ = recognise([data])
    assert dialect is not None and dialect.name == "claude-session"  # without --agent
    session_file = account(fold([data]))
    stream = account(fold([headless(records(name))]))
    assert session_file == stream
    assert session_file["calls"] and session_file["prompts"] and session_file["model"]


def test_prompts_are_the_persons_words_and_meta_lines_are_notices() -> None:
    state = fold([(SESSIONS / "tool_heavy.jsonl").read_bytes()])
    (session,) = state.sessions
    prompts = [b.text for b in session.blocks if b.kind == PROMPT]
    assert prompts[0] == "start phoenix in background"
    assert prompts[1].startswith("scrolling back in xterm.js still does not work")
    assert len(prompts) == 2  # not the isMeta caveat, the /mcp command or its output
    said = {(n.subtype, n.chatter) for n in state.notices if hasattr(n, "chatter")}
    assert ("meta", True) in said and ("command", False) in said
    assert ("interrupted", False) in said
    assert state.counts.unknown == 0


def test_a_response_split_over_lines_counts_its_usage_once() -> None:
    state = fold([(SESSIONS / "short.jsonl").read_bytes()])
    (session,) = state.sessions
    # One message id on four lines, each repeating {"input_tokens": 3, "output_tokens": 13}.
    assert session.outcome.usage == {
        "input_tokens": 3,
        "output_tokens": 13,
        "cache_creation_input_tokens": 13835,
        "cache_read_input_tokens": 11515,
    }
    assert session.outcome.message == "interrupted by the person"
    statuses = [(c.kind, c.status) for c in session.tool_calls]
    assert statuses == [("shell", tools.REJECTED), ("glob", tools.REJECTED)]


def test_a_subagents_calls_nest_under_the_task_call_that_started_it() -> None:
    state = fold([(SESSIONS / "subagent.jsonl").read_bytes()])
    (session,) = state.sessions
    (task,) = [c for c in session.tool_calls if c.kind == "task"]
    assert task.call_id == "toolu_01Cz2Pnv7qNcnK1ZiocxWhQX"
    assert task.status == tools.SUCCEEDED
    nested = [c for c in session.tool_calls if c.parent_call_id == task.call_id]
    own = [c for c in session.tool_calls if c.parent_call_id is None]
    assert len(nested) == 9  # the Task result's toolUseResult says totalToolUseCount 9
    # As the file says: reading a directory failed, and with it its two siblings.
    assert [c.status for c in nested[:3]] == [tools.ERROR] * 3
    assert nested[0].target == "/home/marco/projects/spotter"
    assert all(c.status == tools.SUCCEEDED for c in nested[3:])
    assert task in own and len(own) + len(nested) == len(session.tool_calls)
    # Opening a nested call reads its payload back from its agent_progress lines.
    lines = (SESSIONS / "subagent.jsonl").read_bytes().split(b"\n")
    call = nested[3]
    reparse = CallReparser(by_name("claude-session"), call.call_id)
    assert call.started_line is not None and call.completed_line is not None
    started = reparse(lines[call.started_line - 1], call.started_line)
    done = reparse(lines[call.completed_line - 1], call.completed_line)
    assert started is not None and started.args == call.args
    assert done is not None and done.payload["stdout"].startswith("/home/marco/projects/spotter/")
    # The subagent's narration is its reasoning, not the session's answer.
    assert "Excellent! Now I have all the information" not in session.text


def test_a_rewind_says_another_branch_exists(tmp_path: Path) -> None:
    lines = records("tool_heavy.jsonl")
    sid = lines[-1]["sessionId"]
    back = next(r for r in lines if r.get("type") == "assistant")  # turn 1's first reply
    prompt = {
        "parentUuid": back["uuid"], "isSidechain": False, "userType": "external", "cwd": "/",
        "sessionId": sid, "version": "2.1.38", "type": "user", "uuid": "rewound-1",
        "timestamp": "2026-02-12T20:00:00.000Z",
        "message": {"role": "user", "content": "try it another way"},
    }  # fmt: skip
    reply = dict(back, parentUuid="rewound-1", uuid="rewound-2")
    reply["message"] = dict(
        back["message"], id="msg_rewound", content=[{"type": "text", "text": "Another way."}]
    )
    path = tmp_path / "rewound.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in [*lines, prompt, reply]))
    state = fold([path.read_bytes()])
    rewinds = [
        n for n in state.notices if isinstance(n, ConnectionNotice) and n.subtype == "rewound"
    ]
    # One branch: the parallel tool results hanging off their own tool_use are not one.
    (rewind,) = rewinds
    start = lines.index(back) + 1
    assert rewind.detail == (
        f"the conversation goes on from line {start}; lines {start + 1}-{len(lines)} "
        "are another branch"
    )
    (session,) = state.sessions
    notices = [b.text for b in session.blocks if b.kind == NOTICE]
    assert any("session/rewound" in text for text in notices)
    assert session.text.endswith("Another way.")


def test_a_compaction_is_shown_where_it_happened(tmp_path: Path) -> None:
    lines = records("short.jsonl")
    sid = lines[-1]["sessionId"]
    boundary = {
        "parentUuid": None, "logicalParentUuid": lines[-1]["uuid"], "isSidechain": False,
        "sessionId": sid, "type": "system", "subtype": "compact_boundary", "uuid": "c-1",
        "content": "Conversation compacted", "timestamp": "2026-02-12T21:00:00.000Z",
        "compactMetadata": {"trigger": "auto", "preTokens": 155000},
    }  # fmt: skip
    summary = {
        "parentUuid": "c-1", "isSidechain": False, "sessionId": sid, "type": "user",
        "uuid": "c-2", "isCompactSummary": True, "timestamp": "2026-02-12T21:00:01.000Z",
        "message": {"role": "user", "content": "This session is being continued..."},
    }  # fmt: skip
    after = {
        "parentUuid": "c-2", "isSidechain": False, "sessionId": sid, "type": "user",
        "uuid": "c-3", "timestamp": "2026-02-12T21:00:02.000Z",
        "message": {"role": "user", "content": "go on"},
    }  # fmt: skip
    data = b"".join(orjson.dumps(r) + b"\n" for r in [*lines, boundary, summary, after])
    (session,) = fold([data]).sessions
    kinds = [(b.kind, b.text) for b in session.blocks if b.kind in (NOTICE, PROMPT)]
    assert kinds == [
        (PROMPT, "mix phx.server doesnt seem to start"),
        (NOTICE, "session/compacted: auto, 155,000 tokens before"),
        (PROMPT, "go on"),  # the compact summary is not the person's words
    ]


def test_an_unknown_record_is_counted_never_painted() -> None:
    sid = "55604662-cf2a-4331-851a-ec234028f8ca"
    future = {"type": "future-thing", "sessionId": sid, "x": "PAINTED?"}
    data = (SESSIONS / "short.jsonl").read_bytes() + orjson.dumps(future) + b"\n"
    state = fold([data])
    assert state.counts.unknown == 1
    (session,) = state.sessions
    assert all("PAINTED?" not in b.text for b in session.blocks)


def test_subagent_lines_written_inline_nest_under_the_open_task_call() -> None:
    """Older releases wrote a subagent's lines into the main file (``isSidechain``):
    the real file's ``agent_progress`` lines rewritten so nest as they did."""
    lines = []
    for record in records("subagent.jsonl"):
        data = record.get("data") or {}
        if record.get("type") == "progress" and data.get("type") == "agent_progress":
            inner = data["message"]
            record = dict(record, type=inner["type"], message=inner["message"], isSidechain=True)
            record.pop("data")
        lines.append(orjson.dumps(record))
    state = fold([b"\n".join(lines) + b"\n"])
    (session,) = state.sessions
    (task,) = [c for c in session.tool_calls if c.kind == "task"]
    nested = [c for c in session.tool_calls if c.parent_call_id == task.call_id]
    assert len(nested) == 9
    prompts = [b.text for b in session.blocks if b.kind == PROMPT]
    assert prompts == ["create the beads"]  # not the subagent's prompt
    assert not [n for n in state.notices if getattr(n, "subtype", "") == "rewound"]
