"""The typed decoder of Cline's hot lines: a growing answer's next print.

Nine lines in ten of a Cline run are ``say`` ``text`` messages with ``partial: true``,
each holding the whole answer so far. :meth:`ClineTranslator.fast_line
<streamview.core.dialects.cline.ClineTranslator.fast_line>` decodes such a line into
:class:`Say`, which holds only the fields it reads (``msgspec`` skips the rest, such as
``modelInfo``, in C, and checks the types on the way: a field of another type declines
the line, which is then decoded in full).
"""

from __future__ import annotations

import msgspec

from streamview.core.fast_path import Int64, hot_decoder


class Say(msgspec.Struct, gc=False):
    """A ``say`` message's fields :meth:`ClineTranslator.fast` reads, typed as it
    checks them; the rest of the line is skipped."""

    type: str | None = None
    say: str | None = None
    text: str | None = None
    partial: bool | None = None
    ts: Int64 | None = None
    streamview_recv_ms: Int64 | None = None


decode_say = hot_decoder(Say)
SAY_START = b'{"ts":'
"""How Cline's CLI starts a message's line (``ts`` is written first)."""


def nothing_shown() -> dict[str, dict[int, str]]:
    """An empty record of a task's growing messages shown, by kind, then ``ts`` (an int
    key: ``fast_line`` reads and writes it once a line)."""
    return {"text": {}, "completion_result": {}, "reasoning": {}}
