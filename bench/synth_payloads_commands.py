"""Args and results of the tools that act beyond the files: shell (and its denial),
todos, MCP, web fetch and search, questions to the user, and the generic ``rejected``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from synth_text import parse_shell
from synth_wire import JSON


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
