"""The typed decoder of pi's hot lines (the ``message_update`` text deltas), and the
fast reading of a call's start and end records.

Most of a pi run in ``--mode json`` is ``message_update`` lines, each repeating the whole
message so far (its role, model, usage and cost) beside the one delta it brings.
:meth:`PiTranslator.fast_line <streamview.core.dialects.pi.PiTranslator.fast_line>`
decodes such a line into these structs, reading only what the fold needs and skipping
the rest in C, instead of building every dict of the repeated message.
"""

from __future__ import annotations

from typing import Any

import msgspec

import streamview.core.dialects.pi_tools as tools
from streamview.core.decoding import RECV_KEY
from streamview.core.events import JSONObject
from streamview.core.fast_path import ONE_TARGET_ARG, FastRecord, Int64, hot_decoder
from streamview.core.fields import as_str
from streamview.core.tools import target_of


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


def fast_call(self: Any, record: JSONObject, ended: bool) -> FastRecord | None:
    """``PiTranslator.fast`` of a ``tool_execution_start`` (``ended`` false) or
    ``tool_execution_end`` record, once the session has started: the call's record as
    :meth:`~PiTranslator.translate`'s event would give it (a start's target handed
    over where it is one argument), the translator's open calls kept as it keeps them.
    A call without an id, an arrival stamp that is no integer, a result whose payload
    cannot be made (the long way says so: the call is forgotten only once it is made)
    go the long way."""
    call_id = record.get("toolCallId")
    recv = record.get(RECV_KEY)
    if (
        call_id.__class__ is not str
        or not call_id
        or (recv is not None and recv.__class__ is not int)
    ):
        return None
    if not ended:
        name = as_str(record.get("toolName")) or "unknown"
        args = tools.args_of(name, record.get("args"))
        self._calls[call_id] = (name, args)
        kind = tools.kind_of(name)
        key = ONE_TARGET_ARG.get(kind)
        if key is None:
            target = target_of(kind, args)
        else:  # target_of's reading of that one argument
            target = args.get(key)
            if target.__class__ is not str or not target:
                target = None
        fields = (None, None, call_id, kind, args, None, None, None, None, None, None, None, target)
        return "tool_call", "started", fields, None, self._session, None, recv
    calls = self._calls
    found = calls.get(call_id)
    name, args = found if found is not None else (as_str(record.get("toolName")) or "", {})
    kind = tools.kind_of(name) if name else "unknown"
    try:
        outcome, payload = tools.fast_outcome(
            kind, args, record.get("result"), record.get("isError") is True
        )
    except Exception:  # the long way reads it again, and says what is wrong with it
        return None
    if found is not None:
        del calls[call_id]
    done = None, None, call_id, kind, None, outcome, payload, None, None, None, None, None
    return "tool_call", "completed", done, None, self._session, None, recv
