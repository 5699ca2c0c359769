"""Builders for synthetic Cursor agent CLI ``--output-format stream-json`` output.

Everything here imitates real captures (``shared/samples/cursor-real/``) byte for
byte in style: the same key names in the same order, ``orjson`` output with no
spaces, ``session_id`` on every record, ``timestamp_ms`` exactly where real builds
put it, ``call_id`` values of both observed shapes (``call_...\\nfc_...`` with a real
newline, and ``tool_<uuid>``), tool calls with their bookkeeping siblings
(``hookAdditionalContexts``, ``toolCallId``, ``startedAtMs``/``completedAtMs`` as
strings) and ``result`` records with ``usage``.

The module has three layers:

* pure record builders (``init_record``, ``assistant_record``,
  ``tool_call_started_record``, ...) that return plain dicts in CLI key order;
* tool payload builders (``read_args``/``read_success``, ``shell_args``/
  ``shell_result``, ``edit_success`` with a real unified diff, ...);
* :class:`Run`, a stateful writer for one CLI invocation that owns a simulated
  clock, ids and the rules for assistant text (segments, token deltas, recaps and
  flushes), and serialises every record as one recording line: the stream-json
  line with ``"streamview_recv_ms":<epoch ms>`` appended as its last key.

On top of that, :class:`FakeProject` and :class:`RandomSession` produce believable
content (a small Python package, pytest runs with ANSI colours, diffs, web results)
for benchmarks. All randomness comes from a caller-supplied ``random.Random``, so
the same seed always yields the same bytes.
"""

from __future__ import annotations

import difflib
import random
import re
import shlex
import string
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

JSON = dict[str, Any]
"""A JSON object as built here: a dict whose insertion order is the output order."""

LineSink = Callable[[bytes], object]
"""Receives each finished recording line, ``\\n`` included (``list.append``, ``file.write``)."""

CallIdStyle = Literal["openai", "tool"]
"""``openai``: ``call_<24>\\nfc_<50 hex>`` (GPT models); ``tool``: ``tool_<uuid>`` (Composer)."""

RECV_KEY = b"streamview_recv_ms"
"""The key a recording appends, last, to every JSON-object line."""

DEFAULT_ENDPOINT = "https://agentn.global.api5.cursor.sh"
"""Backend URL that real ``connection/reconnecting`` records name."""

_ALNUM = string.ascii_letters + string.digits
_B36 = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"


# --------------------------------------------------------------------------------------
# Serialisation
# --------------------------------------------------------------------------------------


def add_recv(line: bytes, recv_ms: int) -> bytes:
    """Append the recording's arrival time to one serialised JSON object.

    Args:
        line: A compact JSON object such as ``orjson.dumps`` returns (no newline).
        recv_ms: Epoch milliseconds at which the line arrived.

    Returns:
        The same object with ``"streamview_recv_ms":recv_ms`` inserted as its last
        key (``{}`` becomes ``{"streamview_recv_ms":N}``).
    """
    if line == b"{}":
        return b'{"streamview_recv_ms":%d}' % recv_ms
    return line[:-1] + b',"streamview_recv_ms":%d}' % recv_ms


def recording_line(record: JSON, recv_ms: int) -> bytes:
    """Serialise a record the way the CLI does and stamp it for a recording.

    Args:
        record: The stream-json record.
        recv_ms: Epoch milliseconds at which the line arrived.

    Returns:
        One recording line, terminated by ``\\n``.
    """
    return add_recv(orjson.dumps(record), recv_ms) + b"\n"


# --------------------------------------------------------------------------------------
# Ids
# --------------------------------------------------------------------------------------


class IdFactory:
    """Deterministic ids shaped like the ones real runs print."""

    def __init__(self, rng: random.Random) -> None:
        """Create a factory.

        Args:
            rng: Source of randomness; the factory never uses global state.
        """
        self.rng = rng
        self._fc_prefix = "".join(rng.choice(_HEX) for _ in range(24))

    def uuid(self) -> str:
        """Return a random version-4 UUID string."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def tool_id(self) -> str:
        """Return a Composer-style id: ``tool_`` + a UUID whose last group has 11 digits."""
        return "tool_" + self.uuid()[:-1]

    def openai_call_id(self) -> str:
        """Return a GPT-style id ``call_<24 alnum>\\nfc_<50 hex>`` with a real newline."""
        head = "".join(self.rng.choice(_ALNUM) for _ in range(24))
        tail = self._fc_prefix + "".join(self.rng.choice(_HEX) for _ in range(26))
        return f"call_{head}\nfc_{tail}"

    def call_id(self, style: CallIdStyle) -> str:
        """Return a call id in the given style."""
        return self.openai_call_id() if style == "openai" else self.tool_id()

    def model_call_id(self, request_id: str, index: int) -> str:
        """Return ``<request_id>-<index>-<4 base36>``, the form real ``model_call_id``\\ s take."""
        suffix = "".join(self.rng.choice(_B36) for _ in range(4))
        return f"{request_id}-{index}-{suffix}"


# --------------------------------------------------------------------------------------
# Text helpers
# --------------------------------------------------------------------------------------

_PIECES = re.compile(r"\s*\S+|\s+")


def split_deltas(text: str, rng: random.Random, *, max_words: int = 3) -> list[str]:
    """Cut text into token-sized fragments the way streamed deltas look.

    Fragments keep their leading whitespace, hold 1 to ``max_words`` words, and long
    words are now and then split inside (``"wh"`` + ``"ispers"``), as real output does.

    Args:
        text: The full text.
        rng: Source of randomness.
        max_words: Most words per fragment.

    Returns:
        Fragments whose concatenation is exactly ``text``.
    """
    pieces = _PIECES.findall(text)
    out: list[str] = []
    i = 0
    n = len(pieces)
    while i < n:
        k = rng.randint(1, max_words)
        chunk = "".join(pieces[i : i + k])
        i += k
        if len(chunk) > 9 and rng.random() < 0.2:
            cut = rng.randint(2, len(chunk) - 2)
            out.append(chunk[:cut])
            out.append(chunk[cut:])
        else:
            out.append(chunk)
    return out


def unified_diff(path: str, before: str | None, after: str, *, context: int = 3) -> str:
    """Build a ``diffString`` as the CLI prints it.

    Headers are ``--- a/<path>`` and ``+++ b/<path>`` (so absolute paths give
    ``a//home/...``), a created file diffs against ``/dev/null``, and the text has no
    trailing newline.

    Args:
        path: Absolute path of the file.
        before: Previous contents, or None for a new file.
        after: New contents.
        context: Lines of context around each hunk.

    Returns:
        The unified diff.
    """
    new_lines = after.splitlines()
    if not before:
        count = "" if len(new_lines) == 1 else f",{len(new_lines)}"
        body = "\n".join("+" + line for line in new_lines)
        return f"--- /dev/null\n+++ b/{path}\n@@ -1,0 +1{count} @@\n{body}"
    diff = difflib.unified_diff(
        before.splitlines(), new_lines, f"a/{path}", f"b/{path}", lineterm="", n=context
    )
    return "\n".join(diff)


def parse_shell(command: str) -> JSON:
    """Approximate the CLI's ``parsingResult`` for a shell command line.

    Args:
        command: The command line.

    Returns:
        A dict with ``simpleCommands`` and ``parsingResult`` in CLI key order.
    """
    lexer = shlex.shlex(command, posix=False, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return {
            "simpleCommands": [],
            "parsingResult": {"parsingFailed": True, "executableCommands": []},
        }
    commands: list[JSON] = []
    current: list[str] = []

    def close() -> None:
        if not current:
            return
        args = [{"type": _arg_type(tok), "value": tok} for tok in current[1:]]
        commands.append({"name": current[0], "args": args, "fullText": " ".join(current)})
        current.clear()

    for tok in tokens:
        if tok in {"|", "||", "&&", ";", "&"}:
            close()
        else:
            current.append(tok)
    close()
    return {
        "simpleCommands": [c["name"] for c in commands],
        "parsingResult": {
            "parsingFailed": False,
            "executableCommands": commands,
            "hasRedirects": False,
            "hasCommandSubstitution": "$(" in command or "`" in command,
            "redirects": [],
        },
    }


def _arg_type(token: str) -> str:
    if re.fullmatch(r"-?\d+(\.\d+)?", token):
        return "number"
    if token.startswith("'"):
        return "raw_string"
    if token.startswith('"'):
        return "string"
    return "word"


# --------------------------------------------------------------------------------------
# Record builders (pure; key order as the CLI prints it)
# --------------------------------------------------------------------------------------


def init_record(
    session_id: str,
    cwd: str,
    model: str,
    *,
    api_key_source: str = "login",
    permission_mode: str = "default",
) -> JSON:
    """Build ``system/init``.

    Args:
        session_id: The session UUID.
        cwd: Absolute working directory.
        model: Display name such as ``Composer 2.5 Fast`` or ``GPT-5 Mini``.
        api_key_source: ``env``, ``flag`` or ``login``.
        permission_mode: ``default``, ``bypassPermissions``, ...

    Returns:
        The record.
    """
    return {
        "type": "system",
        "subtype": "init",
        "apiKeySource": api_key_source,
        "cwd": cwd,
        "session_id": session_id,
        "model": model,
        "permissionMode": permission_mode,
    }


def user_record(session_id: str, text: str) -> JSON:
    """Build the ``user`` record that echoes the prompt."""
    return {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "text", "text": text}]},
        "session_id": session_id,
    }


def assistant_record(
    session_id: str,
    text: str,
    *,
    model_call_id: str | None = None,
    timestamp_ms: int | None = None,
) -> JSON:
    """Build an ``assistant`` record.

    A segment before a tool call (or a recap) carries ``model_call_id`` and
    ``timestamp_ms``; a token delta carries only ``timestamp_ms``; the final segment
    and the end-of-turn flush carry neither.

    Args:
        session_id: The session UUID.
        text: The text of this record.
        model_call_id: Id of the model call the segment belongs to.
        timestamp_ms: Epoch ms.

    Returns:
        The record.
    """
    rec: JSON = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": session_id,
    }
    if model_call_id is not None:
        rec["model_call_id"] = model_call_id
    if timestamp_ms is not None:
        rec["timestamp_ms"] = timestamp_ms
    return rec


def thinking_delta_record(session_id: str, text: str, timestamp_ms: int) -> JSON:
    """Build ``thinking/delta``."""
    return {
        "type": "thinking",
        "subtype": "delta",
        "text": text,
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def thinking_completed_record(session_id: str, timestamp_ms: int) -> JSON:
    """Build ``thinking/completed``, which closes one thinking block."""
    return {
        "type": "thinking",
        "subtype": "completed",
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def tool_call_started_record(
    session_id: str,
    call_id: str,
    kind: str,
    args: JSON,
    *,
    started_at_ms: int,
    timestamp_ms: int,
    model_call_id: str | None,
    description: str | None = None,
) -> JSON:
    """Build ``tool_call/started``.

    Args:
        session_id: The session UUID.
        call_id: Opaque call id (may hold a newline).
        kind: Key of the tool, e.g. ``shellToolCall``.
        args: The tool's arguments.
        started_at_ms: When the tool began, serialised as a string like the CLI.
        timestamp_ms: Epoch ms of the record.
        model_call_id: Model call that asked for the tool (omitted when None).
        description: Shell calls put a ``description`` beside ``args``.

    Returns:
        The record.
    """
    body: JSON = {"args": args}
    if description is not None:
        body["description"] = description
    rec: JSON = {
        "type": "tool_call",
        "subtype": "started",
        "call_id": call_id,
        "tool_call": {
            kind: body,
            "hookAdditionalContexts": [],
            "toolCallId": call_id,
            "startedAtMs": str(started_at_ms),
        },
    }
    if model_call_id is not None:
        rec["model_call_id"] = model_call_id
    rec["session_id"] = session_id
    rec["timestamp_ms"] = timestamp_ms
    return rec


def tool_call_completed_record(
    session_id: str,
    call_id: str,
    kind: str,
    args: JSON | None,
    result: JSON,
    *,
    started_at_ms: int,
    completed_at_ms: int,
    timestamp_ms: int,
    model_call_id: str | None,
    description: str | None = None,
) -> JSON:
    """Build ``tool_call/completed``.

    Args:
        session_id: The session UUID.
        call_id: Opaque call id, the same as on ``started``.
        kind: Key of the tool, e.g. ``readToolCall``.
        args: Arguments, or None to omit them (rejected calls do).
        result: The one-key result union (``success``, ``failure``, ``rejected``,
            ``error``), possibly with siblings such as ``isBackground``.
        started_at_ms: When the tool began.
        completed_at_ms: When it ended.
        timestamp_ms: Epoch ms of the record (real ones precede ``completedAtMs``).
        model_call_id: Model call that asked for the tool (omitted when None).
        description: Shell description beside ``args``/``result``.

    Returns:
        The record.
    """
    body: JSON = {}
    if args is not None:
        body["args"] = args
    body["result"] = result
    if description is not None and args is not None:
        body["description"] = description
    rec: JSON = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": call_id,
        "tool_call": {
            kind: body,
            "hookAdditionalContexts": [],
            "toolCallId": call_id,
            "startedAtMs": str(started_at_ms),
            "completedAtMs": str(completed_at_ms),
        },
    }
    if model_call_id is not None:
        rec["model_call_id"] = model_call_id
    rec["session_id"] = session_id
    rec["timestamp_ms"] = timestamp_ms
    return rec


def response_type_for(query_type: str) -> str:
    """Map a query type to its response key (``webFetchRequestQuery`` -> ``...Response``)."""
    return query_type.removesuffix("Query") + "Response"


def interaction_request_record(
    session_id: str, query_type: str, query_id: int, body: JSON, timestamp_ms: int
) -> JSON:
    """Build ``interaction_query/request`` (an approval prompt).

    Args:
        session_id: The session UUID.
        query_type: E.g. ``webFetchRequestQuery`` or ``askQuestionInteractionQuery``.
        query_id: Sequence number of the query within the run.
        body: Value stored under ``query[query_type]``.
        timestamp_ms: Epoch ms.

    Returns:
        The record.
    """
    return {
        "type": "interaction_query",
        "subtype": "request",
        "query_type": query_type,
        "query": {"id": query_id, query_type: body},
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def interaction_response_record(
    session_id: str, query_type: str, query_id: int, body: JSON, timestamp_ms: int
) -> JSON:
    """Build ``interaction_query/response``.

    Args:
        session_id: The session UUID.
        query_type: The request's query type.
        query_id: The request's id.
        body: E.g. ``{"approved": {}}`` or ``{"rejected": {"reason": "User Rejected"}}``.
        timestamp_ms: Epoch ms.

    Returns:
        The record.
    """
    return {
        "type": "interaction_query",
        "subtype": "response",
        "query_type": query_type,
        "response": {"id": query_id, response_type_for(query_type): body},
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
    }


def connection_reconnecting_record(
    session_id: str, timestamp_ms: int, attempt: int, endpoint_url: str = DEFAULT_ENDPOINT
) -> JSON:
    """Build ``connection/reconnecting``: the CLI lost its backend."""
    return {
        "type": "connection",
        "subtype": "reconnecting",
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
        "attempt": attempt,
        "endpoint_url": endpoint_url,
    }


def retry_starting_record(
    session_id: str, timestamp_ms: int, attempt: int, *, is_resume: bool = True
) -> JSON:
    """Build ``retry/starting``: the CLI resumes after a lost connection."""
    return {
        "type": "retry",
        "subtype": "starting",
        "session_id": session_id,
        "timestamp_ms": timestamp_ms,
        "attempt": attempt,
        "is_resume": is_resume,
    }


def usage_dict(
    input_tokens: int, output_tokens: int, cache_read_tokens: int, cache_write_tokens: int = 0
) -> JSON:
    """Build the cumulative ``usage`` object of a result."""
    return {
        "inputTokens": input_tokens,
        "outputTokens": output_tokens,
        "cacheReadTokens": cache_read_tokens,
        "cacheWriteTokens": cache_write_tokens,
    }


def result_record(
    session_id: str,
    *,
    duration_ms: int,
    result: str,
    request_id: str,
    usage: JSON | None,
    duration_api_ms: int | None = None,
    is_error: bool = False,
) -> JSON:
    """Build ``result/success``, the record that ends a turn.

    Args:
        session_id: The session UUID.
        duration_ms: Wall time of the run.
        result: All assistant text concatenated with no separator.
        request_id: UUID of the request (the prefix of every ``model_call_id``).
        usage: Cumulative usage, or None for older builds that had none.
        duration_api_ms: Defaults to ``duration_ms``, as real builds print.
        is_error: Never true in captures, but the field exists.

    Returns:
        The record.
    """
    rec: JSON = {
        "type": "result",
        "subtype": "success",
        "duration_ms": duration_ms,
        "duration_api_ms": duration_ms if duration_api_ms is None else duration_api_ms,
        "is_error": is_error,
        "result": result,
        "session_id": session_id,
        "request_id": request_id,
    }
    if usage is not None:
        rec["usage"] = usage
    return rec


# --------------------------------------------------------------------------------------
# Tool payloads: args and results per kind
# --------------------------------------------------------------------------------------


def read_args(path: str, *, offset: int | None = None, limit: int | None = None) -> JSON:
    """Args of ``readToolCall``."""
    args: JSON = {"path": path}
    if offset is not None:
        args["offset"] = offset
    if limit is not None:
        args["limit"] = limit
    return args


def read_success(
    path: str, content: str, *, start_line: int = 1, exceeded_limit: bool = False
) -> JSON:
    """Result of a successful read (``totalLines`` counts like the CLI: newlines + 1).

    Args:
        path: Absolute path.
        content: The text returned.
        start_line: First line returned.
        exceeded_limit: Whether the file was cut.

    Returns:
        The ``{"success": ...}`` union.
    """
    total = content.count("\n") + 1
    return {
        "success": {
            "content": content,
            "isEmpty": not content,
            "exceededLimit": exceeded_limit,
            "totalLines": total,
            "fileSize": len(content.encode()),
            "path": path,
            "readRange": {"startLine": start_line, "endLine": start_line + total - 1},
            "relatedCursorRulePaths": [],
            "relatedCursorRules": [],
        }
    }


def write_args(path: str, file_text: str, tool_call_id: str) -> JSON:
    """Args of ``writeToolCall`` (vendor page form)."""
    return {"path": path, "fileText": file_text, "toolCallId": tool_call_id}


def write_success(path: str, file_text: str) -> JSON:
    """Result of ``writeToolCall``."""
    return {
        "success": {
            "path": path,
            "linesCreated": file_text.count("\n") + (0 if file_text.endswith("\n") else 1),
            "fileSize": len(file_text.encode()),
        }
    }


def edit_args(path: str, after: str) -> JSON:
    """Args of ``editToolCall``: ``streamContent`` is the new text without its final newline."""
    return {"path": path, "streamContent": after.removesuffix("\n")}


def edit_success(path: str, before: str | None, after: str) -> JSON:
    """Result of ``editToolCall`` with a unified diff and both full contents.

    Args:
        path: Absolute path.
        before: Previous contents, or None when the edit creates the file.
        after: New contents.

    Returns:
        The ``{"success": ...}`` union.
    """
    diff = unified_diff(path, before, after)
    added = sum(1 for ln in diff.split("\n") if ln.startswith("+") and not ln.startswith("+++"))
    removed = sum(1 for ln in diff.split("\n") if ln.startswith("-") and not ln.startswith("---"))
    body: JSON = {
        "path": path,
        "linesAdded": added,
        "linesRemoved": removed,
        "diffString": diff,
    }
    if before:
        body["beforeFullFileContent"] = before
        body["afterFullFileContent"] = after
        body["message"] = f"The file {path} has been updated."
    else:
        body["afterFullFileContent"] = after
        body["message"] = f"Wrote contents to {path}"
    return {"success": body}


def shell_args(
    command: str,
    *,
    tool_call_id: str,
    conversation_id: str,
    request_id: str,
    description: str,
    timeout: int = 30000,
    working_directory: str = "",
) -> JSON:
    """Args of ``shellToolCall`` as 2026.09 builds print them.

    Args:
        command: The command line.
        tool_call_id: The call id (repeated inside args).
        conversation_id: The session id.
        request_id: The request id.
        description: The model's one-line description.
        timeout: Milliseconds.
        working_directory: Usually empty (the workspace).

    Returns:
        The args dict.
    """
    parsed = parse_shell(command)
    return {
        "command": command,
        "workingDirectory": working_directory,
        "timeout": timeout,
        "toolCallId": tool_call_id,
        "simpleCommands": parsed["simpleCommands"],
        "hasInputRedirect": False,
        "hasOutputRedirect": False,
        "parsingResult": parsed["parsingResult"],
        "fileOutputThresholdBytes": "40000",
        "isBackground": False,
        "skipApproval": False,
        "timeoutBehavior": "TIMEOUT_BEHAVIOR_BACKGROUND",
        "hardTimeout": 86400000,
        "description": description,
        "closeStdin": True,
        "conversationId": conversation_id,
        "adminCommandDenylist": [],
        "requestId": request_id,
    }


def shell_result(
    command: str,
    *,
    exit_code: int,
    stdout: str,
    stderr: str = "",
    interleaved: str | None = None,
    execution_time: int,
    working_directory: str = "",
) -> JSON:
    """Result of a shell call: ``success`` for exit 0, else ``failure`` (same fields).

    Args:
        command: The command line.
        exit_code: Process exit code.
        stdout: Captured stdout (may hold ``\\r\\n`` and ANSI escapes).
        stderr: Captured stderr.
        interleaved: stdout and stderr in arrival order; defaults to stdout + stderr.
        execution_time: Milliseconds.
        working_directory: As in the args.

    Returns:
        The result union with its ``isBackground`` sibling.
    """
    body = {
        "command": command,
        "workingDirectory": working_directory,
        "exitCode": exit_code,
        "signal": "",
        "stdout": stdout,
        "stderr": stderr,
        "executionTime": execution_time,
        "interleavedOutput": stdout + stderr if interleaved is None else interleaved,
        "localExecutionTimeMs": max(1, execution_time - 180),
    }
    return {"success" if exit_code == 0 else "failure": body, "isBackground": False}


def shell_rejected(command: str, cwd: str, reason: str = "") -> JSON:
    """Result of a shell call the user or policy denied (the reason is often empty)."""
    return {
        "rejected": {
            "command": command,
            "workingDirectory": cwd,
            "reason": reason,
            "isReadonly": False,
        }
    }


def rejected(reason: str = "User Rejected") -> JSON:
    """Generic ``rejected`` union used by web fetch, web search and others."""
    return {"rejected": {"reason": reason}}


def error_result(message: str, *, path: str | None = None, key: str = "error") -> JSON:
    """An ``error`` union: ``{path, error}``, ``{error}`` or ``{message}``.

    Args:
        message: The error text.
        path: Adds ``path`` first when given.
        key: ``error`` or ``message``.

    Returns:
        The union.
    """
    body: JSON = {}
    if path is not None:
        body["path"] = path
    body[key] = message
    return {"error": body}


def ls_args(path: str, ignore: Sequence[str] = ()) -> JSON:
    """Args of ``lsToolCall``."""
    return {"path": path, "ignore": list(ignore)}


def ls_tree(abs_path: str, files: Sequence[str], dirs: Sequence[JSON] = ()) -> JSON:
    """One ``directoryTreeRoot`` node.

    Args:
        abs_path: The directory.
        files: Names of the files directly inside.
        dirs: Child nodes built by this function.

    Returns:
        The node, with recursive file counts and extension counts.
    """
    counts: dict[str, int] = {}
    for name in files:
        ext = "." + name.rsplit(".", 1)[1] if "." in name else ""
        counts[ext] = counts.get(ext, 0) + 1
    total = len(files)
    for d in dirs:
        total += d["numFiles"]
        for ext, n in d["fullSubtreeExtensionCounts"].items():
            counts[ext] = counts.get(ext, 0) + n
    return {
        "absPath": abs_path,
        "childrenDirs": list(dirs),
        "childrenFiles": [{"name": n} for n in files],
        "childrenWereProcessed": True,
        "fullSubtreeExtensionCounts": counts,
        "numFiles": total,
    }


def ls_success(tree: JSON) -> JSON:
    """Result of ``lsToolCall``."""
    return {"success": {"directoryTreeRoot": tree}}


def glob_args(pattern: str, target_directory: str | None = None) -> JSON:
    """Args of ``globToolCall``."""
    args: JSON = {"globPattern": pattern}
    if target_directory is not None:
        args["targetDirectory"] = target_directory
    return args


def glob_success(files: Sequence[str]) -> JSON:
    """Result of ``globToolCall`` (real builds leave ``pattern``/``path`` empty)."""
    return {
        "success": {
            "pattern": "",
            "path": "",
            "files": list(files),
            "totalFiles": len(files),
            "clientTruncated": False,
            "ripgrepTruncated": False,
        }
    }


def grep_args(
    pattern: str, path: str, *, glob: str | None = None, output_mode: str = "content"
) -> JSON:
    """Args of ``grepToolCall``."""
    args: JSON = {"pattern": pattern, "path": path}
    if glob is not None:
        args["glob"] = glob
    args["outputMode"] = output_mode
    args["caseInsensitive"] = False
    args["multiline"] = False
    return args


def grep_success(
    pattern: str, path: str, hits: Sequence[tuple[str, Sequence[tuple[int, str, bool]]]]
) -> JSON:
    """Result of ``grepToolCall`` in content mode.

    Args:
        pattern: The regex.
        path: The searched directory (the key of ``workspaceResults``).
        hits: Per file, ``(line_number, text, is_context_line)`` tuples.

    Returns:
        The ``{"success": ...}`` union.
    """
    matches = [
        {
            "file": f,
            "matches": [
                {
                    "lineNumber": n,
                    "content": text,
                    "contentTruncated": False,
                    "isContextLine": ctx,
                }
                for n, text, ctx in lines
            ],
        }
        for f, lines in hits
    ]
    total = sum(len(lines) for _, lines in hits)
    matched = sum(1 for _, lines in hits for _, _, ctx in lines if not ctx)
    return {
        "success": {
            "pattern": pattern,
            "path": path,
            "outputMode": "content",
            "workspaceResults": {
                path: {
                    "content": {
                        "matches": matches,
                        "totalLines": total,
                        "totalMatchedLines": matched,
                        "clientTruncated": False,
                        "ripgrepTruncated": False,
                    }
                }
            },
        }
    }


def delete_args(path: str, tool_call_id: str) -> JSON:
    """Args of ``deleteToolCall``."""
    return {"path": path, "toolCallId": tool_call_id}


def delete_success(path: str, size: int) -> JSON:
    """Result of ``deleteToolCall``."""
    return {
        "success": {
            "path": path,
            "deletedFile": path,
            "fileSize": size,
            "message": f"Deleted {path}",
        }
    }


TODO_STATUS = {
    "pending": "TODO_STATUS_PENDING",
    "in_progress": "TODO_STATUS_IN_PROGRESS",
    "completed": "TODO_STATUS_COMPLETED",
    "cancelled": "TODO_STATUS_CANCELLED",
}
"""Short names to the enum strings the CLI prints."""


def todos(items: Iterable[tuple[str, str, str]]) -> list[JSON]:
    """Build todo items from ``(id, content, status)`` with short status names."""
    return [
        {"id": i, "content": c, "status": TODO_STATUS[s], "dependencies": []} for i, c, s in items
    ]


def update_todos_args(items: list[JSON], *, merge: bool) -> JSON:
    """Args of ``updateTodosToolCall``."""
    return {"todos": items, "merge": merge}


def update_todos_success(items: list[JSON]) -> JSON:
    """Result of ``updateTodosToolCall``."""
    return {"success": {"todos": items, "totalCount": len(items), "wasMerge": False}}


def mcp_args(provider: str, tool: str, args: JSON, tool_call_id: str) -> JSON:
    """Args of ``mcpToolCall`` (``name`` is ``<provider>-<tool>``)."""
    return {
        "name": f"{provider}-{tool}",
        "args": args,
        "toolCallId": tool_call_id,
        "providerIdentifier": provider,
        "toolName": tool,
    }


def mcp_success(texts: Sequence[str], *, is_error: bool = False) -> JSON:
    """Result of ``mcpToolCall``: ``content[]`` of ``{text: {text}}`` items."""
    return {"success": {"content": [{"text": {"text": t}} for t in texts], "isError": is_error}}


def web_fetch_args(url: str, tool_call_id: str) -> JSON:
    """Args of ``webFetchToolCall``."""
    return {"url": url, "toolCallId": tool_call_id}


def web_fetch_success(url: str, markdown: str) -> JSON:
    """Result of ``webFetchToolCall``."""
    return {"success": {"url": url, "markdown": markdown}}


def web_search_args(term: str, tool_call_id: str) -> JSON:
    """Args of ``webSearchToolCall``."""
    return {"searchTerm": term, "toolCallId": tool_call_id}


def web_search_success(refs: Sequence[tuple[str, str, str]]) -> JSON:
    """Result of ``webSearchToolCall`` from ``(title, url, chunk)`` triples."""
    return {"success": {"references": [{"title": t, "url": u, "chunk": c} for t, u, c in refs]}}


def sem_search_args(query: str, target_directories: Sequence[str], explanation: str) -> JSON:
    """Args of ``semSearchToolCall``."""
    return {
        "query": query,
        "targetDirectories": list(target_directories),
        "explanation": explanation,
    }


def sem_search_success(hits: Sequence[tuple[str, int, int, str]]) -> JSON:
    """Result of ``semSearchToolCall`` from ``(relative path, start, end, code)`` hits."""
    results = "\n\n".join(f"{p}:{s}-{e}\n{code}" for p, s, e, code in hits)
    code_results = [
        {
            "codeBlock": {
                "relativeWorkspacePath": p,
                "range": {
                    "startPosition": {"line": s, "column": 1},
                    "endPosition": {"line": e, "column": 1},
                },
                "contents": code,
            },
            "score": round(0.9 - 0.07 * i, 4),
        }
        for i, (p, s, e, code) in enumerate(hits)
    ]
    return {"success": {"results": results, "codeResults": code_results}}


def ask_question_args(title: str, questions: list[JSON]) -> JSON:
    """Args of ``askQuestionToolCall``."""
    return {
        "title": title,
        "questions": questions,
        "runAsync": False,
        "asyncOriginalToolCallId": "",
    }


ASK_SKIPPED = "Questions skipped by the user, continue with the information you already have"
"""Reason print mode gives when it auto-rejects ``askQuestion``."""


# --------------------------------------------------------------------------------------
# Run: one CLI invocation with a clock
# --------------------------------------------------------------------------------------


@dataclass
class ToolCall:
    """A tool call between its ``started`` and ``completed`` records."""

    call_id: str
    """Opaque id shared by both records."""
    kind: str
    """Key ending in ``ToolCall``."""
    args: JSON
    """Arguments, repeated in ``completed`` unless the call was rejected."""
    started_at_ms: int
    """Value of ``startedAtMs``."""
    model_call_id: str | None
    """Model call that asked for it."""
    description: str | None = None
    """Shell description beside ``args``."""


@dataclass
class Usage:
    """Running token counts for the result's ``usage``."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    context_tokens: int = 0


@dataclass
class Run:
    """Writes one CLI invocation (one ``session_id``) as recording lines.

    The run keeps a simulated CLI clock, ``now`` (epoch ms), that only moves forward.
    Every record is stamped with ``streamview_recv_ms`` a few ms after the CLI time it
    describes, never earlier than the previous line, so arrival times are
    non-decreasing and consistent with ``timestamp_ms``.
    """

    rng: random.Random
    """All randomness (ids, pacing, latency)."""
    sink: LineSink
    """Where finished lines go."""
    start_ms: int
    """CLI clock at ``init``."""
    cwd: str = "/home/dev/src/tidepool"
    """Workspace directory."""
    model: str = "Composer 2.5 Fast"
    """Display name in ``init``."""
    partial: bool = False
    """Whether the run used ``--stream-partial-output``."""
    call_id_style: CallIdStyle = "tool"
    """Shape of the call ids."""
    permission_mode: str = "default"
    """``permissionMode`` in ``init``."""
    with_usage: bool = True
    """Whether ``result`` carries ``usage`` (newer builds)."""
    token_gap_ms: tuple[int, int] = (0, 30)
    """Range of milliseconds between two token deltas."""
    ids: IdFactory = field(init=False)
    session_id: str = field(init=False)
    request_id: str = field(init=False)
    now: int = field(init=False)
    last_recv: int = field(init=False)
    count: int = field(init=False, default=0)
    segments: list[str] = field(init=False, default_factory=list)
    usage: Usage = field(init=False, default_factory=Usage)
    _model_calls: int = field(init=False, default=0)
    _query_ids: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        """Draw the session and request ids and set the clocks."""
        self.ids = IdFactory(self.rng)
        self.session_id = self.ids.uuid()
        self.request_id = self.ids.uuid()
        self.now = self.start_ms
        self.last_recv = self.start_ms

    # -- plumbing ----------------------------------------------------------------------

    def emit(self, record: JSON, at: int | None = None) -> None:
        """Write one record.

        Args:
            record: The stream-json record.
            at: CLI time the record describes; defaults to ``now``.
        """
        moment = self.now if at is None else at
        recv = max(self.last_recv, moment + self.rng.randint(0, 3))
        self.last_recv = recv
        self.count += 1
        self.sink(recording_line(record, recv))

    def wait(self, ms: int) -> None:
        """Advance the CLI clock (silence, model latency, a running tool)."""
        self.now += max(0, ms)

    def model_call(self) -> str:
        """Start a new model call and return its ``model_call_id``."""
        mcid = self.ids.model_call_id(self.request_id, self._model_calls)
        self._model_calls += 1
        self.usage.input_tokens += 1200 + self.usage.context_tokens // 6
        self.usage.cache_read_tokens += self.usage.context_tokens
        return mcid

    # -- records -----------------------------------------------------------------------

    def init(self) -> None:
        """Emit ``system/init``."""
        self.emit(
            init_record(self.session_id, self.cwd, self.model, permission_mode=self.permission_mode)
        )

    def user(self, prompt: str) -> None:
        """Emit the ``user`` record."""
        self.wait(self.rng.randint(1, 6))
        self.emit(user_record(self.session_id, prompt))
        self.usage.input_tokens += 6000 + len(prompt) // 4
        self.usage.context_tokens += 8000 + len(prompt) // 4

    def think(self, text: str, *, max_words: int = 3, gap_ms: tuple[int, int] = (0, 8)) -> None:
        """Emit one thinking block: deltas, then ``thinking/completed``.

        Args:
            text: The whole thinking text.
            max_words: Most words per delta.
            gap_ms: Range of ms between deltas.
        """
        for piece in split_deltas(text, self.rng, max_words=max_words):
            self.wait(self.rng.randint(*gap_ms))
            self.emit(thinking_delta_record(self.session_id, piece, self.now))
        self.wait(self.rng.randint(0, 20))
        self.emit(thinking_completed_record(self.session_id, self.now))
        self.usage.output_tokens += len(text) // 4 + 1

    def say(self, text: str, *, model_call_id: str | None, max_words: int = 2) -> None:
        """Emit one assistant segment by the rules of the run's mode.

        Without partial output: one record; before a tool call (``model_call_id``
        given) it carries ``model_call_id`` and ``timestamp_ms``, the final one
        neither. With partial output: token deltas with ``timestamp_ms``, then a recap
        (``model_call_id`` + ``timestamp_ms``) before a tool call, or a flush (neither)
        at the end of the turn.

        Args:
            text: The segment's text.
            model_call_id: Model call of a segment that precedes tool calls; None for
                the final answer.
            max_words: Most words per delta.
        """
        self.segments.append(text)
        self.usage.output_tokens += len(text) // 4 + 1
        self.usage.context_tokens += len(text) // 4
        sid = self.session_id
        if self.partial:
            for piece in split_deltas(text, self.rng, max_words=max_words):
                self.wait(self.rng.randint(*self.token_gap_ms))
                self.emit(assistant_record(sid, piece, timestamp_ms=self.now))
        else:
            lo, hi = self.token_gap_ms
            self.wait(len(text) // 4 * (lo + hi) // 2)
        if model_call_id is not None:
            self.wait(self.rng.randint(0, 3))
            self.emit(
                assistant_record(sid, text, model_call_id=model_call_id, timestamp_ms=self.now)
            )
        else:
            self.wait(self.rng.randint(20, 400))
            self.emit(assistant_record(sid, text))

    def start_tool(
        self,
        kind: str,
        args: JSON,
        *,
        model_call_id: str | None,
        call_id: str | None = None,
        description: str | None = None,
        emit: bool = True,
    ) -> ToolCall:
        """Emit ``tool_call/started`` (or only open the call when ``emit`` is False).

        The record's ``timestamp_ms`` is the model's decision time (``now``); the tool
        itself starts some tens of ms later (``startedAtMs``), as in real output.

        Args:
            kind: Tool key, e.g. ``grepToolCall``.
            args: Arguments.
            model_call_id: Model call that asked for the tool.
            call_id: Use this id instead of drawing one.
            description: Shell description beside ``args``.
            emit: False for a call whose ``started`` never appears (a denied search).

        Returns:
            The open call.
        """
        cid = call_id or self.ids.call_id(self.call_id_style)
        call = ToolCall(
            cid, kind, args, self.now + self.rng.randint(14, 210), model_call_id, description
        )
        if emit:
            self.emit(
                tool_call_started_record(
                    self.session_id,
                    cid,
                    kind,
                    args,
                    started_at_ms=call.started_at_ms,
                    timestamp_ms=self.now,
                    model_call_id=model_call_id,
                    description=description,
                )
            )
        return call

    def finish_tool(
        self, call: ToolCall, result: JSON, *, duration_ms: int, include_args: bool = True
    ) -> None:
        """Emit ``tool_call/completed`` after the tool ran for ``duration_ms``.

        Args:
            call: The open call.
            result: The result union.
            duration_ms: How long the tool ran.
            include_args: False to omit ``args`` (rejected calls do).
        """
        completed = max(call.started_at_ms + duration_ms, self.now)
        stamp = max(call.started_at_ms, completed - self.rng.randint(2, 200))
        self.now = max(self.now, completed)
        self.emit(
            tool_call_completed_record(
                self.session_id,
                call.call_id,
                call.kind,
                call.args if include_args else None,
                result,
                started_at_ms=call.started_at_ms,
                completed_at_ms=completed,
                timestamp_ms=stamp,
                model_call_id=call.model_call_id,
                description=call.description,
            ),
            at=completed,
        )
        self.usage.context_tokens += min(len(orjson.dumps(result)) // 4, 12000)

    def tool(
        self,
        kind: str,
        args: JSON,
        result: JSON,
        *,
        model_call_id: str | None,
        duration_ms: int,
        description: str | None = None,
    ) -> ToolCall:
        """Emit a whole sequential tool call: ``started``, the wait, ``completed``."""
        call = self.start_tool(kind, args, model_call_id=model_call_id, description=description)
        self.finish_tool(call, result, duration_ms=duration_ms)
        return call

    def ask(self, query_type: str, body: JSON, response: JSON, *, delay_ms: int = 1) -> int:
        """Emit an ``interaction_query`` request/response pair.

        Args:
            query_type: E.g. ``webFetchRequestQuery``.
            body: The query payload.
            response: E.g. ``{"approved": {}}``.
            delay_ms: Time the user (or policy) took to answer.

        Returns:
            The query id used.
        """
        qid = self._query_ids
        self._query_ids += 1
        self.emit(interaction_request_record(self.session_id, query_type, qid, body, self.now))
        self.wait(delay_ms)
        self.emit(interaction_response_record(self.session_id, query_type, qid, response, self.now))
        return qid

    def reconnect(self, attempts: int = 1, *, resume: bool = True) -> None:
        """Emit a lost connection: ``connection/reconnecting`` then ``retry/starting``.

        Args:
            attempts: How many reconnect attempts to show.
            resume: Emit ``retry/starting`` after the last attempt.
        """
        for attempt in range(1, attempts + 1):
            self.emit(connection_reconnecting_record(self.session_id, self.now, attempt))
            self.wait(self.rng.randint(900, 2600) * attempt)
        if resume:
            self.emit(retry_starting_record(self.session_id, self.now, attempts))

    def result(self) -> None:
        """Emit ``result/success`` with the concatenated text and cumulative usage."""
        self.wait(self.rng.randint(5, 60))
        u = self.usage
        usage = (
            usage_dict(u.input_tokens, u.output_tokens, u.cache_read_tokens)
            if self.with_usage
            else None
        )
        self.emit(
            result_record(
                self.session_id,
                duration_ms=self.now - self.start_ms + self.rng.randint(300, 1500),
                result="".join(self.segments),
                request_id=self.request_id,
                usage=usage,
            )
        )


# --------------------------------------------------------------------------------------
# Content: a fake Python project
# --------------------------------------------------------------------------------------

VERBS = (
    "load",
    "parse",
    "flush",
    "schedule",
    "retry",
    "compute",
    "render",
    "resolve",
    "merge",
    "validate",
    "normalize",
    "acquire",
    "release",
    "drain",
    "encode",
    "decode",
    "emit",
    "collect",
    "refresh",
    "split",
    "apply",
    "dispatch",
    "lookup",
)


IRREGULAR = {"split": "split", "emit": "emitted", "lookup": "looked up", "setup": "set up"}


def past_participle(verb: str) -> str:
    """``load`` -> ``loaded``, ``parse`` -> ``parsed``, ``retry`` -> ``retried``,
    ``lookup`` -> ``looked up``: English, not ``verb + "ed"``."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


NOUNS = (
    "job",
    "queue",
    "backoff",
    "token",
    "window",
    "batch",
    "lease",
    "worker",
    "bucket",
    "deadline",
    "payload",
    "record",
    "cursor",
    "snapshot",
    "config",
    "session",
    "handler",
    "offset",
    "checkpoint",
    "jitter",
    "span",
    "ledger",
)
TYPES = (
    "int",
    "float",
    "str",
    "bytes",
    "Job",
    "Lease",
    "Batch",
    "Sequence[Job]",
    "Mapping[str, str]",
    "datetime",
    "timedelta",
    "Path",
)
MODULES = (
    "scheduler",
    "backoff",
    "queue",
    "lease",
    "worker",
    "clock",
    "config",
    "storage",
    "retry",
    "metrics",
    "cli",
    "http",
    "codec",
    "ratelimit",
    "events",
    "pool",
    "router",
    "auth",
    "cache",
    "tracing",
    "timeouts",
    "shutdown",
    "sinks",
    "heartbeat",
    "registry",
    "dedupe",
    "windows",
    "leases_sql",
    "webhooks",
    "admin",
)

_FUNC_TEMPLATES = (
    '''def {name}({arg}: {typ}, *, timeout: float = {num}.0) -> {ret}:
    """{Doc} the {noun} within ``timeout`` seconds.

    Args:
        {arg}: The {noun} to work on.
        timeout: Seconds before giving up.

    Returns:
        The {noun2} that was produced.
    """
    deadline = clock.monotonic() + timeout
    while clock.monotonic() < deadline:
        result = _{name}_once({arg})
        if result is not None:
            return result
        clock.sleep(min(0.05 * {num}, deadline - clock.monotonic()))
    raise TimeoutError(f"{name} timed out after {{timeout:.1f}}s")
''',
    '''def {name}({arg}: {typ}) -> {ret}:
    """{Doc} one {noun} and return the matching {noun2}."""
    if not {arg}:
        raise ValueError("{arg} must not be empty")
    key = _key_for({arg})
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            return cached
        value = _CACHE[key] = _build_{noun2}({arg}, limit={num})
    log.debug("{name}: %s -> %r", key, value)
    return value
''',
    '''async def {name}({arg}: {typ}, retries: int = {num}) -> {ret}:
    """{Doc} the {noun}, retrying with exponential backoff."""
    delay = BASE_DELAY
    for attempt in range(1, retries + 1):
        try:
            return await _client.{name}({arg})
        except TransientError as exc:
            log.warning("attempt %d/%d failed: %s", attempt, retries, exc)
            await asyncio.sleep(delay + random.uniform(0, delay / 2))
            delay = min(delay * 2, MAX_DELAY)
    raise RetryExhausted({arg})
''',
)

_CLASS_TEMPLATE = '''@dataclass(frozen=True)
class {Cls}:
    """A {noun} tracked by the {mod} module."""

    {field1}: {typ}
    {field2}: int = {num}
    created_at: float = field(default_factory=clock.time)

    def expired(self, now: float | None = None) -> bool:
        """Return True once the {noun} is older than ``{field2}`` seconds."""
        current = clock.time() if now is None else now
        return current - self.created_at > self.{field2}
'''


def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


@dataclass
class SourceFile:
    """One file of the fake project."""

    rel: str
    """Path relative to the workspace."""
    text: str
    """Contents."""


class FakeProject:
    """A believable Python package (``tidepool``) whose files feed tool results."""

    def __init__(
        self, rng: random.Random, cwd: str = "/home/dev/src/tidepool", n_modules: int = 24
    ) -> None:
        """Generate the project.

        Args:
            rng: Source of randomness.
            cwd: Workspace directory.
            n_modules: How many source modules to invent.
        """
        self.rng = rng
        self.cwd = cwd
        self.files: list[SourceFile] = []
        for i in range(n_modules):
            mod = MODULES[i % len(MODULES)] + ("" if i < len(MODULES) else f"_v{i // len(MODULES)}")
            self.files.append(SourceFile(f"src/tidepool/{mod}.py", self.module(mod)))
            if i % 2 == 0:
                self.files.append(SourceFile(f"tests/test_{mod}.py", self.test_module(mod)))
        self.n_original = len(self.files)

    def add(self, new: SourceFile, *, limit: int = 64) -> None:
        """Add or replace a file, keeping the project to at most ``limit`` files."""
        self.files = [f for f in self.files if f.rel != new.rel]
        if len(self.files) >= limit:
            del self.files[self.rng.randrange(self.n_original, len(self.files))]
        self.files.append(new)

    def abs(self, rel: str) -> str:
        """Absolute path of a workspace-relative path."""
        return f"{self.cwd}/{rel}"

    def func_name(self) -> str:
        """A plausible function name."""
        return f"{self.rng.choice(VERBS)}_{self.rng.choice(NOUNS)}"

    def function(self, name: str | None = None) -> str:
        """Source of one function."""
        r = self.rng
        noun = r.choice(NOUNS)
        name = name or f"{r.choice(VERBS)}_{noun}"
        return r.choice(_FUNC_TEMPLATES).format(
            name=name,
            arg=noun,
            typ=r.choice(TYPES),
            ret=r.choice(TYPES),
            num=r.randint(2, 30),
            Doc=_cap(r.choice(VERBS)),
            noun=noun,
            noun2=r.choice(NOUNS),
        )

    def module(self, mod: str, n_funcs: int | None = None) -> str:
        """Source of one module (roughly 2-8 KB)."""
        r = self.rng
        header = (
            f'"""{_cap(mod)} helpers for tidepool: '
            f'{r.choice(NOUNS)}s and {r.choice(NOUNS)}s."""\n\n'
            "from __future__ import annotations\n\nimport asyncio\nimport logging\n"
            "import random\nimport threading\nfrom collections.abc import Mapping, Sequence\n"
            "from dataclasses import dataclass, field\n\nfrom tidepool import clock\n"
            "from tidepool.errors import RetryExhausted, TransientError\n\n"
            f"log = logging.getLogger(__name__)\n\nBASE_DELAY = 0.{r.randint(1, 9)}\n"
            f"MAX_DELAY = {r.randint(5, 60)}.0\n_LOCK = threading.Lock()\n"
            "_CACHE: dict[str, object] = {}\n"
        )
        parts = [header]
        noun = r.choice(NOUNS)
        parts.append(
            _CLASS_TEMPLATE.format(
                Cls=_cap(noun) + _cap(r.choice(NOUNS)),
                noun=noun,
                mod=mod,
                field1=r.choice(NOUNS) + "_id",
                typ=r.choice(TYPES),
                field2="ttl",
                num=r.randint(5, 600),
            )
        )
        for _ in range(n_funcs or r.randint(3, 9)):
            parts.append(self.function())
        return "\n\n".join(parts)

    def test_module(self, mod: str) -> str:
        """Source of one pytest module."""
        r = self.rng
        out = [
            f'"""Tests for tidepool.{mod}."""\n\nimport pytest\n\n'
            f"from tidepool import {mod}\nfrom tidepool.testing import FakeClock\n\n"
            'pytestmark = pytest.mark.usefixtures("fake_clock")\n'
        ]
        for _ in range(r.randint(4, 10)):
            fn = self.func_name()
            out.append(
                f"def test_{fn}_{r.choice(NOUNS)}(fake_clock: FakeClock) -> None:\n"
                f"    result = {mod}.{fn}({r.randint(1, 99)}, timeout={r.randint(1, 5)}.0)\n"
                f"    fake_clock.advance({r.randint(1, 30)})\n"
                f"    assert result is not None\n"
                f"    assert fake_clock.sleeps <= {r.randint(3, 12)}\n"
            )
        return "\n\n".join(out)

    def pick(self, prefix: str = "") -> SourceFile:
        """A random file whose relative path starts with ``prefix``."""
        pool = [f for f in self.files if f.rel.startswith(prefix)] or self.files
        return self.rng.choice(pool)

    def edited(self, before: str) -> str:
        """A small, plausible modification of ``before``."""
        r = self.rng
        lines = before.split("\n")
        for _ in range(r.randint(1, 3)):
            i = r.randrange(len(lines))
            choice = r.random()
            if choice < 0.4:
                lines.insert(
                    i,
                    "    "
                    + r.choice(
                        (
                            "now = clock.monotonic()",
                            "if deadline <= now:\n        return None",
                            f'log.debug("{r.choice(VERBS)} %s", {r.choice(NOUNS)})',
                            f"# {r.choice(NOUNS)} may be shared between workers; copy it first",
                            "jitter = rng.uniform(0, delay / 2)",
                        )
                    ),
                )
            elif choice < 0.7 and lines[i].strip():
                lines[i] = lines[i].replace("clock.", "self._clock.", 1).replace("0.05", "0.01")
                lines[i] += "  # noqa: B008" if lines[i].rstrip().endswith(")") else ""
            else:
                del lines[i]
        return "\n".join(lines)

    def grep_pattern(self) -> str:
        """A search term that occurs in the project: a defined name or a common call."""
        r = self.rng
        if r.random() < 0.3:
            return r.choice(
                (
                    "clock.monotonic",
                    "BASE_DELAY",
                    "random.uniform",
                    "TransientError",
                    "_CACHE",
                    "log.warning",
                )
            )
        names = re.findall(r"^(?:async )?def (\w+)", self.pick().text, re.M)
        return r.choice(names) if names else "clock.sleep"

    def grep_hits(
        self, pattern: str, *, context: int = 1, limit: int = 40
    ) -> list[tuple[str, list[tuple[int, str, bool]]]]:
        """Real substring matches of ``pattern`` in the project, with context lines.

        Args:
            pattern: A literal string.
            context: Context lines on each side of a match.
            limit: Most matched lines in all.

        Returns:
            ``(relative path, [(line number, text, is_context_line), ...])`` per file.
        """
        hits = []
        found = 0
        for f in self.files:
            if pattern not in f.text or found >= limit:
                continue
            lines = f.text.split("\n")
            matched = [i for i, line in enumerate(lines) if pattern in line][: limit - found]
            found += len(matched)
            keep = sorted(
                {
                    j
                    for i in matched
                    for j in range(max(0, i - context), min(len(lines), i + context + 1))
                }
            )
            hit_set = set(matched)
            hits.append((f.rel, [(j + 1, lines[j], j not in hit_set) for j in keep]))
        return hits

    def tree(self) -> JSON:
        """The ``directoryTreeRoot`` of the workspace."""
        src = [f.rel.rsplit("/", 1)[1] for f in self.files if f.rel.startswith("src/")]
        tests = [f.rel.rsplit("/", 1)[1] for f in self.files if f.rel.startswith("tests/")]
        pkg = ls_tree(self.abs("src/tidepool"), ["__init__.py", "errors.py", "testing.py", *src])
        return ls_tree(
            self.cwd,
            ["README.md", "pyproject.toml", "uv.lock", ".gitignore"],
            [
                ls_tree(self.abs("src"), [], [pkg]),
                ls_tree(self.abs("tests"), ["conftest.py", *tests]),
            ],
        )


# --------------------------------------------------------------------------------------
# Content: shell output, prose, web
# --------------------------------------------------------------------------------------

ESC = "\x1b["
GREEN, RED, YELLOW, BOLD, RESET = f"{ESC}32m", f"{ESC}31m", f"{ESC}33m", f"{ESC}1m", f"{ESC}0m"


def pytest_output(
    rng: random.Random,
    files: Sequence[str],
    *,
    failures: Sequence[tuple[str, str, str]] = (),
    root: str = "/home/dev/src/tidepool",
    seconds: float | None = None,
) -> str:
    """Coloured pytest output as a pty produces it (``\\r\\n`` line ends, ANSI colours).

    Args:
        rng: Source of randomness.
        files: Test files to show progress for.
        failures: ``(test file, test name, assertion message)`` for failed tests.
        root: ``rootdir`` line.
        seconds: Reported run time; drawn when None.

    Returns:
        The text.
    """
    counts = [rng.randint(4, 18) for _ in files]
    total = sum(counts)
    failed_files = {f for f, _, _ in failures}
    lines = [
        f"{BOLD}{'=' * 29} test session starts {'=' * 30}{RESET}",
        "platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0",
        f"rootdir: {root}",
        "configfile: pyproject.toml",
        "plugins: asyncio-0.24.0, timeout-2.3.1, xdist-3.6.1",
        f"collected {total} items",
        "",
    ]
    done = 0
    for f, n in zip(files, counts, strict=True):
        done += n
        marks = [GREEN + "." + RESET] * n
        if f in failed_files:
            marks[rng.randrange(n)] = RED + "F" + RESET
        colour = RED if f in failed_files else GREEN
        pct = f"[{100 * done // total:3d}%]"
        lines.append(f"{f} {''.join(marks)}{colour}{' ' * max(1, 60 - len(f) - n)}{pct}{RESET}")
    for f, name, message in failures:
        lines += [
            "",
            f"{RED}{BOLD}{'=' * 35} FAILURES {'=' * 35}{RESET}",
            f"{RED}{BOLD}{'_' * 20} {name} {'_' * 20}{RESET}",
            "",
            f"    def {name}(fake_clock: FakeClock) -> None:",
            "        policy = Backoff(base=0.1, cap=2.0, jitter=0.5)",
            "        delays = [policy.delay(attempt) for attempt in range(1, 6)]",
            f"{BOLD}{RED}>       assert delays == sorted(delays){RESET}",
            f"{BOLD}{RED}E       AssertionError: {message}{RESET}",
            "",
            f"{f}:{rng.randint(20, 200)}: AssertionError",
        ]
    secs = seconds if seconds is not None else rng.uniform(0.8, 9.0)
    if failures:
        lines.append(f"{BOLD}{'=' * 29} short test summary info {'=' * 29}{RESET}")
        for f, name, message in failures:
            lines.append(f"{RED}FAILED{RESET} {f}::{BOLD}{name}{RESET} - AssertionError: {message}")
        lines.append(
            f"{RED}========================= {RED}{BOLD}{len(failures)} failed{RESET}, "
            f"{GREEN}{total - len(failures)} passed{RESET}{RED} in {secs:.2f}s{RESET}"
            f"{RED} ========================={RESET}"
        )
    else:
        lines.append(
            f"{GREEN}============================== {GREEN}{BOLD}{total} passed{RESET}"
            f"{GREEN} in {secs:.2f}s{RESET}{GREEN} =============================={RESET}"
        )
    return "\r\n".join(lines) + "\r\n"


def git_status_output(paths: Sequence[str]) -> str:
    """``git status --short`` output."""
    return "".join(f" M {p}\n" for p in paths)


def ruff_output(rng: random.Random, files: Sequence[str]) -> tuple[int, str]:
    """``ruff check`` output and exit code."""
    if rng.random() < 0.6:
        return 0, "All checks passed!\n"
    rows = []
    for f in rng.sample(list(files), k=min(len(files), rng.randint(1, 4))):
        code, msg = rng.choice(
            (
                ("F401", "`typing.Any` imported but unused"),
                ("E501", "Line too long (104 > 100)"),
                ("B008", "Do not perform function call in argument defaults"),
                ("SIM108", "Use ternary operator instead of `if`-`else`-block"),
            )
        )
        rows.append(
            f"{BOLD}{f}{RESET}{ESC}36m:{RESET}{rng.randint(1, 300)}{ESC}36m:{RESET}"
            f"{rng.randint(1, 80)}{ESC}36m:{RESET} {BOLD}{RED}{code}{RESET} {msg}"
        )
    return 1, "\n".join(rows) + f"\nFound {len(rows)} errors.\n"


_THINK_OPENERS = (
    "Looking at {file} to see how {func} handles the {noun}.",
    "The failure suggests {func} reads the real clock instead of the injected one.",
    "I should check where {noun} is created before changing {func}.",
    "Running the focused test first will confirm whether the {noun} ordering is the problem.",
    "The diff looks right; next I need to run the suite again.",
    "{func} is called from {n} places, so changing its signature needs care.",
    "The {noun} cache is shared across workers, which explains the intermittent failure.",
    "Let me search for other uses of `{func}` before editing.",
)
_THINK_MORE = (
    " If the jitter is drawn from the global `random` module the test depends on ordering.",
    " A FakeClock fixture already exists in `tidepool.testing`, so I can reuse it.",
    " The retry loop sleeps `{n}` times at most, which matches the assertion.",
    "\n\nPlan: read the module, patch the seed handling, then rerun the tests.",
    " The timeout is {n}s, well above what the test needs.",
    " I'll keep the public API unchanged and only thread the clock through.",
)
_SAY_PRE = (
    "Let me look at `{file}` first.",
    "I'll search the codebase for `{func}` to find every caller.",
    "Running the focused tests to reproduce the failure.",
    "Now I'll update `{func}` so it takes the clock as a parameter.",
    "Checking the test output again after the change.",
    "Reading `{file}` and its tests side by side.",
    "I'll fetch the upstream docs for the retry policy to be sure about the semantics.",
)
_SAY_FINAL_BITS = (
    "The intermittent failure in `{test}` came from `{func}` drawing jitter from the global "
    "`random` module, so any test that ran before it changed the sequence.",
    "I threaded an explicit `rng: random.Random` through `{func}` and made the fixture seed it.",
    "`{file}` now uses the injected clock everywhere; no code path calls `time.monotonic()` "
    "directly any more.",
    "All {n} tests pass locally, including the previously flaky one run 50 times in a row.",
    "The public API is unchanged: callers that do not pass `rng` get a module-level "
    "`random.Random()` as before.",
)


def _fill(rng: random.Random, template: str, project: FakeProject) -> str:
    f = project.pick()
    return template.format(
        file=f.rel,
        func=project.func_name(),
        noun=rng.choice(NOUNS),
        n=rng.randint(2, 40),
        test=f"test_{project.func_name()}",
    )


def thinking_text(rng: random.Random, project: FakeProject, sentences: int) -> str:
    """A thinking block of roughly ``sentences`` sentences."""
    parts = [_fill(rng, rng.choice(_THINK_OPENERS), project)]
    for _ in range(sentences - 1):
        parts.append(_fill(rng, rng.choice(_THINK_MORE + _THINK_OPENERS), project))
    return " ".join(parts).replace("  ", " ")


def pre_tool_text(rng: random.Random, project: FakeProject, *, code_chance: float = 0.0) -> str:
    """A segment said before a tool call: one sentence, sometimes with a code block.

    Args:
        rng: Source of randomness.
        project: Where names come from.
        code_chance: Probability of adding a short explanation and a Python block.

    Returns:
        The text.
    """
    text = _fill(rng, rng.choice(_SAY_PRE), project)
    if rng.random() < code_chance:
        lines = project.function().rstrip("\n").split("\n")
        snippet = "\n".join(lines[: rng.randint(4, len(lines))])
        text += (
            f"\n\nThe relevant part is **`{project.func_name()}`**:\n\n"
            f"```python\n{snippet}\n```\n\n"
            "- it reads the module-level clock\n- and the jitter is not seeded\n"
        )
    return text + ("\n" if rng.random() < 0.5 else "")


def final_answer(rng: random.Random, project: FakeProject, paragraphs: int = 3) -> str:
    """A Markdown final answer: headings, bullets, a code block and a small table."""
    f1, f2 = project.pick("src/"), project.pick("tests/")
    code = project.function().rstrip("\n")
    bits = [_fill(rng, b, project) for b in rng.sample(_SAY_FINAL_BITS, k=min(paragraphs, 5))]
    return (
        "## Summary\n\n" + bits[0] + "\n\n### Changes\n\n"
        f"- `{f1.rel}`: {bits[1] if len(bits) > 1 else 'tidied the retry loop.'}\n"
        f"- `{f2.rel}`: seeded the fixture and added a regression test.\n\n"
        f"```python\n{code}\n```\n\n"
        "### Verification\n\n| check | result |\n|---|---|\n"
        f"| `pytest -q` | {rng.randint(80, 300)} passed |\n| `ruff check` | clean |\n"
        f"| `mypy --strict` | no issues in {rng.randint(20, 60)} files |\n\n"
        + " ".join(bits[2:])
        + "\n"
    )


def web_markdown(rng: random.Random, size: int) -> str:
    """Markdown of a fetched documentation page, about ``size`` bytes."""
    head = (
        "# Retrying with backoff\n\nExponential backoff spaces retries out so that a "
        "struggling service can recover. Adding **jitter** avoids synchronised retry "
        "storms.\n\n"
    )
    out = [head]
    n = len(head)
    i = 1
    while n < size:
        para = (
            f"## {i}. {_cap(rng.choice(VERBS))} the {rng.choice(NOUNS)}\n\n"
            f"Use `{rng.choice(VERBS)}_{rng.choice(NOUNS)}()` when the {rng.choice(NOUNS)} "
            f"may be shared. The delay for attempt *n* is `min(cap, base * 2 ** n)` plus a "
            f"random amount in `[0, delay / 2)`.\n\n```python\n"
            f"delay = min(cap, base * 2 ** attempt)\ndelay += rng.uniform(0, delay / 2)\n"
            f"```\n\n"
        )
        out.append(para)
        n += len(para)
        i += 1
    return "".join(out)


def search_refs(rng: random.Random, term: str, n: int, chunk: int) -> list[tuple[str, str, str]]:
    """Web search references ``(title, url, chunk)`` about ``term``."""
    sites = (
        "docs.python.org",
        "stackoverflow.com",
        "aws.amazon.com",
        "github.com",
        "pytest.org",
        "realpython.com",
    )
    refs = []
    for i in range(n):
        site = rng.choice(sites)
        text = (f"{term.capitalize()}: " + web_markdown(rng, chunk))[:chunk]
        refs.append(
            (f"{_cap(term)} - result {i + 1}", f"https://{site}/{term.replace(' ', '-')}-{i}", text)
        )
    return refs


# --------------------------------------------------------------------------------------
# RandomSession: a random but believable agent run
# --------------------------------------------------------------------------------------

TOOL_WEIGHTS: tuple[tuple[str, int], ...] = (
    ("read", 22),
    ("grep", 12),
    ("edit", 14),
    ("shell", 18),
    ("glob", 5),
    ("ls", 3),
    ("write", 3),
    ("delete", 1),
    ("todos", 5),
    ("mcp", 3),
    ("web_fetch", 3),
    ("web_search", 3),
    ("sem_search", 4),
    ("ask_question", 1),
    ("read_error", 2),
)
"""Relative frequency of each tool scenario in :class:`RandomSession`."""

PARALLEL_KINDS = ("read", "grep", "glob", "ls", "sem_search")
PARALLEL_WEIGHTS = (22, 12, 5, 3, 4)
"""Tools that :class:`RandomSession` runs in parallel, with their weights."""


@dataclass
class RandomSession:
    """Plays a random agent run on a :class:`Run` until an event budget is spent.

    Each step is one model call: optional silence (context compaction) or a lost
    connection, a thinking block, a segment, then one to three tool calls (parallel
    ones complete out of order). The run ends with a thinking block, a long Markdown
    answer and ``result``.
    """

    run: Run
    """Where records go."""
    project: FakeProject
    """Where file contents come from."""
    payload_kb: tuple[float, float] = (1.0, 20.0)
    """Range of tool result sizes in KB for reads, output and web pages."""
    compaction_chance: float = 0.004
    """Probability per step of a context-compaction silence."""
    compaction_ms: tuple[int, int] = (25_000, 40_000)
    """Range of a compaction silence in ms (real ones last 25-40 s)."""
    compactions_at: list[int] = field(default_factory=list)
    """Record counts (within the run) after which a compaction silence is forced."""
    reconnect_chance: float = 0.002
    """Probability per step of a lost connection."""
    think_sentences: tuple[int, int] = (1, 7)
    """Range of sentences per thinking block."""
    think_words: int = 3
    """Most words per thinking delta."""
    code_chance: float = 0.15
    """Probability that a segment before a tool call explains code in a Python block."""
    huge_lines_at: list[int] = field(default_factory=list)
    """Record counts (within the run) after which an edit carries a multi-MB file."""
    huge_line_bytes: int = 3_000_000
    """Approximate size of such a line."""
    _todo_items: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def rng(self) -> random.Random:
        """The run's random source."""
        return self.run.rng

    def play(self, budget: int) -> None:
        """Emit a whole run (init ... result) of about ``budget`` records."""
        run, rng, project = self.run, self.rng, self.project
        start = run.count
        run.init()
        test = f"test_{project.func_name()}"
        run.user(
            f"`{test}` in {project.pick('tests/').rel} fails about one run in ten on CI. "
            "Find out why, fix it properly (no retries or sleeps), and make sure the "
            "whole suite and ruff pass."
        )
        run.wait(rng.randint(900, 3000))
        closing_thought = thinking_text(rng, project, rng.randint(2, 6))
        answer = final_answer(rng, project)
        # Records the closing part will take: deltas average ~(max_words+1)/2 words.
        reserve = 4 + len(closing_thought.split()) * 2 // (self.think_words + 1)
        if run.partial:
            reserve += len(answer.split()) * 2 // 3
        while run.count - start < budget - reserve:
            self.step()
        run.wait(rng.randint(600, 2500))
        run.think(closing_thought, max_words=self.think_words)
        run.say(answer, model_call_id=None)
        run.result()

    def step(self) -> None:
        """One model call with its tool calls."""
        run, rng, project = self.run, self.rng, self.project
        if rng.random() < self.compaction_chance or (
            self.compactions_at and run.count >= self.compactions_at[0]
        ):
            if self.compactions_at and run.count >= self.compactions_at[0]:
                self.compactions_at.pop(0)
            run.wait(rng.randint(*self.compaction_ms))
        if rng.random() < self.reconnect_chance:
            run.reconnect(rng.randint(1, 2))
        run.wait(rng.randint(500, 2500))
        if rng.random() < 0.85:
            run.think(
                thinking_text(rng, project, rng.randint(*self.think_sentences)),
                max_words=self.think_words,
            )
        mcid = run.model_call()
        if rng.random() < 0.75:
            run.say(pre_tool_text(rng, project, code_chance=self.code_chance), model_call_id=mcid)
        if self.huge_lines_at and run.count >= self.huge_lines_at[0]:
            self.huge_lines_at.pop(0)
            self._tool_edit(mcid, huge=True)
            return
        kinds = [k for k, _ in TOOL_WEIGHTS]
        weights = [w for _, w in TOOL_WEIGHTS]
        if rng.random() < 0.7:
            getattr(self, f"_tool_{rng.choices(kinds, weights)[0]}")(mcid)
            return
        # Parallel calls: read-only tools the model fires together.
        chosen = rng.choices(PARALLEL_KINDS, PARALLEL_WEIGHTS, k=rng.randint(2, 3))
        calls = []
        for kind in chosen:
            run.wait(rng.randint(0, 130))
            calls.append(self._parallel(kind, mcid))
        for call, result, duration in sorted(calls, key=lambda c: c[0].started_at_ms + c[2]):
            run.finish_tool(call, result, duration_ms=duration)

    # -- tool scenarios ----------------------------------------------------------------

    def _size(self) -> int:
        lo, hi = self.payload_kb
        return int(1024 * lo * (hi / lo) ** self.rng.random())

    def _content(self, size: int) -> str:
        text = ""
        while len(text) < size:
            text += self.project.pick().text + "\n\n"
        return text[:size]

    def _parallel(self, kind: str, mcid: str) -> tuple[ToolCall, JSON, int]:
        run, rng, project = self.run, self.rng, self.project
        if kind == "read":
            f = project.pick()
            path = project.abs(f.rel)
            call = run.start_tool("readToolCall", read_args(path), model_call_id=mcid)
            return call, read_success(path, self._content(self._size())), rng.randint(30, 900)
        if kind == "grep":
            pattern = project.grep_pattern()
            call = run.start_tool(
                "grepToolCall", grep_args(pattern, project.cwd), model_call_id=mcid
            )
            return (
                call,
                grep_success(pattern, project.cwd, project.grep_hits(pattern)),
                rng.randint(80, 1400),
            )
        if kind == "glob":
            files = [f.rel for f in project.files]
            call = run.start_tool(
                "globToolCall", glob_args("**/*.py", project.cwd), model_call_id=mcid
            )
            return call, glob_success(files), rng.randint(40, 500)
        if kind == "ls":
            call = run.start_tool(
                "lsToolCall", ls_args(project.cwd, [".git", "__pycache__"]), model_call_id=mcid
            )
            return call, ls_success(project.tree()), rng.randint(30, 400)
        query = f"where is the {rng.choice(NOUNS)} {past_participle(rng.choice(VERBS))}"
        call = run.start_tool(
            "semSearchToolCall",
            sem_search_args(query, ["src/"], "Find related code"),
            model_call_id=mcid,
        )
        return call, self._sem_result(), rng.randint(300, 2500)

    def _sem_result(self) -> JSON:
        hits = []
        for _ in range(self.rng.randint(2, 6)):
            f = self.project.pick()
            lines = f.text.split("\n")
            s = self.rng.randrange(max(1, len(lines) - 20))
            hits.append((f.rel, s + 1, s + 20, "\n".join(lines[s : s + 20])))
        return sem_search_success(hits)

    def _tool_read(self, mcid: str) -> None:
        call, result, duration = self._parallel("read", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_grep(self, mcid: str) -> None:
        call, result, duration = self._parallel("grep", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_glob(self, mcid: str) -> None:
        call, result, duration = self._parallel("glob", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_ls(self, mcid: str) -> None:
        call, result, duration = self._parallel("ls", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_sem_search(self, mcid: str) -> None:
        call, result, duration = self._parallel("sem_search", mcid)
        self.run.finish_tool(call, result, duration_ms=duration)

    def _tool_read_error(self, mcid: str) -> None:
        path = self.project.abs(f"src/tidepool/{self.rng.choice(NOUNS)}s.py")
        self.run.tool(
            "readToolCall",
            read_args(path),
            error_result("File not found", path=path),
            model_call_id=mcid,
            duration_ms=self.rng.randint(10, 90),
        )

    def _tool_edit(self, mcid: str, huge: bool = False) -> None:
        run, rng, project = self.run, self.rng, self.project
        if huge:
            rel = "src/tidepool/_data/zone_table.py"
            row = '    ("{0}", {1}, {2}, "{3}"),\n'
            body, i = [], 0
            size = 0
            while size < self.huge_line_bytes // 3:
                line = row.format(
                    f"Zone/{_cap(rng.choice(NOUNS))}_{i}",
                    rng.randint(-720, 840),
                    rng.randint(0, 1),
                    rng.choice(NOUNS),
                )
                body.append(line)
                size += len(line)
                i += 1
            before = (
                "# Generated by scripts/gen_zones.py; do not edit.\nZONES = [\n"
                + "".join(body)
                + "]\n"
            )
            after = before.replace(
                "Generated by scripts/gen_zones.py",
                "Generated by scripts/gen_zones.py --with-offsets",
            )
        else:
            f = project.pick("src/" if rng.random() < 0.7 else "")
            rel, before = f.rel, f.text
            after = project.edited(before)
            # Keep files from drifting in size over a million events.
            f.text = after if len(after) < 12_000 else project.module(rel.rsplit("/", 1)[1][:-3])
        path = project.abs(rel)
        run.tool(
            "editToolCall",
            edit_args(path, after),
            edit_success(path, before, after),
            model_call_id=mcid,
            duration_ms=rng.randint(60, 700),
        )

    def _tool_write(self, mcid: str) -> None:
        run, rng, project = self.run, self.rng, self.project
        rel = f"tests/test_{rng.choice(MODULES)}_regression_{rng.randint(1, 99)}.py"
        text = project.test_module(rng.choice(MODULES))
        project.add(SourceFile(rel, text))
        path = project.abs(rel)
        call_id = run.ids.call_id(run.call_id_style)
        run.tool(
            "writeToolCall",
            write_args(path, text, call_id),
            write_success(path, text),
            model_call_id=mcid,
            duration_ms=rng.randint(40, 300),
        )

    def _tool_delete(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        path = self.project.abs(f"tests/__snapshots__/{rng.choice(NOUNS)}_{rng.randint(1, 9)}.json")
        call_id = run.ids.call_id(run.call_id_style)
        call = run.start_tool(
            "deleteToolCall", delete_args(path, call_id), call_id=call_id, model_call_id=mcid
        )
        run.finish_tool(
            call, delete_success(path, rng.randint(200, 9000)), duration_ms=rng.randint(10, 120)
        )

    def _tool_todos(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        if not self._todo_items or rng.random() < 0.2:
            self._todo_items = [
                (
                    str(i + 1),
                    _cap(f"{rng.choice(VERBS)} the {rng.choice(NOUNS)} handling"),
                    "pending",
                )
                for i in range(rng.randint(3, 6))
            ]
            merge = False
        else:
            merge = True
            for i, (tid, content, status) in enumerate(self._todo_items):
                if status != "completed":
                    new = "completed" if status == "in_progress" else "in_progress"
                    self._todo_items[i] = (tid, content, new)
                    break
        items = todos(self._todo_items)
        run.tool(
            "updateTodosToolCall",
            update_todos_args(items, merge=merge),
            update_todos_success(items),
            model_call_id=mcid,
            duration_ms=rng.randint(5, 60),
        )

    def _tool_shell(self, mcid: str) -> None:
        run, rng, project = self.run, self.rng, self.project
        tests = sorted({f.rel for f in project.files if f.rel.startswith("tests/")})
        roll = rng.random()
        if roll < 0.55:
            files = rng.sample(tests, k=min(len(tests), rng.randint(3, 12)))
            fail = rng.random() < 0.35
            failures = (
                [
                    (
                        files[0],
                        f"test_{project.func_name()}",
                        f"assert [0.1, 0.4, 0.2] == [0.1, 0.2, 0.4]  (seed {rng.randint(1, 9999)})",
                    )
                ]
                if fail
                else []
            )
            out = pytest_output(rng, files, failures=failures, root=project.cwd)
            while len(out) < self._size() // 3:
                out += pytest_output(rng, files, root=project.cwd)
            command = "uv run pytest -q " + " ".join(files[:3]) + " -p no:randomly"
            code, stdout, stderr = (1 if fail else 0), out, ""
            desc = "Run the focused tests"
        elif roll < 0.75:
            code, stdout = ruff_output(rng, [f.rel for f in project.files])
            command, stderr, desc = "uv run ruff check src tests", "", "Lint the package"
        elif roll < 0.9:
            changed = [f.rel for f in rng.sample(project.files, k=rng.randint(1, 5))]
            command, code, stdout, stderr = "git status --short", 0, git_status_output(changed), ""
            desc = "Show changed files"
        else:
            command = "uv sync --extra test"
            code, stdout = 0, ""
            stderr = (
                "Resolved 41 packages in 12ms\r\nPrepared 3 packages in 610ms\r\n"
                "Installed 3 packages in 9ms\r\n + hypothesis==6.112.1\r\n"
                " + pytest-timeout==2.3.1\r\n + pytest-xdist==3.6.1\r\n"
            )
            desc = "Install test dependencies"
        duration = rng.randint(300, 14000)
        call_id = run.ids.call_id(run.call_id_style)
        args = shell_args(
            command,
            tool_call_id=call_id,
            conversation_id=run.session_id,
            request_id=run.request_id,
            description=desc,
        )
        call = run.start_tool(
            "shellToolCall", args, call_id=call_id, model_call_id=mcid, description=desc
        )
        if rng.random() < 0.05:
            # Denied by the allow-list: the reason is empty and args are left out.
            run.finish_tool(
                call,
                shell_rejected(command, project.cwd),
                duration_ms=rng.randint(40, 1500),
                include_args=False,
            )
            return
        run.finish_tool(
            call,
            shell_result(
                command,
                exit_code=code,
                stdout=stdout,
                stderr=stderr,
                execution_time=duration - rng.randint(20, 150),
            ),
            duration_ms=duration,
        )

    def _tool_mcp(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        issue = rng.randint(100, 999)
        call_id = run.ids.call_id(run.call_id_style)
        args = mcp_args(
            "github",
            "get_issue",
            {"owner": "tidepool-dev", "repo": "tidepool", "issue_number": issue},
            call_id,
        )
        text = (
            f"# #{issue} Flaky: test ordering changes backoff delays\n\nOpened by "
            f"@ci-bot. Seen {rng.randint(3, 30)} times in the last 14 days.\n\n"
            + self._content(self._size() // 2)
        )
        call = run.start_tool("mcpToolCall", args, call_id=call_id, model_call_id=mcid)
        run.finish_tool(call, mcp_success([text]), duration_ms=rng.randint(200, 2000))

    def _tool_web_fetch(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        url = "https://tenacity.readthedocs.io/en/latest/api.html"
        call_id = run.ids.call_id(run.call_id_style)
        args = web_fetch_args(url, call_id)
        call = run.start_tool("webFetchToolCall", args, call_id=call_id, model_call_id=mcid)
        approved = rng.random() < 0.7
        run.ask(
            "webFetchRequestQuery",
            {"args": args, "skipApproval": False},
            {"approved": {}} if approved else rejected(),
            delay_ms=rng.randint(0, 2),
        )
        if approved:
            run.finish_tool(
                call,
                web_fetch_success(url, web_markdown(rng, self._size())),
                duration_ms=rng.randint(400, 3000),
            )
        else:
            run.finish_tool(call, rejected(), duration_ms=rng.randint(40, 260), include_args=False)

    def _tool_web_search(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        term = rng.choice(
            (
                "exponential backoff jitter",
                "pytest random seed per test",
                "python monotonic clock injection",
            )
        )
        call_id = run.ids.call_id(run.call_id_style)
        args = web_search_args(term, call_id)
        if rng.random() < 0.3:
            # A denied search: request, response, then a completed with no started.
            call = run.start_tool(
                "webSearchToolCall", args, call_id=call_id, model_call_id=mcid, emit=False
            )
            run.ask("webSearchRequestQuery", {"args": args}, rejected())
            run.finish_tool(call, rejected(), duration_ms=rng.randint(40, 90), include_args=False)
            return
        size = self._size()
        call = run.start_tool("webSearchToolCall", args, call_id=call_id, model_call_id=mcid)
        run.finish_tool(
            call,
            web_search_success(search_refs(rng, term, 5, size // 5)),
            duration_ms=rng.randint(800, 4000),
        )

    def _tool_ask_question(self, mcid: str) -> None:
        run, rng = self.run, self.rng
        call_id = run.ids.call_id(run.call_id_style)
        args = ask_question_args(
            "How should I fix it?",
            [
                {
                    "id": "approach",
                    "prompt": "Inject the clock or pin the seed?",
                    "options": [
                        {"id": "clock", "label": "Inject the clock"},
                        {"id": "seed", "label": "Pin the seed"},
                    ],
                    "allowMultiple": False,
                }
            ],
        )
        run.ask(
            "askQuestionInteractionQuery",
            {"args": args, "toolCallId": call_id},
            {"result": rejected(ASK_SKIPPED)},
        )
        call = run.start_tool("askQuestionToolCall", args, call_id=call_id, model_call_id=mcid)
        run.finish_tool(call, rejected(ASK_SKIPPED), duration_ms=rng.randint(100, 900))
