"""The events the input itself makes, whatever its dialect: a line cut at the line
limit, and the input starting over (a followed file truncated or replaced)."""

from __future__ import annotations

from streamview.core.decoding import MALFORMED_RAW_LIMIT
from streamview.core.events import ConnectionNotice, MalformedLine
from streamview.core.framing import Restart, too_long_reason


def too_long(number: int, data: bytes, size: int, recv_ms: int | None = None) -> MalformedLine:
    """The event of a line cut at the line limit: its first bytes and its real size."""
    return MalformedLine(
        number,
        None,
        None,
        recv_ms,
        reason=too_long_reason(size),
        raw=data[:MALFORMED_RAW_LIMIT],
        raw_size=size,
    )


def restart_notice(chunk: Restart, line: int, recv_ms: int | None = None) -> ConnectionNotice:
    """The event saying the input starts over (a followed file truncated or replaced)."""
    return ConnectionNotice(
        line, None, None, recv_ms, type="input", subtype=chunk.reason, detail=chunk.detail
    )
