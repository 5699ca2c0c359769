"""The view of a kind nobody knows: its result as raw JSON, never dropped."""

from __future__ import annotations

from typing import Any

from streamview.ui.details.sections import Section, raw_json
from streamview.ui.details.views.base import ToolView


def raw_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The whole result payload, pretty-printed and highlighted."""
    return [raw_json(payload, full)]


RAW = ToolView(raw_view)
