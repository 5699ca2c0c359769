"""The transcript's blocks as it keeps them: one entry per block with its laid-out
lines, what each block looks like (its signature), estimates for blocks not yet laid
out, the one-line marker of a tool call, and the jobs the layout thread runs.

No widget here: :class:`streamview.ui.transcript.transcript.Transcript` scrolls and draws these.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import msgspec
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from rich.theme import Theme
from textual.strip import Strip

from streamview.core import tools
from streamview.core.call_reading import call_look
from streamview.core.formatting import STATUS_MARK, describe_call, format_duration
from streamview.core.sanitize import clean, one_line
from streamview.core.state import TEXT, THINKING, TOOL, Block, Session, ToolCall
from streamview.ui.transcript.block_layout import (
    BLOCK_TEXT_LIMIT,
    NOTHING_FROZEN,
    BlockLayout,
    Frozen,
    LayoutStyles,
)
from streamview.ui.transcript.layout_thread import LayoutJob, LayoutResult

SLOW_TAIL_FACTOR = 4
"""A growing block is rendered again only after this many times its last render time."""
BACKGROUND_MARKDOWN_CHARS = 4_000
"""Answer text longer than this is laid out on the layout thread, not the UI thread.

Rich needs about 100 ms for 8 KB of fenced code and 20 ms for 20 KB of prose on the
machines this was measured on: past a few KB a frame would be missed.
"""
BACKGROUND_PLAIN_CHARS = 50_000
"""Thinking or prompt text (plain, no Markdown) longer than this goes to the layout thread."""

STATUS_CLASS = {
    tools.RUNNING: "transcript--tool-running",
    tools.SUCCEEDED: "transcript--tool-ok",
    tools.COMPLETED: "transcript--tool-ok",
    tools.FAILED: "transcript--tool-failed",
    tools.ERROR: "transcript--tool-failed",
    tools.REJECTED: "transcript--tool-rejected",
    tools.INTERRUPTED: "transcript--tool-rejected",
}
"""The component class that colours a tool marker, by call status."""


Estimate = tuple[tuple[object, ...], int]
"""An entry's estimate: its signature and width, and the height guessed for them."""
ESTIMATES_SHARED = 50_000
"""Distinct estimates kept for the entries to share; past that they start over."""
_estimates: dict[Estimate, Estimate] = {}


class Entry(msgspec.Struct):
    """A block and its rendered lines."""

    block: Block
    signature: tuple[object, ...] | None = None
    """What the block looked like when ``lines`` were rendered."""
    lines: list[Strip] | None = None
    """Rendered lines at the current width; ``None`` when stale."""
    height: int = 0
    """Lines the block takes: rendered, else estimated."""
    frozen: Frozen = NOTHING_FROZEN
    """Open answer: the finished paragraphs, laid out once."""
    job: LayoutJob | None = None
    """The layout the layout thread is doing for this block, if any."""
    shown: int = 0
    """Request number of the lines shown (a late result from the thread must not
    replace newer lines laid out on the UI thread)."""
    gap: int = 0
    """Blank lines above the block (text after a tool marker or notice)."""
    cost: float = 0.0
    """Seconds the last rendering took."""
    rendered_at: float = 0.0
    """When it was rendered (monotonic seconds)."""
    estimate: Estimate | None = None
    """``(signature and width, height)`` of the last estimate, so reflows stay cheap."""


class Owner(msgspec.Struct, frozen=True):
    """Which entry a layout job is for, and what it looked like when asked."""

    entry: Entry
    index: int
    signature: tuple[object, ...]
    width: int
    request: int


def signature_of(block: Block, session: Session | None) -> tuple[object, ...]:
    """What ``block`` looks like now: lines laid out for another signature are stale."""
    if block.kind == TOOL:
        if session is None or block.call_index is None:
            return (TOOL,)
        return (TOOL, *call_look(session.tool_calls, block.call_index))
    return (block.kind, block.revision, block.deltas, block.open, len(block.parts))


def estimate_text(block: Block, width: int) -> int:
    """Lines a text-like block will take at ``width``, guessed without laying it out."""
    text = block.text[:BLOCK_TEXT_LIMIT]  # the most a block shows
    lines = sum(len(line) // width + 1 for line in text.split("\n"))
    return lines + (2 if block.kind == THINKING else 1)


def estimate_entry(entry: Entry, key: tuple[object, ...], width: int) -> int:
    """Lines ``entry`` takes at ``width`` before it is laid out: its last estimate if
    that was for the same ``key`` (its signature and width), else a new one.

    Most estimates are alike (a finished block at this width, a few lines): the entries
    share one tuple each, not two per block (144 bytes a block; a 2 GB session has
    860,000 text blocks).
    """
    estimate = entry.estimate
    if estimate is not None and estimate[0] == key:
        return estimate[1]
    made = (key, estimate_text(entry.block, width) + entry.gap)
    if len(_estimates) > ESTIMATES_SHARED:
        _estimates.clear()
    entry.estimate = _estimates.setdefault(made, made)
    return made[1]


def layout_styles(style: Callable[[str], Style], dark: bool) -> LayoutStyles:
    """The styles a layout needs, from the transcript's component styles."""
    code, heading, link = (
        style("transcript--code"),
        style("transcript--heading"),
        style("transcript--link"),
    )
    theme = Theme(
        {
            "markdown.code": code,
            "markdown.h1": heading + Style(bold=True),
            "markdown.h2": heading + Style(bold=True),
            "markdown.h3": heading,
            "markdown.h4": heading,
            "markdown.h5": heading,
            "markdown.h6": heading,
            "markdown.link": link,
            "markdown.link_url": link,
            "markdown.block_quote": Style(italic=True),
            "markdown.hr": Style(dim=True),
        }
    )
    return LayoutStyles(
        theme=theme,
        code_theme="monokai" if dark else "default",
        thinking=style("transcript--thinking"),
        thinking_label=style("transcript--thinking-label"),
        notice=style("transcript--notice"),
        prompt=style("transcript--prompt"),
        prompt_mark=style("transcript--prompt-mark"),
    )


def describe(call: ToolCall, cwd: str | None) -> str:
    """``read src/app.py``: kind and target, paths relative to the session's cwd."""
    if call.kind in tools.PATH_KINDS and call.target:
        relative = tools.relative_path(call.target, cwd)
        return f"{one_line(call.kind, 60)} {one_line(relative, 300)}"
    return describe_call(call, 300)


def tool_line(
    call: ToolCall | None,
    cwd: str | None,
    style: Callable[[str], Style],
    console: Console,
    width: int,
) -> Strip:
    """A tool call's marker: ``● read src/app.py  ✓ completed · 12 lines · 0.1s``."""
    base = style("transcript--tool")
    detail = style("transcript--tool-detail")
    if call is None:
        return Strip([Segment(" ● tool call", base)])
    status_style = style(STATUS_CLASS.get(call.status, "transcript--tool-ok"))
    # A subagent's call is drawn under the task call it works for.
    text = Text(" ")
    if call.parent_call_id:
        text.append("  ↳ ", detail)
    text.append("● ", status_style)
    text.append(describe(call, cwd), base)
    text.append("  ")
    mark = STATUS_MARK.get(call.status, "•")
    text.append(f"{mark} {call.status}", status_style)
    extra = marker_extra(call)
    if extra:
        text.append(" · " + extra, detail)
    text.truncate(width + 1, overflow="ellipsis")
    return Strip(text.render(console))


def marker_extra(call: ToolCall) -> str:
    """What a call's marker says after its status: its summary (when it is not the
    status) and its duration, `` · ``-joined (``""``: neither)."""
    extra = []
    if call.summary and call.summary != call.status:
        extra.append(clean(call.summary).replace("\n", " "))
    duration = format_duration(call.duration_ms) if not call.is_open else ""
    if duration:
        extra.append(duration)
    return " · ".join(extra)


def answer_job(
    text: str, is_open: bool, revision: int, frozen: Frozen, width: int, layout: BlockLayout
) -> LayoutResult:
    """Lay out an answer block (on the layout thread)."""
    started = time.perf_counter()
    lines, frozen = layout.answer(text, is_open, revision, frozen, width)
    return LayoutResult(lines, frozen, time.perf_counter() - started)


def thinking_job(text: str, is_open: bool, width: int, layout: BlockLayout) -> LayoutResult:
    """Lay out a thinking block (on the layout thread)."""
    started = time.perf_counter()
    lines = layout.thinking(text, is_open, width)
    return LayoutResult(lines, seconds=time.perf_counter() - started)


def prompt_job(text: str, width: int, layout: BlockLayout) -> LayoutResult:
    """Lay out a prompt (on the layout thread)."""
    started = time.perf_counter()
    lines = layout.prompt(text, width)
    return LayoutResult(lines, seconds=time.perf_counter() - started)


def layout_run(block: Block, frozen: Frozen, width: int) -> Callable[[BlockLayout], LayoutResult]:
    """The layout thread's work for ``block``: its text is read here, on the UI thread
    (the state belongs to it), and the laying out happens there."""
    text = block.text
    if block.kind == TEXT:
        return partial(answer_job, text, block.open, block.revision, frozen, width)
    if block.kind == THINKING:
        return partial(thinking_job, text, block.open, width)
    return partial(prompt_job, text, width)
