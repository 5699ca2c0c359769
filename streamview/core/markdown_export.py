"""A finished run as Markdown: each session's transcript and a table of its tool calls.

Everything from the stream goes through :func:`~streamview.core.sanitize.clean`, so
the document holds no terminal control sequence. The assistant's text is Markdown
already and is kept as written, but for its raw HTML (shown as text), its images (made
links) and a code fence it left open (closed); everything streamview adds (tool lines, table cells)
is escaped so that a ``|`` or a backtick in a command cannot break the layout.
"""

from __future__ import annotations

import re
from typing import Any

from streamview.core.dialects import label_of
from streamview.core.export_calls import call_details, demote_headings
from streamview.core.formatting import STATUS_MARK, counted, format_duration, format_usage
from streamview.core.linestore import LineStore
from streamview.core.markdown_text import (
    CELL_LIMIT,
    code_span,
    escape_html,
    table_cell,
)
from streamview.core.run_summary import run_summary
from streamview.core.sanitize import clean, one_line
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
from streamview.core.summary_markdown import summary_section

_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
"""An inline code span on one line (CommonMark: a run of backticks closed by as many)."""
_IMAGE = re.compile(r"(?<!\\)((?:\\\\)*)!\[")
"""An image's opening ``![`` (after an even run of backslashes: not escaped already)."""
_END = "streamview-end-of-the-answer"
"""A paragraph put after the answer to see whether a fence of the answer swallows it."""


def _inert(text: str) -> str:
    """Markdown text outside code made inert: ``<`` as ``&lt;`` (raw HTML shown), and
    an image's ``![`` as ``\\![`` (a link the reader may click, not a picture a renderer
    fetches from wherever the stream points: a tracking pixel)."""
    return _IMAGE.sub(r"\1\\![", text.replace("<", "&lt;"))


def _escape_tags(line: str) -> str:
    """A line of Markdown made :func:`_inert`, except in its code spans (shown as is)."""
    out = []
    position = 0
    for span in _CODE_SPAN.finditer(line):
        out.append(_inert(line[position : span.start()]))
        out.append(span.group())
        position = span.end()
    out.append(_inert(line[position:]))
    return "".join(out)


def answer_markdown(text: str) -> str:
    """The agent's Markdown made safe to paste into a document: no raw HTML, no open fence.

    Its raw HTML (a ``<script>``, an ``<img onerror>``, a ``<pre>`` that would swallow
    what follows) is shown as text: every ``<`` outside code becomes ``&lt;``; code
    blocks and code spans are left as written. A code fence the agent left open is
    closed at its end, so the rest of the export is not read as code.
    """
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark")
    lines = text.split("\n")
    # An HTML block (a <pre>, a <script>) can run to the end and hide the code blocks
    # after it: make the first line of each inert, then look again, until none is left.
    for _ in range(len(lines) + 1):
        starts = [
            token.map[0]
            for token in parser.parse("\n".join(lines))
            if token.type == "html_block" and token.map is not None
        ]
        if not starts:
            break
        for number in starts:
            lines[number] = lines[number].replace("<", "&lt;")
    code: set[int] = set()
    for token in parser.parse("\n".join(lines)):
        if token.type in ("fence", "code_block") and token.map is not None:
            code.update(range(*token.map))
    text = "\n".join(
        line if number in code else _escape_tags(line) for number, line in enumerate(lines)
    )
    for token in parser.parse(f"{text}\n\n{_END}\n"):
        if token.type == "fence" and _END in token.content:
            return f"{text}\n{token.markup}"
    return text


def _quote(text: str) -> list[str]:
    """Plain text (a prompt, thinking) as a block quote; raw HTML in it is shown, not run."""
    lines = escape_html(clean(text)).rstrip("\n").split("\n")
    return [f"> {_escape_tags(line)}".rstrip() for line in lines]


def call_line(call: ToolCall) -> str:
    """``**✓ shell** `pytest -x` — succeeded · 3 passed · 1.2s``."""
    mark = STATUS_MARK.get(call.status, "•")
    parts = [f"**{mark} {table_cell(call.kind, 60)}**"]
    if call.target:
        parts.append(code_span(call.target[:CELL_LIMIT]))
    detail = [call.status]
    if call.summary and call.summary != call.status:
        detail.append(table_cell(call.summary))
    duration = format_duration(call.duration_ms)
    if duration:
        detail.append(duration)
    return " ".join(parts) + " — " + " · ".join(detail)


def calls_table(session: Session) -> list[str]:
    """The session's tool calls as a Markdown table (empty list when there are none)."""
    if not session.tool_calls:
        return []
    lines = [
        "| # | Tool | Target | Status | Summary | Duration |",
        "|--:|---|---|---|---|--:|",
    ]
    for call in session.tool_calls:
        target = code_span(call.target[:CELL_LIMIT]).replace("|", "\\|") if call.target else ""
        summary = call.summary if call.summary and call.summary != call.status else ""
        lines.append(
            f"| {call.index + 1} | {table_cell(call.kind, 60)} | {target} "
            f"| {STATUS_MARK.get(call.status, '•')} {call.status} | {table_cell(summary)} "
            f"| {format_duration(call.duration_ms)} |"
        )
    return lines


def session_markdown(
    session: Session, number: int, thinking: bool = True, store: LineStore | None = None
) -> list[str]:
    """One session: facts, prompt, transcript in order (each call with its arguments and
    result when ``store`` has them), tool calls table, outcome."""
    title = f"## Session {number}"
    if session.model:
        title += f" · {table_cell(session.model, 80)}"
    lines = [title, ""]
    for label, value in (
        ("Agent", label_of(session.agent) or session.agent),
        ("Session id", session.session_id),
        ("Directory", session.cwd),
        ("Permission mode", session.permission_mode),
    ):
        if value:
            lines.append(f"- **{label}:** {code_span(value)}")
    lines.append(f"- **Outcome:** {outcome_text(session)}")
    lines.append("")
    lines.append("### Transcript")
    lines.append("")
    for block in session.blocks:
        text = block.text
        if block.kind == PROMPT:
            lines.append("**Prompt:**")
            lines.append("")
            lines.extend(_quote(text) if text.strip() else ["> (empty)"])
        elif block.kind == TEXT:
            if not text.strip():
                continue
            # The agent's headings go under the session's "### Transcript".
            lines.append(demote_headings(answer_markdown(clean(text).strip("\n")), 3))
        elif block.kind == THINKING:
            if not thinking or not text.strip():
                continue
            lines.append("<details><summary>Thinking</summary>")
            lines.append("")
            lines.extend(_quote(text))
            lines.append("")
            lines.append("</details>")
        elif block.kind == TOOL and block.call_index is not None:
            call = session.tool_calls[block.call_index]
            lines.append(call_line(call))
            if store is not None:
                lines.append("")
                lines.extend(call_details(call, store, session.cwd))
        elif block.kind == NOTICE:
            lines.append(f"*{table_cell(text, 400)}*")
        lines.append("")
    if session.text.strip() and not any(b.kind == TEXT for b in session.blocks):
        lines.append(answer_markdown(clean(session.text).strip("\n")))
        lines.append("")
    table = calls_table(session)
    if table:
        lines.append(f"### Tool calls ({len(session.tool_calls)})")
        lines.append("")
        lines.extend(table)
        lines.append("")
    return lines


def outcome_text(session: Session) -> str:
    """``success in 4.2s · 7,120 in · 354 out`` or ``incomplete (no result)``."""
    outcome = session.outcome
    said = one_line(outcome.message, 200) if outcome.message else ""
    if outcome.status == "incomplete":
        return f"incomplete: {said or 'the stream ended without a result'}"
    parts = [outcome.status]
    duration = format_duration(outcome.duration_ms)
    if duration:
        parts[0] += f" in {duration}"
    usage = format_usage(outcome.usage)
    if usage:
        parts.append(usage)
    if said and said != outcome.result:
        parts.append(said)
    return " · ".join(parts)


def to_markdown(
    state: StreamState,
    title: str = "Agent run",
    process: dict[str, Any] | None = None,
    thinking: bool = True,
    store: LineStore | None = None,
) -> str:
    """The whole run as one Markdown document.

    Args:
        state: A folded (preferably finished) stream.
        title: The document's heading (the input's name, say).
        process: ``{"exit_code", "stderr"}`` when streamview ran the agent itself.
        thinking: Include the model's thinking (folded in ``<details>``).
        store: Where the stream's lines are kept: each tool call then comes with its
            arguments and result (capped), not only its summary.
    """
    lines = [f"# {table_cell(title, 200)}", ""]
    counts = state.counts
    lines.append(
        f"{counted(len(state.sessions), 'session')} · {counted(counts.total, 'line')} · "
        f"{counts.malformed} malformed · {counts.unknown} unknown"
    )
    lines.append("")
    if state.sessions:
        lines.extend(summary_section(run_summary(state)))
    for number, session in enumerate(state.sessions, start=1):
        lines.extend(session_markdown(session, number, thinking, store))
    if process is not None:
        lines.append("## Agent process")
        lines.append("")
        code = process.get("exit_code")
        lines.append(f"- **Exit code:** {'still running' if code is None else code}")
        stderr = process.get("stderr") or ""
        if isinstance(stderr, str) and stderr.strip():
            fence = "```"
            while fence in stderr:
                fence += "`"
            lines.extend(["", "**stderr:**", "", fence + "text", clean(stderr).rstrip("\n"), fence])
        lines.append("")
    if state.malformed:
        lines.append(f"## Lines that are not records ({len(state.malformed)})")
        lines.append("")
        for line in state.malformed[:50]:
            lines.append(f"- line {line.line}: {table_cell(line.reason, 80)}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
