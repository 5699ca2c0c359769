"""Kimi CLI's ``kimi --print -p "..." --output-format stream-json`` (MoonshotAI/kimi-cli).

Kimi prints kosong ``Message`` objects, one a line, as ``JsonPrinter`` in
``src/kimi_cli/ui/print/visualize.py`` writes them (and ``docs/en/customization/
print-mode.md`` shows them): records with a ``role`` and no ``type``.

- ``assistant``: ``content`` (a string, or parts: ``text``, ``think`` with its
  ``think`` text, ``image_url``...) and ``tool_calls`` (``id``,
  ``function.name``, ``function.arguments`` as a JSON string).
- ``tool``: ``tool_call_id`` and ``content``: ``<system>...</system>`` text (the
  tool's note; ``<system>ERROR: ...</system>`` when it failed) then its output.
- A background task's ``Notification`` (``id``, ``category``, ``type``,
  ``source_kind``, ``title``, ``body``, ``severity``...) and a ``PlanDisplay``
  (``content``, ``file_path``).

There is no init record, no session id, no model, no usage and no final record: the
run's outcome is its exit status (0 done, 1 failed, 75 retryable), which ``streamview
run`` sees, and a clean run is one whose last turn is whole (an answer after the last
tool result). When it gives up, Kimi prints why as a plain line (``src/kimi_cli/ui/
print/__init__.py``: "Max steps reached: 100", a provider's error, "Interrupted by
user", "Unknown error: ..."): that line is the run's error outcome.
"""

from __future__ import annotations

from typing import Any

import orjson

import streamview.core.dialects.kimi_tools as tools
from streamview.core.decoding import RECV_KEY
from streamview.core.dialects.base import Dialect
from streamview.core.dialects.kimi_fast import (
    ASSISTANT_START,
    TOOL_START,
    Part,
    decode_assistant,
    decode_tool,
    text_of,
    texts_of,
)
from streamview.core.events import (
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
from streamview.core.fast_path import HOT_DECODE_ERRORS, ONE_TARGET_ARG, FastRecord
from streamview.core.fields import as_str
from streamview.core.tools import Said

NAME = "kimi"
_NOTE_OPEN, _NOTE_CLOSE = "<system>", "</system>"
_NOTE_SKIP, _NOTE_CUT = len(_NOTE_OPEN), len(_NOTE_CLOSE)
_NOTIFICATION_KEYS = frozenset({"category", "source_kind", "severity", "title"})
_ROLES = frozenset({"assistant", "tool", "user"})
NO_FINAL_RECORD = "Kimi prints no final record"
"""What is said of a Kimi run that ended: it has no final record to say how."""
_GAVE_UP = {"Max steps reached": "max_steps", "Interrupted by user": "interrupted"}
"""The plain lines Kimi prints when it stops, and the outcome's subtype each gives."""


def _parts(content: Any) -> list[JSONObject]:
    """A message's content as parts (a bare string is one text part)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [part for part in content if isinstance(part, dict)]
    return []


def _arguments(raw: Any) -> Any:
    """A tool call's ``arguments``: a JSON string, decoded (kept as it came if it is not)."""
    if not isinstance(raw, str):
        return raw
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return {"arguments": raw}


def lean_result(known: tuple[str, JSONObject], note_part: Part, output_part: Part) -> Said | None:
    """The result of most of a Kimi run's calls, read in one go from its two text parts:
    a ``<system>`` note, then the output of a read, grep, edit or command that succeeded
    (``known``: the call's kind and arguments; :data:`~.kimi_tools.LEAN`). ``None``
    for any other, which :func:`split_texts` and :func:`~.kimi_tools.outcome_of` read."""
    said = tools.LEAN.get(known[0])
    note, output = note_part.text, output_part.text
    if (
        said is None
        or note_part.type != "text"
        or output_part.type != "text"
        or note is None
        or output is None
        or not (note.startswith(_NOTE_OPEN) and note.endswith(_NOTE_CLOSE))
        or (output.startswith(_NOTE_OPEN) and output.endswith(_NOTE_CLOSE))
    ):
        return None
    note = note[_NOTE_SKIP:-_NOTE_CUT]
    if note.startswith("ERROR:"):
        return None
    try:
        return said(known[1], note, output)
    except Exception:
        return None  # nothing changed: the long way reads the record again


def split_note(parts: list[JSONObject]) -> tuple[str, str]:
    """A tool message's ``<system>`` note and the rest of its text."""
    return split_texts(
        [
            text
            for part in parts
            if part.get("type") == "text" and isinstance(text := part.get("text"), str)
        ]
    )


def split_texts(texts: list[str]) -> tuple[str, str]:
    """The ``<system>`` note and the rest of a tool message's text parts' ``texts``.

    Once a result: Kimi's usual note-then-output pair is taken apart without lists."""
    if len(texts) == 2:
        note, rest = texts
        if (
            note.startswith(_NOTE_OPEN)
            and note.endswith(_NOTE_CLOSE)
            and not (rest.startswith(_NOTE_OPEN) and rest.endswith(_NOTE_CLOSE))
        ):
            return note[_NOTE_SKIP:-_NOTE_CUT], rest
    notes: list[str] = []
    output: list[str] = []
    for text in texts:
        if text.startswith(_NOTE_OPEN) and text.endswith(_NOTE_CLOSE):
            notes.append(text[_NOTE_SKIP:-_NOTE_CUT])
        else:
            output.append(text)
    return "\n".join(notes), "".join(output)


class KimiTranslator:
    """One Kimi CLI stream, remembering each open call's tool and arguments."""

    fast_line_ended = True
    """:meth:`fast_line` reads a line with its ``\\n`` still on (JSON whitespace to its
    decoders), as the fold cuts them (:meth:`~streamview.core.framing.LineFramer.split_ended`)."""

    REPEATED_RESULT = "ignore"  # see streamview.core.repeated_results

    def __init__(self) -> None:
        self._calls: dict[str, tuple[str, JSONObject]] = {}
        """Each open call's kind and arguments, by its id."""
        self._started = False
        """A ``SessionStarted`` was given (Kimi prints no init record of its own)."""
        self._gave_up = False
        """A plain line said why the run stopped (its outcome)."""

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Kimi CLI record stands for (see ``Translator``)."""
        events: list[AnyEvent] = []
        if not self._started:
            events.append(self._start(line, recv_ms))
        role = record.get("role")
        found: list[AnyEvent] | None = None
        if "type" not in record and role == "assistant":
            found = self._assistant(record, line, recv_ms)
        elif "type" not in record and role == "tool":
            found = [self._tool(record, line, recv_ms)]
        elif "type" not in record and role == "user":
            text = "".join(
                p["text"] for p in _parts(record.get("content")) if isinstance(p.get("text"), str)
            )
            found = [PromptSubmitted(line, None, None, recv_ms, text=text)]
        elif record.keys() >= _NOTIFICATION_KEYS:
            title = as_str(record.get("title")) or ""
            body = as_str(record.get("body"))
            found = [
                ConnectionNotice(
                    line,
                    None,
                    None,
                    recv_ms,
                    type="notification",
                    subtype=as_str(record.get("type")) or "notification",
                    detail=f"{title}: {body}" if body else title,
                )
            ]
        elif isinstance(record.get("content"), str) and isinstance(record.get("file_path"), str):
            found = [
                AssistantMessage(line, None, None, recv_ms, text=record["content"], delta=False)
            ]
        if not found:
            kind = record.get("type")
            label = kind if isinstance(kind, str) else as_str(role) or "?"
            found = [UnknownRecord(line, None, None, recv_ms, type=label, record=record)]
        return events + found

    def _start(self, line: int, recv_ms: int | None) -> SessionStarted:
        self._started = True
        return SessionStarted(
            line, None, None, recv_ms, agent=NAME, no_final_record=NO_FINAL_RECORD
        )

    def plain(self, text: str, line: int, recv_ms: int | None) -> list[AnyEvent] | None:
        """A plain line: why Kimi gave up (its run's error outcome), once; a second
        plain line is malformed like any other."""
        if self._gave_up or not text.strip():
            return None
        self._gave_up = True
        subtype = next((kind for said, kind in _GAVE_UP.items() if text.startswith(said)), "error")
        events: list[AnyEvent] = [] if self._started else [self._start(line, recv_ms)]
        message = text.strip()
        events.append(
            RunResult(line, None, None, recv_ms, subtype=subtype, is_error=True, message=message)
        )
        return events

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """A tool's result (half of a Kimi run) for the fold's fast path, once the
        session started, as :meth:`translate` reads it: the call's fields go to the
        state without an event. A result that cannot be read goes the long way."""
        role = record.get("role")
        if not self._started or (role != "tool" and role != "assistant") or "type" in record:
            return None
        recv = record.get(RECV_KEY)
        if recv is not None and recv.__class__ is not int:
            return None
        if role == "assistant":
            return self._fast_assistant(record, line, recv)
        return self._fast_result(
            record.get("tool_call_id"), record.get("content"), None, line, recv
        )

    def _fast_assistant(self, record: JSONObject, line: int, recv: int | None) -> FastRecord | None:
        """An assistant message of text alone (a run's answer), of one call alone, or of
        text and then one call (``answer_call``: two events of one line, half of a
        Kimi run's lines), as :meth:`_assistant` reads it; one with a thought, a part
        that is not text, or more than one call goes the long way."""
        calls = record.get("tool_calls")
        content = record.get("content")
        if calls is not None and calls.__class__ is not list:
            return None
        if not content:
            text = ""
        elif content.__class__ is str:
            text = content
        elif content.__class__ is list and all(
            part.__class__ is dict
            and part.get("type") == "text"
            and part.get("text").__class__ is str
            for part in content
        ):
            text = "".join([part["text"] for part in content])
        else:
            return None
        if not calls:
            if not text:
                return None  # the long way: a thought closes
            return "assistant", False, text, None, None, None, recv
        if len(calls) != 1:
            return None
        call = calls[0]
        function = call.get("function") if call.__class__ is dict else None
        if function.__class__ is not dict:
            return None
        name, arguments = function.get("name"), function.get("arguments")
        return self._said_with_call(text, call.get("id"), name, arguments, line, recv)

    def _said_with_call(
        self, text: str, given_id: Any, given_name: Any, raw: Any, line: int, recv: int | None
    ) -> FastRecord | None:
        """A call's start (``raw``: its arguments as they came), after ``text`` if any."""
        name = as_str(given_name) or "unknown"
        call_id = as_str(given_id) or f"<line {line}>"
        try:
            arguments = _arguments(raw)
            kind, args, described = tools.call_shape(name, arguments)
        except Exception:
            return None  # the long way reads the record again
        self._calls[call_id] = (kind, args)
        fields = (None, None, call_id, kind, args, None, None, None, None, None, described, None)
        if text:
            return "answer_call", None, (text, fields), None, None, None, recv
        return "tool_call", "started", fields, None, None, None, recv

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: a tool's result read into
        :class:`~.kimi_fast.ToolLine`, an assistant message into
        :class:`~.kimi_fast.AssistantLine`; any other line, and one whose fields
        :meth:`fast` would not read the same, is declined (decoded in full)."""
        if not self._started:
            return None
        if data.startswith(TOOL_START):
            try:
                hot = decode_tool(data)
            except HOT_DECODE_ERRORS:
                return None
            if hot.role != "tool" or hot.type:
                return None
            content = hot.content
            if content.__class__ is list and len(content) == 2:  # a note, then the output
                call_id = hot.tool_call_id or f"<line {line}>"
                known = self._calls.get(call_id)
                if known is not None:
                    result = lean_result(known, content[0], content[1])
                    if result is not None:
                        del self._calls[call_id]
                        kind = known[0]
                        # fmt: off
                        fields = (
                            None, None, call_id, kind, None, "success", result,
                            None, None, None, None, None,
                        )
                        # fmt: on
                        recv = hot.streamview_recv_ms
                        return "tool_call", "completed", fields, None, None, None, recv
            texts = texts_of(content)
            return self._fast_result(hot.tool_call_id, None, texts, line, hot.streamview_recv_ms)
        if not data.startswith(ASSISTANT_START):
            return None
        try:
            said = decode_assistant(data)
        except HOT_DECODE_ERRORS:
            return None
        if said.role != "assistant" or said.type:
            return None
        content = said.content
        if content.__class__ is list and len(content) == 1:  # one text part: most answers
            part = content[0]
            text = part.text if part.type == "text" else None
        else:
            text = text_of(content)
        if text is None:
            return None
        calls, recv = said.tool_calls, said.streamview_recv_ms
        if not calls:
            return ("assistant", False, text, None, None, None, recv) if text else None
        call = calls[0]
        function = call.function
        if len(calls) != 1 or function is None:
            return None
        # _said_with_call's work, the fields' types known (half of a Kimi run's lines)
        raw = function.arguments
        try:
            arguments = orjson.loads(raw) if raw is not None else None
        except orjson.JSONDecodeError:
            arguments = {"arguments": raw}
        kind, args, described = tools.fresh_call_shape(function.name or "unknown", arguments)
        call_id = call.id or f"<line {line}>"
        self._calls[call_id] = (kind, args)
        key = ONE_TARGET_ARG.get(kind)
        if key is None:  # the fold works the target out
            start: tuple[Any, ...] = (
                None, None, call_id, kind, args, None, None, None, None, None, described, None
            )  # fmt: skip
        else:  # and hands it over, as ``tools.target_of`` finds it: one string argument
            target = args.get(key)
            start = (
                None, None, call_id, kind, args, None, None, None, None, None, described, None,
                target if target.__class__ is str and target else None,
            )  # fmt: skip
        if text:
            return "answer_call", None, (text, start), None, None, None, recv
        return "tool_call", "started", start, None, None, None, recv

    def _fast_result(
        self, given_id: Any, content: Any, texts: list[str] | None, line: int, recv: int | None
    ) -> FastRecord | None:
        """A tool's result from its ``tool_call_id`` and ``content`` (or the ``texts``
        of its text parts); the call is forgotten once all is read."""
        call_id = as_str(given_id) or f"<line {line}>"
        kind, args = self._calls.get(call_id) or ("unknown", {})
        try:
            note, output = split_note(_parts(content)) if texts is None else split_texts(texts)
            outcome, payload = tools.outcome_of(kind, args, note, output, lean=True)
        except Exception:
            return None  # nothing changed: the long way reads the record again
        self._calls.pop(call_id, None)
        fields = (None, None, call_id, kind, None, outcome, payload, None, None, None, None, None)
        return "tool_call", "completed", fields, None, None, None, recv

    def _assistant(self, record: JSONObject, line: int, recv: int | None) -> list[AnyEvent]:
        """An assistant message's thoughts, text and calls, in that order (each part
        read once: half of a Kimi run's lines go this way)."""
        events: list[AnyEvent] = []
        content = record.get("content")
        texts: list[str] = []
        if content.__class__ is str:
            texts.append(content)
        elif isinstance(content, list):
            for part in content:
                if not isinstance(part, dict):
                    continue
                kind = part.get("type")
                if kind == "think":
                    think = part.get("think")
                    if isinstance(think, str):
                        if think:
                            events.append(ThinkingDelta(line, None, None, recv, text=think))
                        events.append(ThinkingCompleted(line, None, None, recv))
                elif kind == "text":
                    text = part.get("text")
                    if isinstance(text, str):
                        texts.append(text)
        said = "".join(texts)
        if said:
            events.append(AssistantMessage(line, None, None, recv, text=said, delta=False))
        calls = record.get("tool_calls")
        for call in calls if isinstance(calls, list) else ():
            if not isinstance(call, dict):
                continue
            function = call.get("function")
            body: JSONObject = function if isinstance(function, dict) else {}
            name = as_str(body.get("name")) or "unknown"
            call_id = as_str(call.get("id")) or f"<line {line}>"
            arguments = _arguments(body.get("arguments"))
            kind_name, args, described = tools.call_shape(name, arguments)
            self._calls[call_id] = (kind_name, args)
            events.append(
                ToolCallEvent(
                    line,
                    None,
                    None,
                    recv,
                    completed=False,
                    call_id=call_id,
                    kind=kind_name,
                    args=args,
                    description=described,
                )
            )
        return events or [ThinkingCompleted(line, None, None, recv)]

    def _tool(
        self, record: JSONObject, line: int, recv: int | None, lean: bool = False
    ) -> ToolCallEvent:
        """A tool's result; ``lean`` (the fold's fast path): a summary for a payload where
        :func:`~streamview.core.dialects.kimi_tools.outcome_of` counts one."""
        call_id = as_str(record.get("tool_call_id")) or f"<line {line}>"
        kind, args = self._calls.pop(call_id) if call_id in self._calls else ("unknown", {})
        note, output = split_note(_parts(record.get("content")))
        outcome, payload = tools.outcome_of(kind, args, note, output, lean)
        return ToolCallEvent(
            line,
            None,
            None,
            recv,
            completed=True,
            call_id=call_id,
            kind=kind,
            outcome=outcome,
            payload=payload,
        )


def detect(record: JSONObject) -> bool:
    """A message with a ``role`` and no ``type`` (an assistant's with ``content`` or
    ``tool_calls``, a tool's with ``tool_call_id``), or Kimi's notification record."""
    if "type" not in record:
        role = record.get("role")
        if role not in _ROLES:
            return False
        if role == "tool":
            return isinstance(record.get("tool_call_id"), str)
        return "content" in record or "tool_calls" in record
    return record.keys() >= _NOTIFICATION_KEYS and "source_kind" in record


DIALECT = Dialect(
    name=NAME,
    label="Kimi CLI",
    detect=detect,
    translator=KimiTranslator,
    no_final_record=NO_FINAL_RECORD,
)
