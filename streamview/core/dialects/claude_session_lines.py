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


RECENT_LINES = 256
"""Conversation lines whose ``uuid`` the dialect keeps (newest first) for a branch to
hang off; older ones are forgotten, but for the lines prompts hang off
(:class:`TreeMemory`)."""
PROMPTS_KEPT = 1024
"""Prompts whose parent line the dialect keeps: a ``/rewind`` or an edited prompt goes
on from a line an earlier prompt hung off."""


class Recent:
    """The newest keys seen and a number for each, at most about ``limit`` of them (two
    generations of ``limit``: the older one is dropped whole when the newer fills):
    what a long run's dialect remembers does not grow with its length."""

    __slots__ = ("_limit", "_new", "_old")

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._new: dict[str, int] = {}
        self._old: dict[str, int] = {}

    def __setitem__(self, key: str, value: int) -> None:
        if len(self._new) >= self._limit:
            self._old, self._new = self._new, {}
        self._new[key] = value

    def get(self, key: str) -> int | None:
        """The number kept for ``key``, if it is still kept."""
        found = self._new.get(key)
        return self._old.get(key) if found is None else found

    def __contains__(self, key: object) -> bool:
        return key in self._new or key in self._old

    def __len__(self) -> int:
        return len(self._new) + len(self._old)


class TreeMemory:
    """The lines of a session's tree a branch can hang off, by ``uuid``, bounded: the
    newest :data:`RECENT_LINES`, and the lines the last :data:`PROMPTS_KEPT` prompts hung
    off (a ``/rewind`` to an earlier prompt goes on from the line that prompt followed).
    A branch off a line older than both is not said (read whole, the source finds every
    branch itself: :mod:`streamview.sources.claude_session_files`)."""

    __slots__ = ("_anchors", "_recent")

    def __init__(self) -> None:
        self._recent = Recent(RECENT_LINES)
        self._anchors = Recent(PROMPTS_KEPT)

    def add(self, uuid: str, line: int) -> None:
        """A conversation line, in the file's order."""
        self._recent[uuid] = line

    def anchor(self, uuid: str, line: int) -> None:
        """A line a prompt hangs off."""
        self._anchors[uuid] = line

    def get(self, uuid: str) -> int | None:
        """The line of ``uuid``, if it is kept."""
        found = self._recent.get(uuid)
        return self._anchors.get(uuid) if found is None else found

    def __contains__(self, uuid: object) -> bool:
        return uuid in self._recent or uuid in self._anchors

    def __len__(self) -> int:
        return len(self._recent) + len(self._anchors)


def is_branch(record: JSONObject, tip: str | None, seen: TreeMemory) -> bool:
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
