"""Cline's hot lines: a growing answer's next print, read from its bytes.

Nine lines in ten of a Cline run are ``say`` ``text`` messages with ``partial: true``,
each holding the whole answer so far. :class:`GrowingText` gives the translator its
``fast_line``: such a line is decoded into :class:`Say`, which holds only the fields it
reads (``msgspec`` skips the rest, such as ``modelInfo``, in C, and checks the types on
the way: a field of another type declines the line, which is then decoded in full).

A print that only adds to the one before is not decoded at all: when a line is the
last one's bytes up to the end of its text, then more text, then the same
``","partial":true}``, only what was added is decoded (:meth:`GrowingText.fast_line`).
A command's start and output and a finished file or search call are calls for the
fold's fast path too (:meth:`FastCalls.fast_call`), read from the decoded record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import orjson

import streamview.core.dialects.cline_tools as tools
import streamview.core.dialects.shapes as shapes
from streamview.core.decoding import RECV_KEY
from streamview.core.events import JSONObject
from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord, Int64, hot_decoder


class Say(msgspec.Struct, gc=False):
    """A ``say`` message's fields :meth:`ClineTranslator.fast` reads, typed as it
    checks them; the rest of the line is skipped."""

    type: str | None = None
    say: str | None = None
    text: str | None = None
    partial: bool | None = None
    ts: Int64 | None = None
    streamview_recv_ms: Int64 | None = None


decode_say = hot_decoder(Say)
SAY_START = b'{"ts":'
"""How Cline's CLI starts a message's line (``ts`` is written first)."""
PARTIAL_END = b'","partial":true}'
"""How Cline's CLI ends a growing text's line: its text, then ``partial``, last."""
_END = len(PARTIAL_END)
_loads = orjson.loads
_NOT_JSON = orjson.JSONDecodeError


def nothing_shown() -> dict[str, dict[int, str]]:
    """An empty record of a task's growing messages shown, by kind, then ``ts`` (an int
    key: ``fast_line`` reads and writes it once a line)."""
    return {"text": {}, "completion_result": {}, "reasoning": {}}


class GrowingText:
    """The translator's ``fast_line`` and what it keeps between two lines
    (:class:`~streamview.core.dialects.cline.ClineTranslator` is one)."""

    _task: str | None
    _started: bool
    _shown: dict[str, dict[int, str]]
    _command: tuple[str, str] | None
    _first_ms: int | None
    _spoke: bool
    _growing: bytes | None
    """The last line read by :meth:`fast_line`, up to the end of its text, when it was
    written as Cline writes a growing text (:func:`_plain_head`) and nothing else was
    read since: a next line that starts so and ends in :data:`PARTIAL_END` only adds
    text. While it is set, ``_shown`` may hold an older text for its ``ts``."""
    _growing_ts: int
    call_said: Callable[[str, str, int | None, int | None, Any], FastRecord | None]
    """:meth:`FastCalls.call_said`: a command's or a tool's ``say``, read."""
    request_said: Callable[[int | None, int | None, Any], FastRecord]
    """``ClineTranslator.request_said``: an API request's start, read."""
    whole_text: Callable[[str, int | None, int | None], FastRecord | None]
    """``ClineTranslator.whole_text``: a text's last print (not ``partial``), read."""

    def settle(self) -> None:
        """Tell ``_shown`` the text of the last line :meth:`fast_line` read, and forget
        that line: a line read any other way may read ``_shown`` or change what the
        next line would add to (call first)."""
        grown = self._growing
        if grown is not None:
            self._growing = None
            self._shown["text"][self._growing_ts] = _loads(grown + PARTIAL_END)["text"]

    def fast_line(self, data: bytes, line: int) -> FastRecord | None:
        """:meth:`fast` for a line not yet decoded: a growing answer's next print, any
        other line declined (decoded in full).

        A print that adds to the last one's bytes (:attr:`_growing`) has only its new
        end decoded, as the string it is; it is the same text the whole line's decode
        would give past the last one's (the last one's text ends where its string did:
        at a whole character, not inside an escape; a surrogate pair cannot be split
        there, as neither decoder reads half of one). Any other print is read into
        :class:`Say` (:meth:`_grown` inlined: this runs on nine lines in ten).

        ``_shown`` is told the grown text only when it is read (:meth:`settle`)."""
        grown = self._growing
        if grown is not None:
            # Compared as slices: bytes.startswith and endswith parse their arguments
            # the slow way (~300 instructions each, more than the compare).
            size = len(grown)
            if data[:size] == grown and data[-_END:] == PARTIAL_END:
                try:  # the new end: "" when nothing was added
                    fresh = data[size:-_END].decode()
                    if "\\" in fresh or '"' in fresh or not fresh.isprintable():
                        # An escape, a quote or a control character: read as JSON.
                        fresh = _loads(b'"' + data[len(grown) : 1 - _END])
                except (UnicodeDecodeError, _NOT_JSON):
                    pass
                else:
                    self._growing = data[:-_END]
                    if fresh:
                        return "assistant", True, fresh, None, self._task, self._growing_ts, None
                    return "thinking", "completed", None, None, self._task, self._growing_ts, None
            self.settle()
        if not self._started or not data.startswith(SAY_START):
            return None
        try:
            hot = decode_say(data)
        except HOT_DECODE_ERRORS:
            return None
        if hot.type != "say":
            return None
        what = hot.say
        text = hot.text
        if what != "text" or hot.partial is not True:
            # A call, an API request or a final text: what fast() reads of the record
            # is here already (this line was decoded once, not twice).
            if what == "api_req_started":
                return self.request_said(hot.ts, hot.streamview_recv_ms, text)
            if text is None:
                return None
            if what in FAST_CALLS:
                return self.call_said(what, text, hot.ts, hot.streamview_recv_ms, hot.partial)
            if what == "text":
                return self.whole_text(text, hot.ts, hot.streamview_recv_ms)
            return None
        if text is None:
            return None
        ts = hot.ts
        if ts is not None and self._first_ms is None:
            self._first_ms = ts
        self._spoke = True
        self._command = None
        shown = self._shown["text"]
        key = ts or 0
        before = shown.get(key, "")
        shown[key] = text
        sid, recv = self._task, hot.streamview_recv_ms
        if ts is not None and recv is None and data.endswith(PARTIAL_END):
            self._growing = _plain_head(data, ts, text)
            self._growing_ts = key
        if not text.startswith(before):
            return "assistant", False, text, None, sid, ts, recv
        if len(text) == len(before):
            return "thinking", "completed", None, None, sid, ts, recv
        return "assistant", True, text[len(before) :], None, sid, ts, recv


def _plain_head(data: bytes, ts: int, text: str) -> bytes | None:
    """``data`` up to the end of its text, when it is written as Cline writes a growing
    text, ``{"ts":TS,"type":"say","say":"text","text":"TEXT","partial":true}`` and
    nothing else (its text's string ending right before :data:`PARTIAL_END`)."""
    head = b'{"ts":%d,"type":"say","say":"text","text":"' % ts
    if not data.startswith(head):
        return None
    try:
        whole = _loads(b'"' + data[len(head) : 1 - _END])
    except _NOT_JSON:  # another field between the text and ``partial``
        return None
    return data[:-_END] if whole == text else None


FAST_CALLS = ("command", "command_output", "tool")
"""The ``say`` messages :meth:`FastCalls.fast_call` reads (a tuple: a ``say`` of any
type is looked for in it, and a dict cannot be hashed)."""


def said_fields(record: JSONObject) -> tuple[str, int | None, int | None] | None:
    """A ``say`` record's ``text``, ``ts`` and arrival time, or ``None`` when one is of
    a type the fast paths do not read (they go the long way, which says so)."""
    text = record.get("text")
    ts = record.get("ts")
    recv = record.get(RECV_KEY)
    if (
        text.__class__ is not str
        or (ts is not None and ts.__class__ is not int)
        or (recv is not None and recv.__class__ is not int)
    ):
        return None
    return text, ts, recv


class FastCalls:
    """The translator's calls for the fold's fast path: the fields of the
    ``ToolCallEvent`` :meth:`translate` would give, without the event."""

    _task: str | None
    _command: tuple[str, str] | None
    _first_ms: int | None
    _spoke: bool

    def fast_call(self, what: str, record: JSONObject) -> FastRecord | None:
        """A ``say`` ``command`` (a call starts), ``command_output`` (the open command
        ended, with its output so far) or ``tool`` (a file or search call, started
        while ``partial``, else started and ended at once), as :meth:`translate` reads
        it once the session started. A field of an unusual type, an output with no
        open command, a tool that says nothing or that raises go the long way (which
        says so); the translator is changed only once the record is read."""
        said = said_fields(record)
        if said is None:
            return None
        text, ts, recv = said
        return self.call_said(what, text, ts, recv, record.get("partial"))

    def call_said(
        self, what: str, text: str, ts: int | None, recv: int | None, partial: Any
    ) -> FastRecord | None:
        """:meth:`fast_call` of a record whose fields were read already (by
        :func:`said_fields`, or typed by ``fast_line``'s decoder)."""
        partial = partial is True
        call_id = f"cline-{ts}"
        fields: tuple[Any, ...]
        if what == "command":
            subtype = "started"
            fields = (None, None, call_id, "shell", {"command": text}, None, None)
            self._command = None if partial else (call_id, "")
        elif what == "command_output":
            command = self._command
            if command is None:
                return None
            call_id, before = command
            output = f"{before}\n{text}" if before else text
            subtype = "completed"
            fields = (None, None, call_id, "shell", None, "success", shapes.shell_payload(output))
            self._command = (call_id, output)
        else:
            try:
                info = tools.decode(text)
                if not info:
                    return None
                kind, args, payload = tools.call_of(info)
            except Exception:  # the long way says what is wrong with it
                return None
            if partial:  # the call as the model is still writing it
                subtype = "started"
                fields = (None, None, call_id, kind, args, None, None)
            else:
                subtype = "completed"
                fields = (None, None, call_id, kind, args, "success", payload)
            self._command = None  # a command's output ends when something else is said
        if ts is not None and self._first_ms is None:
            self._first_ms = ts
        if partial:
            self._spoke = True
        calls = (*fields, None, None, None, None, None)
        return "tool_call", subtype, calls, None, self._task, ts, recv
