"""Hand a tool call over to the user's own tools: the file it touched in ``$EDITOR`` (at
the line, when known), its whole result in ``$PAGER``. The viewer suspends while they
run (Textual's :meth:`~textual.app.App.suspend`) and comes back as it was."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import orjson
from textual.app import App

from streamview.core import tools
from streamview.core.call_records import load_records
from streamview.core.linestore import LineStore
from streamview.core.sanitize import clean
from streamview.core.state import ToolCall
from streamview.ui.calls.search import strings

GOTO_EDITORS = {"code", "code-insiders", "cursor", "windsurf", "codium"}
"""Editors that open ``path:line`` with ``--goto``."""
PLUS_EDITORS = {"vi", "vim", "nvim", "view", "nano", "emacs", "emacsclient", "micro", "hx", "kak"}
"""Editors that take ``+LINE path``."""
LINE_ARGS = ("line", "lineNumber", "startLine", "offset", "start_line")
"""Arguments that say where in the file a call looked."""
OUTPUT_KEYS = ("interleavedOutput", "stdout", "content", "diffString", "markdown", "message")
"""Result fields that are the text a person wants to read, in order of preference."""


def editor_command(path: str, line: int | None, environ: dict[str, str] | None = None) -> list[str]:
    """The command that opens ``path`` (at ``line``) in the user's editor."""
    env = os.environ if environ is None else environ
    editor = shlex.split(env.get("VISUAL") or env.get("EDITOR") or "vi")
    name = Path(editor[0]).name
    if line is not None and name in GOTO_EDITORS:
        return [*editor, "--goto", f"{path}:{line}"]
    if line is not None and name in PLUS_EDITORS:
        return [*editor, f"+{line}", path]
    return [*editor, path]


def pager_command(environ: dict[str, str] | None = None) -> list[str]:
    """The user's pager (``$PAGER``, else ``less -R``)."""
    env = os.environ if environ is None else environ
    return shlex.split(env.get("PAGER") or "less -R")


def file_of(call: ToolCall, cwd: str | None) -> tuple[str, int | None] | None:
    """The file a call touched, and the line it looked at (if its arguments say)."""
    if call.kind not in tools.PATH_KINDS or not call.target:
        return None
    path = call.target
    if not os.path.isabs(path) and cwd:
        path = os.path.join(cwd, path)
    line = None
    for key in LINE_ARGS:
        value = (call.args or {}).get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            line = value
            break
    return path, line


def result_text(call: ToolCall, store: LineStore | None) -> str:
    """A call's whole result as text: its output when it has one, else its JSON."""
    records = load_records(call, store, raw=False)
    payload: Any = records.payload
    if isinstance(payload, dict):
        for key in OUTPUT_KEYS:
            value = payload.get(key)
            if isinstance(value, str) and value.strip():
                return clean(value, keep_sgr=True)
    if payload is None:
        return f"{call.kind}: no result in the stream ({call.status})\n"
    text = orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode()
    return clean(text) if any(strings(payload)) else text


def run_suspended(app: App[Any], command: list[str], stdin_text: str | None = None) -> str | None:
    """Run ``command`` with the terminal handed over; why it could not run, or ``None``."""
    try:
        with app.suspend():
            if stdin_text is None:
                subprocess.run(command, check=False)
            else:
                with tempfile.TemporaryFile() as feed:
                    feed.write(stdin_text.encode("utf-8", "replace"))
                    feed.seek(0)
                    subprocess.run(command, stdin=feed, check=False)
    except FileNotFoundError:
        return f"cannot run {command[0]!r}: not found (set $EDITOR / $PAGER)"
    except Exception as error:  # SuspendNotSupported (a browser), a broken terminal
        return f"cannot hand the terminal over: {error}"
    return None
