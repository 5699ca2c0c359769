"""opencode's tools in the shapes streamview's tool kinds already have (Cursor's).

A ``tool_use`` record holds one finished ``ToolPart``: the tool's name (``read``,
``bash``, ``edit``, ``github_get_issue``), its ``state.input``, and either the
``state.output`` text with a ``state.metadata`` object (``exit`` of a command, the
``diff`` and ``filediff`` of an edit, ``count`` of a glob) or, on failure,
``state.error``. Tool and parameter names: ``packages/opencode/src/tool/*.ts`` of
sst/opencode (``filePath``, ``oldString``/``newString``, ``command``/``description``,
``pattern``/``include``, ``url``, ``query``, ``subagent_type``, ``todos``). An MCP
tool is named ``{server}_{tool}``. A tool nobody maps keeps its own name and raw JSON.
"""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

import streamview.core.dialects.shapes as shapes
import streamview.core.tools as tools
from streamview.core.dialects.shapes import diff_counts
from streamview.core.events import JSONObject
from streamview.core.fast_path import Int64
from streamview.core.fields import as_int, as_str
from streamview.core.tools import SUCCEEDED, Said

KINDS: dict[str, str] = {
    "read": "read",
    "write": "write",
    "edit": "edit",
    "multiedit": "edit",
    "patch": "edit",
    "apply_patch": "edit",
    "bash": "shell",
    "grep": "grep",
    "glob": "glob",
    "list": "ls",
    "webfetch": "webFetch",
    "websearch": "webSearch",
    "codesearch": "webSearch",
    "task": "task",
    "todowrite": "updateTodos",
}
"""opencode tool names and the kinds they are shown as."""

BUILTIN = frozenset({*KINDS, "todoread", "skill", "question", "lsp", "batch", "invalid"})
"""Tools of opencode itself: any other name with a ``_`` is an MCP server's tool."""
_REJECTIONS = ("rejected permission", "user rejected", "permission denied by", "was denied")


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, ``mcp``, or the name itself."""
    if name not in BUILTIN and "_" in name.strip("_"):
        return "mcp"
    return KINDS.get(name, name or "unknown")


def args_of(name: str, tool_input: Any) -> JSONObject:
    """A ``ToolPart``'s ``state.input`` in the argument shape of the tool's kind."""
    return args_for(name, kind_of(name), tool_input)


def args_for(name: str, kind: str, tool_input: Any) -> JSONObject:
    """:func:`args_of` for a tool whose kind is known already (``kind_of(name)``)."""
    given: JSONObject = tool_input if isinstance(tool_input, dict) else {}
    if kind == "mcp":
        server, _, tool = name.strip("_").partition("_")
        return shapes.mcp_args(server, tool or server, given)
    args = dict(given)
    if kind in ("read", "write", "edit", "ls"):
        shapes.rename(args, "path", "filePath", "path")
        if kind == "write":
            shapes.rename(args, "fileText", "content")
        if kind == "edit":
            shapes.rename(args, "old_string", "oldString")
            shapes.rename(args, "new_string", "newString")
    elif kind == "glob":
        shapes.rename(args, "globPattern", "pattern")
        shapes.rename(args, "targetDirectory", "path")
    elif kind == "grep":
        shapes.rename(args, "glob", "include")
    elif kind == "shell":
        shapes.rename(args, "workingDirectory", "workdir")
    elif kind == "webSearch":
        shapes.rename(args, "searchTerm", "query")
    return args


def description_of(name: str, tool_input: Any) -> str | None:
    """What the model said a command or subagent is for (``description``)."""
    if kind_of(name) in ("shell", "task") and isinstance(tool_input, dict):
        return as_str(tool_input.get("description"))
    return None


def error_outcome(error: Any) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a ``state.error``: refused permissions are ``rejected``."""
    message = as_str(error) or "error"
    if any(words in message.lower() for words in _REJECTIONS):
        return "rejected", {"reason": message}
    return "error", {"message": message}


def success_payload(kind: str, args: JSONObject, output: str, metadata: Any) -> JSONObject:
    """The ``success`` payload of a finished call, in its kind's shape.

    Args:
        kind: The call's kind (:func:`kind_of`).
        args: Its arguments (:func:`args_of`).
        output: ``state.output``: what the model read.
        metadata: ``state.metadata``: the tool's structured facts, if any.
    """
    meta: JSONObject = metadata if isinstance(metadata, dict) else {}
    if kind == "shell":
        return shapes.shell_payload(output, meta.get("exit"))
    if kind == "edit":
        filediff = meta.get("filediff")
        counts = None
        if isinstance(filediff, dict):
            added, removed = as_int(filediff.get("additions")), as_int(filediff.get("deletions"))
            if added is not None and removed is not None:
                counts = (added, removed)
        return shapes.edit_payload(args, output, as_str(meta.get("diff")), counts)
    if kind == "glob":
        payload: JSONObject = {"message": output} if output else {}
        count = as_int(meta.get("count"))
        if count is not None:
            payload["totalFiles"] = count
        return payload
    if kind == "updateTodos":
        todos = meta.get("todos") if isinstance(meta.get("todos"), list) else args.get("todos")
        return {"todos": todos if isinstance(todos, list) else []}
    if kind == "read":
        return shapes.read_payload(args.get("path"), output)
    return shapes.text_payload(kind, args, output)


# What a successful call's result says, without building its payload (the fast path's).


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
        metadata = self.metadata
        if metadata.__class__ is Metadata:
            metadata = metadata.as_dict()
        return success_payload(self.kind, self.args, self.output, metadata)


class Metadata(msgspec.Struct, gc=False):
    """A call's ``state.metadata``: the fields a payload reads (:func:`success_payload`,
    :func:`success_said`), typed as both paths read them alike; the rest is skipped.
    A command's metadata repeats its whole output and an edit's the file before and
    after: they are not decoded. ``filediff``, ``count`` and ``todos`` are kept as
    their bytes, decoded by ``orjson`` when asked (:meth:`as_dict`)."""

    exit: Int64 | None = None
    diff: str | None = None
    filediff: msgspec.Raw = msgspec.Raw()
    count: msgspec.Raw = msgspec.Raw()
    todos: msgspec.Raw = msgspec.Raw()

    def as_dict(self) -> JSONObject:
        """The metadata as the general path's ``orjson`` decodes it, the fields a
        payload reads only (a field absent or ``null`` is missing: ``get`` gives
        ``None`` either way)."""
        metadata: JSONObject = {}
        if self.exit is not None:
            metadata["exit"] = self.exit
        if self.diff is not None:
            metadata["diff"] = self.diff
        if self.filediff:  # an empty Raw: no such field
            metadata["filediff"] = orjson.loads(bytes(self.filediff))
        if self.count:
            metadata["count"] = orjson.loads(bytes(self.count))
        if self.todos:
            metadata["todos"] = orjson.loads(bytes(self.todos))
        return metadata


_EDITED: dict[tuple[Any, ...], str] = {}
"""An edit's summary (``+3 -1``) by its lines added and removed (below
:data:`_LINES_KEPT` of them; keyed as its numbers, ``(3, 1, None)``, or as
:func:`_edit_counts` gives them, ``(3, 1)``): formatting two counts for each edit was a
tenth of its fast path."""
_ONE_FOR_ONE = (1, 1, None)
"""The numbers of an edit that replaced one line with another (most edits)."""


def _edited(counts: tuple[Any, ...]) -> str:
    """``+3 -1`` for ``(added, removed, ...)``, kept in :data:`_EDITED`."""
    added, removed = counts[0], counts[1]
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


_EXIT_0: dict[int, str] = {}
"""Summaries of commands that exited 0, by line count (below :data:`_LINES_KEPT`)."""
_NUMBERS_0 = (None, None, 0)
"""The numbers of a command that exited 0."""


def _exit_0(count: int) -> str:
    """``exit 0, 14 lines`` for a count of lines, kept in :data:`_EXIT_0`."""
    summary = _SHELL_SAID.get((0, count)) or _shell_said((0, count))
    if count < _LINES_KEPT:
        _EXIT_0[count] = summary
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
