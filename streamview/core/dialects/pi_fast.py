"""The typed decoder of pi's hot lines: the ``message_update`` text deltas.

Most of a pi run in ``--mode json`` is ``message_update`` lines, each repeating the whole
message so far (its role, model, usage and cost) beside the one delta it brings.
:meth:`PiTranslator.fast_line <streamview.core.dialects.pi.PiTranslator.fast_line>`
decodes such a line into these structs, reading only what the fold needs and skipping
the rest in C, instead of building every dict of the repeated message.
"""

from __future__ import annotations

from typing import Any

import msgspec

from streamview.core.fast_path import Int64, hot_decoder


class _Update(msgspec.Struct, gc=False):
    type: Any = None
    delta: Any = None


class _Message(msgspec.Struct, gc=False):
    role: Any = None
    timestamp: Any = None


class _MessageUpdate(msgspec.Struct, gc=False):
    """A ``message_update`` record's fields :meth:`PiTranslator.fast` reads, typed as
    it checks them; the rest of the line is skipped."""

    type: Any = None
    message: _Message | None = None
    assistantMessageEvent: _Update | None = None
    streamview_recv_ms: Int64 | None = None


decode_message_update = hot_decoder(_MessageUpdate)
"""A ``message_update`` line's bytes into the fields the fast path reads."""
