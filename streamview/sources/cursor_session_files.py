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
(inside ``<user_query>`` or bare). A child whose first words are unknown, or whose
call's prompt is, takes the first such call left, in the order the children were last
written; a child whose words no call gave is attached to none (never to a call that
asked for something else): it is handed on after the transcript under an id of its own
(``unlinked subagent <child file>``), which the dialect shows as a subagent run not
attached to any call.

The parent's line holding the call is handed on with the call given an id
(``subagent <line>.<block>``: a ``tool_use`` block may carry an ``id``, Cursor's carry
none), then the child's lines, each with that id under ``parent_tool_use_id``: the
dialect reads them with a translator of their own and nests what the subagent did
under the call. A transcript
with no subagent is read as the file it is (:func:`session_records` says ``None``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.core.dialects.cursor_transcript import AGENT_TOOLS, UNLINKED, detect
from streamview.sources.session_source import Records

HEAD_LIMIT = 1 << 20
_QUERY = re.compile(r"<user_query>\s*(.*?)\s*</user_query>", re.DOTALL)


def _load(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def is_transcript(path: Path) -> bool:
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
        found.append((folder / name, lines, first_prompt(lines)))
    return found


def name_calls(line: bytes, number: int) -> tuple[bytes, list[tuple[str, str | None]]]:
    """A transcript's line ``number`` (1-based, blank lines not counted) with its
    delegating calls given an id (``subagent <line>.<block>``), and those calls: id and
    prompt. A line without one is handed back as it is."""
    if b"tool_use" not in line:
        return line, []
    record = _load(line)
    message = record.get("message") if isinstance(record, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    calls: list[tuple[str, str | None]] = []
    for index, block in enumerate(content if isinstance(content, list) else []):
        if (
            isinstance(block, dict)
            and block.get("type") == "tool_use"
            and block.get("name") in AGENT_TOOLS
        ):
            block["id"] = f"subagent {number}.{index + 1}"
            calls.append((block["id"], _prompt(block.get("input"))))
    return (orjson.dumps(record), calls) if calls else (line, [])


def first_prompt(lines: list[bytes]) -> str | None:
    """The words a subagent's transcript starts with (the prompt it was given)."""
    for line in lines:
        said = _text(_load(line))
        if said is not None:
            return said
    return None


def marked(lines: list[bytes], call: str) -> list[bytes]:
    """A subagent's ``lines``, each saying the ``call`` it works for."""
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
    if not folder.is_dir() or not is_transcript(path):
        return None
    children = _children(folder)
    if not children:
        return None
    try:
        lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    except OSError:
        return None
    named = [name_calls(line, number + 1) for number, line in enumerate(lines)]
    calls = [call for _, found in named for call in found]
    linked: dict[str, tuple[Path, list[bytes]]] = {}
    left: list[tuple[Path, list[bytes], str | None]] = []
    for child_path, child_lines, asked in children:
        match = next(
            (c for c, prompt in calls if asked is not None and prompt == asked and c not in linked),
            None,
        )
        if match is None:
            left.append((child_path, child_lines, asked))
        else:
            linked[match] = (child_path, child_lines)
    unlinked: list[tuple[Path, list[bytes]]] = []
    for child_path, child_lines, asked in left:
        match = next(
            (c for c, prompt in calls if (asked is None or prompt is None) and c not in linked),
            None,
        )
        if match is None:
            unlinked.append((child_path, child_lines))
        else:
            linked[match] = (child_path, child_lines)
    if not linked and not unlinked:
        return None
    # Unattached runs come after the last line that delegated (the parent's answer stays
    # its last word), or at the end when no line did.
    last = max((n for n, (_, found) in enumerate(named) if found), default=len(named) - 1)
    for child_path, child_lines in unlinked:
        linked[f"{UNLINKED}{child_path.name}"] = (child_path, child_lines)
        named[last][1].append((f"{UNLINKED}{child_path.name}", None))
    out: Records = []
    for number, (line, found) in enumerate(named):
        out.append((str(number), line))
        for call, _ in found:
            if call in linked:
                child_path, child_lines = linked[call]
                marked_lines = marked(child_lines, call)
                out += [(f"{child_path.name}:{n}", part) for n, part in enumerate(marked_lines)]
    return out
