"""One line of any agent's stream, bytes to a decoded JSON value. Never raises.

What every dialect shares before its own records are read: decoding (with the
fallbacks for what orjson refuses), a byte-order mark on the first line, the arrival
stamp a streamview recording adds, and the :class:`MalformedLine` of a line that is
not a JSON object. The dialects (:mod:`streamview.core.dialects`) read the objects.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from streamview.core.events import ConnectionNotice, JSONObject, MalformedLine
from streamview.core.fields import as_str
from streamview.core.nesting import PARSER_DEPTH

RECV_KEY = "streamview_recv_ms"
"""Key a streamview recording adds as the last key of each line: arrival time, epoch ms."""

MALFORMED_RAW_LIMIT = 1 << 20
"""Bytes of a malformed line kept in memory for display; the rest stays in the source."""

_NOT_JSON: Any = object()
NOT_JSON: Any = _NOT_JSON
"""What :func:`decode_line` returns for a line that is not JSON."""
_BOM = b"\xef\xbb\xbf"


def _fallback_loads(data: bytes) -> Any:
    """Decode what orjson refuses but is still JSON (integers over 64 bits)."""
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return _NOT_JSON


TOO_DEEP = f"nested too deep (over {PARSER_DEPTH:,} levels)"
"""The reason of a line that is JSON nested deeper than the parser goes."""


def _malformed_reason(data: bytes) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "not valid UTF-8"
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as error:
        if "depth limit exceeded" in str(error):  # orjson's words for its limit
            return TOO_DEEP
    return "not JSON"


def decode_line(data: bytes, line: int) -> tuple[Any, bytes]:
    """Decode one line's JSON. Never raises.

    Args:
        data: The line's bytes, without its terminator.
        line: The 1-based line number (line 1 may start with a byte-order mark).

    Returns:
        ``(record, data)``: the decoded value, or :data:`NOT_JSON` when the line is not
        JSON; and the line's bytes, without a leading byte-order mark it had.
    """
    try:
        return orjson.loads(data), data
    except orjson.JSONDecodeError:
        if line == 1 and data.startswith(_BOM):
            # A file re-saved by an editor may start with a byte-order mark.
            return decode_line(data[len(_BOM) :], line)
        record = _fallback_loads(data)
        if record is NOT_JSON and _malformed_reason(data) == "not valid UTF-8":
            # One bad byte must not lose the record: read it with U+FFFD in its place.
            fixed = RepairedLine(data.decode("utf-8", "replace").encode())
            repaired = _fallback_loads(fixed)
            if repaired is not NOT_JSON:
                return repaired, fixed
        return record, data


class RepairedLine(bytes):
    """A line's bytes with its invalid UTF-8 replaced by U+FFFD, as :func:`decode_line`
    gives them back for a line that is JSON once repaired (:func:`repair_notice`)."""


def repair_notice(line: int, recv_ms: int | None = None) -> ConnectionNotice:
    """The mark of a line read with invalid UTF-8 replaced (shown in the event log)."""
    return ConnectionNotice(
        line,
        None,
        None,
        recv_ms,
        type="input",
        subtype="invalid-utf8",
        detail=f"line {line}: invalid UTF-8 bytes replaced with U+FFFD",
    )


def not_an_object(record: Any, data: bytes, line: int, recv_ms: int | None) -> MalformedLine:
    """The :class:`MalformedLine` of a line whose value is not a JSON object.

    Args:
        record: What :func:`decode_line` returned (:data:`NOT_JSON`, a list, a number...).
        data: The line's bytes.
        line: The 1-based line number.
        recv_ms: Arrival time stamped by a live source, if any.
    """
    if record is _NOT_JSON:
        reason = _malformed_reason(data)
    else:
        reason = f"not a JSON object (a {type(record).__name__})"
    return MalformedLine(
        line,
        None,
        None,
        recv_ms,
        reason=reason,
        raw=data[:MALFORMED_RAW_LIMIT],
        raw_size=len(data),
    )


def record_bytes(record: JSONObject) -> bytes:
    """``record`` as JSON bytes for display, when the line's own bytes are not at hand."""
    try:
        return orjson.dumps(record)[:MALFORMED_RAW_LIMIT]
    except TypeError:  # lone surrogates, nesting over orjson's limit: only decodable
        pass
    try:
        return json.dumps(record, ensure_ascii=True).encode()[:MALFORMED_RAW_LIMIT]
    except RecursionError:
        return b""


def untyped(record: JSONObject, line: int, recv_ms: int | None) -> MalformedLine:
    """The :class:`MalformedLine` of an object with no string ``type``."""
    kind = record.get("type")
    return MalformedLine(
        line,
        as_str(record.get("session_id")),
        None,
        recv_ms,
        reason="no 'type' field" if kind is None else "'type' is not a string",
        raw=record_bytes(record),
    )


def with_raw(event: MalformedLine, line: int, data: bytes) -> MalformedLine:
    """A record found malformed, with the line it came from (capped) to show."""
    return MalformedLine(
        line,
        event.session_id,
        None,
        event.recv_ms,
        reason=event.reason,
        raw=data[:MALFORMED_RAW_LIMIT],
        raw_size=len(data),
    )
