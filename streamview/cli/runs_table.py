"""The table ``streamview runs`` prints, fitted to the terminal's width.

Every column fits at 100 columns and more. Narrower, the table gives up what the rest
of a row still says, in this order, before the prompt (or the reason a run failed) is
cut to fewer than :data:`MIN_EVIDENCE` characters: the size; the year of the start
(``11-26 14:02:07``); the file name (``YYYYmmdd-HHMMSS-PROGRAM.ndjson``: its start and
agent are on the row, its folder on the title line). So no row wraps at 80 columns, as
``ls -l`` or ``git log --oneline`` never do. The table's shape stays: a title line, a
header, a line per run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from streamview.core.sanitize import one_line

MIN_EVIDENCE = 20
"""Characters of the prompt (or failure) a row keeps before columns are given up."""
MIN_PROMPT_AT_LAST = 10
"""... and keeps at least, when even the narrowest columns leave it less."""
HINT = "streamview last N opens run N"


@dataclass(frozen=True)
class Row:
    """One run, as the table shows it."""

    number: int
    started: float
    agent: str
    outcome: str
    exit_code: int | None
    size: str
    file: str
    evidence: str
    """The prompt, or for a run that failed before it took one, why."""


@dataclass(frozen=True)
class Column:
    title: str
    cell: Callable[[Row], str]
    right: bool = False


def _started(pattern: str) -> Callable[[Row], str]:
    return lambda row: time.strftime(pattern, time.localtime(row.started))


NUMBER = Column("#", lambda row: str(row.number), right=True)
STARTED = Column("started", _started("%Y-%m-%d %H:%M:%S"))
STARTED_SHORT = Column("started", _started("%m-%d %H:%M:%S"))
AGENT = Column("agent", lambda row: row.agent)
OUTCOME = Column("outcome", lambda row: row.outcome)
EXIT = Column("exit", lambda row: "-" if row.exit_code is None else str(row.exit_code), True)
SIZE = Column("size", lambda row: row.size, right=True)
FILE = Column("file", lambda row: one_line(row.file, 200))

LAYOUTS: tuple[tuple[Column, ...], ...] = (
    (NUMBER, STARTED, AGENT, OUTCOME, EXIT, SIZE, FILE),
    (NUMBER, STARTED, AGENT, OUTCOME, EXIT, FILE),
    (NUMBER, STARTED_SHORT, AGENT, OUTCOME, EXIT, FILE),
    (NUMBER, STARTED_SHORT, AGENT, OUTCOME, EXIT),
)
"""The columns before the prompt, widest first: the first that leaves the prompt
:data:`MIN_EVIDENCE` characters is used."""


def table(rows: Sequence[Row], width: int, count: str, folder: str) -> list[str]:
    """The title line(s), the header and one line per row, each at most ``width`` wide
    (but for a folder path longer than the terminal)."""
    columns, widths = _fit(rows, width)
    lines = _title(count, folder, width)
    lines.append(_line([column.title for column in columns], columns, widths) + "prompt")
    for row in rows:
        start = _line([column.cell(row) for column in columns], columns, widths)
        room = max(MIN_PROMPT_AT_LAST, width - len(start) - 1)
        lines.append((start + one_line(row.evidence, room)).rstrip())
    return lines


def _fit(rows: Sequence[Row], width: int) -> tuple[tuple[Column, ...], list[int]]:
    for columns in LAYOUTS:
        widths = [
            max([len(column.title), *(len(column.cell(row)) for row in rows)]) for column in columns
        ]
        if sum(widths) + 2 * len(columns) + MIN_EVIDENCE < width:
            return columns, widths
    return columns, widths


def _line(cells: Sequence[str], columns: Sequence[Column], widths: Sequence[int]) -> str:
    return "".join(
        (f"{cell:>{size}}" if column.right else f"{cell:<{size}}") + "  "
        for cell, column, size in zip(cells, columns, widths, strict=True)
    )


def _title(count: str, folder: str, width: int) -> list[str]:
    """One line always (scripts read the rows from the third line on): the hint that
    ``last N`` opens run N goes when the line would not fit."""
    whole = f"{count} in {folder}, newest first ({HINT}):"
    return [whole if len(whole) <= width else f"{count} in {folder}, newest first:"]
