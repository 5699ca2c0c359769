"""What streamview knows about each tool kind: its target, its status, its summary.

Kinds are the ``...ToolCall`` key without the suffix (``read``, ``shell``,
``updateTodos``). Anything not listed here still gets a target (a likely argument)
and a summary (the result key), so a tool invented next week shows up sensibly.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any

import msgspec

from streamview.core.events import JSONObject
from streamview.core.fields import as_int
from streamview.core.newline_count import NEWLINES_BY_MEMCHR, newlines

RUNNING = "running"
SUCCEEDED = "succeeded"
FAILED = "failed"
REJECTED = "rejected"
ERROR = "error"
COMPLETED = "completed"
INTERRUPTED = "interrupted"
STATUSES = (RUNNING, SUCCEEDED, FAILED, REJECTED, ERROR, COMPLETED, INTERRUPTED)
"""Every status a tool call can have."""

TARGET_ARGS: dict[str, tuple[str, ...]] = {
    "read": ("path",),
    "write": ("path",),
    "edit": ("path",),
    "delete": ("path",),
    "ls": ("path", "targetDirectory"),
    "shell": ("command",),
    "grep": ("pattern",),
    "glob": ("globPattern", "pattern"),
    "webFetch": ("url",),
    "webSearch": ("searchTerm", "query"),
    "mcp": ("toolName", "name"),
    "semSearch": ("query",),
    "askQuestion": ("title",),
}
_GUESS_ARGS = (
    "path",
    "command",
    "url",
    "query",
    "pattern",
    "searchTerm",
    "name",
    "title",
    "file",
    "target",
)


def target_of(kind: str, args: JSONObject | None) -> str | None:
    """The thing a user wants to see inline for a call: its path, command, url...

    Args:
        kind: The tool kind.
        args: The call's arguments, if known.

    Returns:
        A short string, or ``None`` when the arguments say nothing useful.
    """
    if not args:
        return None
    if kind == "updateTodos":
        todos = args.get("todos")
        if isinstance(todos, list):
            return f"{len(todos)} todo{'s' if len(todos) != 1 else ''}"
        return None
    if kind == "mcp":
        tool = args.get("toolName") or args.get("name")
        provider = args.get("providerIdentifier")
        if isinstance(tool, str):
            return f"{provider}: {tool}" if isinstance(provider, str) and provider else tool
    for key in TARGET_ARGS.get(kind, _GUESS_ARGS):
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    if kind not in TARGET_ARGS:
        for value in args.values():
            if isinstance(value, str) and value and len(value) < 500:
                return value
    return None


PATH_KINDS = frozenset({"read", "write", "edit", "delete", "ls"})
"""Kinds whose target is a file or directory path."""


def relative_path(path: str, cwd: str | None) -> str:
    """``path`` relative to ``cwd`` when it lies below it (``src/app.py``), else unchanged.

    Agents pass absolute paths; inside the session's working directory the relative
    part is what a person reads, and it leaves room in narrow columns.
    """
    if not cwd:
        return path
    base = cwd.rstrip("/")
    if base and path.startswith(base + "/") and len(path) > len(base) + 1:
        return path[len(base) + 1 :]
    return path


def status_of(kind: str, outcome: str | None, payload: Any) -> str:
    """The status of a completed call, from the key of its one-key result union.

    ``success`` is ``succeeded`` except for a shell call whose ``exitCode`` is not 0,
    which is ``failed``; ``failure`` is ``failed``; ``rejected`` and ``error`` are
    themselves; a key nobody knows is ``completed``.
    """
    if outcome == "success":
        if isinstance(payload, dict):
            code = as_int(payload.get("exitCode"))
            if code not in (None, 0):
                return FAILED
            if payload.get("isError") is True:
                return FAILED
        return SUCCEEDED
    if outcome == "failure":
        return FAILED
    if outcome == "rejected":
        return REJECTED
    if outcome == "error":
        return ERROR
    return COMPLETED


class Said(msgspec.Struct, gc=False):
    """A completed call's result as its dialect summarised it straight from the text, for
    the fold's fast path: the status, summary and numbers :meth:`ToolCall.complete
    <streamview.core.model.ToolCall.complete>` would read from the payload, without the
    payload (a grep's match tree, a read's unnumbered copy) built only to be counted.

    ``kind`` is the kind it was summarised as; a call of another kind asks ``build``
    for the payload itself, and summarises that. A struct made in C (a third of a
    class's ``__init__``: one a call), untracked by the GC (nothing refers back to it).
    """

    kind: str
    status: str
    summary: str | None
    build: Callable[[], Any]
    numbers: tuple[int | None, int | None, int | None] = (None, None, None)
    """``(lines added, lines removed, exit code)``, as :func:`numbers_of` says them."""


def numbers_of(kind: str, payload: Any) -> tuple[int | None, int | None, int | None]:
    """``(lines added, lines removed, exit code)`` of a call's result, ``None`` where it
    does not say: an edit's ``linesAdded``/``linesRemoved``, a write's ``linesCreated``
    (all added), a shell call's ``exitCode``."""
    if not isinstance(payload, dict):
        return None, None, None
    if kind == "shell":
        return None, None, as_int(payload.get("exitCode"))
    if kind == "edit":
        return as_int(payload.get("linesAdded")), as_int(payload.get("linesRemoved")), None
    if kind == "write":
        return as_int(payload.get("linesCreated")), None, None
    return None, None, None


_PLURALS = {"match": "matches", "entry": "entries"}
_COUNTED: dict[str, dict[int, str]] = {}
""":func:`plural`'s texts already written, by word and count: a run repeats them
(formatting ``1,024 lines`` anew was two fifths of the time of a read result's summary)."""
_COUNTED_KEPT = 4096
"""Counts of one word remembered at most (then forgotten all at once)."""


def plural(count: int, word: str) -> str:
    """``1 line``, ``2 lines``, ``1,024 matches`` (``match`` and ``entry`` as English has them)."""
    counted = _COUNTED.get(word)
    if counted is not None and count.__class__ is int:  # 2.0 == 2, but says "2.0 lines"
        said = counted.get(count)
        if said is not None:
            return said
    said = f"{count:,} {word if count == 1 else _PLURALS.get(word, word + 's')}"
    if count.__class__ is int:
        if counted is None:
            counted = _COUNTED[word] = {}
        elif len(counted) >= _COUNTED_KEPT:
            counted.clear()
        counted[count] = said
    return said


def todo_status(todo: Any) -> str | None:
    """A todo's status in one spelling: ``in_progress`` for ``in_progress`` and
    ``TODO_STATUS_IN_PROGRESS`` alike (builds spell it both ways); ``None`` if none."""
    status = todo.get("status") if isinstance(todo, dict) else None
    return status.lower().removeprefix("todo_status_") if isinstance(status, str) else None


def _todo_done(todo: Any) -> bool:
    """``completed`` or ``TODO_STATUS_COMPLETED``."""
    return todo_status(todo) == "completed"


def _first_line(text: str, limit: int = 80) -> str:
    line = text.strip().split("\n", 1)[0].strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _summary_read(payload: JSONObject) -> str | None:
    if payload.get("isEmpty") is True:
        return "empty file"
    lines = as_int(payload.get("totalLines"))
    text = plural(lines, "line") if lines is not None else None
    if text is None:
        chars = as_int(payload.get("totalChars"))
        text = plural(chars, "char") if chars is not None else None
    if text is None and isinstance(payload.get("content"), str):
        text = plural(payload["content"].count("\n") + 1, "line")
    if text and payload.get("exceededLimit") is True:
        text += " (truncated)"
    return text


def _summary_write(payload: JSONObject) -> str | None:
    lines = as_int(payload.get("linesCreated"))
    return f"{plural(lines, 'line')} written" if lines is not None else None


def _summary_edit(payload: JSONObject) -> str | None:
    added = as_int(payload.get("linesAdded"))
    removed = as_int(payload.get("linesRemoved"))
    if added is None and removed is None:
        message = payload.get("message")
        return _first_line(message) if isinstance(message, str) else None
    return f"+{added or 0} -{removed or 0}"


def _line_count(output: str) -> int:
    """Lines of ``output``, ``\r\n`` or ``\n`` ended, trailing newlines not counted (a
    ``\r\n`` read as ``\n``: it only matters to which newlines trail); counted in place
    (an ASCII one of :data:`NEWLINES_BY_MEMCHR` or more by :func:`newlines`)."""
    end = size = len(output)
    while end and output[end - 1] == "\n":
        end -= 1
        if end and output[end - 1] == "\r":
            end -= 1
    if size < NEWLINES_BY_MEMCHR or not output.isascii():
        return output.count("\n", 0, end) + 1
    return newlines(output) - output.count("\n", end) + 1


def _summary_shell(payload: JSONObject) -> str | None:
    code = as_int(payload.get("exitCode"))
    parts = [f"exit {code}"] if code is not None else []
    output = payload.get("interleavedOutput") or payload.get("stdout") or payload.get("stderr")
    lines = output_lines(output) if isinstance(output, str) else None
    if lines is not None:
        parts.append(lines)
    return ", ".join(parts) or None


def output_lines(output: str) -> str | None:
    """A command's output as its shell summary counts it (``3 lines``: trailing newlines
    not counted); ``None`` for an empty or blank one."""
    return plural(_line_count(output), "line") if output and not output.isspace() else None


def _summary_glob(payload: JSONObject) -> str | None:
    total = as_int(payload.get("totalFiles"))
    if total is None and isinstance(payload.get("files"), list):
        total = len(payload["files"])
    return plural(total, "file") if total is not None else None


def _count_matches(value: Any) -> tuple[int, int]:
    """Count (files, matches) in a ``workspaceResults`` tree of unknown exact shape."""
    # Hot on big greps (every match is a node): plain loops, no per-node generator, and
    # a list is judged as it is met, not pushed to be judged when popped.
    if isinstance(value, list):
        if len(value) > 2 and _plain_records(value):
            return 0, 0
    elif not isinstance(value, dict):
        return 0, 0
    files = matches = 0
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        if isinstance(node, dict):
            found = node.get("matches")
            if isinstance(found, list):
                matches += len(found)
                files += 1
            else:
                if isinstance(node.get("file"), str):
                    files += 1
                if "totalMatchedLines" in node:
                    count = as_int(node["totalMatchedLines"])
                    if count is not None:
                        matches += count
                if "totalMatches" in node:
                    count = as_int(node["totalMatches"])
                    if count is not None:
                        matches += count
            children: Any = node.values()
        else:
            children = node
        for child in children:
            if isinstance(child, dict):
                push(child)
            elif isinstance(child, list) and not (len(child) > 2 and _plain_records(child)):
                push(child)  # a file's match lines are not: nothing to count in them
    return files, matches


_COUNTED_KEYS = frozenset({"matches", "file", "totalMatchedLines", "totalMatches"})
_SCALARS = frozenset({str, int, float, bool, type(None)})
_ONLY_DICTS = {dict}


def _plain_records(items: list[Any]) -> bool:
    """Every item a dict with none of the keys :func:`_count_matches` counts and only
    scalar values, such as a grep's match lines: checked in C, a pass per property."""
    return (
        set(map(type, items)) == _ONLY_DICTS
        and _COUNTED_KEYS.isdisjoint(chain.from_iterable(items))
        and _SCALARS.issuperset(map(type, chain.from_iterable(map(dict.values, items))))
    )


def _summary_grep(payload: JSONObject) -> str | None:
    results = payload.get("workspaceResults")
    if results is None:
        return None
    files, matches = _count_matches(results)
    if matches:
        return f"{plural(matches, 'match')}" + (f" in {plural(files, 'file')}" if files else "")
    if files:
        return plural(files, "file")
    return "no matches"


def _count_tree(node: Any) -> int:
    count = 0
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key in ("childrenFiles", "files"):
                children = item.get(key)
                if isinstance(children, list):
                    count += len(children)
            dirs = item.get("childrenDirs") or item.get("directories")
            if isinstance(dirs, list):
                count += len(dirs)
                stack.extend(dirs)
    return count


def _summary_ls(payload: JSONObject) -> str | None:
    root = payload.get("directoryTreeRoot")
    return plural(_count_tree(root), "entry") if root else None


def _summary_todos(payload: JSONObject) -> str | None:
    todos = payload.get("todos")
    if not isinstance(todos, list):
        return None
    done = sum(1 for todo in todos if _todo_done(todo))
    return f"{done}/{len(todos)} done"


def _summary_mcp(payload: JSONObject) -> str | None:
    content = payload.get("content")
    if isinstance(content, list):
        for item in content:
            if isinstance(item, dict):
                text = item.get("text")
                if isinstance(text, dict):
                    text = text.get("text")
                if isinstance(text, str) and text.strip():
                    return _first_line(text, 60)
        return plural(len(content), "item")
    return None


def _summary_web_fetch(payload: JSONObject) -> str | None:
    markdown = payload.get("markdown")
    return f"{len(markdown):,} chars" if isinstance(markdown, str) else None


def _summary_web_search(payload: JSONObject) -> str | None:
    references = payload.get("references")
    return plural(len(references), "result") if isinstance(references, list) else None


def _summary_sem_search(payload: JSONObject) -> str | None:
    results = payload.get("results")
    if isinstance(results, list):
        return plural(len(results), "result")
    if isinstance(results, dict):
        inner = results.get("codeResults") or results.get("results")
        if isinstance(inner, list):
            return plural(len(inner), "result")
    return None


def _summary_delete(payload: JSONObject) -> str | None:
    message = payload.get("message")
    return _first_line(message) if isinstance(message, str) else "deleted"


_SUCCESS_SUMMARY: dict[str, Callable[[JSONObject], str | None]] = {
    "read": _summary_read,
    "write": _summary_write,
    "edit": _summary_edit,
    "shell": _summary_shell,
    "glob": _summary_glob,
    "grep": _summary_grep,
    "ls": _summary_ls,
    "updateTodos": _summary_todos,
    "mcp": _summary_mcp,
    "webFetch": _summary_web_fetch,
    "webSearch": _summary_web_search,
    "semSearch": _summary_sem_search,
    "delete": _summary_delete,
}


_SAID_BY_MESSAGE = frozenset({"grep", "ls", "webFetch"})
"""Kinds whose summary is the result's own ``message`` when their payload holds no more."""


def _said_summary(kind: str, said: str) -> str | None:
    """A display text as a summary: a one-line text is itself ("Listed 3 item(s)."); a
    listing is counted ("12 entries", "4 matching lines"), since its first line alone
    would read as the only result; a page says its first line."""
    if kind == "webFetch":
        return _first_line(said) or None
    lines = said.splitlines()
    # The lines not blank (``line.strip()`` not empty), counted in C: no stripped copies.
    count = len(lines) - lines.count("") - sum(map(str.isspace, lines))
    if count <= 1:
        return _first_line(said) or None
    if kind == "ls":  # "Directory listing for /x:" heads some listings
        entries = sum(1 for line in lines if line.strip() and not line.rstrip().endswith(":"))
        return f"{entries:,} entries" if entries != 1 else "1 entry"
    return f"{count:,} matching lines"


def summary_of(kind: str, outcome: str | None, payload: Any) -> str | None:
    """A short, one-line account of a call's result.

    Args:
        kind: The tool kind.
        outcome: The key of the result union, ``None`` if the result was missing.
        payload: The value under that key.

    Returns:
        Lines read, ``+a -r`` of an edit, an exit code, files found, the rejection
        reason, the error message... or ``None`` when there is nothing to say.
    """
    if outcome is None:
        return None
    if outcome == "rejected":
        reason = payload.get("reason") if isinstance(payload, dict) else None
        return (
            f"rejected: {_first_line(reason)}" if isinstance(reason, str) and reason else "rejected"
        )
    if outcome == "error":
        if isinstance(payload, dict):
            for key in ("message", "error", "errorMessage"):
                value = payload.get(key)
                if isinstance(value, str) and value:
                    return _first_line(value)
                if isinstance(value, dict) and isinstance(value.get("message"), str):
                    return _first_line(value["message"])
        if isinstance(payload, str):
            return _first_line(payload)
        return "error"
    if outcome in ("success", "failure") and isinstance(payload, dict):
        summarise = _SUCCESS_SUMMARY.get(kind)
        text = summarise(payload) if summarise else None
        if text is None and kind in _SAID_BY_MESSAGE:
            # An agent whose result is a display line only ("Listed 3 item(s).", "Found
            # 1 match": Gemini CLI's): its summary, else that line, is the summary.
            said = payload.get("summary") or payload.get("message")
            text = _said_summary(kind, said) if isinstance(said, str) else None
        if text is None and kind not in _SUCCESS_SUMMARY and outcome == "success":
            return None
        if text is None and outcome == "failure":
            for key in ("message", "error"):
                value = payload.get(key)
                if isinstance(value, str) and value:
                    return _first_line(value)
        return text
    if outcome not in ("success", "failure"):
        return outcome
    return None
