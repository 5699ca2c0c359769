"""The invariants every fuzzed input must keep, for the tests and the bench."""

from __future__ import annotations

import io
import json

from streamview.core.reader import EventReader
from streamview.core.sanitize import UNSAFE_CHARS, dumps_for_terminal
from streamview.core.state import StreamState
from streamview.core.summary import summarize
from streamview.fronts.printer import Printer

from .helpers import UNSAFE
from .mutate import expected_total

__all__ = ["UNSAFE_CHARS", "check_stream"]


def check_stream(chunks: list[bytes]) -> dict[str, int]:
    """Fold ``chunks`` the way ``--print`` and ``--json`` do and check every invariant.

    - nothing raises;
    - every non-blank line is exactly one event, malformed line or unknown record;
    - the ``--print`` text and the ``--json`` text hold no unsafe character;
    - the ``--json`` text is valid JSON.

    Returns:
        The line counts.
    """
    data = b"".join(chunks)
    state = StreamState(track_changes=True)
    out = io.StringIO()
    printer = Printer(out, state)
    reader = EventReader()
    for chunk in chunks:
        for event in reader.feed(chunk):
            printer.handle(event, state.apply(event))
        state.take_changes()
    for event in reader.finish():
        printer.handle(event, state.apply(event))
    state.counts.blank += reader.blank_lines
    state.finish()
    printer.finish()
    counts = state.counts
    assert counts.total == counts.events + counts.malformed + counts.unknown, counts
    assert counts.total == expected_total(data), (counts, expected_total(data))
    printed = out.getvalue()
    found = UNSAFE.search(printed)
    assert found is None, (
        f"--print wrote {found.group()!r}: {printed[found.start() - 60 :][:120]!r}"
    )
    printed.encode("utf-8")
    text = dumps_for_terminal(summarize(state))
    assert UNSAFE.search(text) is None
    json.loads(text)
    return {
        "total": counts.total,
        "events": counts.events,
        "malformed": counts.malformed,
        "unknown": counts.unknown,
    }
