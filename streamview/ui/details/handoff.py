"""Hand a tool call over to the user's own tools: the file it touched in ``$EDITOR`` (at
the line, when known), its whole result in ``$PAGER``. The viewer suspends while they
run (Textual's :meth:`~textual.app.App.suspend`) and comes back as it was.

The file is looked up on this machine first (:mod:`streamview.core.local_paths`: a
cwd map, the recorded path, the current checkout) and handed over as an absolute path
after the end of options (:mod:`streamview.core.editor_argv`): a path from a stream is
never read as an option or an editor command."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from typing import Any

import orjson
from textual.app import App

from streamview.core import tools
from streamview.core.args_store import args_in_lines
from streamview.core.call_records import load_records
from streamview.core.diff_paths import first_changed_line, with_relative_diff
from streamview.core.editor_argv import UnsafePath, editor_argv, editor_words, safe_path
from streamview.core.linestore import LineStore
from streamview.core.local_paths import CwdMap, locate, parse_cwd_map, recorded_path
from streamview.core.sanitize import clean, one_line
from streamview.core.state import ToolCall
from streamview.ui.calls.search import strings

LINE_ARGS = ("line", "lineNumber", "startLine", "offset", "start_line")
"""Arguments that say where in the file a call looked."""
OUTPUT_KEYS = ("interleavedOutput", "stdout", "content", "diffString", "markdown", "message")
"""Result fields that are the text a person wants to read, in order of preference."""
MAP_HINT = "--cwd-map OLD=NEW points a recorded directory at a local checkout"


def editor_command(path: str, line: int | None, environ: dict[str, str] | None = None) -> list[str]:
    """The command that opens ``path`` (at ``line``) in the user's editor.

    Raises:
        UnsafePath: ``path`` is not absolute, or holds what no file name should.
    """
    return editor_argv(editor_words(environ), path, line)


def pager_command(environ: dict[str, str] | None = None) -> list[str]:
    """The user's pager (``$PAGER``, else ``less -R``)."""
    env = os.environ if environ is None else environ
    return shlex.split(env.get("PAGER") or "less -R")


def file_of(
    call: ToolCall, cwd: str | None, store: LineStore | None = None
) -> tuple[str, int | None] | None:
    """The file a call touched (as recorded, made absolute against ``cwd``), and the line
    it looked at (if its arguments say: read from ``store`` when the fold let them go);
    ``None`` for a call that names no path."""
    if call.kind not in tools.PATH_KINDS or not call.target:
        return None
    args = call.args
    if args_in_lines(call):
        read = load_records(call, store, raw=False).args if store is not None else None
        args = read if isinstance(read, dict) else None
    line = None
    for key in LINE_ARGS:
        value = (args or {}).get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            line = value
            break
    return recorded_path(call.target, cwd, os.getcwd()), line


def edit_line(call: ToolCall, store: LineStore | None) -> int | None:
    """The line an edit changed first, from the diff in its result."""
    payload = load_records(call, store, raw=False).payload
    if not isinstance(payload, dict):
        return None
    diff = with_relative_diff(payload, None).get("diffString")
    return first_changed_line(diff) if isinstance(diff, str) else None


def merged_map(flags: CwdMap, settings: dict[str, str]) -> list[tuple[str, str]]:
    """The cwd map in force: the settings' pairs, each replaced by a flag for the same
    directory (pairs that are not two absolute directories are left out)."""
    pairs: dict[str, str] = {}
    for old, new in [*settings.items(), *flags]:
        try:
            key, value = parse_cwd_map(f"{old}={new}")
        except ValueError:
            continue
        pairs[key] = value
    return list(pairs.items())


def open_command(
    call: ToolCall,
    cwd: str | None,
    cwd_map: CwdMap = (),
    store: LineStore | None = None,
    environ: dict[str, str] | None = None,
) -> tuple[list[str] | None, str]:
    """What ``o`` runs for ``call``, and what to tell the person.

    Returns:
        ``(command, note)``: the editor's command and a note on how the file was found
        (empty when it is where the recording says); or ``(None, why)`` when nothing
        is opened: the call names no file, the file is not on this machine, it is
        not a regular file (a directory, a FIFO an editor would block on, a device, a
        socket, a ``/proc`` file), or its path is not safe to hand over.
    """
    found = file_of(call, cwd, store)
    if found is None:
        return None, f"a {one_line(call.kind, 40)} call names no file: nothing to open"
    target, line = found
    shown = one_line(target, 120)
    try:
        safe_path(target)
    except UnsafePath as why:
        return None, f"not opening {shown}: {why}"
    located = locate(target, cwd, cwd_map)
    if located.path is None:
        if located.tried is not None:
            return (
                None,
                f"{shown} is not on this machine (mapped to {one_line(located.tried, 120)})",
            )
        return None, f"{shown} is not on this machine ({MAP_HINT})"
    if located.is_dir:
        return None, f"{one_line(located.path, 120)} is a directory: o opens files"
    if located.not_a_file is not None:
        what = located.not_a_file
        return None, f"{one_line(located.path, 120)} is {what}: o opens regular files only"
    if call.kind == "edit" and line is None:
        line = edit_line(call, store)
    try:
        command = editor_command(located.path, line, environ)
    except UnsafePath as why:
        return None, f"not opening {shown}: {why}"
    note = ""
    if located.how:
        note = f"opened {one_line(located.path, 120)} ({located.how} from {shown})"
    return command, note


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
