"""Claude Code's interactive session files (``~/.claude/projects/<project>/<id>.jsonl``).

Checked against real files of Claude Code 2.1.38 (``tests/fixtures/sessions/claude``,
their sources in ``SOURCES.md``). Every line is one JSON object; the conversation's lines
carry ``uuid``, ``parentUuid``, ``sessionId``, ``timestamp``, ``cwd``, ``version``:

- ``user``: the person's prompt (``message.content`` a string or ``text`` blocks), or
  ``tool_result`` blocks with Claude Code's structured result in ``toolUseResult``.
  ``isMeta`` lines (caveats, injected context), ``<command-name>`` /
  ``<local-command-stdout>`` lines (a slash command and its output) and
  ``[Request interrupted by user]`` are not the person's words: notices, not prompts.
  ``isCompactSummary`` is the summary a compaction left.
- ``assistant``: the API's message, one content block a line: one response is split
  over several lines with the same ``message.id``, each repeating its ``usage``, which
  is counted once per message id.
- ``system``: ``compact_boundary`` (a compaction, shown in the transcript where it
  happened), ``turn_duration`` (a turn ended: the run's outcome so far, with the usage
  counted up to it), ``api_error`` (a retry), others (hooks, local commands) notices.
  ``[Request interrupted by user]`` ends a turn too (``interrupted``, an error outcome
  saying the person stopped it); a turn the file ends in, answered and no call open,
  is the run's outcome at the end of input (``end``).
- ``progress``: ``agent_progress`` mirrors a subagent's messages live (``data.message``),
  under the ``Task``/``Agent`` call ``parentToolUseID`` names: read as the headless
  stream's ``parent_tool_use_id`` records, so the subagent's calls nest under that call.
  Other progress (hooks, a command's output) is chatter for the event log.
- ``summary``, ``custom-title``, ``file-history-snapshot``, ``queue-operation``,
  ``attachment``, ``last-prompt``, ``permission-mode``: about the session, notices.

The conversation is a tree by ``parentUuid``: a prompt whose parent is not the newest
line (``/rewind``, an edited prompt) starts another branch, said in the transcript and
the event log (``session/rewound``). Parallel tool results also hang off their own
``tool_use`` line; those are not branches. Read whole, the source leaves the abandoned
branch out and says where it was (a ``streamview-branch`` record,
:mod:`streamview.sources.claude_session_files`), so the account is the branch that
leads to the newest record; followed, the fold only appends, and the branch is said
where it comes.

A subagent's own transcript (``<session>/subagents/agent-<id>.jsonl``) is fed in by the
source, each line with the ``Task``/``Agent`` call's id under ``parent_tool_use_id``:
read as the headless stream's subagent records, nested under that call.

Content blocks are read by :class:`~streamview.core.dialects.claude.ClaudeTranslator`,
so a session file's account is the one the headless stream of the same run gives.
"""

from __future__ import annotations

from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude import ClaudeTranslator
from streamview.core.dialects.claude_session_lines import (
    ABOUT,
    BRANCH,
    CHAIN,
    NOT_WORDS,
    PARENT_KEY,
    TASK_TOOLS,
    USAGE_KEYS,
    Recent,
    TreeMemory,
    detect,
    first_line,
    is_branch,
    text_of,
    words_of,
)
from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    ConnectionNotice,
    JSONObject,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ToolCallEvent,
    UnknownRecord,
)
from streamview.core.fast_path import FastRecord
from streamview.core.fields import as_int, as_str, iso_ms

NAME = "claude-session"
NO_FINAL = "a Claude Code session file has no final record"
COUNTED_IDS = 256
"""Message ids a translator remembers as counted (the newest)."""
_CHAIN, _ABOUT, _NOT_WORDS, _USAGE_KEYS = CHAIN, ABOUT, NOT_WORDS, USAGE_KEYS
_first_line, _text_of = first_line, text_of


class ClaudeSessionTranslator:
    """One Claude Code session file, read from its first line."""

    def __init__(self) -> None:
        self._inner = ClaudeTranslator()
        """Reads the messages' content blocks, as for the headless stream."""
        self._started = False
        self._lines = TreeMemory()
        """The conversation lines a branch can hang off, by ``uuid`` (bounded)."""
        self._tip: str | None = None
        """The ``uuid`` of the newest conversation line."""
        self._tip_line = 0
        self._counted = Recent(COUNTED_IDS)
        """Message ids whose usage is counted (a response spans several lines, written
        together: the newest ids are enough)."""
        self._usage: dict[str, int] = {}
        self._turn_open = False
        """The assistant answered since the last outcome given."""
        self._last_text = False
        """The last thing the assistant did was text (not a call)."""
        self._branches = 0
        self._sidechain_file = False
        """The file is a subagent's own (its first line ``isSidechain``)."""
        self._stamp: object = None
        self._ts: int | None = None
        """The line's ``timestamp`` and its epoch ms (read once)."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one session-file line stands for (see ``Translator``)."""
        kind = record.get("type")
        sid = as_str(record.get("sessionId"))
        stamp = record.get("timestamp")
        ts = iso_ms(stamp) if isinstance(stamp, str) else None
        self._stamp, self._ts = stamp, ts
        events: list[AnyEvent] = []
        if kind in _CHAIN and isinstance(record.get("uuid"), str):
            if not self._started:
                self._started = True
                self._sidechain_file = record.get("isSidechain") is True
                events.append(self._session(record, line, sid, ts, recv_ms))
            parent = record.get(PARENT_KEY)
            if isinstance(parent, str):  # a subagent's own file, fed in by the source
                return events + self._nested(record, parent, line, sid, ts, recv_ms)
            if record.get("isSidechain") is True and not self._sidechain_file:
                return events + self._sidechain(record, line, sid, ts, recv_ms)
            events.extend(self._chain(record, line, sid, ts, recv_ms))
        if kind == "user":
            events.extend(self._user(record, line, sid, ts, recv_ms))
        elif kind == "assistant":
            events.extend(self._assistant(record, record, None, line, sid, ts, recv_ms))
        elif kind == "system":
            events.extend(self._system(record, line, sid, ts, recv_ms))
        elif kind == "progress":
            events.extend(self._progress(record, line, sid, ts, recv_ms))
        elif kind in _ABOUT:
            events.append(self._about(record, str(kind), line, sid, ts, recv_ms))
        elif kind == BRANCH:
            events.append(self._left_out(record, line, sid, ts, recv_ms))
        if not events or (
            events[-1].__class__ is SessionStarted
            and all(e.__class__ is SessionStarted for e in events)
        ):
            name = kind if isinstance(kind, str) else "?"
            subtype = as_str(record.get("subtype"))
            events.append(
                UnknownRecord(line, sid, ts, recv_ms, type=name, subtype=subtype, record=record)
            )
        return events

    def _sidechain(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        """A subagent's line written in the main file (``isSidechain``, older releases):
        nested under the newest ``Task``/``Agent`` call still open, as a headless
        stream's ``parent_tool_use_id`` record; a notice when none is open."""
        tasks = [i for i, (name, _) in self._inner._calls.items() if name in TASK_TOOLS]
        if not tasks:
            kind = str(record.get("type"))
            return [self._notice(line, sid, ts, recv, "task", "sidechain", kind, True)]
        return self._nested(record, tasks[-1], line, sid, ts, recv)

    def _nested(
        self,
        record: JSONObject,
        parent: str,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
    ) -> list[AnyEvent]:
        """A subagent's line, under the ``Task``/``Agent`` call ``parent`` it works for:
        read as a headless stream's ``parent_tool_use_id`` record, so its calls nest
        under that call and its words are the call's, not the person's or the answer.
        Its own tree (``parentUuid``) is its own: it neither moves the session's tip nor
        starts a branch."""
        kind = record.get("type")
        if kind == "assistant":
            return self._assistant(record, record, parent, line, sid, ts, recv)
        if kind != "user":
            return [self._notice(line, sid, ts, recv, "task", "sidechain", str(kind), True)]
        adapted = {
            "type": "user",
            "message": record.get("message"),
            PARENT_KEY: parent,
            "tool_use_result": record.get("toolUseResult"),
            "timestamp": record.get("timestamp"),
        }
        return self._inner_events(adapted, line, sid, recv)

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A session file has no token deltas: every line goes through :meth:`translate`."""
        return None

    def end(self, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """A last turn that ended with an answer and no call open is the run's outcome
        (with its usage); one cut mid-turn is left for the fold to say so."""
        if self._turn_open and self._last_text and not self._inner._calls:
            return [self._outcome(line, None, None, recv_ms, None)]
        return []

    # -- the session and its tree ---------------------------------------------------

    def _session(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> SessionStarted:
        keep = ("version", "gitBranch", "slug", "entrypoint", "agentId")
        return SessionStarted(
            line,
            sid,
            ts,
            recv,
            cwd=as_str(record.get("cwd")),
            permission_mode=as_str(record.get("permissionMode")),
            agent=NAME,
            extra={key: record[key] for key in keep if key in record},
            no_final_record=NO_FINAL,
        )

    def _chain(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        """Place a conversation line in the tree; a prompt that does not follow the
        newest line starts another branch (a rewind), which is said."""
        uuid, parent = record["uuid"], as_str(record.get("parentUuid"))
        events: list[AnyEvent] = []
        back = self._tip_line if parent == self._tip else None
        if parent is not None and back is None:
            back = self._lines.get(parent)
        if back is not None and is_branch(record, self._tip, self._lines):
            self._branches += 1
            detail = f"the conversation goes on from line {back}; lines {back + 1}-{line - 1}"
            events.append(
                ConnectionNotice(
                    line, sid, ts, recv, type="session", subtype="rewound",
                    detail=f"{detail} are another branch",
                )
            )  # fmt: skip
        if parent is not None and back is not None and words_of(record) is not None:
            self._lines.anchor(parent, back)  # a prompt: a rewind may go on from its parent
        self._lines.add(uuid, line)
        self._tip, self._tip_line = uuid, line
        return events

    # -- records ----------------------------------------------------------------------

    def _user(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        words = _text_of(content)
        if words is None:  # tool results
            adapted = {
                "type": "user",
                "message": message,
                "tool_use_result": record.get("toolUseResult"),
                "timestamp": record.get("timestamp"),
            }
            return self._inner_events(adapted, line, sid, recv)
        if record.get("isCompactSummary"):
            return [self._notice(line, sid, ts, recv, "compaction", "compact summary", words)]
        if record.get("isMeta"):
            return [self._notice(line, sid, ts, recv, "session", "meta", words, chatter=True)]
        stripped = words.lstrip()
        if stripped.startswith(_NOT_WORDS):
            return [self._notice(line, sid, ts, recv, "session", "command", stripped)]
        if stripped.startswith("[Request interrupted by user"):
            said: list[AnyEvent] = [
                self._notice(line, sid, ts, recv, "session", "interrupted", stripped)
            ]
            if self._turn_open:  # the turn ends here: its outcome, with the usage so far
                said.append(self._outcome(line, sid, ts, recv, None, "interrupted by the person"))
            return said
        events: list[AnyEvent] = []
        if self._turn_open:  # the previous turn ended without saying so (older files)
            events.append(self._outcome(line, sid, ts, recv, None))
        events.append(PromptSubmitted(line, sid, ts, recv, text=words))
        self._last_text = False
        return events

    def _assistant(
        self,
        outer: JSONObject,
        record: JSONObject,
        parent: str | None,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
    ) -> list[AnyEvent]:
        message = record.get("message")
        if isinstance(message, dict):
            self._count(message)
        adapted: JSONObject = {
            "type": "assistant",
            "message": message,
            "timestamp": record.get("timestamp", outer.get("timestamp")),
        }
        if parent is not None:
            adapted["parent_tool_use_id"] = parent
        events = self._inner_events(adapted, line, sid, recv)
        if parent is None:
            self._turn_open = True
            for event in events:
                if isinstance(event, ToolCallEvent):
                    self._last_text = False
                elif type(event).__name__ == "AssistantMessage":
                    self._last_text = True
        return events

    def _count(self, message: JSONObject) -> None:
        """Add a response's usage once, whichever of its lines comes first."""
        message_id = as_str(message.get("id"))
        usage = message.get("usage")
        if message_id is None or not isinstance(usage, dict) or message_id in self._counted:
            return
        self._counted[message_id] = 1
        for key in _USAGE_KEYS:
            value = as_int(usage.get(key))
            if value is not None:
                self._usage[key] = self._usage.get(key, 0) + value

    def _inner_events(
        self, adapted: JSONObject, line: int, sid: str | None, recv: int | None
    ) -> list[AnyEvent]:
        """The headless dialect's events for a message, in this session's id and time."""
        if sid is not None:
            adapted["session_id"] = sid
        stamp = adapted.get("timestamp")  # most often the line's own, already read
        ts = self._ts if stamp is self._stamp else iso_ms(stamp) if isinstance(stamp, str) else None
        kind = adapted["type"]
        read = self._inner._assistant if kind == "assistant" else self._inner._user
        said = read(adapted, line, sid, ts, recv)  # as its translate() would, without
        if not said:  # reading the type and the time again
            return [UnknownRecord(line, sid, ts, recv, type=kind, subtype=None, record=adapted)]
        out: list[AnyEvent] = []
        for event in said:
            if isinstance(event, SessionStarted):  # the model a message names
                event = SessionStarted(
                    event.line, sid, event.timestamp_ms, recv, model=event.model,
                    agent=NAME, inferred=True,
                )  # fmt: skip
            out.append(event)
        return out

    def _system(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        subtype = as_str(record.get("subtype")) or ""
        content = as_str(record.get("content")) or ""
        if subtype == "compact_boundary":
            meta = record.get("compactMetadata")
            meta = meta if isinstance(meta, dict) else {}
            trigger = as_str(meta.get("trigger")) or "compaction"
            before = as_int(meta.get("preTokens"))
            said = f"{trigger}, {before:,} tokens before" if before is not None else trigger
            return [
                ConnectionNotice(
                    line, sid, ts, recv, type="session", subtype="compacted", detail=said
                )
            ]
        if subtype == "turn_duration":
            duration = as_int(record.get("durationMs"))
            return [self._outcome(line, sid, ts, recv, duration)]
        if subtype == "api_error":
            attempt = as_int(record.get("retryAttempt"))
            error = record.get("error")
            detail = as_str(error.get("message")) if isinstance(error, dict) else None
            return [
                ConnectionNotice(
                    line, sid, ts, recv, type="retry", subtype="api_error", attempt=attempt,
                    detail=detail or content or None,
                )
            ]  # fmt: skip
        text = _first_line(content) or subtype
        chatter = subtype in ("stop_hook_summary", "local_command")
        return [self._notice(line, sid, ts, recv, "status", subtype or "system", text, chatter)]

    def _progress(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        data = record.get("data")
        data = data if isinstance(data, dict) else {}
        what = as_str(data.get("type")) or "progress"
        inner = data.get("message")
        parent = as_str(record.get("parentToolUseID"))
        if what == "agent_progress" and isinstance(inner, dict) and parent is not None:
            if inner.get("type") == "assistant":
                return self._assistant(record, inner, parent, line, sid, ts, recv)
            if inner.get("type") == "user":
                adapted = {
                    "type": "user",
                    "message": inner.get("message"),
                    "parent_tool_use_id": parent,
                    "tool_use_result": inner.get("toolUseResult"),
                    "timestamp": inner.get("timestamp", record.get("timestamp")),
                }
                return self._inner_events(adapted, line, sid, recv)
        hook = as_str(data.get("hookName")) or as_str(data.get("hookEvent"))
        text = f"{what}: {hook}" if hook else what
        return [self._notice(line, sid, ts, recv, "status", what, text, chatter=True)]

    def _left_out(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> ConnectionNotice:
        """Where the source left out another branch (a ``/rewind``): said where it was,
        in the file's own line numbers."""
        back, first, last = (as_int(record.get(k)) for k in ("from", "first", "last"))
        where = f"lines {first}-{last}" if first != last else f"line {first}"
        return ConnectionNotice(
            line, sid, ts, recv, type="session", subtype="rewound",
            detail=(
                f"the conversation goes on from line {back} of the file; {where} are "
                "another branch, not shown"
            ),
        )  # fmt: skip

    def _about(
        self,
        record: JSONObject,
        kind: str,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
    ) -> AgentNotice:
        title = (
            as_str(record.get("summary"))
            or as_str(record.get("customTitle"))
            or as_str(record.get("aiTitle"))
        )
        if title is not None:
            return self._notice(line, sid, ts, recv, "session", kind, f"title: {title}")
        operation = as_str(record.get("operation"))
        text = f"{kind}: {operation}" if operation else kind
        return self._notice(line, sid, ts, recv, "session", kind, text, chatter=True)

    def _notice(
        self,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
        topic: str,
        subtype: str,
        text: str,
        chatter: bool = False,
    ) -> AgentNotice:
        return AgentNotice(
            line,
            sid,
            ts,
            recv,
            type="session",
            subtype=subtype,
            topic=topic,
            text=f"{subtype}: {_first_line(text)}" if subtype not in text[:40] else text[:120],
            chatter=chatter,
        )

    def _outcome(
        self,
        line: int,
        sid: str | None,
        ts: int | None,
        recv: int | None,
        duration: int | None,
        interrupted: str | None = None,
    ) -> RunResult:
        """The turn is over: the run's outcome so far, with every response counted once
        (``interrupted``: the person stopped it, which is said as its message)."""
        self._turn_open = False
        return RunResult(
            line,
            sid,
            ts,
            recv,
            subtype="interrupted" if interrupted else "success",
            is_error=interrupted is not None,
            duration_ms=duration,
            usage=dict(self._usage) if self._usage else None,
            message=interrupted,
        )


DIALECT = Dialect(
    name=NAME,
    label="Claude Code (session)",
    detect=detect,
    translator=ClaudeSessionTranslator,
)
