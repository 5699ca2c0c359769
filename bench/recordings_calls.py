"""Helpers on top of ``synth.Run`` for the scripted demo recordings: whole shell calls,
thinking paced like GPT or Composer, a run in the tidepool workspace, grep hits."""

from __future__ import annotations

import random

import synth  # bench/ is a folder of scripts, not a package
from recordings_tidepool import CWD


def shell(
    run: synth.Run,
    mcid: str,
    command: str,
    description: str,
    *,
    stdout: str = "",
    stderr: str = "",
    exit_code: int = 0,
    duration: int,
    timeout: int = 30000,
) -> synth.ToolCall:
    """Emit a whole shell call (started, run, completed)."""
    call = start_shell(run, mcid, command, description, timeout=timeout)
    run.finish_tool(
        call,
        synth.shell_result(
            command,
            exit_code=exit_code,
            stdout=stdout,
            stderr=stderr,
            execution_time=duration - run.rng.randint(30, 160),
        ),
        duration_ms=duration,
    )
    return call


def start_shell(
    run: synth.Run, mcid: str, command: str, description: str, *, timeout: int = 30000
) -> synth.ToolCall:
    """Emit ``started`` for a shell call and return the open call."""
    call_id = run.ids.call_id(run.call_id_style)
    args = synth.shell_args(
        command,
        tool_call_id=call_id,
        conversation_id=run.session_id,
        request_id=run.request_id,
        description=description,
        timeout=timeout,
    )
    return run.start_tool(
        "shellToolCall", args, call_id=call_id, model_call_id=mcid, description=description
    )


GPT = (1, (3, 18))
"""GPT-style thinking: one word per delta, 3-18 ms apart (as in the 2026.01 captures)."""
COMPOSER = (4, (0, 2))
"""Composer-style thinking: a few words per delta, bursts within the same ms."""


def think(run: synth.Run, text: str, style: tuple[int, tuple[int, int]]) -> None:
    """Emit a thinking block paced like ``style`` (words per delta, gap range in ms)."""
    run.think(text, max_words=style[0], gap_ms=style[1])


def new_run(
    seed: int,
    lines: list[bytes],
    start_ms: int,
    *,
    model: str,
    call_id_style: synth.CallIdStyle = "tool",
    partial: bool = False,
    token_gap_ms: tuple[int, int] = (0, 30),
) -> synth.Run:
    """A Run in the tidepool workspace writing into ``lines``."""
    return synth.Run(
        random.Random(seed),
        lines.append,
        start_ms=start_ms,
        cwd=CWD,
        model=model,
        partial=partial,
        call_id_style=call_id_style,
        token_gap_ms=token_gap_ms,
    )


def hit(text: str, needle: str, context: int = 0) -> list[tuple[int, str, bool]]:
    """Grep ``needle`` in ``text``: ``(line number, line, is_context_line)`` rows."""
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if needle in line]
    keep = sorted({j for i in found for j in range(i - context, i + context + 1)})
    return [(j + 1, lines[j], j not in found) for j in keep if 0 <= j < len(lines)]
