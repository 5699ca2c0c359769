"""Views of the calls that read, write and delete files."""

from __future__ import annotations

from typing import Any

from streamview.ui.details.sections import Section, code, fields, plain, raw_json
from streamview.ui.details.views.base import ToolView, as_int, as_str, size_text


def read_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """What was read: the file's facts, then its content from the first line read."""
    content = as_str(payload.get("content"))
    path = as_str(payload.get("path")) or as_str(args.get("path"))
    facts = fields(
        [
            ("path", path),
            ("lines", as_int(payload.get("totalLines"))),
            ("size", size_text(payload.get("fileSize") or payload.get("totalChars"))),
            ("note", "the file is empty" if payload.get("isEmpty") is True else None),
            ("note", "cut at the read limit" if payload.get("exceededLimit") is True else None),
        ]
    )
    sections = [Section("file", facts)]
    if content:
        start = 1
        read_range = payload.get("readRange")
        if isinstance(read_range, dict) and as_int(read_range.get("startLine")):
            start = as_int(read_range.get("startLine")) or 1
        elif as_int(args.get("offset")):
            start = as_int(args.get("offset")) or 1
        sections.append(code(content, path, start, full))
    return sections


def write_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """What was written: the file's facts, then the text written."""
    path = as_str(payload.get("path")) or as_str(args.get("path"))
    sections = [
        Section(
            "file",
            fields(
                [
                    ("path", path),
                    ("lines", as_int(payload.get("linesCreated"))),
                    ("size", size_text(payload.get("fileSize"))),
                ]
            ),
        )
    ]
    text = as_str(args.get("fileText")) or as_str(payload.get("fileText"))
    if text:
        sections.append(code(text, path, 1, full))
    return sections


def delete_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The tool's message about the deletion (the raw JSON if it has none)."""
    message = as_str(payload.get("message"))
    if message is None:
        return [raw_json(payload, full)]
    body, cut = plain(message, full)
    return [Section("result", body, cut)]


READ = ToolView(read_view)
WRITE = ToolView(write_view, big_arg="fileText")
DELETE = ToolView(delete_view)
