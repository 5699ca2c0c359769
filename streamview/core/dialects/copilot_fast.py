"""Copilot CLI's token deltas read straight from their bytes, for the fold's fast path.

Text and reasoning deltas are most of a Copilot run. :meth:`CopilotTranslator.fast_line
<streamview.core.dialects.copilot.CopilotTranslator.fast_line>` decodes such a line into
:class:`DeltaLine`, which holds only the fields it reads (``msgspec`` skips the rest in
C and checks the types on the way): a field of another type declines, and the line is
decoded in full.
"""

from __future__ import annotations

import msgspec

from streamview.core.fast_path import Int64, hot_decoder


class LeanData(msgspec.Struct, gc=False):
    """A delta's ``data`` once the model is known: its text, its message's or
    reasoning's id (the translator no longer reads a model a record names)."""

    deltaContent: str | None = None
    messageId: str | None = None
    reasoningId: str | None = None


class DeltaData(LeanData, gc=False):
    """A delta's ``data`` while no model is known: a model it names too."""

    selectedModel: str | None = None
    chosenModel: str | None = None
    newModel: str | None = None
    model: str | None = None


class DeltaLine(msgspec.Struct, gc=False):
    """An ``assistant.message_delta`` or ``assistant.reasoning_delta`` record's fields
    the fast path reads; the rest is skipped."""

    type: str | None = None
    data: DeltaData | None = None
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


class LeanLine(msgspec.Struct, gc=False):
    """:class:`DeltaLine` once the model is known: the four model fields are skipped
    (a delta decodes in about seven eighths of the time), as the translator skips
    them then, whatever their type."""

    type: str | None = None
    data: LeanData | None = None
    timestamp: str | None = None
    streamview_recv_ms: Int64 | None = None


decode_delta_line = hot_decoder(DeltaLine)
decode_lean_line = hot_decoder(LeanLine)
DELTA_STARTS = (b'{"type":"assistant.message_delta"', b'{"type":"assistant.reasoning_delta"')
"""How the Copilot CLI starts a delta's line (``type`` is written first)."""


def model_named(data: LeanData) -> str | None:
    """The first model a delta names, in the order the translator looks for one
    (none, for a :class:`LeanData`)."""
    if not isinstance(data, DeltaData):
        return None
    return data.selectedModel or data.chosenModel or data.newModel or data.model or None
