"""Google's Gemini CLI, ``gemini -p --output-format stream-json``.

Records (one JSON object a line, each with an ISO ``timestamp``; the CLI's
``packages/core/src/output/types.ts`` defines them):

- ``init``: ``session_id``, ``model``.
- ``message``: ``role`` ``user`` (the prompt) or ``assistant`` (the answer, in chunks
  with ``delta: true``), ``content``.
- ``tool_use``: ``tool_name``, ``tool_id``, ``parameters``; ``tool_result``:
  ``tool_id``, ``status`` (``success``/``error``), ``output``, ``error`` (``type``,
  ``message``).
- ``error``: a warning or error (``severity``, ``message``) that does not end the run.
- ``result``: ``status``, ``error``, ``stats`` (``total_tokens``, ``input_tokens``,
  ``output_tokens``, ``cached``, ``input``, ``duration_ms``, ``tool_calls``).

Calls are correlated by ``tool_id``; Gemini's tools are mapped onto the kinds every
view knows (:data:`KINDS`), any other tool keeps its name and raw parameters.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude_tools import edit_diff
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    ConnectionNotice,
    JSONObject,
    MalformedLine,
    PromptSubmitted,
    RunResult,
    SessionStarted,
    ToolCallEvent,
    UnknownRecord,
)

NAME = "gemini"
KINDS = {
    "read_file": "read",
    "read_many_files": "read",
    "write_file": "write",
    "replace": "edit",
    "edit": "edit",
    "run_shell_command": "shell",
    "search_file_content": "grep",
    "grep": "grep",
    "glob": "glob",
    "list_directory": "ls",
    "web_fetch": "webFetch",
    "google_web_search": "webSearch",
    "write_todos": "updateTodos",
}
"""Gemini CLI's built-in tools as the kinds every view knows."""
_EXIT_CODE = re.compile(r"^Exit Code: (-?\d+)\s*$", re.MULTILINE)
_SHELL_PARTS = re.compile(
    r"^Output: (?P<out>.*?)\nError: (?P<err>.*?)\nExit Code: ", re.DOTALL | re.M
)
"""run_shell_command's result: ``Command:``, ``Directory:``, ``Output:``, ``Error:``,
``Exit Code:``, ``Signal:``... lines; the output and error may span lines."""
_REFUSALS = ("denied", "reject", "cancel", "not allowed", "policy", "declined")


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _time_ms(value: Any) -> int | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except (ValueError, OverflowError):
        return None


def args_of(name: str, parameters: Any) -> JSONObject:
    """A ``tool_use``'s ``parameters`` in the argument shape of the tool's kind."""
    given: JSONObject = dict(parameters) if isinstance(parameters, dict) else {}
    kind = KINDS.get(name)
    path = given.get("file_path", given.get("absolute_path", given.get("dir_path")))
    if kind in ("read", "write", "edit", "ls"):
        if isinstance(path, str):
            given["path"] = path
        elif kind == "ls" and isinstance(given.get("path"), str):
            pass
        if kind == "write" and isinstance(given.get("content"), str):
            given["fileText"] = given.pop("content")
    elif kind == "glob" and isinstance(given.get("pattern"), str):
        given["globPattern"] = given["pattern"]
    elif kind == "webSearch" and isinstance(given.get("query"), str):
        given["searchTerm"] = given["query"]
    elif kind == "webFetch" and "url" not in given:
        urls = re.findall(r"https?://\S+", _str(given.get("prompt")) or "")
        if urls:
            given["url"] = urls[0]
    elif kind == "updateTodos" and isinstance(given.get("todos"), list):
        given["todos"] = [
            {"content": t.get("description"), "status": t.get("status")}
            if isinstance(t, dict)
            else t
            for t in given["todos"]
        ]
    return given


def result_of(kind: str, args: JSONObject, status: Any, output: str, error: Any) -> tuple[str, Any]:
    """``(outcome, payload)`` of a ``tool_result``, as the views read them."""
    if status != "success":
        detail = error if isinstance(error, dict) else {}
        message = _str(detail.get("message")) or output or "failed"
        error_type = _str(detail.get("type")) or ""
        lowered = f"{error_type} {message}".lower()
        if any(word in lowered for word in _REFUSALS):
            return "rejected", {"reason": message}
        return "error", {"message": message, "type": error_type or None}
    if kind == "shell":
        payload: JSONObject = {"stdout": output}
        parts = _SHELL_PARTS.search(output)
        if parts:
            payload["stdout"] = "" if parts["out"] == "(empty)" else parts["out"]
            if parts["err"] not in ("(none)", ""):
                payload["stderr"] = parts["err"]
        match = _EXIT_CODE.search(output)
        if match:
            payload["exitCode"] = int(match.group(1))
        return "success", payload
    if kind == "edit":
        path = _str(args.get("path")) or "file"
        old, new = args.get("old_string"), args.get("new_string")
        payload = {"path": path, "message": output}
        if isinstance(old, str) and isinstance(new, str):
            payload["diffString"], payload["linesAdded"], payload["linesRemoved"] = edit_diff(
                path, [(old, new)]
            )
        return "success", payload
    if kind == "read":
        return "success", {"content": output, "path": args.get("path")}
    if kind == "write":
        text = _str(args.get("fileText")) or ""
        lines = text.count("\n") + (not text.endswith("\n")) if text else 0
        return "success", {"path": args.get("path"), "linesCreated": lines, "message": output}
    if kind == "updateTodos":
        return "success", {"todos": args.get("todos") or [], "message": output}
    if kind == "webFetch":
        return "success", {"url": args.get("url"), "markdown": output}
    return "success", {"message": output} if kind in ("webSearch", "ls", "glob", "grep") else {
        "content": output
    }


class GeminiTranslator:
    """One Gemini CLI stream: its session id and each call's tool."""

    def __init__(self) -> None:
        self._session: str | None = None
        self._calls: dict[str, tuple[str, JSONObject]] = {}

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one Gemini CLI record stands for (see ``Translator``)."""
        kind = record.get("type")
        sid = self._session
        ts = _time_ms(record.get("timestamp"))
        if not isinstance(kind, str):
            reason = "no 'type' field" if kind is None else "'type' is not a string"
            return [MalformedLine(line, sid, ts, recv_ms, reason=reason)]
        events: list[AnyEvent] | None = None
        if kind == "init":
            self._session = sid = _str(record.get("session_id")) or sid
            model = _str(record.get("model"))
            events = [SessionStarted(line, sid, ts, recv_ms, model=model, agent=NAME)]
        elif kind == "message":
            events = self._message(record, line, sid, ts, recv_ms)
        elif kind == "tool_use":
            name = _str(record.get("tool_name")) or "unknown"
            call_id = _str(record.get("tool_id")) or f"<line {line}>"
            args = args_of(name, record.get("parameters"))
            self._calls[call_id] = (name, args)
            events = [
                ToolCallEvent(
                    line,
                    sid,
                    ts,
                    recv_ms,
                    completed=False,
                    call_id=call_id,
                    kind=KINDS.get(name, name),
                    args=args,
                    description=_str(args.get("description")),
                )
            ]
        elif kind == "tool_result":
            call_id = _str(record.get("tool_id")) or f"<line {line}>"
            name, args = self._calls.pop(call_id, ("", {}))
            call_kind = KINDS.get(name, name) if name else "unknown"
            output = _str(record.get("output")) or ""
            outcome, payload = result_of(
                call_kind, args, record.get("status"), output, record.get("error")
            )
            events = [
                ToolCallEvent(
                    line,
                    sid,
                    ts,
                    recv_ms,
                    completed=True,
                    call_id=call_id,
                    kind=call_kind,
                    outcome=outcome,
                    payload=payload,
                )
            ]
        elif kind == "error":
            events = [
                ConnectionNotice(
                    line,
                    sid,
                    ts,
                    recv_ms,
                    type="error",
                    subtype=_str(record.get("severity")) or "",
                    detail=_str(record.get("message")),
                )
            ]
        elif kind == "result":
            events = [self._result(record, line, sid, ts, recv_ms)]
        if not events:
            return [UnknownRecord(line, sid, ts, recv_ms, type=kind, record=record)]
        return events

    def _message(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> list[AnyEvent] | None:
        content = record.get("content")
        if not isinstance(content, str):
            return None
        role = record.get("role")
        if role == "user":
            return [PromptSubmitted(line, sid, ts, recv, text=content)]
        if role == "assistant":
            delta = record.get("delta") is True
            return [AssistantMessage(line, sid, ts, recv, text=content, delta=delta)]
        return None

    def _result(
        self, record: JSONObject, line: int, sid: str | None, ts: int | None, recv: int | None
    ) -> AnyEvent:
        stats = record.get("stats")
        stats = stats if isinstance(stats, dict) else {}
        usage = {
            target: value
            for source, target in (
                ("input_tokens", "inputTokens"),
                ("output_tokens", "outputTokens"),
                ("cached", "cacheReadTokens"),
            )
            if (value := _int(stats.get(source))) is not None
        }
        error = record.get("error")
        error = error if isinstance(error, dict) else {}
        is_error = record.get("status") != "success"
        return RunResult(
            line,
            sid,
            ts,
            recv,
            subtype=(_str(error.get("type")) or "error") if is_error else "success",
            is_error=is_error,
            duration_ms=_int(stats.get("duration_ms")),
            usage=usage or None,
            message=_str(error.get("message")) if is_error else None,
        )


def detect(record: JSONObject) -> bool:
    """Gemini CLI's ``init``, ``message``, ``tool_use`` and ``tool_result`` records, and
    its ``result`` (a ``status`` and no ``subtype``: Cursor's result has one)."""
    kind = record.get("type")
    if kind == "init":
        return "session_id" in record and "model" in record
    if kind == "message":
        return record.get("role") in ("user", "assistant") and "content" in record
    if kind in ("tool_use", "tool_result"):
        return "tool_id" in record
    if kind == "result":
        return "subtype" not in record and record.get("status") in ("success", "error")
    return False


DIALECT = Dialect(name=NAME, label="Gemini CLI", detect=detect, translator=GeminiTranslator)
