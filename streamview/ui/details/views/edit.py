"""The view of an edit: what changed, as a unified diff."""

from __future__ import annotations

from typing import Any

from streamview.core.diff_paths import file_diff
from streamview.ui.details.sections import Section, code, diff_text, fields
from streamview.ui.details.views.base import ToolView, as_int, as_str


def edit_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The file and its change count, then the diff: the tool's own, else one made
    from the file before and after, else the new content streamed in the arguments."""
    path = as_str(payload.get("path")) or as_str(args.get("path"))
    added, removed = as_int(payload.get("linesAdded")), as_int(payload.get("linesRemoved"))
    change = f"+{added or 0} -{removed or 0}" if added is not None or removed is not None else None
    sections = [
        Section(
            "file",
            fields([("path", path), ("change", change), ("message", payload.get("message"))]),
        )
    ]
    diff = as_str(payload.get("diffString"))
    before = as_str(payload.get("beforeFullFileContent"))
    after = as_str(payload.get("afterFullFileContent"))
    if diff:
        sections.append(diff_text(diff, full))
    elif after is not None and (before is not None or path):
        sections.append(diff_text(unified_diff(before or "", after, path or "file"), full))
    else:
        stream = as_str(args.get("streamContent"))
        if stream:
            section = code(stream, path, 1, full)
            sections.append(Section("new content", section.body, section.truncated, wrap=False))
    return sections


def unified_diff(before: str, after: str, path: str) -> str:
    """A unified diff of two versions of a file (for edits without ``diffString``)."""
    return file_diff(before, after, path)


EDIT = ToolView(edit_view, big_arg="streamContent")
