"""Codex's hot lines read straight from their bytes, for the fold's fast path.

A ``codex exec --json`` run is mostly ``item.*`` records: commands started and
completed, reasoning and messages. :meth:`CodexTranslator.fast_line
<streamview.core.dialects.codex.CodexTranslator.fast_line>` decodes such a line into
:class:`ItemLine`, which holds only the fields it reads (``msgspec`` skips the rest in
C and checks the types on the way), and a completed command's result is summarised
here (:func:`command_result`) without the payload the summary would be read from.

Anything unusual declines, and the line is decoded in full: a field of another type,
an item type other than a command or text, a command whose exit code is no plain
integer.
"""

from __future__ import annotations

from typing import Any

import msgspec

import streamview.core.tools as tools
from streamview.core.events import JSONObject
from streamview.core.fast_path import FastRecord, Int64, hot_decoder
from streamview.core.tools import FAILED, SUCCEEDED, Said


class Change(msgspec.Struct, gc=False):
    """One file of a ``file_change`` item."""

    path: str | None = None
    kind: str | None = None
    diff: str | None = None
    unified_diff: str | None = None


class Item(msgspec.Struct, gc=False):
    """The fields of a command, file change or text item that the fast path reads."""

    id: str | None = None
    type: str | None = None
    item_type: str | None = None
    text: str | None = None
    command: str | None = None
    aggregated_output: str | None = None
    exit_code: Int64 | None = None
    status: str | None = None
    cwd: str | None = None
    duration_ms: Int64 | None = None
    changes: list[Change] | None = None

    def __call__(self) -> JSONObject:
        """A command's result payload (:meth:`command_payload`): a command's
        :class:`~.tools.Said` holds the item as its ``build`` (a bound method would be
        one more object a command)."""
        return self.command_payload()

    def command_payload(self) -> JSONObject:
        """A command's result payload, as :func:`~.codex_tools.result_of` builds it (what
        the item called gives: a :class:`~.tools.Said`'s ``build``)."""
        payload: JSONObject = {"stdout": self.aggregated_output or ""}
        if self.exit_code is not None:
            payload["exitCode"] = self.exit_code
        if self.duration_ms is not None:
            payload["executionTime"] = self.duration_ms
        return payload

    def change_payload(self) -> JSONObject:
        """A file change's result payload, as :func:`~.codex_tools.result_of` builds it
        (a :class:`~.tools.Said`'s ``build``, as :meth:`command_payload`)."""
        changes = self.changes or []
        diffs = []
        for change in changes:
            path = (change.path or "").lstrip("/")
            old = "/dev/null" if change.kind == "add" else f"a/{path}"
            new = "/dev/null" if change.kind == "delete" else f"b/{path}"
            diffs.append(f"--- {old}\n+++ {new}")
        return {
            "path": changes[0].path if len(changes) == 1 else None,
            "message": _change_message(changes),
            "diffString": "\n".join(diffs),
        }


class ItemLine(msgspec.Struct, gc=False):
    """An ``item.*`` record's fields the fast path reads; the rest is skipped."""

    type: str | None = None
    item: Item | None = None
    streamview_recv_ms: Int64 | None = None


decode_item_line = hot_decoder(ItemLine)
ITEM_START = b'{"type":"item.'
"""How ``codex exec --json`` starts an item's line (serde writes the tag first): its 14
bytes, which ``fast_line`` compares with a slice of the line."""
TURN_STARTED = b'{"type":"turn.started"}'
"""A turn's start, as Codex prints it (nothing else on the line)."""
TURN_STARTED_LINE = TURN_STARTED + b"\n"
"""The same with its newline, as the fold may hand it over."""


def command_result(item: Item) -> tuple[str, Any]:
    """``(outcome, payload)`` of a completed command, as :func:`~.codex_tools.result_of`
    gives them, a command that ran already summarised (a :class:`~.tools.Said`: the
    status, summary and exit code :meth:`ToolCall.complete
    <streamview.core.model.ToolCall.complete>` reads from the payload; its ``build``
    the item itself, which called gives the payload)."""
    output = item.aggregated_output
    code = item.exit_code
    status = item.status
    if status == "declined":
        return "rejected", {"reason": output or "command declined"}
    if status == "failed" and code is None:
        return "failure", {"message": output or "command failed", "stdout": output or ""}
    if output and not output.isspace():
        # ``tools._line_count``: trailing newlines (``\n`` or ``\r\n``) not counted.
        if output[-1] != "\n":  # most outputs
            lines = output.count("\n") + 1
        else:
            end = len(output)
            while end and output[end - 1] == "\n":
                end -= 1
                if end and output[end - 1] == "\r":
                    end -= 1
            lines = output.count("\n", 0, end) + 1
    else:
        lines = 0
    # A dict's subscript, not its ``get``: a method call costs more than the rest here.
    try:
        ended, summary, numbers = _SAID[code, lines]
    except KeyError:
        ended, summary, numbers = _said(code, lines)
    return "success", Said("shell", ended, summary, item, numbers)


_SAID: dict[tuple[int | None, int], tuple[str, str | None, tuple[None, None, int | None]]] = {}
"""What a ran command's :class:`~.tools.Said` says (its status, summary and numbers), by
exit code and line count (0: its output blank), already worked out: a run repeats them."""


def _said(code: int | None, lines: int) -> tuple[str, str | None, tuple[None, None, int | None]]:
    """A ran command's status, summary and numbers: ``exit 2, 14 lines``
    (:func:`~.tools.summary_of` of a shell call), or its output blank (no lines)
    ``exit 2`` or none; kept in :data:`_SAID`."""
    if lines:
        counted = tools.plural(lines, "line")
        summary: str | None = counted if code is None else f"exit {code}, {counted}"
    else:
        summary = None if code is None else f"exit {code}"
    said = (SUCCEEDED if code is None or code == 0 else FAILED), summary, (None, None, code)
    if len(_SAID) < 4096:
        _SAID[code, lines] = said
    return said


_VERBS = {"add": "added", "update": "updated", "delete": "deleted"}
_SAID_VERBS = frozenset({*_VERBS.values(), "changed"})
"""Messages that are their own first line (:func:`~.tools._first_line`)."""


def plain_changes(item: Item) -> list[Change] | None:
    """A ``file_change`` item's files, if each has a path and a plain ``kind`` and no
    diff of its own (what Codex prints): else ``None``, and the line is decoded in full."""
    changes = item.changes
    if changes is None or not changes:
        return None
    for change in changes:
        if change.path is None or change.diff is not None or change.unified_diff is not None:
            return None
    return changes


_ONE_FILE: dict[str | None, str] = {
    "add": "added",
    "update": "updated",
    "delete": "deleted",
    None: "changed",
}
"""A one-file change's message by its kind (each its own summary)."""


def change_record(
    item: Item, done: bool, line: int, sid: str | None, recv: int | None
) -> FastRecord | None:
    """A ``file_change`` item's fast record, its files as :func:`plain_changes` takes
    them, ``None`` for one that failed: one file (most changes) in one go, more by
    :func:`change_args` and :func:`change_result`; thirteen fields, the target last."""
    changes = item.changes
    if changes is None or item.status == "failed":
        return None
    outcome: str | None = None
    payload: Any = None
    if len(changes) == 1:
        change = changes[0]
        path = change.path
        if path is None or change.diff is not None or change.unified_diff is not None:
            return None
        kind = change.kind
        target = path or None  # tools.target_of of an edit: its path (the fold's work else)
        args: JSONObject = {"path": path, "changes": [{"path": path, "kind": kind}]}
        if done:
            try:
                summary = _ONE_FILE[kind]
            except KeyError:  # a kind of its own: its first line
                outcome, payload = change_result(item)
            else:
                outcome, payload = "success", Said("edit", SUCCEEDED, summary, item.change_payload)
    elif plain_changes(item) is None:
        return None
    else:
        args = change_args(changes)
        target = args["path"]  # ``… (+1 more)``
        if done:
            outcome, payload = change_result(item)
    call_id = item.id or f"<line {line}>"
    fields = (
        sid,
        None,
        call_id,
        "edit",
        args,
        outcome,
        payload,
        None,
        None,
        None,
        None,
        None,
        target,
    )
    return "tool_call", "completed" if done else "started", fields, None, sid, None, recv


def change_args(changes: list[Change]) -> JSONObject:
    """A file change's arguments, as :func:`~.codex_tools.args_of` gives them."""
    first = changes[0]
    if len(changes) == 1:  # most changes: one file
        return {"path": first.path, "changes": [{"path": first.path, "kind": first.kind}]}
    path = f"{first.path} (+{len(changes) - 1} more)"
    return {"path": path, "changes": [{"path": c.path, "kind": c.kind} for c in changes]}


def change_result(item: Item) -> tuple[str, Any]:
    """``(outcome, payload)`` of a completed file change that did not fail (its
    :func:`plain_changes` known), as :func:`~.codex_tools.result_of` gives them, already
    summarised (its message: no diff, so no line counts)."""
    message = _change_message(item.changes or [])
    summary = message if message in _SAID_VERBS else tools._first_line(message)
    return "success", Said("edit", SUCCEEDED, summary, item.change_payload)


def _change_message(changes: list[Change]) -> str:
    """What a file change did, as :func:`~.codex_tools.result_of` says it (``updated``,
    ``2 added, 1 deleted``)."""
    if len(changes) == 1:  # most changes: one file
        kind = changes[0].kind
        return _VERBS.get(kind, kind) if kind is not None else "changed"
    verbs: dict[str, int] = {}
    for change in changes:
        kind = change.kind
        verb = _VERBS.get(kind, kind) if kind is not None else "changed"
        verbs[verb] = verbs.get(verb, 0) + 1
    return ", ".join(f"{count} {verb}" for verb, count in verbs.items())
