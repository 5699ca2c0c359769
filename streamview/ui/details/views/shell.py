"""The view of a shell command: its exit code and time, then its output in colour."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from streamview.core.formatting import format_duration
from streamview.ui.details.sections import Section, ansi_output, fields
from streamview.ui.details.views.base import ToolView, as_int, as_str


def shell_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """Exit code, signal and time (the command and directory only if they differ from
    the arguments), then the interleaved output, or stdout and stderr apart."""
    command = as_str(payload.get("command")) or as_str(args.get("command"))
    cwd = as_str(payload.get("workingDirectory")) or as_str(args.get("workingDirectory"))
    code_ = as_int(payload.get("exitCode"))
    exit_text = None
    if code_ is not None:
        exit_text = Text(str(code_), style="green" if code_ == 0 else "bold red")
    signal = as_str(payload.get("signal"))
    time = as_int(payload.get("executionTime"))
    facts = fields(
        [
            ("command", command if command != as_str(args.get("command")) else None),
            ("directory", cwd if cwd != as_str(args.get("workingDirectory")) else None),
            ("exit code", exit_text),
            ("signal", signal),
            ("time", format_duration(time) if time is not None else None),
        ]
    )
    sections = [Section("result", facts)]
    output = as_str(payload.get("interleavedOutput"))
    if output:
        body, cut = ansi_output(output, full)
        sections.append(Section("output", body, cut, wrap=False))
    else:
        for key in ("stdout", "stderr"):
            text = as_str(payload.get(key))
            if text:
                body, cut = ansi_output(text, full)
                sections.append(Section(key, body, cut, wrap=False))
    if len(sections) == 1 and code_ is not None:
        sections.append(Section("output", Text("no output", style="dim italic")))
    return sections


SHELL = ToolView(shell_view, main_args=("command", "workingDirectory", "timeout", "isBackground"))
