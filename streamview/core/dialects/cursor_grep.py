"""Cursor's grep results for the fast path: the matches counted as they are decoded.

A grep's result holds every matched line; summarising it walked that tree and judged
each file's list of lines plain (``tools._count_matches``: a third of a grep result's
cost). Decoded into structs that admit only the usual shape (content mode: a list of
files, each a list of plain line records; no key beside the known ones where an
unknown key would be counted or walked), the counts are the lists' lengths, and the
payload is decoded from the line only if something asks for it
(:class:`~streamview.core.tools.Said`). Imported by :mod:`.cursor_fast` at the first
grep's result.
"""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

import streamview.core.tools as tools
from streamview.core.fast_path import HOT_DECODE_ERRORS, FastRecord, Int64, hot_decoder


class _MatchedLine(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    lineNumber: int | None = None
    content: str | None = None
    contentTruncated: bool | None = None
    isContextLine: bool | None = None


class _MatchedFile(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    file: str
    matches: list[_MatchedLine]


class _Content(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    matches: list[_MatchedFile]
    totalLines: int | None = None
    totalMatchedLines: int | None = None
    clientTruncated: bool | None = None
    ripgrepTruncated: bool | None = None


class _Workspace(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    content: _Content


class _GrepSuccess(msgspec.Struct, gc=False):
    workspaceResults: dict[str, _Workspace]
    exitCode: Any = None
    isError: Any = None


class _GrepResult(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    success: _GrepSuccess


class _GrepBody(msgspec.Struct, gc=False):
    result: _GrepResult
    args: dict[str, Any] | None = None
    description: str | None = None


class _GrepCall(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    grepToolCall: _GrepBody
    toolCallId: Any = None
    startedAtMs: str | None = None
    completedAtMs: str | None = None
    hookAdditionalContexts: Any = None


class _GrepLine(msgspec.Struct, gc=False):
    type: str
    subtype: str
    call_id: str
    tool_call: _GrepCall
    session_id: str | None = None
    timestamp_ms: Int64 | None = None
    model_call_id: str | None = None
    streamview_recv_ms: Int64 | None = None


_decode_grep = hot_decoder(_GrepLine)


def _digits(value: str | None) -> bool:
    """``startedAtMs`` as Cursor writes it (a string of under 20 ASCII digits: read in
    place by :func:`~streamview.core.tool_record.tool_call_fields`), or none."""
    return value is None or (len(value) < 20 and value.isdigit() and value.isascii())


def grep_line(data: bytes) -> FastRecord | None:
    """A grep's successful result in content mode, as :func:`~.cursor_fast.fast_record`
    gives it for the decoded line, its payload a :class:`~streamview.core.tools.Said`
    that counts files and matches as ``tools._count_matches`` counts them there: each
    workspace's content and each file are a file; each file listed in a content and
    each line listed in a file a match. Any other shape, or a field of another type,
    declines (the line is decoded in full)."""
    try:
        hot = _decode_grep(data)
    except HOT_DECODE_ERRORS:
        return None
    call = hot.tool_call
    body = call.grepToolCall
    success = body.result.success
    started, completed = call.startedAtMs, call.completedAtMs
    if (
        hot.type != "tool_call"
        or hot.subtype != "completed"
        or success.exitCode is not None
        or success.isError is not None
        or not (_digits(started) and _digits(completed))
    ):
        return None
    files = matches = 0
    for workspace in success.workspaceResults.values():
        listed = workspace.content.matches
        files += 1 + len(listed)
        matches += len(listed)
        for found in listed:
            matches += len(found.matches)
    if matches:
        summary = tools.plural(matches, "match")
        summary += f" in {tools.plural(files, 'file')}"
    elif files:
        summary = tools.plural(files, "file")
    else:
        summary = "no matches"

    def payload() -> Any:
        return orjson.loads(data)["tool_call"]["grepToolCall"]["result"]["success"]

    said = tools.Said("grep", tools.SUCCEEDED, summary, payload)
    fields = (
        hot.session_id,
        hot.timestamp_ms,
        hot.call_id,
        "grep",
        body.args,
        "success",
        said,
        hot.model_call_id,
        None if started is None else int(started),
        None if completed is None else int(completed),
        body.description,
        None,
    )
    return (
        "tool_call",
        "completed",
        fields,
        None,
        hot.session_id,
        hot.timestamp_ms,
        hot.streamview_recv_ms,
    )
