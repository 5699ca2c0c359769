"""Unified diffs that tools can apply: file headers relative to the session's working
directory, and the line an edit changed first.

Agents write their diffs' headers from absolute paths: Cursor as ``--- a//home/dev/src/
tidepool/src/app.py``, others as ``a/home/dev/...``. Neither applies anywhere but on
the agent's machine. Rewritten against the session's cwd they read ``a/src/app.py``, as
``git diff`` writes them, and ``git apply`` takes them in any checkout of the project.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_PREFIXES = ("a/", "b/")
_GIT_HEADER = "diff --git "


def relative_name(name: str, cwd: str | None) -> str:
    """One header's file name (``a//abs/x``, ``b/abs/x``, ``/dev/null``) made relative
    to ``cwd`` when it lies below it; an absolute one elsewhere loses its doubled slash."""
    if name == "/dev/null" or name.startswith('"'):
        return name
    prefix = name[:2] if name.startswith(_PREFIXES) else ""
    path = name[len(prefix) :]
    absolute = "/" + path.lstrip("/")
    base = (cwd or "").rstrip("/")
    if base and absolute.startswith(base + "/") and len(absolute) > len(base) + 1:
        return prefix + absolute[len(base) + 1 :]
    if prefix and path.startswith("/"):
        return prefix + path.lstrip("/")
    return name


def relative_headers(diff: str, cwd: str | None) -> str:
    """``diff`` with every ``---``/``+++`` file header relative to ``cwd``.

    Hunk bodies are left alone, including a removed line that reads ``-- x`` (shown
    as ``--- x``): the hunks' line counts say where each body ends.
    """
    lines = diff.split("\n")
    old_left = new_left = 0
    for index, line in enumerate(lines):
        if line.startswith("\\"):
            continue  # "\ No newline at end of file"
        if old_left > 0 or new_left > 0:
            if line.startswith(" ") or not line:
                old_left, new_left = old_left - 1, new_left - 1
                continue
            if line.startswith("-"):
                old_left -= 1
                continue
            if line.startswith("+"):
                new_left -= 1
                continue
            old_left = new_left = 0  # a hunk shorter than it said: read on as headers
        hunk = _HUNK.match(line)
        if hunk:
            old_left = int(hunk.group(1) or 1)
            new_left = int(hunk.group(3) or 1)
        elif line.startswith(("--- ", "+++ ")):
            name, tab, rest = line[4:].partition("\t")
            lines[index] = line[:4] + relative_name(name, cwd) + tab + rest
        elif line.startswith(_GIT_HEADER):
            lines[index] = _relative_git_header(line, cwd)
    return "\n".join(lines)


def _relative_git_header(line: str, cwd: str | None) -> str:
    """``diff --git a/X b/Y`` with both names relative to ``cwd``: ``git apply`` rejects
    a patch whose ``diff --git`` names disagree with its ``---``/``+++`` headers."""
    old, separator, new = line[len(_GIT_HEADER) :].rpartition(" b/")
    if not separator or not old.startswith("a/"):
        return line
    return f"{_GIT_HEADER}{relative_name(old, cwd)} {relative_name('b/' + new, cwd)}"


def first_changed_line(diff: str) -> int | None:
    """The line of the new file where ``diff`` changes something first (1-based)."""
    line: int | None = None
    in_hunk = False
    for text in diff.split("\n"):
        hunk = _HUNK.match(text)
        if hunk:
            line, in_hunk = int(hunk.group(2)), True
            continue
        if not in_hunk or line is None:
            continue
        if text.startswith(("+", "-")):
            return max(line, 1)
        if text.startswith(" "):
            line += 1
    return None


def file_diff(before: str, after: str, path: str, cwd: str | None = None) -> str:
    """A unified diff of two versions of a file, its headers relative to ``cwd``."""
    name = relative_name("a/" + path, cwd)[2:] if path else "file"
    lines = difflib.unified_diff(
        before.splitlines(),
        after.splitlines(),
        fromfile=f"a/{name}" if before else "/dev/null",
        tofile=f"b/{name}",
        lineterm="",
        n=3,
    )
    return "\n".join(lines)


def with_relative_diff(payload: Any, cwd: str | None, path: str | None = None) -> Any:
    """An edit's result with its diff headers relative to ``cwd``.

    A result holding ``diffString`` gets it rewritten; one holding only the file before
    and after gets a diff made from them. Anything else is returned as it is.
    """
    if not isinstance(payload, dict):
        return payload
    diff = payload.get("diffString")
    if isinstance(diff, str):
        return {**payload, "diffString": relative_headers(diff, cwd)}
    before, after = payload.get("beforeFullFileContent"), payload.get("afterFullFileContent")
    name = payload.get("path") if isinstance(payload.get("path"), str) else path
    if isinstance(after, str) and (isinstance(before, str) or name):
        made = file_diff(before if isinstance(before, str) else "", after, name or "", cwd)
        return {**payload, "diffString": made}
    return payload
