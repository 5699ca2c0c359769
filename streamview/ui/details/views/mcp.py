"""The view of an MCP tool's result: its content items, text, images and other JSON."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text

from streamview.core.formatting import counted
from streamview.core.sanitize import one_line
from streamview.ui.details.sections import Section, json_text, plain, raw_json, sanitize_json
from streamview.ui.details.views.base import ToolView, as_str
from streamview.ui.text.capping import cap_text, with_note
from streamview.ui.text.wrap import wrap_text


def mcp_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """Each content item: text as text, an image as its type and size, anything else as JSON."""
    content = payload.get("content")
    sections: list[Section] = []
    if payload.get("isError") is True:
        sections.append(Section("tool", Text("the tool reported an error", style="red")))
    if not isinstance(content, list):
        return [*sections, raw_json(payload, full)]
    for number, item in enumerate(content, 1):
        title = f"item {number}"
        if isinstance(item, dict) and isinstance(item.get("text"), dict | str):
            text = item["text"]
            text = text.get("text") if isinstance(text, dict) else text
            if isinstance(text, str):
                body, cut = plain(text, full)
                sections.append(Section(f"{title}: text", body, cut))
                continue
        if isinstance(item, dict) and isinstance(item.get("image"), dict):
            image = item["image"]
            data = image.get("data")
            size = f", {counted(len(data), 'character')} of data" if isinstance(data, str) else ""
            mime = as_str(image.get("mimeType")) or "image"
            sections.append(
                Section(f"{title}: image", Text(f"{one_line(mime)}{size}", style="dim"))
            )
            continue
        if full:
            text = json.dumps(sanitize_json(item), indent=2, ensure_ascii=False, default=str)
            if cap_text(text).truncated:  # folded when laid out
                sections.append(Section(f"{title}: {_item_kind(item)}", wrap_text(text)[0]))
                continue
        capped = json_text(item, full)
        sections.append(
            Section(
                f"{title}: {_item_kind(item)}",
                with_note(Text(capped.text), capped),
                capped.truncated,
            )
        )
    return sections


def _item_kind(item: Any) -> str:
    if isinstance(item, dict) and len(item) == 1:
        return one_line(str(next(iter(item))), 40)
    return "data"


MCP = ToolView(mcp_view)
