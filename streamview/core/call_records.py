"""A tool call's records read back from the line store: the fold keeps summaries, so
the detail view, search, hand-off and exports ask here for a call's arguments, its
result and, when wanted, its raw JSON."""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

from streamview.core import dialects
from streamview.core.dialects import CallReparser
from streamview.core.linestore import LineStore
from streamview.core.nesting import cut_deep
from streamview.core.state import ToolCall


class CallRecords(msgspec.Struct):
    """What the store still knows about a call: its parsed events and raw records."""

    args: dict[str, Any] | None = None
    outcome: str | None = None
    payload: Any = None
    description: str | None = None
    raw: dict[str, Any] = msgspec.field(default_factory=dict)
    """``started`` / ``completed`` to the record as decoded JSON (or its text), if asked for."""
    found: bool = False
    """At least one line was found in the store."""


def load_records(
    call: ToolCall, store: LineStore | None, raw: bool = True, cut: bool = True
) -> CallRecords:
    """Read a call's lines back from ``store`` and parse them.

    Args:
        call: The call, as the fold left it.
        store: Where the raw lines are kept, if anywhere.
        raw: Also decode the records as they are, for the raw JSON view (decoding a
            40 MB line holds the GIL for a tenth of a second: only when asked).
        cut: Cut what nests deeper than the views walk (a search, which walks without
            recursion, reads every level).

    Returns:
        The arguments and result from the lines, falling back to what the fold kept
        (``call.args``) when the store has nothing; each cut to
        :data:`~streamview.core.nesting.SHOWN_DEPTH` levels (``… nested N deep``).
    """
    records = CallRecords(args=call.args, description=call.description)
    if store is None:
        return shown(records) if cut else records
    reparse = CallReparser(dialects.by_name(store.agent), call.call_id)
    for name, number in (("started", call.started_line), ("completed", call.completed_line)):
        if number is None:
            continue
        data = store.get(number)
        if data is None:
            continue
        records.found = True
        if raw:
            try:
                records.raw[name] = orjson.loads(data)
            except orjson.JSONDecodeError:
                records.raw[name] = data.decode("utf-8", "replace")
        event = reparse(data, number)
        if event is None:
            continue
        if event.args is not None:
            records.args = event.args
        if event.description:
            records.description = event.description
        if event.completed:
            records.outcome = event.outcome
            records.payload = event.payload
    return shown(records) if cut else records


def shown(records: CallRecords) -> CallRecords:
    """``records`` cut to what every view can walk (:func:`~streamview.core.nesting.cut_deep`):
    a record may nest up to 1,024 levels, a view's walk of it far fewer."""
    records.args = cut_deep(records.args) if records.args is not None else None
    records.payload = cut_deep(records.payload)
    records.raw = {name: cut_deep(record) for name, record in records.raw.items()}
    return records
