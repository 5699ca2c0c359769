"""The typed decoder of Goose's hot lines: messages holding one streamed chunk.

Most of a Goose run (``goose run --output-format stream-json``) is ``message`` lines
each holding one chunk of the answer, beside the message's id and metadata.
:meth:`GooseTranslator.fast_line <streamview.core.dialects.goose.GooseTranslator.fast_line>`
decodes such a line into these structs, reading only what the fold needs and skipping
the rest in C.
"""

from __future__ import annotations

from typing import Any

import msgspec

from streamview.core.fast_path import Int64, hot_decoder


class _Item(msgspec.Struct, gc=False):
    type: Any = None
    text: Any = None
    thinking: Any = None


class _Message(msgspec.Struct, gc=False):
    role: Any = None
    created: Any = None
    content: list[_Item] | None = None


class _Chunk(msgspec.Struct, gc=False):
    """A ``message`` record's fields :meth:`GooseTranslator.fast` reads, typed as it
    checks them; the rest of the line is skipped."""

    type: Any = None
    message: _Message | None = None
    streamview_recv_ms: Int64 | None = None


decode_chunk = hot_decoder(_Chunk)
"""A ``message`` line's bytes into the fields the fast path reads."""
