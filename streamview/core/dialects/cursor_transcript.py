"""Cursor agent's transcripts (``~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl``).

Cursor's agent is closed source: this shape is what the transcripts themselves show
(as the tests of the tools that read them copy it, see ``tests/fixtures/sessions/
SOURCES.md``), one JSON object a line, appended as the conversation goes:

- ``{"role": "user", "message": {"content": [{"type": "text", "text": ...}]}}``: the
  person's words inside ``<user_query>...</user_query>``, with context Cursor adds
  (``<timestamp>``, ``<workspace>``, ``<attached_files>``...) around them;
- ``{"role": "assistant", "message": {"content": [...]}}``: blocks ``text``,
  ``thinking`` (``thinking``) and ``tool_use`` (``name``, ``input``; no id);
- ``{"type": "turn_ended", "status": ...}`` (newer builds): the turn is over.
- A subagent's own transcript (``<id>/subagents/<child id>.jsonl``), fed in by the
  source after the line of the call that started it, with that call's id under
  ``parent_tool_use_id`` (:mod:`streamview.sources.cursor_session_files`): nested
  under that call, its calls ending with it.

A transcript holds no ids, no timestamps, no tool results and no usage. So a call's
status is ``completed`` once a later record shows the agent went on (its result is
not recorded), the session has no id, and the account has no tokens: what the
headless ``stream-json`` says of a run and the transcript cannot is left unknown,
never guessed.
"""

from __future__ import annotations

import re
from typing import Any

import streamview.core.dialects.claude_tools as tools
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.core.dialects.subagent_nesting import nested_events
from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    AssistantMessage,
    JSONObject,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import FastRecord
from streamview.core.fields import as_str

AGENT_TOOLS = frozenset({"Subagent", "Task", "Agent"})
"""The tools that hand work to a subagent (its transcript in ``<id>/subagents/``): such
a call without an id is named ``subagent <line>.<block>``, as the session source names
it when it links the subagent, so a call keeps one id however the file is read."""

UNLINKED = "unlinked subagent "
"""How the source names a subagent transcript no call can be found for (``unlinked
subagent <child file>``): its first words are no delegating call's prompt."""
UNLINKED_WORDS = "subagent run not attached to any call"
_NONE = "Cursor's transcript does not record results"
_UNLINKED_END = ("not attached to any call", "no call of the transcript gave it its first words")

NAME = "cursor-transcript"
NO_FINAL_RECORD = "Cursor's transcripts have no final record"
_QUERY = re.compile(r"<user_query>\s*(.*?)\s*</user_query>", re.DOTALL)
_ONLY_TAGS = re.compile(r"\A(\s*<([a-z_]+)>.*?</\2>\s*)+\Z", re.DOTALL)
KINDS: dict[str, str] = {
    "Shell": "shell",
    "run_terminal_cmd": "shell",
    "StrReplace": "edit",
    "edit_file": "edit",
    "search_replace": "edit",
    "ReadFile": "read",
    "read_file": "read",
    "Delete": "delete",
    "delete_file": "delete",
    "list_dir": "ls",
    "grep_search": "grep",
    "codebase_search": "semSearch",
    "file_search": "glob",
    "web_search": "webSearch",
    "todo_write": "updateTodos",
    "TodoWrite": "updateTodos",
    "CallMcpTool": "mcp",
    "Subagent": "task",
}
"""Cursor's own tool names (beside Claude Code's, which it also uses) and their kinds."""


def kind_of(name: str) -> str:
    """The kind a transcript's tool name is shown as."""
    return KINDS.get(name) or tools.kind_of(name)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            block["text"]
            for block in content
            if isinstance(block, dict) and isinstance(block.get("text"), str)
        )
    return ""


class CursorTranscriptTranslator:
    """One Cursor agent transcript."""

    def __init__(self) -> None:
        self._started = False
        self._open: list[tuple[str, str]] = []
        """Calls shown running: their id and kind (closed when the agent goes on)."""
        self._turn_open = False
        self._agents: dict[str, CursorTranscriptTranslator] = {}
        """Each delegating call's subagent transcript, read by a translator of its own."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one transcript line stands for (see ``Translator``)."""
        call = record.get(PARENT_KEY)
        if isinstance(call, str):  # a subagent's line, fed in by the source
            shown = self._unlinked(call, line, recv_ms) if call not in self._agents else []
            agent = self._agents.setdefault(call, CursorTranscriptTranslator())
            own = {key: value for key, value in record.items() if key != PARENT_KEY}
            said = agent.translate(own, line, recv_ms)
            nested = nested_events(said, call, None, "subagent transcript", "subagents")
            return shown + nested or [ThinkingCompleted(line, None, None, recv_ms)]
        events: list[AnyEvent] = []
        if not self._started:
            self._started = True
            events.append(
                SessionStarted(
                    line, None, None, recv_ms, agent="cursor", no_final_record=NO_FINAL_RECORD
                )
            )
        role = record.get("role")
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if role == "user" and content is not None:
            events += self._close_calls(line, recv_ms)
            events += self._user(_text(content), line, recv_ms)
        elif role == "assistant" and isinstance(content, list):
            events += self._close_calls(line, recv_ms)
            self._turn_open = True
            events += self._assistant(content, line, recv_ms)
        elif record.get("type") == "turn_ended":
            events += self._close_calls(line, recv_ms)
            events += self._turn_ended(record, line, recv_ms)
        else:
            kind = as_str(record.get("type")) or as_str(role) or "record"
            events.append(UnknownRecord(line, None, None, recv_ms, type=kind, record=record))
        return events

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """Transcript lines are whole blocks: every one goes through :meth:`translate`."""
        return None

    def end(self, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The end of input: calls the agent went on from are done; a turn without its
        ``turn_ended`` is judged by the fold as any run without a final record. A
        subagent run attached to no call ends here (its calls with it)."""
        kept = [call for call in self._open if not call[0].startswith(UNLINKED)]
        self._open = [call for call in self._open if call[0].startswith(UNLINKED)]
        ended = self._close_calls(line, recv_ms) if self._open else []
        self._open = kept
        return ended

    def _unlinked(self, call: str, line: int, recv: int | None) -> list[AnyEvent]:
        """A row of its own for a subagent run the source attached to no call."""
        if not call.startswith(UNLINKED):
            return []
        self._open.append((call, "task"))
        args: JSONObject = {"description": UNLINKED_WORDS, "transcript": call[len(UNLINKED) :]}
        return [
            ToolCallEvent(
                line, None, None, recv, completed=False, call_id=call, kind="task",
                args=args, description=UNLINKED_WORDS,
            )
        ]  # fmt: skip

    def _user(self, text: str, line: int, recv: int | None) -> list[AnyEvent]:
        query = _QUERY.search(text)
        if query is not None:
            return [PromptSubmitted(line, None, None, recv, text=query.group(1))]
        if _ONLY_TAGS.match(text):  # context Cursor adds (open tabs, the time...)
            said = "context Cursor added to the conversation"
            return [
                AgentNotice(
                    line, None, None, recv, type="user", topic="context", text=said, chatter=True
                )
            ]
        return [PromptSubmitted(line, None, None, recv, text=text.strip())]

    def _assistant(self, content: list[Any], line: int, recv: int | None) -> list[AnyEvent]:
        events: list[AnyEvent] = []
        for number, block in enumerate(content):
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str):
                events.append(AssistantMessage(line, None, None, recv, text=block["text"]))
            elif kind == "thinking" and isinstance(block.get("thinking"), str):
                events.append(ThinkingDelta(line, None, None, recv, text=block["thinking"]))
                events.append(ThinkingCompleted(line, None, None, recv))
            elif kind == "tool_use":
                name = as_str(block.get("name")) or "unknown"
                mark = "subagent" if name in AGENT_TOOLS else "line"  # as the source names it
                call_id = as_str(block.get("id")) or f"{mark} {line}.{number + 1}"
                tool_kind = kind_of(name)
                given = block.get("input")
                mcp = dict(given) if isinstance(given, dict) else {}
                args = mcp if tool_kind == "mcp" else tools.args_of(name, given)
                self._open.append((call_id, tool_kind))
                events.append(
                    ToolCallEvent(
                        line,
                        None,
                        None,
                        recv,
                        completed=False,
                        call_id=call_id,
                        kind=tool_kind,
                        args=args,
                        description=tools.description_of(name, given),
                    )
                )
        return events or [ThinkingCompleted(line, None, None, recv)]

    def _close_calls(self, line: int, recv: int | None) -> list[AnyEvent]:
        """The agent went on: its open calls ended (how, the transcript does not say),
        and the calls its subagents left open under them."""
        closed: list[AnyEvent] = []
        for call_id, _ in self._open:
            agent = self._agents.get(call_id)
            if agent is not None:
                said = agent._close_calls(line, recv)
                closed += nested_events(said, call_id, None, "subagent transcript", "subagents")
        closed += [
            ToolCallEvent(
                line,
                None,
                None,
                recv,
                completed=True,
                call_id=call_id,
                kind=kind,
                outcome=_UNLINKED_END[0] if call_id.startswith(UNLINKED) else "unrecorded",
                payload={"message": _UNLINKED_END[1] if call_id.startswith(UNLINKED) else _NONE},
            )
            for call_id, kind in self._open
        ]
        self._open = []
        return closed

    def _turn_ended(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        status = as_str(record.get("status")) or "success"
        self._turn_open = False
        failed = status not in ("success", "completed")
        return [RunResult(line, None, None, recv, subtype=status, is_error=failed)]


def detect(record: JSONObject) -> bool:
    """A transcript line: a ``role`` and a ``message`` holding ``content``, and no
    ``type`` (Cursor's headless records all say ``type``)."""
    message = record.get("message")
    return (
        "type" not in record
        and record.get("role") in ("user", "assistant")
        and isinstance(message, dict)
        and "content" in message
        and "role" not in message
    )


DIALECT = Dialect(
    name=NAME,
    label="Cursor",
    detect=detect,
    translator=CursorTranscriptTranslator,
    no_final_record=NO_FINAL_RECORD,
)
