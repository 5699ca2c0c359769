"""opencode's hot lines read straight from their bytes, for the fold's fast path.

Three records of every four in an opencode run are a step's start, its text and a step
that called tools. :meth:`OpenCodeTranslator.fast_line
<streamview.core.dialects.opencode.OpenCodeTranslator.fast_line>` decodes such a line
into :class:`StepLine`, which holds only the fields it reads (``msgspec`` skips the
rest in C and checks the types on the way). A field of another type (a token count
that is a string, a ``cache`` that is no object) declines: the line is decoded in full.
"""

from __future__ import annotations

from typing import Any

import msgspec

import streamview.core.tools as tools
from streamview.core.dialects.opencode_tools import success_payload
from streamview.core.events import JSONObject
from streamview.core.fast_path import Int64, hot_decoder
from streamview.core.fields import as_int


class Cache(msgspec.Struct, gc=False):
    """A step's cached tokens."""

    read: Int64 | None = None
    write: Int64 | None = None


class Tokens(msgspec.Struct, gc=False):
    """A step's tokens."""

    input: Int64 | None = None
    output: Int64 | None = None
    reasoning: Int64 | None = None
    cache: Cache | None = None


class Part(msgspec.Struct, gc=False):
    """The fields of a ``text`` or ``step-finish`` part the fast path reads."""

    text: str | None = None
    reason: str | None = None
    cost: Int64 | float | None = None
    tokens: Tokens | None = None


class StepLine(msgspec.Struct, gc=False):
    """A ``step_start``, ``text`` or ``step_finish`` record's fields the fast path
    reads; the rest is skipped."""

    type: str | None = None
    timestamp: Int64 | None = None
    sessionID: str | None = None
    part: Part | None = None
    streamview_recv_ms: Int64 | None = None


decode_step_line = hot_decoder(StepLine)
STEP_STARTS = (b'{"type":"step_start"', b'{"type":"text"', b'{"type":"step_finish"')
"""How ``opencode run --format json`` starts those lines (``type`` is written first)."""


def success_said(kind: str, args: JSONObject, output: str, metadata: Any) -> tools.Said | None:
    """What :meth:`ToolCall.complete <streamview.core.model.ToolCall.complete>` reads
    from :func:`~.opencode_tools.success_payload`, for a read (its lines), a grep (its
    matching lines, or its one line) and a command (its exit code and lines), without
    building the payload: ``None`` for any other kind."""
    if kind == "read":
        summary = tools.plural(output.count("\n") + 1, "line") if output else None
        numbers: tuple[int | None, int | None, int | None] = (None, None, None)
        status = tools.SUCCEEDED
    elif kind == "grep":
        summary = tools._said_summary(kind, output) if output else None
        numbers, status = (None, None, None), tools.SUCCEEDED
    elif kind == "shell":
        code = as_int(metadata.get("exit")) if isinstance(metadata, dict) else None
        if output and not output.isspace():
            lines = tools.plural(tools._line_count(output), "line")
            summary = lines if code is None else f"exit {code}, {lines}"
        else:
            summary = None if code is None else f"exit {code}"
        numbers = (None, None, code)
        status = tools.SUCCEEDED if code is None or code == 0 else tools.FAILED
    else:
        return None
    return tools.Said(
        kind, status, summary, lambda: success_payload(kind, args, output, metadata), numbers
    )
