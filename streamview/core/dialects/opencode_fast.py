"""opencode's hot lines read straight from their bytes, for the fold's fast path.

An opencode run is a step's start, its text, its finished calls and a step that called
tools, over and over. :meth:`OpenCodeTranslator.fast_line
<streamview.core.dialects.opencode.OpenCodeTranslator.fast_line>` decodes such a line
into the struct of its ``type`` (:data:`HotLine`, a tagged union of four), which holds
only the fields it reads (``msgspec`` skips the rest in C and checks the types on the
way). A field of another
type (a token count that is a string, a ``cache`` that is no object) declines: the line
is decoded in full. A call's ``metadata``, and its ``input`` unless flat (strings,
booleans, integers of 64 bits: read alike by both), are kept as their bytes and decoded
by ``orjson``, as the general path decodes them (``msgspec`` reads an integer past 64
bits as an ``int``, ``orjson`` as a ``float``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import orjson

import streamview.core.tools as tools
from streamview.core.dialects.opencode_tools import (
    _EDITED,
    _EXIT_0,
    _LINES,
    _NUMBERS_0,
    _ONE_FOR_ONE,
    _SHELL_SAID,
    KINDS,
    Built,
    Metadata,
    _edited,
    _exit_0,
    _grep_summary,
    _lines,
    _shell_said,
    args_for,
    kind_of,
    success_payload,
    success_said,
)
from streamview.core.events import JSONObject
from streamview.core.fast_path import Int64, hot_decoder
from streamview.core.fields import as_int
from streamview.core.tools import SUCCEEDED, Said


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


class ToolTime(msgspec.Struct, gc=False):
    """A call's start and end (epoch ms)."""

    start: Int64 | None = None
    end: Int64 | None = None


FlatInput = dict[str, str | Int64 | bool | None]
"""A call's input of strings, booleans and integers that fit 64 bits (most calls'):
decoded with its line, as ``orjson`` decodes it."""


class ToolState(msgspec.Struct, gc=False):
    """A finished ``tool`` part's state: its input if flat (:data:`FlatInput`), and its
    metadata's fields a payload reads (:class:`~.opencode_tools.Metadata`)."""

    status: str | None = None
    input: FlatInput | None = None
    output: str | None = None
    metadata: Metadata | None = None
    time: ToolTime | None = None


class RawToolState(ToolState, gc=False):
    """:class:`ToolState` with an input and metadata of any shape, as their bytes,
    decoded by ``orjson`` (``msgspec`` reads an integer past 64 bits as an ``int``,
    ``orjson`` as a ``float``; a metadata that is no object, or an exit code that is no
    integer, is read as the general path reads it)."""

    input: msgspec.Raw = msgspec.Raw()  # type: ignore[assignment]
    metadata: msgspec.Raw = msgspec.Raw()  # type: ignore[assignment]


class ToolPart(msgspec.Struct, gc=False):
    """The fields of a ``tool`` part the fast path reads (in the order opencode writes
    them: a key found where the last one left off is found at once)."""

    callID: str | None = None
    tool: str | None = None
    state: ToolState | None = None
    id: str | None = None


class RawToolPart(ToolPart, gc=False):
    """:class:`ToolPart` of a call whose input is not flat."""

    state: RawToolState | None = None


class TextPart(msgspec.Struct, gc=False):
    """A ``text`` part's text."""

    text: str | None = None


class StepPart(msgspec.Struct, gc=False):
    """A ``step-finish`` part's reason, cost and tokens (kept whole by
    :class:`~.opencode_totals.RunTotals` until they are added)."""

    reason: str | None = None
    cost: Int64 | float | None = None
    tokens: Tokens | None = None


class HotFields(msgspec.Struct, tag_field="type", gc=False):
    """The fields every hot record's fast path reads; each record's own struct adds its
    part and its ``type`` tag.

    The four hot records are one tagged union, told apart by ``type`` (opencode writes
    it first): each is decoded into a struct of its own fields only, with no look at a
    line's first bytes to choose a decoder (every line of a run but its first and
    last is one of them). A record of another ``type``, or of none, is refused with a
    :class:`msgspec.ValidationError`, as is a field of another type."""

    timestamp: Int64 | None = None
    sessionID: str | None = None
    streamview_recv_ms: Int64 | None = None


class StepStart(HotFields, tag="step_start", gc=False):
    """A ``step_start`` record's fields the fast path reads (its part: none)."""


class TextLine(HotFields, tag="text", gc=False):
    """A ``text`` record's fields the fast path reads."""

    part: TextPart | None = None


class StepLine(HotFields, tag="step_finish", gc=False):
    """A ``step_finish`` record's fields the fast path reads."""

    part: StepPart | None = None


class ToolLine(HotFields, tag="tool_use", gc=False):
    """A ``tool_use`` record's fields the fast path reads."""

    part: ToolPart | None = None


class RawToolLine(ToolLine, tag="tool_use", gc=False):
    """:class:`ToolLine` of a call whose input is not flat: a line :data:`decode_hot_line`
    refused with a :class:`msgspec.ValidationError` is decoded again as this (a field
    of another type elsewhere, or a record of another ``type``, is refused again)."""

    part: RawToolPart | None = None


HotLine = StepStart | TextLine | StepLine | ToolLine
"""The four records :data:`decode_hot_line` reads."""
decode_hot_line: Callable[[bytes], HotLine] = msgspec.json.Decoder(HotLine).decode
decode_raw_line = hot_decoder(RawToolLine)
INVALID = "invalid"
"""opencode's tool for a call it could not make: the general path reads it (a failure)."""


def _path_args(name: str, kind: str, given: Any) -> JSONObject:
    """:func:`~.opencode_tools.args_for` of a read, or an edit, whose ``filePath`` (and
    ``oldString``/``newString``) are non-empty strings, as its renames leave them,
    without their loops; any other call goes through ``args_for``. ``given`` is the
    call's input just decoded, read by nothing else: renamed in place, not copied."""
    if given.__class__ is not dict:
        return args_for(name, kind, given)
    path = given.get("filePath")
    if path.__class__ is not str or not path:
        return args_for(name, kind, given)
    if kind == "edit":
        old, new = given.get("oldString"), given.get("newString")
        if old.__class__ is not str or not old or new.__class__ is not str or not new:
            return args_for(name, kind, given)
        if len(given) == 3:  # most edits: nothing but the three
            return {"path": path, "old_string": old, "new_string": new}
        del given["filePath"], given["oldString"], given["newString"]
        given["path"], given["old_string"], given["new_string"] = path, old, new
        return given
    if len(given) == 1:  # most reads: the path alone
        return {"path": path}
    del given["filePath"]
    given["path"] = path
    return given


_RENAMED = {"shell": ("workingDirectory", "workdir"), "grep": ("glob", "include")}
"""The one renamed argument of a command and a grep (:func:`~.opencode_tools.args_for`)."""
_NO_METADATA = msgspec.Raw(b"{}")
"""A call's metadata as most calls give it (an empty object)."""


def _renamed(given: Any, to: str, key: str) -> JSONObject:
    """``args_for`` of a call whose kind renames one argument (:data:`_RENAMED`), as
    ``shapes.rename`` leaves it, without its loops: ``given`` (the input just decoded,
    read by nothing else) renamed in place, not copied."""
    if given.__class__ is not dict:
        return {}
    value = given.get(key)
    if value.__class__ is str and value:
        del given[key]
        given[to] = value
    return given


def tool_fields(part: ToolPart, line: int) -> tuple[Any, ...] | None:
    """A call that completed, as :meth:`OpenCodeTranslator._tool_fields
    <streamview.core.dialects.opencode.OpenCodeTranslator._tool_fields>` takes it apart
    (``summarised``), from its typed part, and its target last (thirteen fields, the
    fold's :func:`~streamview.core.tools.target_of` of its arguments): ``None`` for a
    call that failed, one of the ``invalid`` tool or of a status other than
    ``completed`` (the general path reads those).

    A read, a grep and a command (most calls) are taken apart in this body, their
    target the argument just read; a read's and a grep's metadata is not decoded (their
    payload reads none)."""
    state = part.state
    if state is None or state.status != "completed":
        return None
    name = part.tool or "unknown"
    kind = KINDS.get(name)  # opencode's own tools: most calls, one look-up
    if kind is None:
        if name == INVALID:
            return None
        kind = kind_of(name)
    given: Any = state.input
    if given.__class__ is msgspec.Raw:  # not flat (a :class:`RawToolState`)
        given = orjson.loads(bytes(given)) if given else None
    output = state.output or ""
    description = None
    payload: Any
    if kind == "read":
        if given.__class__ is dict and len(given) == 1:  # most reads: the path alone
            target = given.get("filePath")
            if target.__class__ is str and target:
                args = {"path": target}
            else:
                args = args_for(name, kind, given)
                target = None
        else:
            args = _path_args(name, kind, given)
            target = _named(args, "path")
        summary: str | None = None  # success_said's read
        if output:
            count = output.count("\n") + 1
            summary = _LINES.get(count) or _lines(count)
        payload = Said(kind, SUCCEEDED, summary, Built(kind, args, output, None))
    elif kind == "grep":
        if given.__class__ is dict:  # _renamed's, in place
            value = given.get("include")
            if value.__class__ is str and value:
                del given["include"]
                given["glob"] = value
            args = given
            target = given.get("pattern")
            if target.__class__ is not str or not target:
                target = None
        else:
            args, target = {}, None
        summary = _grep_summary(output) if output else None
        payload = Said(kind, SUCCEEDED, summary, Built(kind, args, output, None))
    else:
        metadata: Any = state.metadata  # Metadata, None or (RawToolState's) Raw
        if metadata.__class__ is Metadata:
            if kind != "shell" and kind != "edit":  # those two read the struct itself
                metadata = metadata.as_dict()
        elif metadata.__class__ is msgspec.Raw:
            if not metadata:
                metadata = None
            elif metadata == _NO_METADATA:  # compared as it is, without a copy
                metadata = {}
            else:
                metadata = orjson.loads(bytes(metadata))
        if kind == "shell":
            if given.__class__ is dict:  # _renamed's, in place
                value = given.get("workdir")
                if value.__class__ is str and value:
                    del given["workdir"]
                    given["workingDirectory"] = value
                args = given
                target = given.get("command")
                if target.__class__ is not str or not target:
                    target = None
                description = given.get("description")
                if description.__class__ is not str:
                    description = None
            else:
                args, target = {}, None
            # _command_said's
            if metadata.__class__ is Metadata:  # an int or None
                code = metadata.exit
            else:
                code = metadata.get("exit") if metadata.__class__ is dict else None
                if code.__class__ is not int and code is not None:
                    code = as_int(code)
            if output and not output.isspace():
                # tools._line_count's answer, without its call where no newline ends it
                ended = output[-1] == "\n"
                count = tools._line_count(output) if ended else output.count("\n") + 1
                if code == 0:
                    summary = _EXIT_0.get(count) or _exit_0(count)
                    numbers: tuple[Any, Any, Any] = _NUMBERS_0
                else:
                    key = (code, count)
                    summary = _SHELL_SAID.get(key) or _shell_said(key)
                    numbers = (None, None, code)
            else:
                summary = None if code is None else f"exit {code}"
                numbers = (None, None, code)
            payload = Said(
                kind,
                SUCCEEDED if code is None or code == 0 else tools.FAILED,
                summary,
                Built(kind, args, output, metadata),
                numbers,
            )
        elif kind == "edit":
            args = _path_args(name, kind, given)
            path = args.get("path")
            target = path if path.__class__ is str and path else None
            counts = None
            if metadata.__class__ is Metadata:
                diffed = metadata.diff is not None
            else:
                diffed = metadata.__class__ is dict and "diff" in metadata
            if not diffed:  # no diff of the stream's to count (most edits)
                # _edit_counts' replacement with no line in common, without its call
                old, new = args.get("old_string"), args.get("new_string")
                if old.__class__ is str and new.__class__ is str:
                    before, after = old.splitlines(), new.splitlines()
                    if len(before) == 1 and len(after) == 1:  # one line each, most edits
                        if before[0] != after[0]:
                            counts = _ONE_FOR_ONE
                    elif before and after and set(before).isdisjoint(after):
                        counts = (len(after), len(before), None)
            if counts is not None:
                summary = _EDITED.get(counts) or _edited(counts)
                payload = Said(
                    kind, SUCCEEDED, summary, Built(kind, args, output, metadata), counts
                )
            else:
                if metadata.__class__ is Metadata:
                    metadata = metadata.as_dict()
                payload = success_said(kind, args, output, metadata)
                if payload is None:
                    payload = success_payload(kind, args, output, metadata)
        else:
            args = args_for(name, kind, given)
            target = tools.target_of(kind, args)
            payload = success_said(kind, args, output, metadata)
            if payload is None:
                payload = success_payload(kind, args, output, metadata)
            if kind == "task" and given.__class__ is dict:
                description = given.get("description")
                if description.__class__ is not str:
                    description = None
    times = state.time
    return (
        None,
        None,
        part.callID or part.id or f"<line {line}>",
        kind,
        args,
        "success",
        payload,
        None,
        None if times is None else times.start,
        None if times is None else times.end,
        description,
        None,
        target,
    )


def _named(args: JSONObject, key: str) -> str | None:
    """``args[key]`` if a non-empty string, else ``None``: the call's target, as
    :func:`~streamview.core.tools.target_of` finds it for the kinds whose target is
    one argument (a read's, an edit's ``path``, a command's ``command``, a grep's
    ``pattern``)."""
    value = args.get(key)
    return value if value.__class__ is str and value else None
