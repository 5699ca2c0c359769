"""A tool's text result in the payload shapes streamview's kinds have (Cursor's).

Qwen Code, Amp, Factory's Droid, Kimi CLI and pi send a call's result as the text the
model reads. Each of their tools modules maps its tool names and argument names onto
the shared kinds and canonical argument keys (``path``, ``fileText``, ``command``,
``globPattern``, ``url``, ``searchTerm``, ``todos``...); this module turns the text into
the payload each kind's summary and detail view read, the same way for all of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from streamview.core import tools as core_tools
from streamview.core.dialects.claude_tools import edit_diff, is_denial
from streamview.core.events import JSONObject
from streamview.core.fields import as_str
from streamview.core.newline_count import newlines
from streamview.core.tools import SUCCEEDED, Said, plural

_NUMBERED = re.compile(r"^ *\d+(?:→|\t)", re.MULTILINE)
"""``cat -n`` line numbers some read tools put before each line (``   12→``, ``    12\t``)."""
_EXIT = re.compile(
    r"(?:exit(?:ed)? (?:with )?code:? |Exit code:? |exit status )(-?\d+)", re.IGNORECASE
)
_MATCH_LINE = re.compile(r"^L(\d+): ?(.*)$")
_NO_FILES = frozenset({"No files found", "No files found matching pattern", "No matches found"})
_EDIT_KEYS = (
    ("old_string", "new_string"),
    ("old_str", "new_str"),
    ("oldText", "newText"),
    ("old", "new"),
)
"""How agents name an edit's text before and after."""
_OLD_KEYS = frozenset(old for old, _ in _EDIT_KEYS)
_NOT_COLON_OR_BREAK = bytes(c for c in range(256) if c not in b":\n\r\x0b\x0c\x1c\x1d\x1e")
"""What :func:`one_colon_a_line` deletes: all but colons and ASCII line breaks."""
_DONE = frozenset({"done", "complete", "finished"})


def numbered(text: str) -> str:
    """``text`` without the line numbers a read tool put before every line, if it did."""
    lines = text.splitlines()
    if lines and all(map(_NUMBERED.match, filter(None, lines))):  # the blank ones aside
        return _NUMBERED.sub("", text)
    return text


def edit_pairs(args: JSONObject) -> list[tuple[str, str]]:
    """The ``(old, new)`` texts of an edit: its own, or those of its ``edits`` list.

    Once an edit result: each item's keys are looked up only where it has one of the
    old-text names (:data:`_OLD_KEYS`), not tried pair by pair."""
    found: list[tuple[str, str]] = []
    items = args.get("edits", args.get("edit"))
    if items.__class__ is dict:
        candidates: list[Any] = [args, items]
    elif isinstance(items, list):
        candidates = [args, *items]
    else:
        candidates = [args, items] if isinstance(items, dict) else [args]
    for item in candidates:
        if not isinstance(item, dict) or _OLD_KEYS.isdisjoint(item):
            continue
        for old_key, new_key in _EDIT_KEYS:
            old, new = item.get(old_key), item.get(new_key)
            if isinstance(old, str) and isinstance(new, str):
                found.append((old, new))
                break
    return found


def todo(item: Any, text_keys: tuple[str, ...] = ("content", "title", "description")) -> Any:
    """A todo item as the todo view reads one (``content``, ``status`` spelled
    ``completed``/``in_progress``/``pending``), keeping what else it has."""
    if not isinstance(item, dict):
        return item
    shown = dict(item)
    if "content" not in item:
        for key in text_keys:
            if isinstance(item.get(key), str):
                shown["content"] = item[key]
                break
    status = as_str(item.get("status"))
    if status is not None and status.lower() in _DONE:
        shown["status"] = "completed"
    return shown


def shell_payload(text: str, exit_code: int | None = None) -> JSONObject:
    """A command's output, with its exit code if known."""
    payload: JSONObject = {"stdout": text}
    if exit_code is not None:
        payload["exitCode"] = exit_code
    return payload


def shell_said(text: str, build: Callable[[], Any]) -> Said:
    """:func:`shell_payload`'s (no exit code) status and summary, counted from ``text``
    as the shell summary counts a ``stdout`` (its lines, trailing newlines aside; none
    for a blank one), for the fold's fast path: no payload to build and read back."""
    return Said("shell", SUCCEEDED, core_tools.output_lines(text), build)


def exit_code_in(text: str) -> int | None:
    """The exit code an error text states (``Command failed with exit code: 2``)."""
    found = _EXIT.search(text)
    return int(found.group(1)) if found else None


def _file_sections(text: str) -> dict[str, list[JSONObject]]:
    """Gemini CLI's and Qwen Code's grep display: ``File: path`` then ``L12: text`` lines."""
    files: dict[str, list[JSONObject]] = {}
    current: list[JSONObject] | None = None
    for line in text.splitlines():
        if line.startswith("File: "):
            current = files.setdefault(line[len("File: ") :].strip(), [])
            continue
        found = _MATCH_LINE.match(line) if current is not None else None
        if current is not None and found:
            current.append({"lineNumber": int(found.group(1)), "content": found.group(2)})
    return files


def _grep_payload(text: str) -> JSONObject:
    """``path:line:content`` lines as the grep view walks them; other lines as names.

    Big outputs are common: each line is cut with ``str.find``, not split or matched.
    """
    files = _file_sections(text) if "File: " in text else {}
    names: list[str] = []
    if not files:
        for line in text.splitlines():
            first = line.find(":")
            second = line.find(":", first + 1) if first > 0 else -1
            number = line[first + 1 : second].strip() if second > 0 else ""
            if number.isdigit():
                files.setdefault(line[:first], []).append(
                    {"lineNumber": int(number), "content": line[second + 1 :]}
                )
            elif first == -1 and ("/" in line or "." in line):
                name = line.strip()
                if name and name not in _NO_FILES and not name.startswith("Found "):
                    names.append(name)
    if files:
        return {"workspaceResults": [{"file": f, "matches": m} for f, m in files.items()]}
    if names:
        return {"workspaceResults": [{"file": name} for name in names]}
    return {"workspaceResults": [], "text": text} if text else {"workspaceResults": []}


def _lines(text: str) -> list[str]:
    """A listing's names: its lines, but for a ``Found N file(s)...`` heading and blanks."""
    return [
        line
        for line in text.splitlines()
        if line.strip() and line.strip() not in _NO_FILES and not line.startswith("Found ")
    ]


def success_payload(kind: str, args: JSONObject, text: str) -> JSONObject:
    """The ``success`` payload of a call whose result is ``text``, in its kind's shape.

    Args:
        kind: The call's kind (``read``, ``shell``...; another name for a tool nobody maps).
        args: Its arguments, with the canonical keys (``path``, ``fileText``...).
        text: The result as the model reads it.
    """
    if kind == "read":
        # Counted before the numbers go: "21\t" is one (empty) line read, not none.
        return {"content": numbered(text), "path": args.get("path"), "totalLines": line_count(text)}
    if kind == "write":
        file_text = as_str(args.get("fileText"))
        lines = file_text.count("\n") + (not file_text.endswith("\n")) if file_text else 0
        return {"path": args.get("path"), "linesCreated": lines, "message": text}
    if kind == "edit":
        path = as_str(args.get("path")) or "file"
        payload: JSONObject = {"path": path, "message": text.split("\n", 1)[0]}
        pairs = edit_pairs(args)
        if pairs:
            payload["diffString"], payload["linesAdded"], payload["linesRemoved"] = edit_diff(
                path, pairs
            )
        return payload
    if kind == "shell":
        return shell_payload(text)
    if kind == "glob":
        files = _lines(text)
        return {"files": files, "totalFiles": len(files)}
    if kind == "grep":
        return _grep_payload(text)
    if kind == "webFetch":
        return {"url": args.get("url"), "markdown": text}
    if kind == "updateTodos":
        todos = args.get("todos")
        return {"todos": todos if isinstance(todos, list) else [], "message": text}
    if kind == "mcp":
        return {"content": [{"text": text}] if text else []}
    if kind in ("task", "ls", "webSearch"):
        return {"message": text}
    return {"content": text}


SAID_KINDS = frozenset({"read", "grep"})
"""The kinds :func:`success_said` counts a summary of (a grep's ``File:`` sections aside)."""


def success_said(
    kind: str, args: JSONObject, text: str, build: Callable[[], Any] | None = None
) -> Said | None:
    """What :meth:`ToolCall.complete <streamview.core.model.ToolCall.complete>` reads
    from :func:`success_payload`, counted from ``text`` without building the payload,
    for a read (its lines) and a grep (its files and matches): ``None`` for any other
    kind, and for a grep whose text has ``File:`` sections (its payload is built then).

    The fold's fast path only: the detail view re-reads the record and builds the
    payload (``tests/core/dialects/test_said.py`` checks both say the same).
    ``build``: the dialect's own payload of the call, if it is not :func:`success_payload`'s.
    """
    if kind == "read":
        # The numbers a read tool puts before each line are not line breaks.
        summary = plural(line_count(text), "line")
    elif kind == "grep" and ("F" not in text or "File: " not in text):  # a memchr first
        summary = _grep_said(text)
    else:
        return None
    return Said(kind, SUCCEEDED, summary, build or (lambda: success_payload(kind, args, text)))


def line_count(text: str) -> int:
    """``len(text.splitlines())``, without the list: an ASCII text that breaks lines
    only at ``\n`` has as many lines as newlines, and one more if it does not end in
    one (half the time of ``splitlines`` on a 7 KB read result, once a call)."""
    # The ASCII characters besides \n at which splitlines breaks a line, looked for
    # one by one (a memchr each, no generator: once a read result).
    if text.isascii() and not (
        "\r" in text
        or "\x0b" in text
        or "\x0c" in text
        or "\x1c" in text
        or "\x1d" in text
        or "\x1e" in text
    ):
        return newlines(text) + (0 if not text or text[-1] == "\n" else 1)
    return len(text.splitlines())


def _grep_said(text: str) -> str:
    """The summary of :func:`_grep_payload`'s payload (no ``File:`` sections), counted
    as it reads the lines: matched lines in their files, else names, else none.

    Once a grep result (a tenth of some runs' lines): a line's second colon is looked
    for only after a first one past its start, and its number only after a second."""
    if one_colon_a_line(text):
        return "no matches"  # no line holds a line number between two colons, nor a name
    files: dict[str, None] = {}
    matches = names = 0
    for line in text.splitlines():
        first = line.find(":")
        if first > 0:
            second = line.find(":", first + 1)
            if second > 0:
                number = line[first + 1 : second].strip()
                if number.isdigit():
                    if not number.isascii():
                        # Raises where the payload's would (a digit int() does not read).
                        int(number)
                    files[line[:first]] = None
                    matches += 1
        elif first == -1 and not files and ("/" in line or "." in line):
            name = line.strip()
            if name and name not in _NO_FILES and not name.startswith("Found "):
                names += 1
    if files:
        return f"{plural(matches, 'match')} in {plural(len(files), 'file')}"
    if names:
        return plural(names, "file")
    return "no matches"


def one_colon_a_line(text: str) -> bool:
    """Whether each line of ``text`` (as ``str.splitlines`` cuts them) has exactly one
    colon: then none is a ``path:line:`` match nor a bare name, as in a tool's
    ``label: text`` lines. Told in C from the text's colons and line breaks alone: its
    bytes with the rest deleted (one pass), against ``:\n`` repeated (a third of the
    time of counting colons and newlines first); ``False`` whenever that cannot tell
    (a text not ASCII, with breaks besides ``\n``)."""
    if not text.isascii():
        return False
    shape = text.encode("ascii").translate(None, _NOT_COLON_OR_BREAK)
    size = len(shape)
    if not size or shape != b":\n" * (size >> 1) + b":"[: size & 1]:
        return False  # a line with two colons or none, or another break
    return shape[-1] != 10 or text[-1] == "\n"  # a last line with none after the last \n


def error_outcome(kind: str, text: str) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a call that ended in error with ``text``.

    A refused permission is ``rejected``; a shell command that says its exit code ran
    and failed (``success`` with that ``exitCode``, as Cursor says it); anything else
    is an ``error`` with its message.
    """
    if is_denial(text) or "declined" in text.lower():
        return "rejected", {"reason": text}
    if kind == "shell":
        code = exit_code_in(text)
        if code is not None:
            return "success", shell_payload(text, code)
    return "error", {"message": text or "error"}
