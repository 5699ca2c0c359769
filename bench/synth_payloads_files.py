"""Args and results of the tools that look at or change the project's files: read,
write, edit (with a real unified diff), delete, ls, glob, grep, semantic search, and the
``error`` union they fail with."""

from __future__ import annotations

from collections.abc import Sequence

from synth_text import unified_diff
from synth_wire import JSON


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
