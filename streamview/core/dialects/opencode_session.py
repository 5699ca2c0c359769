"""opencode's stored sessions, as :mod:`streamview.sources.opencode_db` hands them on.

Records (one a line): ``{"opencode": "session", id, directory, title, version, ...}``,
``{"opencode": "message", id, data: {role, modelID?, providerID?, ...}}`` and
``{"opencode": "part", id, message_id, time_created, data: {type, ...}}`` (a part's
``type``: ``text``, ``reasoning``, ``tool``, ``step-start``, ``step-finish``...). A part
re-read after it changed comes again under the same id: what was said of it is not
said twice (records fold by id, last wins).

Each part of an assistant message is turned into the record ``opencode run --format
json`` prints for it (``packages/opencode/src/cli/cmd/run.ts``: ``text`` and
``reasoning`` once finished, ``tool_use`` once the call completed or failed,
``step_start``, ``step_finish``) and read by that translator
(:mod:`streamview.core.dialects.opencode`), so a stored session folds to the same
account as the headless stream; a user message's text parts are the prompt (which
the headless stream does not print).
"""

from __future__ import annotations

from typing import Any

from streamview.core.dialects.base import Dialect
from streamview.core.dialects.opencode import OpenCodeTranslator
from streamview.core.dialects.subagent_nesting import nested_events
from streamview.core.events import (
    AnyEvent,
    JSONObject,
    PromptSubmitted,
    SessionStarted,
    ThinkingCompleted,
    UnknownRecord,
)
from streamview.core.fast_path import FastRecord
from streamview.core.fields import as_int, as_str

NAME = "opencode-session"
_HEADLESS = {
    "text": "text",
    "reasoning": "reasoning",
    "tool": "tool_use",
    "step-start": "step_start",
    "step-finish": "step_finish",
}
"""A part's type and the headless record that prints it."""
_NOTICE = ("subagent session", "session")
"""How the start of a subagent's session is named in the event log."""


def _finished(part: JSONObject) -> bool:
    """Whether the headless stream would print this part now (``run.ts``'s tests)."""
    kind = part.get("type")
    if kind == "tool":
        state = part.get("state")
        return isinstance(state, dict) and state.get("status") in ("completed", "error")
    if kind in ("text", "reasoning"):
        times = part.get("time")
        return isinstance(times, dict) and times.get("end") is not None
    return kind in ("step-start", "step-finish")


class OpenCodeSessionTranslator:
    """One stored opencode session, read as the headless stream would show it."""

    def __init__(self) -> None:
        self._headless = OpenCodeTranslator()
        self._session: str | None = None
        self._model: str | None = None
        self._roles: dict[str, str] = {}
        """Message id to its role."""
        self._said: set[str] = set()
        """Parts already turned into events."""
        self._subagents: dict[str, OpenCodeSessionTranslator] = {}
        """A translator per ``task`` call whose subagent's rows were handed on."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one stored row stands for (see ``Translator``)."""
        call = record.get("parent_tool_use_id")
        if isinstance(call, str):
            return self._nested(call, record, line, recv_ms)
        kind = record.get("opencode")
        if kind == "session":
            return self._started(record, line, recv_ms)
        if kind == "message":
            data = record.get("data")
            info: JSONObject = data if isinstance(data, dict) else {}
            mid = as_str(record.get("id")) or ""
            self._roles[mid] = as_str(info.get("role")) or ""
            model = as_str(info.get("modelID"))
            if model is not None and model != self._model:
                self._model = model
                ts = as_int(record.get("time_created"))
                # An inferred start counts no line: the marker below counts it.
                return [
                    SessionStarted(line, self._session, ts, recv_ms, model=model, inferred=True),
                    ThinkingCompleted(line, self._session, ts, recv_ms),
                ]
            return [ThinkingCompleted(line, self._session, None, recv_ms)]
        if kind == "part":
            return self._part(record, line, recv_ms)
        return [UnknownRecord(line, self._session, None, recv_ms, type=str(kind), record=record)]

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """Stored parts are whole: every one goes through :meth:`translate`."""
        return None

    def end(self, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """What the headless translator held back until the end of input."""
        events = self._headless.end(line, recv_ms)
        for call, child in self._subagents.items():
            events.extend(nested_events(child.end(line, recv_ms), call, self._session, *_NOTICE))
        return events

    def _nested(self, call: str, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        """A subagent's row, read by a translator of its own and nested under ``call``:
        its calls are that call's children, its words reasoning under it, its prompt,
        outcome and usage its own (the ``task`` call holds them)."""
        child = self._subagents.get(call)
        if child is None:
            child = self._subagents[call] = OpenCodeSessionTranslator()
        inner = {key: value for key, value in record.items() if key != "parent_tool_use_id"}
        return nested_events(child.translate(inner, line, recv), call, self._session, *_NOTICE) or [
            ThinkingCompleted(line, self._session, None, recv)
        ]

    def _started(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        self._session = as_str(record.get("id"))
        extra = {
            key: record[key]
            for key in ("title", "version", "parent_id")
            if record.get(key) is not None
        }
        return [
            SessionStarted(
                line,
                self._session,
                as_int(record.get("time_created")),
                recv,
                cwd=as_str(record.get("directory")),
                agent="opencode",
                extra=extra,
            )
        ]

    def _part(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        data = record.get("data")
        part: JSONObject = data if isinstance(data, dict) else {}
        pid = as_str(record.get("id")) or f"<line {line}>"
        mid = as_str(record.get("message_id")) or ""
        ts = as_int(record.get("time_updated")) or as_int(record.get("time_created"))
        kind = part.get("type")
        if pid in self._said:
            return [ThinkingCompleted(line, self._session, ts, recv)]
        if self._roles.get(mid) == "user":
            self._said.add(pid)
            text = part.get("text")
            if kind == "text" and isinstance(text, str) and not part.get("synthetic"):
                return [PromptSubmitted(line, self._session, ts, recv, text=text)]
            return [ThinkingCompleted(line, self._session, ts, recv)]
        headless = _HEADLESS.get(kind) if isinstance(kind, str) else None
        if headless is None:
            self._said.add(pid)
            return [
                UnknownRecord(line, self._session, ts, recv, type=f"part/{kind}", record=record)
            ]
        if not _finished(part):  # said once it is (a re-read brings it again)
            return [ThinkingCompleted(line, self._session, ts, recv)]
        self._said.add(pid)
        printed: dict[str, Any] = {
            "type": headless,
            "timestamp": ts,
            "sessionID": self._session,
            "part": {**part, "id": pid, "messageID": mid, "sessionID": self._session},
        }
        events = self._headless.translate(printed, line, recv)
        # The session row said how the session started (with its directory).
        return [event for event in events if not isinstance(event, SessionStarted)] or [
            ThinkingCompleted(line, self._session, ts, recv)
        ]


def detect(record: JSONObject) -> bool:
    """A stored session's first row (``{"opencode": "session", "id": ...}``)."""
    return record.get("opencode") == "session" and isinstance(record.get("id"), str)


DIALECT = Dialect(name=NAME, label="opencode", detect=detect, translator=OpenCodeSessionTranslator)
