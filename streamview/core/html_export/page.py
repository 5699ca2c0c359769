"""A finished run as one self-contained HTML page: no network, no server.

The page holds the session header, the transcript in order (the answer rendered from
our own Markdown parse, thinking folded, every tool call with its kind, target, status
and duration), the outcome, usage and cost. A call's detail is written as a JSON island
(``<script type="application/json">``) the page's script lays out only when the call
is opened, so a run of 10,000 calls loads quickly. Everything from the stream is
sanitized (:func:`~streamview.core.sanitize.clean`) and escaped (:func:`html.escape`,
or :func:`json_island`); a Content-Security-Policy forbids every load and every
script but the page's own.
"""

from __future__ import annotations

import secrets
from html import escape
from importlib.resources import files
from typing import Any

from streamview.core.export_calls import demote_headings
from streamview.core.formatting import STATUS_MARK, counted, format_duration, format_usage
from streamview.core.html_export.detail import call_detail, dumps
from streamview.core.html_export.markdown import render_markdown
from streamview.core.html_export.summary import summary_html
from streamview.core.linestore import LineStore
from streamview.core.run_summary import run_summary
from streamview.core.sanitize import clean
from streamview.core.state import (
    NOTICE,
    PROMPT,
    TEXT,
    THINKING,
    TOOL,
    Session,
    StreamState,
    ToolCall,
)
from streamview.core.tools import relative_path

CHUNK = 64
"""Calls whose details share one JSON island: an element per call cost Chromium 7 s of a
10,000-call page's 11.5 s load, one island for all makes the first call opened parse
every call's detail (50 MB for a 7,000-call run)."""
_ISLAND_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def text(value: object) -> str:
    """Untrusted text for an HTML text node or attribute: sanitized, then escaped."""
    return escape(clean(str(value)), quote=True)


def json_island(value: Any) -> str:
    """``value`` as JSON safe inside ``<script type="application/json">``: no ``<``,
    ``>``, ``&`` or line separator is left to close the element or confuse a parser."""
    data = dumps(value)
    for char, escaped in _ISLAND_ESCAPES.items():
        if char in data:
            data = data.replace(char, escaped)
    return data


def _asset(name: str) -> str:
    return files("streamview.core.html_export").joinpath(name).read_text(encoding="utf-8")


class _Page:
    """Writes one page; gathers the calls' details for the island."""

    def __init__(self, store: LineStore | None, thinking: bool) -> None:
        self.store = store
        self.thinking = thinking
        self.out: list[str] = []
        self.number = 0
        self.chunk: list[list[dict[str, Any]]] = []
        """The details of the calls not yet written to an island."""
        self.islands: list[str] = []

    def flush(self) -> None:
        """Write the pending details as the next island (``id="cK"``)."""
        if self.chunk:
            island = json_island(self.chunk)
            self.islands.append(
                f'<script type="application/json" id="c{len(self.islands)}">{island}</script>'
            )
            self.chunk = []

    def session(self, session: Session, number: int) -> None:
        out = self.out
        title = f"Session {number}" + (f" · {clean(session.model)}" if session.model else "")
        out.append(f'<section class="session"><h2>{text(title)}</h2>')
        self.facts(session)
        children = _children(session)
        nested = {call.index for calls in children.values() for call in calls}
        shown: set[int] = set()
        out.append('<div class="transcript">')
        for block in session.blocks:
            body = block.text
            if block.kind == PROMPT:
                out.append('<div class="block prompt"><div class="label">Prompt</div>')
                out.append(
                    f'<div class="plain">{text(body) if body.strip() else "(empty)"}</div></div>'
                )
            elif block.kind == TEXT and body.strip():
                rendered = render_markdown(demote_headings(body.strip("\n"), 2))
                out.append(f'<div class="block answer">{rendered}</div>')
            elif block.kind == THINKING and self.thinking and body.strip():
                out.append('<details class="block thinking"><summary>Thinking</summary>')
                out.append(f'<div class="plain">{text(body.strip())}</div></details>')
            elif block.kind == TOOL and block.call_index is not None:
                call = session.tool_calls[block.call_index]
                if call.index not in nested and call.index not in shown:
                    self.call(call, session, children, shown)
            elif block.kind == NOTICE and body.strip():
                out.append(f'<div class="block notice">{text(body.strip())}</div>')
        for call in session.tool_calls:
            if call.index not in shown and call.index not in nested:
                self.call(call, session, children, shown)
        if session.text.strip() and not any(b.kind == TEXT for b in session.blocks):
            out.append(f'<div class="block answer">{render_markdown(session.text)}</div>')
        out.append("</div>")
        self.outcome(session)
        out.append("</section>")

    def facts(self, session: Session) -> None:
        rows = [
            ("Agent", session.agent),
            ("Session id", session.session_id),
            ("Directory", session.cwd),
            ("Permission mode", session.permission_mode),
            ("Tool calls", f"{len(session.tool_calls):,}" if session.tool_calls else None),
        ]
        self.out.append(_dl("facts", rows))

    def call(
        self,
        call: ToolCall,
        session: Session,
        children: dict[str, list[ToolCall]],
        shown: set[int],
    ) -> None:
        shown.add(call.index)  # (a packed session makes a call each time it is read)
        self.number += 1
        number = self.number
        mark = STATUS_MARK.get(call.status, "•")
        parts = [
            f'<span class="mark">{text(mark)}</span>',
            f'<span class="kind">{text(call.kind)}</span>',
        ]
        if call.target:
            target = relative_path(call.target, session.cwd)[:400]
            parts.append(f'<code class="target">{text(target)}</code>')
        parts.append(f'<span class="status">{text(call.status)}</span>')
        if call.summary and call.summary != call.status:
            parts.append(f'<span class="summary">{text(call.summary[:200])}</span>')
        duration = format_duration(call.duration_ms)
        if duration:
            parts.append(f'<span class="duration">{text(duration)}</span>')
        status = escape(call.status.replace(" ", "-"), quote=True)
        self.chunk.append(call_detail(call, self.store, session.cwd))
        if len(self.chunk) == CHUNK:
            self.flush()
        self.out.append(
            f'<details class="block call st-{status}" data-n="{number - 1}">'
            f"<summary>{' '.join(parts)}</summary>"
            f'<div class="detail"></div></details>'
        )
        kids = children.get(call.call_id)
        if kids:
            self.out.append('<div class="sub">')
            for kid in kids:
                self.call(kid, session, children, shown)
            self.out.append("</div>")

    def outcome(self, session: Session) -> None:
        outcome = session.outcome
        cost = f"${outcome.cost_usd:.4f}" if outcome.cost_usd is not None else None
        rows = [
            (
                "Outcome",
                outcome.status if outcome.status != "incomplete" else "incomplete: no result",
            ),
            ("Duration", format_duration(outcome.duration_ms)),
            ("Turns", outcome.num_turns),
            ("Usage", usage_text(outcome.usage)),
            ("Cost", cost),
            ("Message", outcome.message),
        ]
        self.out.append(f'<div class="outcome st-{escape(outcome.status)}">')
        self.out.append(_dl("facts", rows))
        self.out.append("</div>")


def usage_text(usage: dict[str, Any] | None) -> str:
    """``7,120 in · 354 out``; a usage in another agent's words as it is named there
    (``input_tokens 16 · output_tokens 95``)."""
    known = format_usage(usage)
    if known or not usage:
        return known
    counts = [
        f"{clean(str(key))} {value:,}"
        for key, value in usage.items()
        if isinstance(value, int) and not isinstance(value, bool)
    ]
    return " · ".join(counts)


def _children(session: Session) -> dict[str, list[ToolCall]]:
    """Calls made under a subagent's call, by that call's id (in the order made)."""
    children: dict[str, list[ToolCall]] = {}
    for call in session.tool_calls:
        parent = call.parent_call_id
        if parent and parent in session.calls_by_id and parent != call.call_id:
            children.setdefault(parent, []).append(call)
    return children


def _dl(css: str, rows: list[tuple[str, Any]]) -> str:
    items = [
        f"<dt>{text(name)}</dt><dd>{text(value)}</dd>"
        for name, value in rows
        if value not in (None, "")
    ]
    return f'<dl class="{css}">{"".join(items)}</dl>' if items else ""


def to_html(
    state: StreamState,
    title: str = "Agent run",
    store: LineStore | None = None,
    process: dict[str, Any] | None = None,
    thinking: bool = True,
) -> str:
    """The whole run as one HTML page (see the module's docstring).

    Args:
        state: A folded (preferably finished) stream.
        title: The page's heading (the input's name, say).
        store: Where the stream's lines are kept: each call's detail then has its
            arguments and result, not only its summary.
        process: ``{"exit_code", "stderr"}`` when streamview ran the agent itself.
        thinking: Include the model's thinking (folded).
    """
    nonce = secrets.token_urlsafe(18)
    page = _Page(store, thinking)
    counts = state.counts
    page.out.append(
        f'<p class="counts">{counted(len(state.sessions), "session")} · '
        f"{counted(counts.total, 'line')} · "
        f"{counts.malformed:,} malformed · {counts.unknown:,} unknown</p>"
    )
    if state.sessions:
        page.out.append(summary_html(run_summary(state)))
    for number, session in enumerate(state.sessions, start=1):
        page.session(session, number)
    page.flush()
    if process is not None:
        code = process.get("exit_code")
        rows: list[tuple[str, Any]] = [("Exit code", "still running" if code is None else code)]
        page.out.append('<section class="session"><h2>Agent process</h2>')
        page.out.append(_dl("facts", rows))
        stderr = process.get("stderr")
        if isinstance(stderr, str) and stderr.strip():
            page.out.append(f'<pre class="plain">{text(stderr)}</pre>')
        page.out.append("</section>")
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src 'nonce-{nonce}'; img-src 'none'; base-uri 'none'; form-action 'none'"
    )
    return "".join(
        [
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">',
            '<meta name="referrer" content="no-referrer">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{text(title)} · streamview</title>",
            f"<style>{_asset('page.css')}</style></head><body>",
            '<header class="top"><h1>',
            text(title),
            '</h1><div class="find"><input id="find" type="search" placeholder="Search the run"'
            ' aria-label="Search the run" autocomplete="off"><span id="found"></span></div>',
            "</header><main>",
            *page.out,
            "</main>",
            *page.islands,
            f'<script nonce="{nonce}">{_asset("page.js")}</script>',
            "</body></html>\n",
        ]
    )
