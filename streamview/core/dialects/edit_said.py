"""An edit's summary counted from its replacements, for Droid's and Kimi CLI's fast path.

Their edits are string replacements (``old_str``/``new_str``, ``edit.old``/``new``)
whose result text says nothing the summary reads: ``+a -r`` comes from the diff
:func:`~streamview.core.dialects.tool_shapes.success_payload` writes. Where each
replacement's old and new lines share none, Amp's count
(:func:`~streamview.core.dialects.amp_tools.success_said`) gives those numbers without
the diff (a tenth of a Droid or Kimi run's results are edits).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamview.core.dialects import amp_tools, tool_shapes
from streamview.core.events import JSONObject
from streamview.core.tools import SUCCEEDED, Said


def edit_said(args: JSONObject, build: Callable[[], Any]) -> Said | None:
    """What an edit's built payload says (``build``: the dialect's payload of the call,
    for a view or a call of another kind), counted; ``None`` where it must be built."""
    # Amp's count of an edit with no result text (no JSON result to read), without the
    # Said it would wrap it in: once an edit result, in three dialects.
    counts = amp_tools.edit_counts(tool_shapes.edit_pairs(args))
    if counts is None:
        return None
    added, removed = counts
    return Said("edit", SUCCEEDED, f"+{added} -{removed}", build, (added, removed, None))
