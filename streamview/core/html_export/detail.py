"""A tool call's detail for the HTML page: the sections the viewer's detail screen shows
(the file and its change, the diff, the shell's output, the content read or written, the
error, the full arguments), as plain data the page's script lays out when the call is
opened.

Each section is ``{"t": title, "k": kind, "v": value}``: kind ``fields`` holds
``[[name, value], ...]``, ``diff``/``code``/``text``/``json`` hold one string. Every
string is sanitized (:func:`~streamview.core.sanitize.clean`) and capped at
:data:`TEXT_CHARS`; the page escapes nothing because it only ever sets ``textContent``.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from streamview.core.call_records import load_records
from streamview.core.diff_paths import file_diff, with_relative_diff
from streamview.core.formatting import format_duration
from streamview.core.linestore import LineStore
from streamview.core.sanitize import clean
from streamview.core.state import ToolCall

TEXT_CHARS = 200_000
"""Characters of one section's text written into the page; the rest is counted."""
_OUTPUT_KEYS = ("interleavedOutput", "stdout", "stderr")
_ERROR_KEYS = ("message", "error", "errorMessage")

Section = dict[str, Any]


def capped(text: str) -> str:
    """``text`` sanitized and cut at :data:`TEXT_CHARS`, with a note of what was left out."""
    text = clean(text)
    if len(text) <= TEXT_CHARS:
        return text
    rest = len(text) - TEXT_CHARS
    return text[:TEXT_CHARS] + f"\n… {rest:,} more characters not exported"


def clean_json(value: Any) -> Any:
    """A copy of a JSON value whose strings (keys too) are sanitized."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {clean(str(key)): clean_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clean_json(item) for item in value]
    return value


def dumps(value: Any, indent: bool = False) -> str:
    """``value`` as JSON text (orjson, ten times the standard encoder's speed; the standard
    one for what orjson refuses: integers past 64 bits, lone surrogates)."""
    try:
        return orjson.dumps(
            value, default=str, option=orjson.OPT_INDENT_2 if indent else 0
        ).decode()
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, indent=2 if indent else None, ensure_ascii=False, default=str)


def json_section(title: str, value: Any) -> Section:
    """``value`` as indented JSON."""
    return {"t": title, "k": "json", "v": capped(dumps(clean_json(value), indent=True))}


def fields(title: str, rows: list[tuple[str, Any]]) -> Section | None:
    """A table of the rows whose value is known (``None`` when none is)."""
    kept = [[name, _short(value)] for name, value in rows if value not in (None, "")]
    return {"t": title, "k": "fields", "v": kept} if kept else None


def _short(value: Any) -> str:
    if isinstance(value, str):
        return capped(value)
    return capped(dumps(clean_json(value)))


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _text(title: str, value: Any, kind: str = "text") -> Section | None:
    return {"t": title, "k": kind, "v": capped(value)} if isinstance(value, str) and value else None


def _shell(args: dict[str, Any], payload: dict[str, Any]) -> list[Section | None]:
    code = payload.get("exitCode")
    time = payload.get("executionTime")
    sections: list[Section | None] = [
        fields(
            "result",
            [
                ("exit code", code),
                ("signal", payload.get("signal")),
                ("time", format_duration(time) if isinstance(time, int) else None),
            ],
        )
    ]
    output = _str(payload.get("interleavedOutput"))
    if output:
        sections.append(_text("output", output))
    else:
        sections += [_text(key, payload.get(key)) for key in ("stdout", "stderr")]
    return sections


def _edit(args: dict[str, Any], payload: dict[str, Any]) -> list[Section | None]:
    path = _str(payload.get("path")) or _str(args.get("path"))
    added, removed = payload.get("linesAdded"), payload.get("linesRemoved")
    change = f"+{added or 0} -{removed or 0}" if added is not None or removed is not None else None
    sections = [
        fields("file", [("path", path), ("change", change), ("message", payload.get("message"))])
    ]
    diff = _str(payload.get("diffString"))
    after = _str(payload.get("afterFullFileContent"))
    if diff:
        sections.append(_text("diff", diff, "diff"))
    elif after is not None:
        before = _str(payload.get("beforeFullFileContent")) or ""
        sections.append(_text("diff", file_diff(before, after, path or "file"), "diff"))
    else:
        sections.append(_text("new content", args.get("streamContent"), "code"))
    return sections


def _read(args: dict[str, Any], payload: dict[str, Any]) -> list[Section | None]:
    path = _str(payload.get("path")) or _str(args.get("path"))
    facts = fields("file", [("path", path), ("lines", payload.get("totalLines"))])
    return [facts, _text("content", payload.get("content"), "code")]


def _write(args: dict[str, Any], payload: dict[str, Any]) -> list[Section | None]:
    path = _str(payload.get("path")) or _str(args.get("path"))
    facts = fields("file", [("path", path), ("lines", payload.get("linesCreated"))])
    text = _str(args.get("fileText")) or _str(payload.get("fileText"))
    return [facts, _text("content", text, "code")]


_VIEWS = {"shell": _shell, "edit": _edit, "read": _read, "write": _write}
"""Kinds laid out like the viewer's own view; every other result is shown as JSON."""


def error_message(payload: Any) -> str | None:
    """The message of an ``error`` result, whichever field holds it."""
    if isinstance(payload, str):
        return payload
    if isinstance(payload, dict):
        for key in _ERROR_KEYS:
            value = payload.get(key)
            if isinstance(value, str) and value:
                return value
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                return str(value["message"])
    return None


def result_sections(
    kind: str, args: dict[str, Any], outcome: str | None, payload: Any
) -> list[Section]:
    """The result's sections, as the detail screen lays them out for ``kind``."""
    found: list[Section | None]
    if outcome is None:
        found = [{"t": "result", "k": "note", "v": "no result (yet)"}]
    elif outcome == "rejected":
        reason = payload.get("reason") if isinstance(payload, dict) else None
        found = [fields("rejected", [("reason", reason or "no reason given")])]
    elif outcome == "error":
        message = error_message(payload)
        found = [_text("error", message, "error")] if message else [json_section("error", payload)]
    elif outcome in ("success", "failure") and isinstance(payload, dict) and kind in _VIEWS:
        try:
            found = _VIEWS[kind](args, payload)
        except Exception:  # odd input is shown raw, never breaks the export
            found = []
        if not any(found):
            found = [json_section("result", payload)]
    else:
        found = [json_section(f"result ({clean(outcome)[:60]})", payload)]
    return [section for section in found if section]


def call_detail(call: ToolCall, store: LineStore | None, cwd: str | None = None) -> list[Section]:
    """Every section of one call's detail: result, arguments, then the call's facts."""
    records = load_records(call, store, raw=False)
    args = records.args if isinstance(records.args, dict) else {}
    payload = records.payload
    if call.kind == "edit":
        payload = with_relative_diff(payload, cwd, _str(args.get("path")))
    sections = result_sections(call.kind, args, records.outcome, payload)
    if args:
        sections.append(json_section("arguments", args))
    facts = fields(
        "call",
        [
            ("status", call.status),
            ("summary", call.summary if call.summary != call.status else None),
            ("duration", format_duration(call.duration_ms)),
            ("approval", call.approval),
            ("description", records.description),
            ("id", call.call_id),
        ],
    )
    if facts:
        sections.append(facts)
    return sections
