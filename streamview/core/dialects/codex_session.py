"""Codex's interactive session files (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Every line is ``{"timestamp", "type", "payload"}`` (``codex-rs`` ``RolloutLine``);
checked against a real rollout of Codex 0.128 and the shapes in
``tests/fixtures/sessions/codex`` (sources in ``SOURCES.md``):

- ``session_meta``: the thread's ``id``, ``cwd``, ``cli_version``, ``originator``,
  ``source`` (``{"subagent": {"thread_spawn": {"parent_thread_id"...}}}`` for a spawned
  thread, said in the event log).
- ``turn_context``: each turn's ``model`` (and ``effort``): the session's model, and a
  notice when a turn changes it.
- ``response_item``: what the model saw and said. ``message`` (``assistant``: the
  answer; ``user``/``developer``: the model's context, with injected instructions, not
  shown), ``reasoning`` (its ``summary``), ``function_call`` / ``custom_tool_call`` and
  their ``_output`` by ``call_id`` (``exec_command``/``shell`` commands, ``apply_patch``
  edits, ``update_plan``...), ``web_search_call``.
- ``event_msg``: what the UI showed. ``user_message`` is the person's prompt, word for
  word; ``agent_message``/``agent_reasoning`` repeat the response items' text (shown
  once: whichever comes first, the other is skipped), ``token_count`` the thread's
  running usage, ``task_complete`` (or ``turn_complete``) a turn's end (the run's
  outcome so far, with that usage), ``turn_aborted`` an interrupted turn,
  ``thread_rolled_back`` a rewind (``session/rewound``); spawned threads
  (``collab_agent_spawn_end``) are notices, the ``spawn_agent`` call a ``task``.
- A spawned thread's own rollout, fed in by the source with the spawn call's id under
  ``parent_tool_use_id`` (:mod:`.subagent_nesting`): nested under that call.
- ``compacted``: a compaction, shown in the transcript where it happened.

Anything else is an unknown record: counted in the event log, never painted.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

import streamview.core.dialects.codex_tools as tools
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.core.dialects.codex import usage_of
from streamview.core.dialects.subagent_nesting import nested_events
from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
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
from streamview.core.fields import as_int, as_str, iso_ms

NAME = "codex-session"
NO_FINAL = "a Codex session file has no final record"
_SHELL_CALLS = frozenset(
    {"exec_command", "shell", "shell_command", "local_shell", "container.exec"}
)
_EXIT = re.compile(r"(?:Process exited with code|Exit code:)\s*(-?\d+)")
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$", re.MULTILINE)
_QUIET_EVENTS = frozenset(
    {
        "token_count",
        "task_started",
        "turn_started",
        "exec_command_begin",
        "exec_command_end",
        "patch_apply_begin",
        "patch_apply_end",
        "mcp_tool_call_begin",
        "mcp_tool_call_end",
        "web_search_begin",
        "web_search_end",
        "item_completed",
        "agent_reasoning_raw_content",
    }
)
"""Events that repeat what the response items say (a call's end, its output)."""


def _texts(content: Any, kind: str) -> str:
    if not isinstance(content, list):
        return ""
    return "".join(
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == kind
        and isinstance(block.get("text"), str)
    )


def _json(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return None


class CodexSessionTranslator:
    """One Codex rollout file, read from its first line."""

    def __init__(self) -> None:
        self._thread: str | None = None
        self._model: str | None = None
        self._calls: dict[str, tuple[str, str, JSONObject]] = {}
        """An open call's id, its tool's name, its kind and its arguments."""
        self._shown: list[str] = []
        """Text said since the last prompt (answer and reasoning): said once."""
        self._usage: JSONObject | None = None
        self._turns = 0
        self._spawned: dict[str, CodexSessionTranslator] = {}
        """Each spawn call's child thread, read by a translator of its own."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one rollout line stands for (see ``Translator``)."""
        call = record.get(PARENT_KEY)
        if isinstance(call, str):  # a spawned thread's line, fed in by the source
            child = self._spawned.setdefault(call, CodexSessionTranslator())
            own = {key: value for key, value in record.items() if key != PARENT_KEY}
            nested = nested_events(child.translate(own, line, recv_ms), call, self._thread)
            return nested or [ThinkingCompleted(line, self._thread, None, recv_ms)]
        kind = record.get("type")
        payload = record.get("payload")
        stamp = record.get("timestamp")
        ts = iso_ms(stamp) if isinstance(stamp, str) else None
        events: list[AnyEvent] | None = None
        if isinstance(payload, dict):
            if kind == "session_meta":
                events = self._meta(payload, line, ts, recv_ms)
            elif kind == "turn_context":
                events = self._turn(payload, line, ts, recv_ms)
            elif kind == "response_item":
                events = self._item(payload, line, ts, recv_ms)
            elif kind == "event_msg":
                events = self._event(payload, line, ts, recv_ms)
            elif kind == "compacted":
                events = [
                    ConnectionNotice(
                        line, self._thread, ts, recv_ms, type="session", subtype="compacted"
                    )
                ]
        if not events:
            inner = payload.get("type") if isinstance(payload, dict) else None
            return [
                UnknownRecord(
                    line,
                    self._thread,
                    ts,
                    recv_ms,
                    type=kind if isinstance(kind, str) else "?",
                    subtype=inner if isinstance(inner, str) else None,
                    record=record,
                )
            ]
        return events

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A rollout has no token deltas: every line goes through :meth:`translate`."""
        return None

    # -- the session ------------------------------------------------------------------

    def _meta(self, p: JSONObject, line: int, ts: int | None, recv: int | None) -> list[AnyEvent]:
        thread = as_str(p.get("id")) or as_str(p.get("session_id"))
        if thread is not None and thread == self._thread:  # a resume repeats it
            return [self._note(line, ts, recv, "session", "resumed", f"resumed {thread}", True)]
        self._thread = thread or self._thread
        keep = ("cli_version", "originator", "source", "model_provider", "git", "forked_from_id")
        events: list[AnyEvent] = [
            SessionStarted(
                line,
                self._thread,
                ts,
                recv,
                model=as_str(p.get("model")),
                cwd=as_str(p.get("cwd")),
                agent=NAME,
                extra={key: p[key] for key in keep if key in p},
                no_final_record=NO_FINAL,
            )
        ]
        source = p.get("source")
        spawn = source.get("subagent") if isinstance(source, dict) else None
        spawn = spawn.get("thread_spawn") if isinstance(spawn, dict) else None
        if isinstance(spawn, dict):
            parent = as_str(spawn.get("parent_thread_id")) or "?"
            who = as_str(spawn.get("agent_nickname")) or as_str(spawn.get("agent_role")) or ""
            said = f"a subagent thread {who} spawned by thread {parent}".replace("  ", " ")
            events.append(self._note(line, ts, recv, "task", "subagent", said))
        return events

    def _turn(self, p: JSONObject, line: int, ts: int | None, recv: int | None) -> list[AnyEvent]:
        model = as_str(p.get("model"))
        if model is None or model == self._model:
            return [ThinkingCompleted(line, self._thread, ts, recv)]
        first = self._model is None
        self._model = model
        effort = as_str(p.get("effort"))
        said = f"model {model}" + (f" (effort {effort})" if effort else "")
        if first:  # and the line's own (silent) event, which counts it
            return [
                SessionStarted(
                    line, self._thread, ts, recv, model=model, agent=NAME, inferred=True
                ),
                ThinkingCompleted(line, self._thread, ts, recv),
            ]
        return [self._note(line, ts, recv, "model", "model", said)]

    # -- what the model said and did ----------------------------------------------------

    def _item(self, p: JSONObject, line: int, ts: int | None, recv: int | None) -> list[AnyEvent]:
        kind = p.get("type")
        sid = self._thread
        if kind == "message":
            if p.get("role") != "assistant":  # the model's context, not the person's words
                return [ThinkingCompleted(line, sid, ts, recv)]
            return self._say(_texts(p.get("content"), "output_text"), False, line, ts, recv)
        if kind == "reasoning":
            summary = p.get("summary")
            text = _texts(summary, "summary_text")
            return self._say(text, True, line, ts, recv)
        if kind in ("function_call", "custom_tool_call", "local_shell_call"):
            return [self._call(p, line, ts, recv)]
        if kind in ("function_call_output", "custom_tool_call_output"):
            return [self._result(p, line, ts, recv)]
        if kind == "web_search_call":
            action = p.get("action")
            query = as_str(action.get("query")) if isinstance(action, dict) else None
            call_id = as_str(p.get("id")) or f"<line {line}>"
            return [
                ToolCallEvent(
                    line, sid, ts, recv, completed=True, call_id=call_id, kind="webSearch",
                    args={"searchTerm": query or ""}, outcome="success",
                    payload={"action": action} if isinstance(action, dict) else {},
                )
            ]  # fmt: skip
        if kind == "agent_message":  # between threads: the task a parent gave a child
            who, to = as_str(p.get("author")) or "?", as_str(p.get("recipient")) or "?"
            return [self._note(line, ts, recv, "task", kind, f"message from {who} to {to}", True)]
        if kind == "ghost_snapshot":
            return [self._note(line, ts, recv, "session", "snapshot", "undo snapshot", True)]
        return []

    def _say(
        self, text: str, thinking: bool, line: int, ts: int | None, recv: int | None
    ) -> list[AnyEvent]:
        """Text said once: the response item and the event message carry the same."""
        sid = self._thread
        key = ("t:" if thinking else "a:") + text.strip()
        if not text.strip() or key in self._shown:
            return [ThinkingCompleted(line, sid, ts, recv)]
        self._shown.append(key)
        if thinking:
            return [
                ThinkingDelta(line, sid, ts, recv, text=text),
                ThinkingCompleted(line, sid, ts, recv),
            ]
        return [AssistantMessage(line, sid, ts, recv, text=text, delta=False)]

    def _call(self, p: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        name = as_str(p.get("name")) or as_str(p.get("type")) or "unknown"
        call_id = as_str(p.get("call_id")) or as_str(p.get("id")) or f"<line {line}>"
        raw = p.get("input") if "input" in p else p.get("arguments")
        decoded = _json(raw) if "arguments" in p else raw
        if p.get("type") == "local_shell_call":
            decoded = p.get("action")
        kind, args = self._shape(name, decoded, raw)
        self._calls[call_id] = (name, kind, args)
        return ToolCallEvent(line, self._thread, ts, recv, call_id=call_id, kind=kind, args=args)

    def _shape(self, name: str, decoded: Any, raw: Any) -> tuple[str, JSONObject]:
        """A call's kind and arguments, in the shapes the headless dialect gives."""
        if name in _SHELL_CALLS and isinstance(decoded, dict):
            command = decoded.get("cmd", decoded.get("command"))
            if isinstance(command, list):
                command = " ".join(str(part) for part in command)
            item = {
                "command": command if isinstance(command, str) else "",
                "cwd": decoded.get("workdir") or decoded.get("working_directory"),
            }
            return "shell", tools.args_of("command_execution", item)
        if name == "apply_patch":
            patch = raw if isinstance(raw, str) else ""
            changes = [
                {"path": path.strip(), "kind": verb.lower()}
                for verb, path in _PATCH_FILE.findall(patch)
            ]
            return "edit", tools.args_of("file_change", {"changes": changes})
        if name == "update_plan" and isinstance(decoded, dict):
            plan = decoded.get("plan")
            items = [
                {"text": step.get("step"), "completed": step.get("status") == "completed"}
                for step in plan if isinstance(step, dict)
            ] if isinstance(plan, list) else []  # fmt: skip
            return "updateTodos", tools.args_of("todo_list", {"items": items})
        if name == "spawn_agent" and isinstance(decoded, dict):  # a thread of its own
            task = decoded.get("task_name") or decoded.get("agent_type")
            return "task", {"name": task, "prompt": decoded.get("message")}
        if isinstance(decoded, dict):
            return name, decoded
        return name, {"input": raw} if raw is not None else {}

    def _result(self, p: JSONObject, line: int, ts: int | None, recv: int | None) -> AnyEvent:
        call_id = as_str(p.get("call_id")) or f"<line {line}>"
        _, kind, _ = self._calls.pop(call_id, ("", "unknown", {}))
        output = p.get("output")
        if isinstance(output, list):
            output = _texts(output, "output_text") or _texts(output, "input_text")
        text = output if isinstance(output, str) else ""
        decoded = _json(text) if text.startswith("{") else None
        code: int | None = None
        if isinstance(decoded, dict) and isinstance(decoded.get("output"), str):
            meta = decoded.get("metadata")
            code = as_int(meta.get("exit_code")) if isinstance(meta, dict) else None
            text = decoded["output"]
        else:
            found = _EXIT.search(text[:400])
            code = int(found.group(1)) if found else None
            if found and "\nOutput:\n" in text:
                text = text.split("\nOutput:\n", 1)[1]
        outcome: str
        payload: Any
        if kind == "shell":
            item = {"aggregated_output": text, "exit_code": code, "status": "completed"}
            outcome, payload = tools.result_of("command_execution", item)
        elif kind == "edit":
            failed = code not in (None, 0) or text.lower().startswith(("error", "failed"))
            outcome, payload = (
                ("failure", {"message": text}) if failed else ("success", {"message": text})
            )
        else:
            outcome, payload = "success", {"output": text}
        return ToolCallEvent(
            line, self._thread, ts, recv, completed=True, call_id=call_id, kind=kind,
            outcome=outcome, payload=payload,
        )  # fmt: skip

    # -- what the UI showed ---------------------------------------------------------------

    def _event(self, p: JSONObject, line: int, ts: int | None, recv: int | None) -> list[AnyEvent]:
        kind = as_str(p.get("type")) or ""
        sid = self._thread
        if kind == "user_message":
            text, context = ide_request(as_str(p.get("message")) or "")
            self._shown.clear()
            prompt: list[AnyEvent] = [PromptSubmitted(line, sid, ts, recv, text=text)]
            if context:
                said = f"the IDE sent its context with the prompt: {context}"
                prompt.append(self._note(line, ts, recv, "context", "ide_context", said))
            return prompt
        if kind == "agent_message":
            return self._say(as_str(p.get("message")) or "", False, line, ts, recv)
        if kind == "agent_reasoning":
            return self._say(as_str(p.get("text")) or "", True, line, ts, recv)
        if kind == "token_count":
            info = p.get("info")
            total = info.get("total_token_usage") if isinstance(info, dict) else None
            if isinstance(total, dict):
                self._usage = usage_of(total)
            return [self._note(line, ts, recv, "usage", kind, "token count", True)]
        if kind in ("task_complete", "turn_complete"):  # serialized as the first (protocol.rs)
            self._turns += 1
            duration = as_int(p.get("duration_ms"))
            return [
                RunResult(
                    line, sid, ts, recv, subtype="success", duration_ms=duration,
                    usage=self._usage, num_turns=self._turns,
                )
            ]  # fmt: skip
        if kind == "turn_aborted":
            reason = as_str(p.get("reason")) or "interrupted"
            return [self._note(line, ts, recv, "session", kind, f"turn aborted: {reason}")]
        if kind == "thread_rolled_back":  # Codex's own rewind: the file goes on linear
            turns = as_int(p.get("num_turns"))
            said = f"rolled back {turns} turn(s)" if turns is not None else "rolled back"
            return [
                ConnectionNotice(
                    line, sid, ts, recv, type="session", subtype="rewound", detail=said
                )
            ]
        if kind in ("context_compacted",):
            return [ConnectionNotice(line, sid, ts, recv, type="session", subtype="compacted")]
        if kind == "collab_agent_spawn_end":
            child = as_str(p.get("new_thread_id")) or "?"
            who = as_str(p.get("new_agent_nickname")) or as_str(p.get("new_agent_role")) or ""
            said = f"spawned subagent {who} (thread {child})".replace("  ", " ")
            return [self._note(line, ts, recv, "task", kind, said)]
        if kind in _QUIET_EVENTS or kind.startswith("collab_"):
            return [self._note(line, ts, recv, "status", kind, kind, True)]
        return []

    def _note(
        self,
        line: int,
        ts: int | None,
        recv: int | None,
        topic: str,
        subtype: str,
        text: str,
        chatter: bool = False,
    ) -> AgentNotice:
        return AgentNotice(
            line, self._thread, ts, recv, type="session", subtype=subtype, topic=topic,
            text=text, chatter=chatter,
        )  # fmt: skip


IDE_REQUEST = "## My request for Codex:"
"""What Codex's IDE extension writes before the person's words, after the context it
adds (``# Context from my IDE setup:``, ``# Files mentioned by the user:``, open tabs)."""


def ide_request(text: str) -> tuple[str, str]:
    """The person's words of a prompt the IDE extension wrapped, and the context it
    added (one line); an unwrapped prompt is its own words, with no context."""
    at = text.find(IDE_REQUEST)
    if at < 0:
        return text, ""
    context = " ".join(text[:at].split())
    return text[at + len(IDE_REQUEST) :].strip(), context


def detect(record: JSONObject) -> bool:
    """A rollout line: ``session_meta``, ``turn_context``, ``response_item``,
    ``event_msg`` or ``compacted``, with its ``payload`` object."""
    return record.get("type") in (
        "session_meta",
        "turn_context",
        "response_item",
        "event_msg",
        "compacted",
    ) and isinstance(record.get("payload"), dict)


DIALECT = Dialect(
    name=NAME, label="Codex (session)", detect=detect, translator=CodexSessionTranslator
)
