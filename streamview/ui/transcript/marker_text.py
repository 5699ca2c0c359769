"""Tool markers' text for the search's prefilter, read from a packed session's call
columns a run of rows at a time (issue 27).

A search asks of every tool block whether its marker can hold the query
(:mod:`.search_keys`). Making each :class:`~streamview.core.model.ToolCall` from its
packed row to draw its marker cost ~2.4 s a search on a 200 MB session of 55 thousand
calls; here a run of rows is read from the columns (kind, target, status, summary,
parent, times) and each distinct kind, status and summary is cleaned once. The text is
:func:`~streamview.ui.transcript.search_keys.tool_text`'s, exactly (a test compares
them over every recording): a row the fold took back as an object (``overlay``), and
every call not packed, is read from its object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamview.core.tools as tools
from streamview.core.call_columns import CallColumns
from streamview.core.call_reading import row_durations
from streamview.core.formatting import STATUS_MARK, format_duration
from streamview.core.model import ToolCall
from streamview.core.sanitize import clean, one_line
from streamview.ui.transcript.blocks import describe, marker_extra

RUN = 2048
"""Rows read from the columns at a time (a few ms)."""


def call_text(call: ToolCall | None, cwd: str | None) -> str:
    """A tool marker's line before it is cut at the width (as
    :func:`~streamview.ui.transcript.blocks.tool_line` draws it)."""
    if call is None:
        return " ● tool call"
    text = " " + ("  ↳ " if call.parent_call_id else "") + "● " + describe(call, cwd)
    text += f"  {STATUS_MARK.get(call.status, '•')} {call.status}"
    extra = marker_extra(call)
    return f"{text} · {extra}" if extra else text


def _describe(kind: str, target: str | None, cwd: str | None) -> str:
    """:func:`~streamview.ui.transcript.blocks.describe` of a kind and target."""
    if kind in tools.PATH_KINDS and target:
        return f"{one_line(kind, 60)} {_line(tools.relative_path(target, cwd), 300)}"
    shown = _line(target, 300) if target else ""
    if kind == "shell" and shown:
        shown = f"`{shown}`"
    return f"{one_line(kind, 60)} {shown}".rstrip()


def _line(text: str, limit: int) -> str:
    """:func:`~streamview.core.sanitize.one_line`: a short text with nothing to clean,
    no newline and no tab (``isprintable``) is as it is."""
    return text if len(text) <= limit and text.isprintable() else one_line(text, limit)


def marker_texts(calls: Sequence[ToolCall], cwd: str | None, start: int, stop: int) -> list[str]:
    """:func:`call_text` of calls ``start`` to ``stop`` (past the end: none), packed
    rows read from the columns."""
    stop = min(stop, len(calls))
    if start >= stop:
        return []
    if not isinstance(calls, CallColumns) or start >= calls.packed:
        return [call_text(calls[index], cwd) for index in range(start, stop)]
    end = min(stop, calls.packed)
    texts = _packed_texts(calls, cwd, start, end)
    for row in calls.overlay:
        if start <= row < end:
            texts[row - start] = call_text(calls[row], cwd)
    texts.extend(call_text(calls[index], cwd) for index in range(end, stop))
    return texts


def _codes(calls: CallColumns, name: str, start: int, stop: int) -> tuple[Sequence[int], list[Any]]:
    column = calls.code_column(name)
    codes = column.codes[start:stop]
    if len(codes) < stop - start:  # pragma: no cover - the columns are as long as packed
        codes = list(codes) + [0] * (stop - start - len(codes))
    return codes, column.values


def _packed_texts(calls: CallColumns, cwd: str | None, start: int, stop: int) -> list[str]:
    kinds, kind_values = _codes(calls, "kind", start, stop)
    targets, target_values = _codes(calls, "target", start, stop)
    statuses, status_values = _codes(calls, "status", start, stop)
    summaries, summary_values = _codes(calls, "summary", start, stop)
    parents, parent_values = _codes(calls, "parent_call_id", start, stop)
    durations = row_durations(calls, start, stop)
    status_part: dict[int, str] = {}
    summary_part: dict[tuple[int, int], str | None] = {}
    kind_shown: dict[int, str] = {}
    texts = []
    for at in range(stop - start):
        kind_code, status_code, summary_code = kinds[at], statuses[at], summaries[at]
        kind = kind_values[kind_code]
        target = target_values[targets[at]]
        if kind in tools.PATH_KINDS and target:
            shown = kind_shown.get(kind_code)
            if shown is None:
                shown = kind_shown[kind_code] = one_line(kind, 60)
            described = f"{shown} {_line(tools.relative_path(target, cwd), 300)}"
        else:
            described = _describe(kind, target, cwd)
        status = status_part.get(status_code)
        if status is None:
            value = status_values[status_code]
            status = status_part[status_code] = f"  {STATUS_MARK.get(value, '•')} {value}"
        pair = (summary_code, status_code)
        summary = summary_part.get(pair, "")
        if summary == "":
            value = summary_values[summary_code]
            summary = summary_part[pair] = (
                clean(value).replace("\n", " ")
                if value and value != status_values[status_code]
                else None
            )
        parent = parent_values[parents[at]]
        text = (" " + ("  ↳ " if parent else "") + "● ") + described + status
        duration = durations[at]
        extra = format_duration(duration) if duration is not None else ""
        if summary is not None:
            text += " · " + summary + (" · " + extra if extra else "")
        elif extra:
            text += " · " + extra
        texts.append(text)
    return texts


class MarkerHolds:
    """Whether the marker of a session's call ``index`` can hold a query: its text's
    flag, found a :data:`RUN` of calls at a time.

    Args:
        calls: The session's calls.
        cwd: The session's working directory.
        holds: Whether a text's key holds the query's.
    """

    def __init__(
        self, calls: Sequence[ToolCall], cwd: str | None, holds: Callable[[str], bool]
    ) -> None:
        self.calls = calls
        self.cwd = cwd
        self.holds = holds
        self._runs: dict[int, bytes] = {}

    def __call__(self, index: int) -> bool:
        calls = self.calls
        if isinstance(calls, CallColumns) and index < calls.packed and index not in calls.overlay:
            run = index // RUN
            flags = self._runs.get(run)
            if flags is None:
                first = run * RUN
                holds = self.holds
                texts = marker_texts(calls, self.cwd, first, min(first + RUN, calls.packed))
                # A row's text is in the run's: none holds the key when the run does not.
                some = holds("\n".join(texts))
                flags = self._runs[run] = bytes(map(holds, texts)) if some else bytes(len(texts))
            if index - run * RUN < len(flags):
                return bool(flags[index - run * RUN])
        return self.holds(call_text(calls[index], self.cwd))
