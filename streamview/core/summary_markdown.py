"""A run's summary as Markdown: the section the Markdown export begins with, and the
``--export-markdown FILE --summary`` form sized for a CI job's summary.

GitHub's step summary takes 1 MiB per step; :func:`ci_summary` keeps under
:data:`CI_LIMIT` bytes whatever the run's length: the outcome, a table of the tool
calls with the failures first, each failure's output folded in ``<details>``, and a
note (no link) of what was left out to stay under the limit. Everything from the stream
is escaped as the Markdown export escapes it.
"""

from __future__ import annotations

from streamview.core.export_calls import TEXT_KEYS, call_parts, fenced
from streamview.core.formatting import STATUS_MARK, counted, format_duration
from streamview.core.linestore import LineStore
from streamview.core.markdown_text import code_span, table_cell
from streamview.core.run_summary import CallRef, RunSummary, call_ref, run_summary
from streamview.core.sanitize import clean, dumps_for_terminal
from streamview.core.state import StreamState, ToolCall

CI_LIMIT = 200_000
"""Bytes a CI summary stays under (GitHub's step summary takes 1 MiB)."""
OUTPUT_LINES = 40
"""Lines of one failure's output shown in its ``<details>``."""
LISTED = 20
"""Files and commands listed in the summary section; the rest are counted."""


def _lines(value: int | None, sign: str) -> str:
    return "?" if value is None else f"{sign}{value:,}"


def _exit(call: CallRef) -> str:
    if call.exit_code is not None:
        return f"{STATUS_MARK.get(call.status, '•')} exit {call.exit_code}"
    return f"{STATUS_MARK.get(call.status, '•')} {call.status}"


def summary_section(summary: RunSummary, heading: str = "##") -> list[str]:
    """The summary as Markdown lines: outcome and duration, tokens and cost, files
    changed with their +/- lines, commands with their exit status, failed calls."""
    lines = [f"{heading} Summary", "", f"**{table_cell(summary.headline(), 300)}**", ""]
    if summary.message:
        lines += [f"- **Outcome:** {table_cell(summary.message, 300)}"]
    tokens = summary.usage_text()
    if tokens:
        lines += [f"- **Tokens:** {tokens}"]
    if lines[-1]:
        lines.append("")
    if summary.files:
        lines += [f"**Files changed ({len(summary.files):,})**", "", "| File | + | - |"]
        lines.append("|---|--:|--:|")
        for change in summary.files[:LISTED]:
            lines.append(
                f"| {code_span(change.path).replace('|', chr(92) + '|')}{_how(change.kinds)} "
                f"| {_lines(change.added, '+')} | {_lines(change.removed, '-')} |"
            )
        lines += _more(len(summary.files), "file")
    if summary.commands:
        lines += [f"**Commands run ({len(summary.commands):,})**", "", "| Command | Exit |"]
        lines.append("|---|---|")
        for call in summary.commands[:LISTED]:
            lines.append(f"| {_target_cell(call)} | {_exit(call)} |")
        lines += _more(len(summary.commands), "command")
    if summary.failed:
        lines += [f"**Failed or refused ({len(summary.failed):,})**", ""]
        for call in summary.failed[:LISTED]:
            lines.append(f"- {_call_label(call)}")
        lines += _more(len(summary.failed), "call")
    return lines


def _how(kinds: tuple[str, ...]) -> str:
    """`` (written)`` or `` (deleted)`` after a file no edit touched; ``""`` otherwise."""
    return (
        ""
        if "edit" in kinds
        else f" ({', '.join(k + 'd' if k == 'delete' else 'written' for k in kinds)})"
    )


def _more(total: int, word: str) -> list[str]:
    if total > LISTED:
        return ["", f"*… and {counted(total - LISTED, word)} more*", ""]
    return [""]


def _target_cell(call: CallRef) -> str:
    return code_span(call.target[:160]).replace("|", "\\|") if call.target else ""


def _call_label(call: CallRef) -> str:
    """``✗ shell `make test` — exit 2, 3 lines`` on one line, escaped."""
    target = f" {code_span(call.target[:160])}" if call.target else ""
    said = f" — {table_cell(call.summary)}" if call.summary else f" — {call.status}"
    return f"{STATUS_MARK.get(call.status, '•')} **{table_cell(call.kind, 60)}**{target}{said}"


def _row(call: CallRef) -> str:
    return (
        f"| {call.session + 1}.{call.index + 1} | {table_cell(call.kind, 60)} "
        f"| {_target_cell(call)} | {STATUS_MARK.get(call.status, '•')} {call.status} "
        f"| {table_cell(call.summary or '')} | {format_duration(call.duration_ms)} |"
    )


def _size(lines: list[str]) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def ci_summary(
    state: StreamState,
    title: str = "Agent run",
    store: LineStore | None = None,
    limit: int = CI_LIMIT,
) -> str:
    """A CI job's summary of the run, under ``limit`` bytes (UTF-8).

    Args:
        state: The finished fold.
        title: The heading (the input's name).
        store: Where the stream's lines are kept: each failure's output is read back
            from it (without it, failures have their one-line summary only).
        limit: Bytes not to reach; the table and the outputs stop short of it and a
            closing note says what they left out.
    """
    summary = run_summary(state)
    head = [f"### {table_cell(title, 200)}", ""]
    head += summary_section(summary, "####")
    refs = [(s, c) for s in state.sessions for c in s.tool_calls]
    failed_keys = {(c.session, c.index) for c in summary.failed}
    ordered = sorted(refs, key=lambda sc: (sc[0].index, sc[1].index) not in failed_keys)
    budget = limit - _size(head) - 400  # the closing note's room
    table = [
        f"#### Tool calls ({len(refs):,}, failures first)",
        "",
        "| # | Tool | Target | Status | Summary | Duration |",
        "|--:|---|---|---|---|--:|",
    ]
    # Half the room for the table, the rest for the failures' outputs (and any the
    # table leaves unused).
    table_room = budget // 2 if summary.failed and store is not None else budget
    listed = 0
    used = _size(table)
    for session, call in ordered:
        row = _row(call_ref(session, call))
        cost = len(row.encode("utf-8")) + 1
        if used + cost > table_room:
            break
        table.append(row)
        used += cost
        listed += 1
    table.append("")
    budget -= used
    outputs: list[str] = []
    shown = 0
    if store is not None and summary.failed:
        outputs = [f"#### Failures' output ({len(summary.failed):,})", ""]
        budget -= _size(outputs)
        for session, call in ordered[: len(summary.failed)]:
            ref = call_ref(session, call)
            piece = [f"**{call.index + 1}.** {_call_label(ref)}", "", *failure_output(call, store)]
            cost = _size(piece)
            if cost > budget:
                break
            outputs += piece
            budget -= cost
            shown += 1
    note = _cut_note(len(refs) - listed, len(summary.failed) - shown if store else 0, limit)
    lines = head + table + outputs + note
    return "\n".join(lines).rstrip("\n") + "\n"


def failure_output(call: ToolCall, store: LineStore, limit: int = OUTPUT_LINES) -> list[str]:
    """A failed call's result folded in ``<details>``: the last ``limit`` lines of its
    output (where a test run or a compiler says what went wrong), or the head of its
    result as JSON; nothing when the store has no result for it."""
    _args, outcome, payload = call_parts(call, store)
    if payload is None:
        return []
    text_key = next(
        (k for k in TEXT_KEYS if isinstance(payload, dict) and isinstance(payload.get(k), str)),
        None,
    )
    cut = ""
    if isinstance(payload, dict) and text_key is not None:
        lines = clean(payload[text_key]).rstrip("\n").split("\n")
        language = "diff" if text_key == "diffString" else "text"
        if len(lines) > limit:
            cut = f"*… {len(lines) - limit:,} earlier lines not shown*"
            lines = lines[-limit:]
    else:
        shown = payload if isinstance(payload, str) else dumps_for_terminal(payload, indent=True)
        lines = clean(shown).rstrip("\n").split("\n")
        language = "text" if isinstance(payload, str) else "json"
        if len(lines) > limit:
            cut = f"*… {len(lines) - limit:,} more lines not shown*"
            lines = lines[:limit]
    said = table_cell(outcome, 60) if outcome else "result"
    body = fenced("\n".join(lines), language)
    return [
        f"<details><summary>Output ({said})</summary>",
        "",
        *([cut, ""] if cut else []),
        *body,
        "",
        "</details>",
        "",
    ]


def _cut_note(calls: int, outputs: int, limit: int) -> list[str]:
    """What was left out, said without a link: the summary stands on its own."""
    cut = []
    if calls > 0:
        cut.append(f"{counted(calls, 'tool call')} not in the table")
    if outputs > 0:
        cut.append(f"the output of {counted(outputs, 'failure')} not shown")
    if not cut:
        return []
    return [
        f"*Cut to stay under {limit // 1000:,} KB: {'; '.join(cut)}. "
        "The full transcript is in the run's recording (`streamview FILE`).*",
        "",
    ]
