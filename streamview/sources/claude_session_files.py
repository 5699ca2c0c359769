"""A Claude Code session read whole: its subagents' own files fed in under the calls
that started them, and the branch a ``/rewind`` left out.

Claude Code keeps a subagent's transcript in a file of its own: beside the session as
``<session>/subagents/agent-<id>.jsonl`` (2.1.2 and later), or next to it as
``agent-<id>.jsonl`` (2.0.x, linked only by the ``sessionId`` inside). The session
names the subagent in the ``Task``/``Agent`` call's result (``toolUseResult.agentId``,
``tool_use_id``) and, in 2.1.x, in ``progress`` lines mirroring part of its work
(``data.agentId`` under ``parentToolUseID``); a subagent still at work is found by its
first line, the prompt the call gave it. Each line of its file is handed on after the
call started, before its result, with the call's id under ``parent_tool_use_id`` (the
headless stream's own key: the dialect nests it as it nests a headless subagent); the
file is the whole transcript, so the session's mirror lines of it are left out.
``agent-acompact-*`` files are Claude Code's own compaction requests, no subagent.

The conversation is a tree by ``parentUuid``. The person's words hanging off an earlier
line than the newest start another branch (a ``/rewind``, an edited prompt): the lines
of the branch left behind are not handed on, and one ``streamview-branch`` record says
where they were, so the account is the branch that leads to the newest record.

A session with neither is read as the file it is (:func:`session_records` says
``None``); followed, a session is read as it grows by the dialect alone, which says a
rewind where it comes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from streamview.core.dialects.claude_session_lines import (
    BRANCH,
    PARENT_KEY,
    TASK_TOOLS,
    detect,
    text_of,
)
from streamview.sources.claude_session_scan import TreeIndex, scan_line, tree_place
from streamview.sources.session_source import Records

HEAD_LIMIT = 1 << 20
"""Bytes read of a line when only a file's first records are wanted."""
BLOCK_BYTES = 8 << 20
"""Bytes of a session read at a time to find its branches."""
COMPACTION_PREFIX = "agent-acompact"
"""Subagent-shaped files that are Claude Code's compaction requests, not subagents."""


JSONMarker = dict[str, Any]


@dataclass
class SessionMap:
    """What the main file says of its tree and its subagents."""

    lines: list[bytes]
    records: list[Any]
    hidden: set[int] = field(default_factory=set)
    """Lines of another branch, left out."""
    branches: dict[int, JSONMarker] = field(default_factory=dict)
    """The line of each prompt that starts a branch, and the record that says so."""
    tasks: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    """``Task``/``Agent`` call id to its line and the prompt it gave its subagent."""
    results: dict[str, int] = field(default_factory=dict)
    """Call id to the line of its result."""
    agents: dict[str, str] = field(default_factory=dict)
    """Subagent id to the call that started it."""
    mirrored: dict[str, int] = field(default_factory=dict)
    """Call id to the first ``agent_progress`` line mirroring its subagent."""


def load_line(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def _read_lines(path: Path) -> list[bytes] | None:
    try:
        return _split(path.read_bytes())
    except OSError:
        return None


def _split(data: bytes) -> list[bytes]:
    """A file's lines (a last one without its newline included, a blank end not)."""
    lines = data.split(b"\n")
    if lines and not lines[-1].strip():
        lines.pop()
    return lines


def is_session(path: Path) -> bool:
    """Whether the first record of ``path`` is a Claude Code session's (read alone: a
    file of another agent is not read whole)."""
    try:
        with open(path, "rb") as handle:
            for _ in range(8):
                line = handle.readline(HEAD_LIMIT)
                record = load_line(line) if line.strip() else None
                if isinstance(record, dict):
                    return detect(record)
                if not line:
                    break
    except OSError:
        pass
    return False


def _tree(session: SessionMap, file: BinaryIO) -> None:
    """Find the branches ``/rewind`` left in the session: each prompt hanging off an
    earlier line than the newest hides the conversation's lines between that line and
    itself. Only the lines' places in the tree are decoded (:func:`tree_place`), a block
    of the file at a time: a session may be GBs, and what is kept of each line is 12
    bytes (:class:`TreeIndex`)."""
    tip: str | None = None
    index = TreeIndex()
    number, rest = 0, b""
    while block := file.read(BLOCK_BYTES):
        data = rest + block if rest else block
        view, start, size = memoryview(data), 0, data.rfind(b"\n") + 1
        while start < size:
            end = data.find(b"\n", start)
            if end > start:
                tip = _place(session, index, tip, view[start:end], number)
            start, number = end + 1, number + 1
        rest = data[size:]
    if rest.strip():  # a last line without its newline
        _place(session, index, tip, memoryview(rest), number)


def _place(
    session: SessionMap, index: TreeIndex, tip: str | None, line: memoryview, number: int
) -> str | None:
    """Place one line in the tree (hiding the branch it leaves, if it starts one);
    returns the newest conversation line's ``uuid``."""
    place = tree_place(line)
    if place is None:
        return tip
    uuid, parent, words = place
    if words and parent is not None and tip not in (None, parent):
        back = index.line_of(parent)
        if back is not None:
            _hide(session, back, number, index, bytes(line))
    index.add(uuid, number)
    return uuid


def _hide(session: SessionMap, back: int, number: int, index: TreeIndex, line: bytes) -> None:
    """Leave out the conversation's lines after ``back`` up to the prompt at ``number``
    (another branch), and say where they were."""
    left = [n for n in index.between(back, number) if n not in session.hidden]
    if not left:
        return
    session.hidden.update(left)
    record = load_line(line)
    said = record if isinstance(record, dict) else {}
    session.branches[number] = {
        "type": BRANCH,
        "sessionId": said.get("sessionId"),
        "timestamp": said.get("timestamp"),
        "from": back + 1,
        "first": left[0] + 1,
        "last": left[-1] + 1,
        "lines": len(left),
    }


def find_links(session: SessionMap, start: int = 0) -> None:
    """Find the ``Task``/``Agent`` calls, their results, and which subagent each started
    (in the lines from ``start`` on: a followed session learns as it grows)."""
    for number, record in enumerate(islice(session.records, start, None), start):
        if number in session.hidden or not isinstance(record, dict):
            continue
        kind = record.get("type")
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if kind == "assistant":
            for block in blocks:
                if block.get("type") == "tool_use" and block.get("name") in TASK_TOOLS:
                    args = block.get("input")
                    prompt = args.get("prompt") if isinstance(args, dict) else None
                    if isinstance(block.get("id"), str):
                        session.tasks[block["id"]] = (number, prompt)
        elif kind == "user":
            results = [b for b in blocks if b.get("type") == "tool_result"]
            for block in results:
                if isinstance(block.get("tool_use_id"), str):
                    session.results.setdefault(block["tool_use_id"], number)
            said = record.get("toolUseResult")
            agent = said.get("agentId") if isinstance(said, dict) else None
            if isinstance(agent, str) and len(results) == 1:
                call = results[0].get("tool_use_id")
                if isinstance(call, str):
                    session.agents.setdefault(agent, call)
        elif kind == "progress":
            data = record.get("data")
            call = record.get("parentToolUseID")
            mirror = isinstance(data, dict) and data.get("type") == "agent_progress"
            if mirror and isinstance(call, str) and isinstance(data, dict):
                session.mirrored.setdefault(call, number)
                if isinstance(data.get("agentId"), str):
                    session.agents.setdefault(data["agentId"], call)


def subagent_files(path: Path, agents: dict[str, str] | None = None) -> list[Path]:
    """A session's subagents' files: ``<session>/subagents/agent-*.jsonl``, and beside
    it the older ``agent-<id>.jsonl`` of each subagent ``agents`` names."""
    found: list[Path] = []
    folder = path.with_suffix("") / "subagents"
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        wanted = name.startswith("agent-") and name.endswith(".jsonl")
        if wanted and not name.startswith(COMPACTION_PREFIX):
            found.append(folder / name)
    for agent in agents or {}:
        beside = path.parent / f"agent-{agent}.jsonl"
        if beside.is_file() and all(p.name != beside.name for p in found):
            found.append(beside)
    return found


def _may_have_subagents(path: Path) -> bool:
    """Whether a subagent's file may be there: in ``<session>/subagents/``, or (2.0.x)
    an ``agent-*.jsonl`` beside the session."""
    if subagent_files(path):
        return True
    try:
        return any(
            name.startswith("agent-") and name.endswith(".jsonl")
            for name in os.listdir(path.parent)
        )
    except OSError:
        return False


def call_of(session: SessionMap, agent: str, lines: list[bytes], taken: set[str]) -> str | None:
    """The call a subagent's file works for: named by the session, else the one call not
    yet matched whose prompt is the subagent's first words (a subagent still at work)."""
    call = session.agents.get(agent)
    if call is not None:
        return call if call in session.tasks else None
    for line in lines[:4]:
        record = load_line(line) if line.strip() else None
        if isinstance(record, dict) and record.get("type") == "user":
            message = record.get("message")
            words = text_of(message.get("content")) if isinstance(message, dict) else None
            for candidate, (_, prompt) in session.tasks.items():
                if candidate not in taken and words is not None and prompt == words:
                    return candidate
            return None
    return None


def marked(lines: list[bytes], call: str) -> list[bytes]:
    """A subagent's lines, each saying the call it works for."""
    out: list[bytes] = []
    for line in lines:
        if not line.strip():
            continue
        record = load_line(line)
        if isinstance(record, dict):
            record[PARENT_KEY] = call
            out.append(orjson.dumps(record))
        else:
            out.append(line)  # shown as the malformed line it is
    return out


def session_records(path: Path) -> Records | None:
    """A Claude Code session with its subagents' files and without the branches a
    ``/rewind`` left, as lines; ``None`` when that is the file as it is (no subagent
    file, no branch) or it is no Claude Code session."""
    if not is_session(path):
        return None
    session = SessionMap([], [])
    try:
        with open(path, "rb") as handle:
            _tree(session, handle)
        if not session.hidden and not _may_have_subagents(path):
            return None  # the file as it is: its lines are not decoded twice
        data = path.read_bytes()
    except OSError:
        return None
    lines = session.lines = _split(data)
    session.records = [scan_line(line) if line.strip() else None for line in lines]
    find_links(session)
    fed: dict[int, list[tuple[str, bytes]]] = {}
    taken: set[str] = set()
    for file in subagent_files(path, session.agents):
        agent = file.name[len("agent-") : -len(".jsonl")]
        own = _read_lines(file) or []
        call = call_of(session, agent, own, taken)
        if call is None:
            continue
        taken.add(call)
        start = session.tasks[call][0] + 1
        at = max(start, session.mirrored.get(call, session.results.get(call, len(lines))))
        for number, line in enumerate(marked(own, call)):
            fed.setdefault(at, []).append((f"{agent}:{number}", line))
    if not fed and not session.hidden:
        return None
    out: Records = []
    for number, line in enumerate(lines):
        out.extend(fed.get(number, ()))
        marker = session.branches.get(number)
        if marker is not None:
            out.append((f"branch:{number}", orjson.dumps(marker)))
        if number in session.hidden or mirror_of_fed(session.records[number], taken):
            continue
        out.append((str(number), line))
    out.extend(fed.get(len(lines), ()))
    return out


def mirror_of_fed(record: Any, fed: set[str]) -> bool:
    """A ``progress`` line mirroring a subagent whose own file is handed on."""
    if not isinstance(record, dict) or record.get("type") != "progress":
        return False
    data = record.get("data")
    return (
        isinstance(data, dict)
        and data.get("type") == "agent_progress"
        and record.get("parentToolUseID") in fed
    )
