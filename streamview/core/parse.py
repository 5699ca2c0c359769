"""Where Cursor's line parser used to live; kept so that imports of it keep working.

Decoding a line, for every agent, is :mod:`streamview.core.decoding`; Cursor's records
are read by :mod:`streamview.core.dialects.cursor_records`, as every other agent's are
by its own module under :mod:`streamview.core.dialects`.
"""

from __future__ import annotations

from streamview.core.decoding import (
    MALFORMED_RAW_LIMIT,
    NOT_JSON,
    RECV_KEY,
    decode_line,
    record_bytes,
    with_raw,
)
from streamview.core.dialects.cursor_records import (
    message_text,
    parse_decoded,
    parse_line,
    parse_record,
)

__all__ = [
    "MALFORMED_RAW_LIMIT",
    "NOT_JSON",
    "RECV_KEY",
    "decode_line",
    "message_text",
    "parse_decoded",
    "parse_line",
    "parse_record",
    "record_bytes",
    "with_raw",
]
