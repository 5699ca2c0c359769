"""Claude Code's tools in the shapes streamview's tool kinds already have (Cursor's).

A ``tool_use`` block names a tool (``Read``, ``Bash``, ``mcp__github__get_issue``) and
holds its ``input``; the ``tool_result`` block that answers it holds text (or text
blocks), and the record around it may hold a structured ``tool_use_result``. Both are
turned into the arguments and result payloads the detail views know (``read``:
``path``/``content``; ``shell``: ``command``/``stdout``/``exitCode``; ``edit``: a
``diffString``...). A tool nobody maps keeps its own name and its raw input and result.
"""

from __future__ import annotations

import re
from typing import Any

from streamview.core.events import JSONObject
from streamview.core.fields import as_int, as_str
from streamview.core.tools import SUCCEEDED, Said, plural

KINDS: dict[str, str] = {
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "MultiEdit": "edit",
    "Bash": "shell",
    "Grep": "grep",
    "Glob": "glob",
    "LS": "ls",
    "WebFetch": "webFetch",
    "WebSearch": "webSearch",
    "TodoWrite": "updateTodos",
    "Task": "task",
    "Agent": "task",
}
"""Claude Code tool names and the kinds they are shown as."""

MCP_PREFIX = "mcp__"
_EXIT_CODE = re.compile(r"\AExit code (-?\d+)\n?")
_LINE_NUMBER = re.compile(r"^ *\d+→", re.MULTILINE)
_DENIALS = (
    "requested permissions",
    "haven't granted",
    "doesn't want to proceed",
    "was rejected",
    "permission to use",
    "requires approval",
)
"""Words of a ``tool_result`` error that say the call was refused, not that it failed."""


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, ``mcp``, or the name itself."""
    if name.startswith(MCP_PREFIX):
        return "mcp"
    return KINDS.get(name, name or "unknown")


def args_of(name: str, tool_input: Any) -> JSONObject:
    """A ``tool_use`` block's ``input`` in the argument shape of the tool's kind."""
    given: JSONObject = tool_input if isinstance(tool_input, dict) else {}
    kind = kind_of(name)
    if kind in ("read", "write", "edit", "ls"):
        args = {k: v for k, v in given.items() if k not in ("file_path", "content")}
        path = given.get("file_path", given.get("path"))
        if isinstance(path, str):
            args["path"] = path
        if kind == "write" and isinstance(given.get("content"), str):
            args["fileText"] = given["content"]
        return args
    if kind == "glob":
        args = dict(given)
        if isinstance(given.get("pattern"), str):
            args["globPattern"] = given["pattern"]
        if isinstance(given.get("path"), str):
            args["targetDirectory"] = given["path"]
        return args
    if kind == "grep":
        args = dict(given)
        if isinstance(given.get("output_mode"), str):
            args["outputMode"] = given["output_mode"]
        return args
    if kind == "webSearch":
        args = dict(given)
        if isinstance(given.get("query"), str):
            args["searchTerm"] = given["query"]
        return args
    if kind == "mcp":
        server, _, tool = name[len(MCP_PREFIX) :].partition("__")
        return {"providerIdentifier": server, "toolName": tool or server, "args": given}
    return dict(given)


def description_of(name: str, tool_input: Any) -> str | None:
    """A Bash call's ``description`` (what the model said the command is for)."""
    if kind_of(name) == "shell" and isinstance(tool_input, dict):
        return as_str(tool_input.get("description"))
    return None


def result_text(content: Any) -> str:
    """A ``tool_result`` block's ``content`` as text: a string, or its text blocks joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            item["text"]
            for item in content
            if isinstance(item, dict) and isinstance(item.get("text"), str)
        ]
        return "\n".join(parts)
    return ""


def is_denial(text: str) -> bool:
    """An error text that says the call was refused permission."""
    lowered = text.lower()
    return any(words in lowered for words in _DENIALS)


def error_outcome(kind: str, text: str) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a ``tool_result`` with ``is_error: true``.

    A refused permission is ``rejected``; a shell command whose text starts with
    ``Exit code N`` ran and failed (``success`` with that ``exitCode``, as Cursor says
    it); anything else is an ``error`` with its message.
    """
    if is_denial(text):
        return "rejected", {"reason": text}
    if kind == "shell":
        match = _EXIT_CODE.match(text)
        if match:
            return "success", {"exitCode": int(match.group(1)), "stdout": text[match.end() :]}
    return "error", {"message": text}


def _diff_head(path: str) -> list[str]:
    """A unified diff's file lines (an absolute path is not doubled: ``a/work/x``)."""
    name = path.lstrip("/")
    return [f"--- a/{name}", f"+++ b/{name}"]


def edit_diff(path: str, edits: list[tuple[str, str]]) -> tuple[str, int, int]:
    """A unified diff of string replacements (no line numbers known), and its counts."""
    import difflib  # imported by the first edit, not by every run

    lines: list[str] = _diff_head(path)
    added = removed = 0
    for old, new in edits:
        before, after = old.splitlines(), new.splitlines()
        if before and after and set(before).isdisjoint(after):
            # No line in common (a one-line edit, say): difflib finds one hunk that
            # replaces every line, so it is written here without its matcher (a
            # tenth of a Kimi or Amp --json went to difflib).
            lines.append(f"@@ -{_hunk_range(len(before))} +{_hunk_range(len(after))} @@")
            lines.extend(["-" + line for line in before])
            lines.extend(["+" + line for line in after])
            added += len(after)
            removed += len(before)
            continue
        body = list(difflib.unified_diff(before, after, lineterm="", n=3))[2:]
        lines.extend(body)
        added += sum(1 for line in body if line.startswith("+"))
        removed += sum(1 for line in body if line.startswith("-"))
    return "\n".join(lines), added, removed


def _hunk_range(length: int) -> str:
    """A hunk's range from the first line, as ``difflib.unified_diff`` writes it."""
    return "1" if length == 1 else f"1,{length}"


def _patch_diff(path: str, patch: list[Any]) -> tuple[str, int, int] | None:
    """The diff a ``structuredPatch`` (hunks with line numbers) describes."""
    lines: list[str] = _diff_head(path)
    added = removed = 0
    for hunk in patch:
        if not isinstance(hunk, dict) or not isinstance(hunk.get("lines"), list):
            return None
        lines.append(
            f"@@ -{hunk.get('oldStart', 0)},{hunk.get('oldLines', 0)} "
            f"+{hunk.get('newStart', 0)},{hunk.get('newLines', 0)} @@"
        )
        for line in hunk["lines"]:
            text = str(line)
            lines.append(text)
            added += text.startswith("+")
            removed += text.startswith("-")
    return "\n".join(lines), added, removed


def _edit_payload(args: JSONObject, text: str, structured: Any) -> JSONObject:
    path = as_str(args.get("path")) or "file"
    found = None
    if isinstance(structured, dict) and isinstance(structured.get("structuredPatch"), list):
        found = _patch_diff(path, structured["structuredPatch"])
    if found is None:
        raw_edits = args.get("edits")
        pairs: list[tuple[str, str]] = []
        for edit in raw_edits if isinstance(raw_edits, list) else [args]:
            if isinstance(edit, dict):
                old, new = edit.get("old_string"), edit.get("new_string")
                if isinstance(old, str) and isinstance(new, str):
                    pairs.append((old, new))
        found = edit_diff(path, pairs) if pairs else None
    # The text is "The file ... has been updated. Here's the result of running cat -n
    # on a snippet": the first line says it; the diff shows the change.
    payload: JSONObject = {"path": path, "message": text.split("\n", 1)[0]}
    if found is not None:
        payload["diffString"], payload["linesAdded"], payload["linesRemoved"] = found
    return payload


def _grep_payload(args: JSONObject, text: str, structured: Any) -> JSONObject:
    """``workspaceResults`` as the grep view walks it: files, each with its matches."""
    mode = as_str(args.get("output_mode")) or "files_with_matches"
    if isinstance(structured, dict) and isinstance(structured.get("filenames"), list):
        names = [str(name) for name in structured["filenames"]]
    else:
        names = [line for line in text.splitlines() if line.strip()]
    if mode != "content":
        if names and names[0].startswith("Found "):
            names = names[1:]
        if not names or names == ["No files found"]:
            return {"workspaceResults": [], "text": text}
        return {"workspaceResults": [{"file": name} for name in names]}
    files: dict[str, list[JSONObject]] = {}
    fallback = as_str(args.get("path")) or "matches"
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and parts[1].isdigit():
            files.setdefault(parts[0], []).append(
                {"lineNumber": int(parts[1]), "content": parts[2]}
            )
        elif len(parts) >= 2 and parts[0].isdigit():
            files.setdefault(fallback, []).append(
                {"lineNumber": int(parts[0]), "content": line.split(":", 1)[1]}
            )
        elif line.strip() and line != "No matches found":
            files.setdefault(fallback, []).append({"content": line})
    return {"workspaceResults": [{"file": f, "matches": m} for f, m in files.items()]}


def _read_payload(args: JSONObject, text: str, structured: Any) -> JSONObject:
    file = structured.get("file") if isinstance(structured, dict) else None
    if isinstance(file, dict) and isinstance(file.get("content"), str):
        payload: JSONObject = {"content": file["content"], "path": args.get("path")}
        total = as_int(file.get("totalLines"))
        if total is not None:
            payload["totalLines"] = total
        start = as_int(file.get("startLine"))
        if start:
            payload["readRange"] = {"startLine": start}
        return payload
    content = text.split("\n\n<system-reminder>", 1)[0]
    if _LINE_NUMBER.match(content):
        content = _LINE_NUMBER.sub("", content)
    return {"content": content, "path": args.get("path")}


def success_payload(kind: str, args: JSONObject, text: str, structured: Any) -> JSONObject:
    """The ``success`` payload of a completed call, in its kind's shape.

    Args:
        kind: The call's kind (:func:`kind_of`).
        args: Its arguments (:func:`args_of`).
        text: The ``tool_result`` text (:func:`result_text`).
        structured: The record's ``tool_use_result``, if any (Claude Code's own
            structured account of the result: file contents, stdout, patches...).
    """
    info = structured if isinstance(structured, dict) else {}
    if kind == "read":
        return _read_payload(args, text, structured)
    if kind == "write":
        file_text = as_str(args.get("fileText"))
        lines = file_text.count("\n") + (not file_text.endswith("\n")) if file_text else 0
        return {"path": args.get("path"), "linesCreated": lines, "message": text}
    if kind == "edit":
        return _edit_payload(args, text, structured)
    if kind == "shell":
        stdout = as_str(info.get("stdout"))
        payload: JSONObject = {"stdout": stdout if stdout is not None else text}
        if as_str(info.get("stderr")):
            payload["stderr"] = info["stderr"]
        if info.get("interrupted") is True:
            payload["signal"] = "interrupted"
        return payload
    if kind == "glob":
        names = info.get("filenames")
        if not isinstance(names, list):
            names = [line for line in text.splitlines() if line and line != "No files found"]
        return {"files": names, "totalFiles": as_int(info.get("numFiles")) or len(names)}
    if kind == "grep":
        return _grep_payload(args, text, structured)
    if kind == "webFetch":
        return {"url": args.get("url"), "markdown": text}
    if kind == "updateTodos":
        todos = info.get("newTodos", args.get("todos"))
        return {"todos": todos if isinstance(todos, list) else [], "message": text}
    if kind == "mcp":
        return {"content": [{"text": text}] if text else []}
    if kind in ("task", "ls", "webSearch"):
        return {"message": text} if not info else {"message": text, **info}
    return {"content": text, **info} if info else {"content": text}


def success_said(kind: str, args: JSONObject, text: str, structured: Any) -> Said | None:
    """What :meth:`ToolCall.complete <streamview.core.model.ToolCall.complete>` reads
    from :func:`success_payload`, counted from ``text`` without building it, for a grep
    of ``content`` mode (a tree of every matched line, built only to be counted: 40 us
    a ten-line result); ``None`` for anything else. The fold's fast path only: a view
    builds the payload from the record.

    Raises:
        ValueError: Where the payload's ``int`` would (a digit it cannot read).
    """
    if kind != "grep" or args.get("output_mode") != "content":
        return None
    fallback = as_str(args.get("path")) or "matches"
    files: dict[str, None] = {}
    matches = 0
    for line in text.splitlines():  # _grep_payload's reading, counted
        parts = line.split(":", 2)
        if len(parts) == 3 and parts[1].isdigit():
            if not parts[1].isascii():
                int(parts[1])
            files[parts[0]] = None
        elif len(parts) >= 2 and parts[0].isdigit():
            if not parts[0].isascii():
                int(parts[0])
            files[fallback] = None
        elif line.strip() and line != "No matches found":
            files[fallback] = None
        else:
            continue
        matches += 1
    summary = (
        f"{plural(matches, 'match')} in {plural(len(files), 'file')}" if files else "no matches"
    )
    return Said(kind, SUCCEEDED, summary, lambda: success_payload(kind, args, text, structured))
