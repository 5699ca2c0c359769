"""Gemini CLI's interactive session files (``~/.gemini/tmp/<project>/chats/session-*``).

As ``packages/core/src/services/chatRecordingService.ts`` of google-gemini/gemini-cli
writes them (and ``chatRecordingTypes.ts`` types them), one JSON object a line:

- a header ``{sessionId, projectHash, startTime, lastUpdated, kind, directories?}``;
- message records ``{id, timestamp, type, content, displayContent?}``, ``type`` one of
  ``user``, ``gemini``, ``info``, ``error``, ``warning``; a ``gemini`` message adds
  ``model``, ``thoughts`` (``subject``, ``description``), ``tokens`` (``input``,
  ``output``, ``cached``, ``thoughts``, ``tool``, ``total``) and ``toolCalls``
  (``id``, ``name``, ``args``, ``status``, ``result`` (``functionResponse`` parts),
  ``resultDisplay``). A message that changes (its tokens arrive, its calls gain
  results) is appended again under the same ``id``: records fold by id, last wins;
- ``{"$set": {...}}``: header fields changed; ``$set.messages`` replaces every message
  (a checkpoint);
- ``{"$rewindTo": id}``: that message and every later one were taken back.
- A subagent's own session (``kind: "subagent"``), fed in by the source with the id of
  the call that ran it under ``parent_tool_use_id``
  (:mod:`streamview.sources.gemini_session_files`): nested under that call.

The older files (before the JSONL, ``session-*.json``) are one pretty-printed object
holding the header and ``messages``; :mod:`streamview.sources.session_source` hands them on in
this shape (as the CLI itself rewrites them, ``rewriteConversationFile``).

Each record is turned into what ``gemini -p --output-format stream-json`` prints for the
same turn (:mod:`streamview.core.dialects.gemini`) and read by that translator, so a
session folds to the same account as the headless stream: the prompt, the answer, each
call (``tool_use``, then ``tool_result`` once its status is final) and the usage (a
``result`` whose ``stats`` sum every message's ``tokens``, given once an answer without
calls has its tokens, at each new prompt and at the end of input; the session file
itself has no final record).
"""

from __future__ import annotations

from typing import Any

from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude_session_lines import PARENT_KEY
from streamview.core.dialects.gemini import GeminiTranslator
from streamview.core.dialects.subagent_nesting import nested_events
from streamview.core.events import (
    AgentNotice,
    AnyEvent,
    JSONObject,
    SessionStarted,
    ThinkingCompleted,
    ThinkingDelta,
    UnknownRecord,
)
from streamview.core.fast_path import FastRecord
from streamview.core.fields import as_int, as_str, iso_ms

NAME = "gemini-session"
NO_FINAL_RECORD = "Gemini CLI's session files have no final record"
_FINAL = frozenset({"success", "error", "cancelled"})
"""A tool call's statuses once it has ended (``scheduler/types.ts``)."""
_NOTICES = frozenset({"info", "error", "warning"})
_TOKENS = ("input", "output", "cached", "thoughts", "total")


def text_of(content: Any) -> str:
    """A message's ``content`` (a string, a ``Part`` or a list of them) as its text."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        text = content.get("text")
        return text if isinstance(text, str) else ""
    if isinstance(content, list):
        return "".join(text_of(part) for part in content)
    return ""


def _response(call: JSONObject) -> JSONObject:
    """The ``functionResponse.response`` of a call's ``result``, if it has one."""
    result = call.get("result")
    for part in result if isinstance(result, list) else [result]:
        if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            response = part["functionResponse"].get("response")
            if isinstance(response, dict):
                return response
    return {}


class _Seen:
    """What was already said of one message id (a re-appended record says only more)."""

    __slots__ = ("calls_ended", "calls_started", "text", "thoughts", "tokens")

    def __init__(self) -> None:
        self.text = ""
        self.thoughts = 0
        self.tokens: dict[str, int] = {}
        self.calls_started: set[str] = set()
        self.calls_ended: set[str] = set()


class GeminiSessionTranslator:
    """One Gemini CLI session file, folded by message id into the headless stream."""

    def __init__(self) -> None:
        self._headless = GeminiTranslator()
        self._session: str | None = None
        self._seen: dict[str, _Seen] = {}
        self._totals: dict[str, int] = dict.fromkeys(_TOKENS, 0)
        self._calls = 0
        self._model: str | None = None
        self._answered = False
        """A ``gemini`` message came since the last prompt (a turn to close)."""
        self._last_ts: str | None = None
        self._agents: dict[str, GeminiSessionTranslator] = {}
        """Each agent call's subagent session, read by a translator of its own."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one session record stands for (see ``Translator``)."""
        call = record.get(PARENT_KEY)
        if isinstance(call, str):  # a subagent's record, fed in by the source
            agent = self._agents.setdefault(call, GeminiSessionTranslator())
            own = {key: value for key, value in record.items() if key != PARENT_KEY}
            said = agent.translate(own, line, recv_ms)
            nested = nested_events(said, call, self._session, "subagent session", "kind")
            return nested or [ThinkingCompleted(line, self._session, None, recv_ms)]
        if "$set" in record or "$rewindTo" in record:
            return self._patch(record, line, recv_ms)
        if isinstance(record.get("id"), str) and isinstance(record.get("type"), str):
            return self._message(record, line, recv_ms) or [self._unknown(record, line, recv_ms)]
        if isinstance(record.get("sessionId"), str) and isinstance(record.get("projectHash"), str):
            return self._header(record, line, recv_ms)
        return [self._unknown(record, line, recv_ms)]

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """Session records are whole messages: every one goes through :meth:`translate`."""
        return None

    def end(self, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The end of input: the last turn's usage, as the headless ``result`` gives it."""
        return self._turn_result(line, recv_ms)

    # -- records ----------------------------------------------------------------------

    def _headless_record(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        return self._headless.translate(record, line, recv)

    def _unknown(self, record: JSONObject, line: int, recv: int | None) -> AnyEvent:
        kind = as_str(record.get("type")) or next(iter(record), "record")
        ts = iso_ms(record.get("timestamp"))
        return UnknownRecord(line, self._session, ts, recv, type=str(kind), record=record)

    def _header(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        if self._session is not None:  # a header again (a rewrite): nothing new
            return [ThinkingCompleted(line, self._session, None, recv)]
        self._session = record["sessionId"]
        stamp = as_str(record.get("startTime"))
        init = {"type": "init", "session_id": self._session, "timestamp": stamp}
        events = self._headless_record(init, line, recv)
        started = events[0]
        if isinstance(started, SessionStarted):
            extra = {"kind": record["kind"]} if isinstance(record.get("kind"), str) else {}
            events[0] = SessionStarted(
                line,
                self._session,
                started.timestamp_ms,
                recv,
                agent="gemini",
                extra=extra,
                no_final_record=NO_FINAL_RECORD,
            )
        messages = record.get("messages")  # a legacy file's object on one line
        if isinstance(messages, list):
            events += self._messages(messages, line, recv)
        return events

    def _patch(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        sid = self._session
        if isinstance(record.get("$rewindTo"), str):
            text = f"the conversation was rewound to before message {record['$rewindTo']}"
            return [
                AgentNotice(line, sid, None, recv, type="$rewindTo", topic="session", text=text)
            ]
        changes = record.get("$set")
        if not isinstance(changes, dict):
            return [self._unknown(record, line, recv)]
        events: list[AnyEvent] = []
        if isinstance(changes.get("messages"), list):
            events += self._messages(changes["messages"], line, recv)
        if isinstance(changes.get("summary"), str):
            text = f"summary: {changes['summary']}"
            events.append(
                AgentNotice(line, sid, None, recv, type="$set", topic="session", text=text)
            )
        return events or [ThinkingCompleted(line, sid, None, recv)]  # bookkeeping only

    def _messages(self, messages: list[Any], line: int, recv: int | None) -> list[AnyEvent]:
        events: list[AnyEvent] = []
        for message in messages:
            if isinstance(message, dict) and isinstance(message.get("id"), str):
                events += self._message(message, line, recv) or []
        return events

    def _message(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent] | None:
        kind = record["type"]
        seen = self._seen.get(record["id"])
        fresh = seen is None
        if seen is None:
            seen = self._seen[record["id"]] = _Seen()
        stamp = as_str(record.get("timestamp"))
        self._last_ts = stamp or self._last_ts
        if kind == "user":
            if not fresh:
                return [ThinkingCompleted(line, self._session, None, recv)]
            events = self._turn_result(line, recv)
            shown = record.get("displayContent")
            text = text_of(shown if shown is not None else record.get("content"))
            prompt = {"type": "message", "role": "user", "content": text, "timestamp": stamp}
            return events + self._headless_record(prompt, line, recv)
        if kind == "gemini":
            return self._answer(record, seen, line, recv, stamp)
        if kind in _NOTICES:
            if not fresh:
                return [ThinkingCompleted(line, self._session, None, recv)]
            said = text_of(record.get("content"))
            if kind == "info":  # what the CLI tells the person (a model switch...)
                ts = iso_ms(stamp)
                return [
                    AgentNotice(
                        line, self._session, ts, recv, type="info", topic="status", text=said
                    )
                ]
            error = {"type": "error", "severity": kind, "message": said, "timestamp": stamp}
            return self._headless_record(error, line, recv)
        return None

    def _answer(
        self, record: JSONObject, seen: _Seen, line: int, recv: int | None, stamp: str | None
    ) -> list[AnyEvent]:
        self._answered = True
        sid = self._session
        ts = iso_ms(stamp)
        events: list[AnyEvent] = []
        model = as_str(record.get("model"))
        if model is not None and model != self._model:
            self._model = model
            events.append(SessionStarted(line, sid, ts, recv, model=model, inferred=True))
        thoughts = record.get("thoughts")
        if isinstance(thoughts, list) and len(thoughts) > seen.thoughts:
            for thought in thoughts[seen.thoughts :]:
                if isinstance(thought, dict):
                    subject = as_str(thought.get("subject")) or ""
                    body = as_str(thought.get("description")) or ""
                    said = f"**{subject}**\n{body}" if subject else body
                    events.append(ThinkingDelta(line, sid, ts, recv, text=said))
            events.append(ThinkingCompleted(line, sid, ts, recv))
            seen.thoughts = len(thoughts)
        text = text_of(record.get("content"))
        if text != seen.text and text.startswith(seen.text):
            more = text[len(seen.text) :]
            grown: JSONObject = {"type": "message", "role": "assistant", "content": more}
            grown.update(delta=True, timestamp=stamp)
            events += self._headless_record(grown, line, recv)
        elif text != seen.text:  # rewritten, not grown: the fold keeps what it showed
            events.append(
                AgentNotice(
                    line,
                    sid,
                    ts,
                    recv,
                    type="gemini",
                    topic="session",
                    text="an answer was rewritten",
                )
            )
        seen.text = text
        calls = record.get("toolCalls")
        for call in calls if isinstance(calls, list) else []:
            if isinstance(call, dict):
                events += self._call(call, seen, line, recv)
        tokens = record.get("tokens")
        if isinstance(tokens, dict):
            for key in _TOKENS:
                count = as_int(tokens.get(key)) or 0
                self._totals[key] += count - seen.tokens.get(key, 0)
                seen.tokens[key] = count
        events.append(ThinkingCompleted(line, sid, ts, recv))  # counts the line
        if text and isinstance(tokens, dict) and not seen.calls_started:
            # An answer with its tokens and no call (the model says no more this turn).
            events += self._turn_result(line, recv)
        return events

    def _call(self, call: JSONObject, seen: _Seen, line: int, recv: int | None) -> list[AnyEvent]:
        call_id = as_str(call.get("id"))
        if call_id is None:
            return []
        events: list[AnyEvent] = []
        stamp = as_str(call.get("timestamp"))
        if call_id not in seen.calls_started:
            seen.calls_started.add(call_id)
            self._calls += 1
            use: JSONObject = {
                "type": "tool_use",
                "tool_name": as_str(call.get("name")) or "unknown",
                "tool_id": call_id,
                "parameters": call.get("args") if isinstance(call.get("args"), dict) else {},
                "timestamp": stamp,
            }
            events += self._headless_record(use, line, recv)
        status = call.get("status")
        if status in _FINAL and call_id not in seen.calls_ended:
            seen.calls_ended.add(call_id)
            display = call.get("resultDisplay")
            response = _response(call)
            done: JSONObject = {
                "type": "tool_result",
                "tool_id": call_id,
                "status": "success" if status == "success" else "error",
                "output": display if isinstance(display, str) else as_str(response.get("output")),
                "timestamp": stamp,
            }
            if status != "success":
                said = response.get("error")
                error = said if isinstance(said, str) else f"the call was {status}"
                done["error"] = {"type": str(status), "message": error}
            events += self._headless_record(done, line, recv)
        return events

    def _turn_result(self, line: int, recv: int | None) -> list[AnyEvent]:
        """A turn's end, as the headless ``result``: every message's tokens so far."""
        if not self._answered:
            return []
        self._answered = False
        totals = self._totals
        stats = {
            "input_tokens": totals["input"],
            "output_tokens": totals["output"],
            "cached": totals["cached"],
            "total_tokens": totals["total"],
            "input": max(totals["input"] - totals["cached"], 0),
            "tool_calls": self._calls,
        }
        result = {"type": "result", "status": "success", "stats": stats, "timestamp": self._last_ts}
        events = self._headless_record(result, line, recv)
        return events


def detect(record: JSONObject) -> bool:
    """A session file's header: string ``sessionId`` and ``projectHash``, no ``type``
    (the headless stream's records all have one, and say ``session_id``)."""
    return (
        "type" not in record
        and isinstance(record.get("sessionId"), str)
        and isinstance(record.get("projectHash"), str)
    )


DIALECT = Dialect(
    name=NAME,
    label="Gemini CLI",
    detect=detect,
    translator=GeminiSessionTranslator,
    no_final_record=NO_FINAL_RECORD,
)
