"""The typed decoder of Claude Code's hot lines: the partial messages' deltas.

With ``--include-partial-messages`` most of a run is ``stream_event`` lines holding a
``content_block_delta``. :meth:`ClaudeTranslator.fast_line
<streamview.core.dialects.claude.ClaudeTranslator.fast_line>` decodes such a line into
these structs, reading only what the fold needs and skipping the rest in C.
"""

from __future__ import annotations

from typing import Any

import msgspec

from streamview.core.fast_path import Int64, hot_decoder


class _Delta(msgspec.Struct, gc=False):
    type: Any = None
    text: Any = None
    thinking: Any = None


class _Event(msgspec.Struct, gc=False):
    type: Any = None
    delta: _Delta | None = None


class _StreamEvent(msgspec.Struct, gc=False):
    """A ``stream_event`` record's fields :meth:`ClaudeTranslator.fast` reads, typed
    as it checks them; the rest of the line is skipped."""

    type: Any = None
    event: _Event | None = None
    session_id: Any = None
    parent_tool_use_id: Any = None
    timestamp: Any = None
    streamview_recv_ms: Int64 | None = None


decode_stream_event = hot_decoder(_StreamEvent)
"""A ``stream_event`` line's bytes into the fields the fast path reads."""
