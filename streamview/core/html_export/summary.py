"""The run's summary at the head of the HTML page: the headline, tokens and cost, the
files changed with their +/- lines, the commands with their exit status, the calls that
failed or were refused. Every text from the stream is sanitized, then escaped."""

from __future__ import annotations

from html import escape

from streamview.core.formatting import STATUS_MARK
from streamview.core.run_summary import CallRef, RunSummary
from streamview.core.sanitize import clean

LISTED = 50
"""Rows of each table written; the rest are counted."""


def _text(value: object) -> str:
    return escape(clean(str(value)), quote=True)


def _count(value: int | None, sign: str) -> str:
    return "?" if value is None else f"{sign}{value:,}"


def _more(total: int, noun: str) -> str:
    if total <= LISTED:
        return ""
    return f'<p class="more">… and {total - LISTED:,} more {noun} (listed below)</p>'


def _status(call: CallRef) -> str:
    said = f"exit {call.exit_code}" if call.exit_code is not None else call.status
    mark = STATUS_MARK.get(call.status, "•")
    return (
        f'<td class="st-{_text(call.status)}"><span class="mark">{mark}</span> {_text(said)}</td>'
    )


def summary_html(summary: RunSummary) -> str:
    """The ``<section class="summary">`` the page begins with."""
    out = [
        '<section class="summary"><h2>Summary</h2>',
        f'<p class="headline st-{_text(summary.outcome)}">{_text(summary.headline())}</p>',
    ]
    facts = [("Outcome", summary.message), ("Tokens", summary.usage_text())]
    items = [f"<dt>{name}</dt><dd>{_text(value)}</dd>" for name, value in facts if value]
    if items:
        out.append(f'<dl class="facts">{"".join(items)}</dl>')
    if summary.files:
        out.append(f"<h3>Files changed ({len(summary.files):,})</h3>")
        out.append('<table class="summary-table"><tr><th>File</th><th>+</th><th>-</th></tr>')
        for change in summary.files[:LISTED]:
            how = "" if "edit" in change.kinds else " (" + ", ".join(change.kinds) + ")"
            out.append(
                f'<tr><td class="target">{_text(change.path)}{_text(how)}</td>'
                f'<td class="add">{_count(change.added, "+")}</td>'
                f'<td class="del">{_count(change.removed, "-")}</td></tr>'
            )
        out.append("</table>" + _more(len(summary.files), "files"))
    if summary.commands:
        out.append(f"<h3>Commands run ({len(summary.commands):,})</h3>")
        out.append('<table class="summary-table"><tr><th>Exit</th><th>Command</th></tr>')
        for call in summary.commands[:LISTED]:
            out.append(
                f'<tr>{_status(call)}<td class="target">{_text(call.target or "")}</td></tr>'
            )
        out.append("</table>" + _more(len(summary.commands), "commands"))
    if summary.failed:
        out.append(f"<h3>Failed or refused ({len(summary.failed):,})</h3>")
        out.append(
            '<table class="summary-table"><tr><th>Status</th><th>Tool</th><th>Target</th>'
            "<th>Said</th></tr>"
        )
        for call in summary.failed[:LISTED]:
            out.append(
                f"<tr>{_status(call)}<td>{_text(call.kind)}</td>"
                f'<td class="target">{_text(call.target or "")}</td>'
                f"<td>{_text(call.summary or '')}</td></tr>"
            )
        out.append("</table>" + _more(len(summary.failed), "calls"))
    out.append("</section>")
    return "".join(out)
