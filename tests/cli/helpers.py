"""Running the real command, and the inputs CLI tests feed it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import orjson

REPO_ROOT = Path(__file__).resolve().parents[2]
CAPTURES = REPO_ROOT / "tests" / "fixtures" / "cursor-real"
"""Real captures of the CLI, copied byte for byte (their sources: SOURCES.md there)."""


def capture_files() -> list[Path]:
    """Every real capture (``*.ndjson`` and ``*.jsonl``), sorted (tests/fixtures/cursor-real)."""
    return sorted(p for p in CAPTURES.iterdir() if p.suffix in (".ndjson", ".jsonl"))


def command(*args: str) -> list[str]:
    """``python -m streamview ARGS`` with this interpreter."""
    return [sys.executable, "-m", "streamview", *args]


def child_env() -> dict[str, str]:
    """The environment for a child streamview: this checkout first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
    env.pop("NO_COLOR", None)
    return env


def run(
    *args: str, stdin: bytes | None = None, stdin_file: IO[bytes] | None = None, **kwargs: Any
) -> subprocess.CompletedProcess[bytes]:
    """Run streamview to completion, stdout and stderr captured as bytes.

    Args:
        args: Its arguments.
        stdin: Bytes to feed through a pipe.
        stdin_file: An open file to put on its stdin instead.
        kwargs: More ``subprocess.run`` arguments.
    """
    if stdin_file is not None:
        kwargs["stdin"] = stdin_file
    return subprocess.run(
        command(*args),
        input=stdin,
        capture_output=True,
        env=child_env(),
        timeout=60,
        check=False,
        **kwargs,
    )


def ndjson(*records: dict[str, Any]) -> bytes:
    """Records as NDJSON."""
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


SID = "5e551011-0000-4000-8000-000000000000"


def init_record(**extra: Any) -> dict[str, Any]:
    """A ``system/init`` record."""
    record = {
        "type": "system",
        "subtype": "init",
        "apiKeySource": "env",
        "cwd": "/w",
        "session_id": SID,
        "model": "Claude 4 Sonnet",
        "permissionMode": "default",
    }
    record.update(extra)
    return record


def user_record(text: str) -> dict[str, Any]:
    """A ``user`` record."""
    return {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "text", "text": text}]},
        "session_id": SID,
    }


def assistant_record(text: str, **extra: Any) -> dict[str, Any]:
    """An ``assistant`` record."""
    record: dict[str, Any] = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": SID,
    }
    record.update(extra)
    return record


def tool_record(
    subtype: str, call_id: str, kind: str, args: dict[str, Any] | None, result: Any = None
) -> dict[str, Any]:
    """A ``tool_call`` record."""
    body: dict[str, Any] = {}
    if args is not None:
        body["args"] = args
    if result is not None:
        body["result"] = result
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {f"{kind}ToolCall": body},
        "session_id": SID,
    }


def result_record(text: str = "", is_error: bool = False, **extra: Any) -> dict[str, Any]:
    """A ``result`` record."""
    record: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "duration_ms": 2000,
        "duration_api_ms": 1900,
        "is_error": is_error,
        "result": text,
        "session_id": SID,
        "request_id": "req-9",
    }
    record.update(extra)
    return record
