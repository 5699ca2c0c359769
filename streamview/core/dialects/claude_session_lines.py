"""What a Claude Code session file's lines are, shared by its dialect
(:mod:`.claude_session`) and by the source that reads a session with its subagents'
files (:mod:`streamview.sources.claude_session_files`)."""

from __future__ import annotations

from typing import Any

from streamview.core.events import JSONObject

CHAIN = frozenset({"user", "assistant", "system", "progress", "attachment"})
"""Record types of the conversation's tree (``uuid``/``parentUuid``)."""
ABOUT = frozenset(
    {
        "summary",
        "custom-title",
        "ai-title",
        "file-history-snapshot",
        "queue-operation",
        "last-prompt",
        "permission-mode",
        "attachment",
    }
)
"""Record types about the session, not the conversation: event-log notices."""
NOT_WORDS = ("<command-name>", "<local-command-", "<command-message>", "<bash-")
USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)
TASK_TOOLS = ("Task", "Agent")
"""The tools that start a subagent (``Task`` until 2.1.1x, ``Agent`` after)."""

BRANCH = "streamview-branch"
"""The one record streamview writes into a Claude session it reads whole: where a
``/rewind`` left another branch, which is not handed on (the branch leading to the
newest record is shown). ``{"type", "from", "first", "last", "lines"}``: the file's line
the conversation goes on from, and the file's lines of the branch left out."""
PARENT_KEY = "parent_tool_use_id"
"""The key the source adds to a subagent's own lines (``agent-<id>.jsonl``) to say which
``Task``/``Agent`` call they work for: the headless stream's own name for it, so the
dialect nests them as it nests a headless stream's subagent."""


def first_line(text: str, limit: int = 120) -> str:
    """The first line of ``text``, cut to ``limit`` characters."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def text_of(content: Any) -> str | None:
    """A user message's own words: its string, or its ``text`` blocks joined; ``None``
    when it holds tool results."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    texts: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_result":
            return None
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
    return "\n".join(texts) if texts else None


def words_of(record: JSONObject) -> str | None:
    """A ``user`` line's words when they may be the person's (a prompt, a command; not
    a tool result, not an ``isMeta`` line): what can start another branch."""
    if record.get("type") != "user" or record.get("isMeta"):
        return None
    message = record.get("message")
    return text_of(message.get("content")) if isinstance(message, dict) else None


def is_branch(record: JSONObject, tip: str | None, seen: dict[str, int]) -> bool:
    """Whether a conversation line starts another branch: the person's words whose
    parent is an earlier line, not the newest one (``tip``). Parallel tool results hang
    off their own ``tool_use`` line; those are no branch."""
    parent = record.get("parentUuid")
    return (
        isinstance(parent, str)
        and tip is not None
        and parent != tip
        and parent in seen
        and words_of(record) is not None
    )


def detect(record: JSONObject) -> bool:
    """A line only a session file holds: a conversation line with ``uuid`` and
    ``sessionId`` (the headless stream says ``session_id``), or a session record
    (``file-history-snapshot``, ``queue-operation``, ``summary``...)."""
    kind = record.get("type")
    if kind in ABOUT and "payload" not in record:
        return kind != "summary" or "leafUuid" in record
    return (
        kind in CHAIN
        and isinstance(record.get("uuid"), str)
        and isinstance(record.get("sessionId"), str)
        and "parentUuid" in record
    )
