"""What the reliability campaign (``bench/reliability.py``) reports: a :class:`Part` and
its figures, each part timed, and the Markdown section they make."""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Part:
    """One part of the campaign and its figures."""

    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    """(what was tried, what held) lines."""
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, tried: str, held: str) -> None:
        """Note one figure."""
        self.rows.append((tried, held))
        print(f"  {tried}: {held}", flush=True)

    def fail(self, what: str) -> None:
        """Note one failure."""
        self.failures.append(what)
        print(f"  FAILED: {what}", flush=True)


def timed(run: Callable[[Part], None], title: str) -> Part:
    """Run one part, catching anything it raises as a failure."""
    part = Part(title)
    print(f"\n## {title}", flush=True)
    started = time.perf_counter()
    try:
        run(part)
    except Exception:
        part.fail(f"the campaign itself raised: {traceback.format_exc(limit=3)}")
    part.seconds = time.perf_counter() - started
    return part


def cell(text: str) -> str:
    """Text for a Markdown table cell: a ``|`` would end the cell, even in code."""
    return text.replace("|", "\\|")


def size_text(size: int) -> str:
    """``50 MB``, ``120 KB``."""
    return f"{size / 1e6:,.0f} MB" if size >= 1e6 else f"{size / 1e3:,.0f} KB"


def markdown_report(parts: list[Part], seconds: float, quick: bool) -> str:
    """The README section."""
    out = [
        "## Reliability",
        "",
        "A viewer for agent output reads text written by a model and by the commands it ran."
        " streamview treats every byte of it as hostile: nothing from the stream reaches the"
        " terminal as a control sequence, no input makes it crash or drop a line, and large"
        " inputs stay responsive.",
        "",
        f"Figures from `python bench/reliability.py{' --quick' if quick else ''}`"
        f" ({seconds / 60:.1f} min on {os.cpu_count()} shared cores; a UI stall is the longest"
        " time a 20 ms timer of the viewer waited, so other load on the machine adds to it;"
        " each viewer run is a fresh process with the viewer's own settings, as a user runs"
        " it)."
        " The same checks, with smaller counts, run in `pytest tests/hostile`"
        " (about 3 minutes; `-m 'not slow'` leaves out the big inputs: about 80 s).",
        "",
    ]
    for part in parts:
        out += [f"### {part.title}", "", "| tried | held |", "|---|---|"]
        out += [f"| {cell(tried)} | {cell(held)} |" for tried, held in part.rows]
        if part.failures:
            out += ["", "**Failures:**", ""] + [f"- {f}" for f in part.failures]
        out.append("")
    return "\n".join(out)
