"""opencode's hot lines read straight from their bytes, for the fold's fast path.

An opencode run is a step's start, its text, its finished calls and a step that called
tools, over and over. :meth:`OpenCodeTranslator.fast_line
<streamview.core.dialects.opencode.OpenCodeTranslator.fast_line>` decodes such a line
into :class:`HotLine`, which holds only the fields it reads
(``msgspec`` skips the rest in C and checks the types on the way). A field of another
type (a token count that is a string, a ``cache`` that is no object) declines: the line
is decoded in full. A call's ``metadata``, and its ``input`` unless flat (strings,
booleans, integers of 64 bits: read alike by both), are kept as their bytes and decoded
by ``orjson``, as the general path decodes them (``msgspec`` reads an integer past 64
bits as an ``int``, ``orjson`` as a ``float``).
"""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

import streamview.core.tools as tools
from streamview.core.dialects.opencode_tools import (
    KINDS,
    args_for,
    kind_of,
    success_payload,
)
from streamview.core.dialects.shapes import diff_counts
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
    metadata as their bytes."""

    status: str | None = None
    input: FlatInput | None = None
    output: str | None = None
    metadata: msgspec.Raw = msgspec.Raw()
    time: ToolTime | None = None


class RawToolState(ToolState, gc=False):
    """:class:`ToolState` with an input of any shape, as its bytes, decoded by ``orjson``
    (``msgspec`` reads an integer past 64 bits as an ``int``, ``orjson`` as a ``float``)."""

    input: msgspec.Raw = msgspec.Raw()  # type: ignore[assignment]


class Part(msgspec.Struct, gc=False):
    """The fields of a ``text``, ``step-finish`` or ``tool`` part the fast path reads."""

    text: str | None = None
    reason: str | None = None
    cost: Int64 | float | None = None
    tokens: Tokens | None = None
    tool: str | None = None
    callID: str | None = None
    id: str | None = None
    state: ToolState | None = None


class RawPart(Part, gc=False):
    """:class:`Part` of a call whose input is not flat."""

    state: RawToolState | None = None


class HotLine(msgspec.Struct, gc=False):
    """A ``step_start``, ``text``, ``tool_use`` or ``step_finish`` record's fields the
    fast path reads; the rest is skipped. One struct for the four: a line is decoded
    once, with no look at its first bytes to choose a decoder (every line of a run
    but its first and last is one of them)."""

    type: str | None = None
    timestamp: Int64 | None = None
    sessionID: str | None = None
    part: Part | None = None
    streamview_recv_ms: Int64 | None = None


class RawHotLine(HotLine, gc=False):
    """:class:`HotLine` of a call whose input is not flat: a line :data:`decode_hot_line`
    refused with a :class:`msgspec.ValidationError` is decoded again as this (a field
    of another type elsewhere is refused again)."""

    part: RawPart | None = None


decode_hot_line = hot_decoder(HotLine)
decode_raw_line = hot_decoder(RawHotLine)
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


def tool_fields(part: Part, line: int) -> tuple[Any, ...] | None:
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
        args = _renamed(given, "glob", "include")
        target = _named(args, "pattern")
        summary = _grep_summary(output) if output else None
        payload = Said(kind, SUCCEEDED, summary, Built(kind, args, output, None))
    else:
        raw = state.metadata
        if not raw:
            metadata: Any = None
        elif raw == _NO_METADATA:  # most calls': compared as it is, without a copy
            metadata = {}
        else:
            metadata = orjson.loads(bytes(raw))
        if kind == "shell":
            args = _renamed(given, "workingDirectory", "workdir")
            target = _named(args, "command")
            payload = _command_said(args, output, metadata)
            if given.__class__ is dict:
                description = given.get("description")
                if description.__class__ is not str:
                    description = None
        else:
            if kind == "edit":
                args = _path_args(name, kind, given)
                target = _named(args, "path")
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


def _grep_summary(output: str) -> str | None:
    """``tools._said_summary("grep", output)``: its lines that are not blank counted.

    Most outputs are plain: ASCII, lines ended by ``\n`` alone (no other character
    ``splitlines`` ends a line at, nor whitespace but the space and the tab), none
    blank or starting with a space or a tab. Their lines are counted without splitting
    them (the split was half of a grep's fast path); any other output is split as
    ``splitlines`` splits it, its blank lines counted in C."""
    if (
        output.isascii()
        and "\n\n" not in output
        # the two-character searches are slow where newlines are many: asked only of
        # an output that has a space, a tab (a memchr each)
        and (" " not in output or "\n " not in output)
        and ("\t" not in output or "\n\t" not in output)
        and output[:1] not in "\n \t"  # (startswith parses its arguments slowly)
        and "\r" not in output
        and "\x0b" not in output
        and "\x0c" not in output
        and "\x1c" not in output
        and "\x1d" not in output
        and "\x1e" not in output
        and "\x1f" not in output
    ):
        count = output.count("\n") + (output[-1:] != "\n")
    else:
        parts = output.splitlines()
        # A blank line is empty or all whitespace: counted without a stripped copy of each.
        count = len(parts) - parts.count("") - len(list(filter(str.isspace, parts)))
    if count <= 1:
        return tools._first_line(output) or None
    said = _MATCHING.get(count)
    if said is None:
        said = f"{count:,} matching lines"
        if count < _LINES_KEPT:
            _MATCHING[count] = said
    return said


_MATCHING: dict[int, str] = {}
"""``12 matching lines`` of the counts seen (below :data:`_LINES_KEPT`): formatting a
count with its thousands' commas was a tenth of a grep's fast path."""


_LINES: dict[int, str] = {}
"""``tools.plural(count, "line")`` of the counts seen (below :data:`_LINES_KEPT`):
formatting ``1,024 lines`` again for each call was a tenth of a read's fast path."""
_LINES_KEPT = 10_000


def _lines(count: int) -> str:
    """``tools.plural(count, "line")``, each count formatted once."""
    said = _LINES.get(count)
    if said is None:
        said = tools.plural(count, "line")
        if count < _LINES_KEPT:
            _LINES[count] = said
    return said


def _edit_counts(args: JSONObject, metadata: Any) -> tuple[Any, Any] | None:
    """Lines an edit added and removed as :func:`~.opencode_tools.success_payload`'s
    ``linesAdded``/``linesRemoved`` say them, without the diff it writes: the stream's
    diff counted (or its ``filediff`` counts), or a replacement whose old and new lines
    have none in common; ``None`` for anything else (the payload is built)."""
    diff = metadata.get("diff") if metadata.__class__ is dict else None
    if diff.__class__ is str and diff:  # orjson gives no subclass of dict or str
        filediff = metadata.get("filediff")
        if isinstance(filediff, dict):
            added, removed = as_int(filediff.get("additions")), as_int(filediff.get("deletions"))
            if added is not None and removed is not None:
                return added, removed
        return diff_counts(diff)
    old, new = args.get("old_string"), args.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str):
        return None
    before, after = old.splitlines(), new.splitlines()
    if before and after and set(before).isdisjoint(after):
        return len(after), len(before)  # edit_diff's one hunk
    return None


def success_said(kind: str, args: JSONObject, output: str, metadata: Any) -> tools.Said | None:
    """What :meth:`ToolCall.complete <streamview.core.model.ToolCall.complete>` reads
    from :func:`~.opencode_tools.success_payload`, for a read (its lines), a grep (its
    matching lines, or its one line), a command (its exit code and lines) and an edit
    (its lines added and removed, where :func:`_edit_counts` knows them), without
    building the payload: ``None`` for any other kind."""
    if kind == "read":
        summary = _lines(output.count("\n") + 1) if output else None
        numbers: tuple[int | None, int | None, int | None] = (None, None, None)
        status = tools.SUCCEEDED
    elif kind == "grep":
        summary = _grep_summary(output) if output else None
        numbers, status = (None, None, None), tools.SUCCEEDED
    elif kind == "edit":
        counts = _edit_counts(args, metadata)
        if counts is None:
            return None
        summary = _EDITED.get(counts)
        if summary is None:
            summary = _edited(counts)
        added, removed = counts
        numbers, status = (added, removed, None), tools.SUCCEEDED
    elif kind == "shell":
        return _command_said(args, output, metadata)
    else:
        return None
    return Said(kind, status, summary, Built(kind, args, output, metadata), numbers)


class Built(msgspec.Struct, gc=False):
    """What a said result's payload is built from, if a call of another kind asks for it:
    called, it builds it (the :class:`~.tools.Said`'s ``build``: one object, where a
    bound method made two and a ``partial`` of the four three)."""

    kind: str
    args: JSONObject
    output: str
    metadata: Any

    def __call__(self) -> JSONObject:
        """:func:`~.opencode_tools.success_payload` of the call."""
        return success_payload(self.kind, self.args, self.output, self.metadata)


_EDITED: dict[tuple[Any, Any], str] = {}
"""An edit's summary (``+3 -1``) by its lines added and removed (below
:data:`_LINES_KEPT` of them): formatting two counts for each edit was a tenth of its
fast path."""


def _edited(counts: tuple[Any, Any]) -> str:
    """``+3 -1`` for ``(added, removed)``, kept in :data:`_EDITED`."""
    added, removed = counts
    summary = f"+{added or 0} -{removed or 0}"
    if len(_EDITED) < _LINES_KEPT:  # ints: _edit_counts gives no bool or float (1 == True)
        _EDITED[counts] = summary
    return summary


_SHELL_SAID: dict[tuple[int | None, int], str] = {}
"""Summaries of commands' exit codes and line counts already written (below
:data:`_LINES_KEPT` of them): a run repeats them."""


def _shell_said(key: tuple[int | None, int]) -> str:
    """``exit 2, 14 lines`` (or ``14 lines``, no exit code) for ``(exit code, line
    count)``, kept in :data:`_SHELL_SAID`."""
    code, count = key
    lines = _lines(count)
    summary = lines if code is None else f"exit {code}, {lines}"
    if len(_SHELL_SAID) < _LINES_KEPT:
        _SHELL_SAID[key] = summary
    return summary


def _command_said(args: JSONObject, output: str, metadata: Any) -> tools.Said:
    """:func:`success_said` of a command: its exit code and lines."""
    code = metadata.get("exit") if metadata.__class__ is dict else None  # orjson's dict
    if code.__class__ is not int and code is not None:
        code = as_int(code)
    if output and not output.isspace():
        # tools._line_count's answer, without its call where no newline ends the output
        key = (code, output.count("\n") + 1 if output[-1] != "\n" else tools._line_count(output))
        summary: str | None = _SHELL_SAID.get(key) or _shell_said(key)
    else:
        summary = None if code is None else f"exit {code}"
    status = SUCCEEDED if code is None or code == 0 else tools.FAILED
    return Said(
        "shell", status, summary, Built("shell", args, output, metadata), (None, None, code)
    )
