"""A Cursor agent transcript read whole with its subagents' transcripts, each under the
call that started it.

Cursor keeps a conversation in ``agent-transcripts/<id>/<id>.jsonl`` and the
transcript of each subagent it delegated to in ``agent-transcripts/<id>/subagents/
<child id>.jsonl``, one level deep, in the same role-based lines (the layout the
readers of these files agree on: kenn-io/agentsview's issue #1627, from a sample of
967 children under 109 parents, and jazzyalex/agent-sessions'
``CursorSessionParser.detectSubagentInfo``). A transcript holds no ids: a child is
linked to the parent's delegating call (``Subagent``; ``Task``/``Agent`` as Claude Code
names it) by the prompt the call gave it, which is the child's first user message
(inside ``<user_query>`` or bare); a child no prompt names takes the first call left,
in the order the children were last written.

The parent's line holding the call is handed on with the call given the child's id
(a ``tool_use`` block may carry an ``id``; Cursor's carry none), then the child's
lines, each with that id under ``parent_tool_use_id``: the dialect reads them with a
translator of their own and nests what the subagent did under the call. A transcript
with no subagent is read as the file it is (:func:`session_records` says ``None``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.core.dialects.cursor_transcript import detect
from streamview.sources.session_source import Records

AGENT_TOOLS = frozenset({"Subagent", "Task", "Agent"})
"""The tools a Cursor agent delegates to a subagent with."""
HEAD_LIMIT = 1 << 20
_QUERY = re.compile(r"<user_query>\s*(.*?)\s*</user_query>", re.DOTALL)


def _load(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def _is_transcript(path: Path) -> bool:
    """Whether the first line of ``path`` is a Cursor transcript's."""
    try:
        with open(path, "rb") as handle:
            record = _load(handle.readline(HEAD_LIMIT))
    except OSError:
        return False
    return isinstance(record, dict) and detect(record)


def _text(record: Any) -> str | None:
    """The words of a ``user`` line (its query, if it has one)."""
    if not isinstance(record, dict) or record.get("role") != "user":
        return None
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        said = content
    elif isinstance(content, list):
        said = "".join(
            block["text"]
            for block in content
            if isinstance(block, dict) and isinstance(block.get("text"), str)
        )
    else:
        return None
    query = _QUERY.search(said)
    return (query.group(1) if query else said).strip()


def _prompt(tool_input: Any) -> str | None:
    """What a delegating call asked its subagent."""
    if not isinstance(tool_input, dict):
        return None
    for key in ("prompt", "task", "message", "description"):
        if isinstance(tool_input.get(key), str):
            return str(tool_input[key]).strip()
    return None


def _children(folder: Path) -> list[tuple[Path, list[bytes], str | None]]:
    """The subagents' transcripts in ``folder``: path, lines and the prompt they were
    given, in the order they were last written."""
    try:
        names = [name for name in os.listdir(folder) if name.endswith(".jsonl")]
        stamped = sorted((os.stat(folder / name).st_mtime_ns, name) for name in names)
    except OSError:
        return []
    found = []
    for _, name in stamped:
        try:
            lines = [line for line in (folder / name).read_bytes().splitlines() if line.strip()]
        except OSError:
            continue
        first = next((_text(_load(line)) for line in lines if _text(_load(line)) is not None), None)
        found.append((folder / name, lines, first))
    return found


def _calls(lines: list[bytes]) -> list[tuple[int, int, str | None]]:
    """The delegating calls of a transcript: line, block and prompt."""
    found = []
    for number, line in enumerate(lines):
        if b"tool_use" not in line:
            continue
        record = _load(line)
        message = record.get("message") if isinstance(record, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        for index, block in enumerate(content if isinstance(content, list) else []):
            if (
                isinstance(block, dict)
                and block.get("type") == "tool_use"
                and block.get("name") in AGENT_TOOLS
            ):
                found.append((number, index, _prompt(block.get("input"))))
    return found


def _named(line: bytes, ids: dict[int, str]) -> bytes:
    """A parent's line with its delegating calls given their subagent's id."""
    record = _load(line)
    for index, block in enumerate(record["message"]["content"]):
        if index in ids:
            block["id"] = ids[index]
    return orjson.dumps(record)


def _marked(lines: list[bytes], call: str) -> list[bytes]:
    out = []
    for line in lines:
        record = _load(line)
        if isinstance(record, dict):
            record[PARENT_KEY] = call
            out.append(orjson.dumps(record))
        else:
            out.append(line)
    return out


def session_records(path: Path) -> Records | None:
    """A Cursor transcript with its subagents' transcripts fed in under the calls that
    started them; ``None`` when it has none that can be linked."""
    folder = path.parent / "subagents"
    if not folder.is_dir() or not _is_transcript(path):
        return None
    children = _children(folder)
    if not children:
        return None
    try:
        lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    except OSError:
        return None
    calls = _calls(lines)
    linked: dict[tuple[int, int], tuple[Path, list[bytes]]] = {}
    left: list[tuple[Path, list[bytes], str | None]] = []
    for child in children:
        match = next(
            (
                (n, i)
                for n, i, asked in calls
                if asked is not None and asked == child[2] and (n, i) not in linked
            ),
            None,
        )
        if match is None:
            left.append(child)
        else:
            linked[match] = (child[0], child[1])
    free = [(n, i) for n, i, _ in calls if (n, i) not in linked]
    for (child_path, child_lines, _), call in zip(left, free, strict=False):
        linked[call] = (child_path, child_lines)
    if not linked:
        return None
    out: Records = []
    for number, line in enumerate(lines):
        here = {i: linked[(n, i)] for n, i in linked if n == number}
        if not here:
            out.append((str(number), line))
            continue
        out.append((str(number), _named(line, {i: p.stem for i, (p, _) in here.items()})))
        for _, (child_path, child_lines) in sorted(here.items()):
            marked = _marked(child_lines, child_path.stem)
            out += [(f"{child_path.name}:{n}", part) for n, part in enumerate(marked)]
    return out
