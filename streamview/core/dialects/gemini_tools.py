"""Gemini CLI's tools in the shapes streamview's tool kinds already have (Cursor's).

A ``tool_use`` record names a tool (``read_file``, ``run_shell_command``,
``mcp_github_get_issue``) and holds its ``parameters``; the ``tool_result`` that
answers it (same ``tool_id``) holds only the tool's *display* text (``output``: the
shell's output, "Listed 4 item(s).", nothing for an edit) and, on failure, an
``error`` with its ``type`` and ``message``. File contents and diffs never reach the
stream, so a read shows what the call asked for and an edit's diff is made from its
``old_string``/``new_string``. A tool nobody maps keeps its own name and raw JSON.

Tool and parameter names: ``packages/core/src/tools/definitions/base-declarations.ts``
of google-gemini/gemini-cli (``search_file_content`` is ``grep_search``'s old name).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from streamview.core.dialects.claude_tools import edit_diff
from streamview.core.events import JSONObject
from streamview.core.fields import as_str
from streamview.core.tools import FAILED, SUCCEEDED, Said, output_lines, plural

KINDS: dict[str, str] = {
    "read_file": "read",
    "read_many_files": "read",
    "write_file": "write",
    "replace": "edit",
    "edit": "edit",
    "run_shell_command": "shell",
    "grep_search": "grep",
    "search_file_content": "grep",
    "grep": "grep",
    "glob": "glob",
    "list_directory": "ls",
    "web_fetch": "webFetch",
    "google_web_search": "webSearch",
    "write_todos": "updateTodos",
    "invoke_agent": "task",
}
"""Gemini CLI tool names and the kinds they are shown as."""

MCP_PREFIX = "mcp_"
"""``mcp_{server}_{tool}``: how Gemini CLI names an MCP server's tool."""
_LEGACY_MCP = "__"
"""Older builds named a clashing MCP tool ``{server}__{tool}``."""
_DENIALS = ("policy_violation",)
"""``error.type`` values that say the call was refused, not that it failed (a
``permission_denied`` is the file system's refusal: an error)."""
_DENIAL_WORDS = (
    "denied by policy",
    "operation cancelled",
    "cancelled by user",
    "declined",
    "rejected by",
)


class _Pattern:
    """A regular expression compiled by its first ``match`` or ``search``, which then
    stand for the compiled pattern's own methods: a run reads only some kinds of
    result, and compiling them all on import cost every start-up (~0.6 ms, issue 30.8)."""

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags

    def _compiled(self) -> re.Pattern[str]:
        compiled = re.compile(self._source, self._flags)
        self.match = compiled.match  # type: ignore[method-assign,assignment]
        self.search = compiled.search  # type: ignore[method-assign,assignment]
        return compiled

    def match(self, text: str) -> re.Match[str] | None:
        """:meth:`re.Pattern.match`."""
        return self._compiled().match(text)

    def search(self, text: str) -> re.Match[str] | None:
        """:meth:`re.Pattern.search`."""
        return self._compiled().search(text)


_EXITED = _Pattern(r"\ACommand exited with code: (-?\d+)\s*\Z")
_READ_DISPLAY = _Pattern(r"\A(Read (lines|all|image|pdf|audio|video)|$)", re.IGNORECASE)
_FOUND = _Pattern(r"\AFound (\d+) (?:matching file|file)", re.IGNORECASE)
_READ_OF = _Pattern(r"\ARead lines (\d+)-(\d+) of (\d+)")
_URL = _Pattern(r"https?://[^\s)\"'>]+")


def kind_of(name: str) -> str:
    """The kind a tool name is shown as: a known kind, ``mcp``, or the name itself."""
    if name.startswith(MCP_PREFIX) or _LEGACY_MCP in name.strip("_"):
        return "mcp"
    return KINDS.get(name, name or "unknown")


def _mcp_names(name: str) -> tuple[str, str]:
    """``(server, tool)`` of an MCP tool name (``mcp_github_get_issue``)."""
    if name.startswith(MCP_PREFIX):
        server, _, tool = name[len(MCP_PREFIX) :].partition("_")
        return server, tool or server
    server, _, tool = name.partition(_LEGACY_MCP)
    return server, tool or server


def _path(given: JSONObject, *keys: str) -> str | None:
    """The first of ``keys`` that holds a string, taken out of ``given`` (renamed)."""
    for key in keys:
        value = given.get(key)
        if isinstance(value, str) and value:
            del given[key]
            return value
    return None


def args_of(name: str, parameters: Any) -> JSONObject:
    """A ``tool_use`` record's ``parameters`` in the argument shape of the tool's kind."""
    given: JSONObject = parameters if isinstance(parameters, dict) else {}
    kind = kind_of(name)
    if kind == "mcp":
        server, tool = _mcp_names(name)
        return {"providerIdentifier": server, "toolName": tool, "args": given}
    args = dict(given)  # renamed keys are taken out of it, the rest kept as they came
    if kind in ("read", "write", "edit"):
        path = _path(args, "file_path", "absolute_path", "path")
        if path is not None:
            args["path"] = path
        if kind == "write" and isinstance(given.get("content"), str):
            args["fileText"] = args.pop("content")
    elif kind == "ls":
        path = _path(args, "dir_path", "path")
        if path is not None:
            args["path"] = path
    elif kind == "glob":
        if isinstance(given.get("pattern"), str):
            args["globPattern"] = args.pop("pattern")
        directory = _path(args, "dir_path", "path")
        if directory is not None:
            args["targetDirectory"] = directory
    elif kind == "grep":
        directory = _path(args, "dir_path", "path")
        if directory is not None:
            args["path"] = directory
        include = _path(args, "include_pattern", "include")
        if include is not None:
            args["glob"] = include
    elif kind == "shell":
        directory = _path(args, "dir_path", "directory")
        if directory is not None:
            args["workingDirectory"] = directory
    elif kind == "task":  # invoke_agent(agent_name, prompt): a subagent's run
        if isinstance(given.get("agent_name"), str):
            args["name"] = args.pop("agent_name")
    elif kind == "webSearch":
        if isinstance(given.get("query"), str):
            args["searchTerm"] = args.pop("query")
    elif kind == "webFetch":
        url = as_str(given.get("url")) or _first_url(as_str(given.get("prompt")) or "")
        if url is not None:
            args["url"] = url
    elif kind == "updateTodos":
        todos = given.get("todos")
        if isinstance(todos, list):
            args["todos"] = [_todo(todo) for todo in todos]
    return args


def _first_url(text: str) -> str | None:
    found = _URL.search(text)
    return found.group(0).rstrip(".,;") if found else None


def _todo(todo: Any) -> Any:
    """A ``write_todos`` item (``description``, ``status``) as the todo view reads one."""
    if not isinstance(todo, dict):
        return todo
    shown = dict(todo)
    if isinstance(todo.get("description"), str) and "content" not in todo:
        shown["content"] = todo["description"]
    return shown


def description_of(name: str, parameters: Any) -> str | None:
    """A shell call's ``description`` (what the model said the command is for)."""
    if kind_of(name) == "shell" and isinstance(parameters, dict):
        return as_str(parameters.get("description"))
    return None


def error_outcome(error: Any, output: str | None) -> tuple[str, JSONObject]:
    """``(outcome, payload)`` of a ``tool_result`` with ``status: "error"``.

    A call the policy refused (``policy_violation``) or that was cancelled is
    ``rejected``; anything else is an ``error`` with its message and type.
    """
    info: JSONObject = error if isinstance(error, dict) else {}
    message = as_str(info.get("message")) or output or ""
    kind = as_str(info.get("type"))
    lowered = message.lower()
    if (kind or "").lower() in _DENIALS or any(words in lowered for words in _DENIAL_WORDS):
        return "rejected", {"reason": message or "rejected", "type": kind}
    payload: JSONObject = {"message": message or "error"}
    if kind is not None:
        payload["type"] = kind
    if output and output != message:
        payload["output"] = output
    return "error", payload


def _edit_payload(args: JSONObject, text: str) -> JSONObject:
    path = as_str(args.get("path")) or "file"
    payload: JSONObject = {"path": path}
    if text:
        payload["message"] = text.split("\n", 1)[0]
    old, new = args.get("old_string"), args.get("new_string")
    if isinstance(old, str) and isinstance(new, str):
        payload["diffString"], payload["linesAdded"], payload["linesRemoved"] = edit_diff(
            path, [(old, new)]
        )
    elif isinstance(args.get("instruction"), str):
        payload.setdefault("message", args["instruction"])
    return payload


def _read_payload(args: JSONObject, text: str) -> JSONObject:
    """What was read is not streamed: a display line (``Read lines 1-40 of 120``) or
    nothing; text that is not such a line is taken for the file's content."""
    payload: JSONObject = {"path": args.get("path")}
    if text and not _READ_DISPLAY.match(text):
        payload["content"] = text
        return payload
    if text:
        payload["message"] = text
    found = _READ_OF.match(text)
    if found:
        payload["readRange"] = {"startLine": int(found.group(1)), "endLine": int(found.group(2))}
        payload["totalLines"] = int(found.group(3))
    return payload


def _line_starts(text: str, prefix: str, at: int = -1) -> Iterator[int]:
    """Where a line of ``text`` starts with ``prefix``, in order (from ``at``, where
    the caller knows the first is, if it does)."""
    if at < 0:
        at = text.find(prefix)
    while at != -1:
        if at == 0 or text[at - 1] == "\n":
            yield at
        at = text.find(prefix, at + 1)


def shell_parts(text: str) -> tuple[str, str] | None:
    r"""``Output:`` and ``Error:`` of a shell result in debug mode, where the display is
    the text the model reads (``Command:``, ``Directory:``, ``Output:``, ``Error:``,
    ``Exit Code:``... lines), else ``None``.

    What ``re.search(r"^Output: (.*?)\nError: (.*?)\nExit Code: ", text, re.S | re.M)``
    finds, by ``str.find``: the lazy groups made the regex step through the whole
    output a character at a time (34 us for 4 KB). The first ``Output:`` line decides:
    if no ``Error:`` then ``Exit Code:`` line follows it, none follows a later one.
    """
    for start in _line_starts(text, "Output: "):
        error = text.find("\nError: ", start + 8)
        if error == -1:
            return None
        end = text.find("\nExit Code: ", error + 8)
        if end == -1:
            return None
        return text[start + 8 : error], text[error + 8 : end]
    return None


def exit_code(text: str, mark: int = -1) -> int | None:
    r"""The first ``Exit Code: N`` line's N (the rest of the line blank), else ``None``.

    What ``re.search(r"^Exit Code: (-?\d+)\s*$", text, re.M)`` finds, by ``str.find``.
    ``mark``: where ``"\nExit Code: "`` first is, if the caller looked (the line after
    it is then the first such line but the text's own first): one pass fewer over an
    output of kilobytes.
    """
    known = mark >= 0 and not text.startswith("Exit Code: ")
    for start in _line_starts(text, "Exit Code: ", mark + 1 if known else -1):
        begin = start + 11
        digits = begin + 1 if text.startswith("-", begin) else begin
        end = digits
        while end < len(text) and text[end].isdecimal():
            end += 1
        if end == digits:
            continue
        newline = text.find("\n", end)
        rest = text[end:newline] if newline != -1 else text[end:]
        if not rest or rest.isspace():
            return int(text[begin:end])
    return None


def _shell_payload(text: str) -> JSONObject:
    """The command's output; an empty one that failed says ``Command exited with code:
    N``; in debug mode the display is the model's text, with ``Output:`` and ``Exit Code:``."""
    exited = _EXITED.match(text)
    if exited:
        return {"exitCode": int(exited.group(1)), "stdout": ""}
    # Most outputs are spared even the search by a substring test.
    mark = text.find("\nExit Code: ")
    parts = shell_parts(text) if mark != -1 else None
    if parts is None:
        return {"stdout": text}
    out, err = parts
    payload: JSONObject = {"stdout": "" if out == "(empty)" else out}
    if err not in ("(none)", ""):
        payload["stderr"] = err
    code = exit_code(text, mark)
    if code is not None:
        payload["exitCode"] = code
    return payload


def _shell_said(text: str) -> Said:
    """:func:`_shell_payload`'s status, summary and exit code, as :meth:`ToolCall.complete
    <streamview.core.model.ToolCall.complete>` reads them from it, without it (a
    twentieth of a Gemini run's results; their payload is built on demand)."""
    exited = _EXITED.match(text)
    code: int | None
    if exited:
        code, output = int(exited.group(1)), ""
    else:
        mark = text.find("\nExit Code: ")
        parts = shell_parts(text) if mark != -1 else None
        if parts is None:
            code, output = None, text
        else:
            out, err = parts
            # The summary counts the output, else the error's text (tools._summary_shell).
            output = ("" if out == "(empty)" else out) or ("" if err in ("(none)", "") else err)
            code = exit_code(text, mark)
    lines = output_lines(output) if output else None
    said = [f"exit {code}"] if code is not None else []
    if lines is not None:
        said.append(lines)
    status = SUCCEEDED if code is None or code == 0 else FAILED
    return Said(
        "shell", status, ", ".join(said) or None, lambda: _shell_payload(text), (None, None, code)
    )


_SHORT = _Pattern(r"\A(Found \d+ match(?:es)?|No matches found)")


def said(text: str) -> JSONObject:
    """A result that is a display line only: the text, and its summary (the line, or its
    count: "Found 1 match" of "Found 1 match for pattern \"x\" in path \"src\":")."""
    if not text:
        return {}
    short = _SHORT.match(text)
    if short is None or short.group(1) == text.strip():
        return {"message": text}  # the line itself is the summary (tools.summary_of)
    return {"message": text, "summary": short.group(1)}


def success_payload(kind: str, args: JSONObject, text: str) -> JSONObject:
    """The ``success`` payload of a completed call, in its kind's shape.

    Args:
        kind: The call's kind (:func:`kind_of`).
        args: Its arguments (:func:`args_of`).
        text: The ``tool_result``'s ``output`` (the tool's display text), maybe empty.
    """
    if kind == "read":
        return _read_payload(args, text)
    if kind == "write":
        file_text = as_str(args.get("fileText"))
        lines = file_text.count("\n") + (not file_text.endswith("\n")) if file_text else 0
        payload: JSONObject = {"path": args.get("path"), "linesCreated": lines}
        return {**payload, "message": text} if text else payload
    if kind == "edit":
        return _edit_payload(args, text)
    if kind == "shell":
        return _shell_payload(text)
    if kind == "glob":
        found = _FOUND.match(text)
        if found:
            return {"totalFiles": int(found.group(1)), "message": text}
        return {"message": text} if text else {}
    if kind == "webFetch":  # the display line ("Content processed from prompt."), not the page
        return {"url": args.get("url"), **said(text)}
    if kind == "updateTodos":
        todos = args.get("todos")
        payload = {"todos": todos if isinstance(todos, list) else []}
        return {**payload, "message": text} if text else payload
    if kind == "mcp":
        return {"content": [{"text": text}] if text else []}
    if kind in ("grep", "ls"):
        return said(text)
    if kind == "webSearch":
        return {"message": text} if text else {}
    return {"content": text}


def success_said(kind: str, args: JSONObject, text: str) -> Said | None:
    """What :meth:`ToolCall.complete <streamview.core.model.ToolCall.complete>` reads
    from :func:`success_payload`, without building it, for an edit whose old and new
    text have no line in common (``edit_diff``'s one hunk: its lines, counted, not
    written out), a command, a glob, and a read whose text is the file's content (its
    lines): ``None`` for anything else. The fold's fast path only: a view builds
    the payload from the record."""
    if kind == "shell":
        return _shell_said(text)
    if kind == "read":
        if not text or _READ_DISPLAY.match(text):
            return None  # a display line, or nothing: the payload says what it can
        # The file's content (_read_payload's): its lines, as tools' read summary counts.
        lines = plural(text.count("\n") + 1, "line")
        return Said(kind, SUCCEEDED, lines, lambda: success_payload(kind, args, text))
    if kind == "glob":  # the glob summary counts totalFiles, the payload's only number
        found = _FOUND.match(text)
        files = plural(int(found.group(1)), "file") if found else None
        return Said(kind, SUCCEEDED, files, lambda: success_payload(kind, args, text))
    if kind != "edit":
        return None
    old, new = args.get("old_string"), args.get("new_string")
    if old.__class__ is not str or new.__class__ is not str:
        return None
    before, after = old.splitlines(), new.splitlines()
    if not before or not after or not set(before).isdisjoint(after):
        return None
    added, removed = len(after), len(before)
    return Said(
        kind,
        SUCCEEDED,
        f"+{added} -{removed}",
        lambda: success_payload(kind, args, text),
        (added, removed, None),
    )
