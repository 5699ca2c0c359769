"""Search beyond the transcript: which tool calls hold the searched text, in their
target, their arguments or their result (shell output, file contents, diffs...), and
which other sessions of the stream hold it at all.

Arguments and results are read back from the line store (the fold keeps only
summaries), so this runs on a worker thread; :func:`find_in_calls` never touches the UI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from streamview.core.call_records import load_records
from streamview.core.linestore import LineStore
from streamview.core.state import THINKING, TOOL, Session
from streamview.core.textmatch import Matcher

TARGET = "target"
ARGUMENTS = "arguments"
RESULT = "result"
WAIT_EVERY = 64
"""How many calls :func:`find_in_calls` reads between two calls of its ``wait``."""


class CallHit(msgspec.Struct, frozen=True):
    """A call that holds the text, and where (the first place it was found)."""

    call_index: int
    where: str
    """:data:`TARGET`, :data:`ARGUMENTS` or :data:`RESULT`."""


def strings(value: Any) -> Iterator[str]:
    """Every string in a decoded JSON value (keys too), depth first."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            for key, child in item.items():
                yield str(key)
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(reversed(item))


def contains(value: Any, matcher: Matcher) -> bool:
    """Whether any string in ``value`` holds the query."""
    return any(matcher.holds(text) for text in strings(value))


def find_in_calls(
    session: Session,
    store: LineStore | None,
    query: str,
    wait: Callable[[], object] | None = None,
) -> list[CallHit]:
    """The calls of ``session`` that hold ``query``, in call order.

    Args:
        wait: Called every :data:`WAIT_EVERY` calls (the app's: sleeps while the
            transcript's search walks, so that this thread does not take its turns).

    Raises:
        BadPattern: A ``re:`` query that is not a valid regular expression.
    """
    hits: list[CallHit] = []
    if not query:
        return hits
    matcher = Matcher.for_query(query)
    for call in session.tool_calls:
        if wait is not None and not call.index % WAIT_EVERY:
            wait()
        if matcher.holds(f"{call.kind} {call.target or ''} {call.summary or ''}"):
            hits.append(CallHit(call.index, TARGET))
            continue
        records = load_records(call, store, raw=False, cut=False)
        if contains(records.args, matcher):
            hits.append(CallHit(call.index, ARGUMENTS))
        elif contains(records.payload, matcher):
            hits.append(CallHit(call.index, RESULT))
    return hits


def session_holds(
    session: Session, store: LineStore | None, matcher: Matcher, thinking: bool = True
) -> bool:
    """Whether ``session`` holds the text anywhere: its prompt, answer, thinking (when
    shown), notices, or its tool calls' targets, arguments and results."""
    for block in session.blocks:
        if block.kind == TOOL or (block.kind == THINKING and not thinking):
            continue
        text = block.text  # a block's text may be in the viewer's spill: its parts empty
        if text and matcher.holds(text):
            return True
    for call in session.tool_calls:
        if matcher.holds(f"{call.kind} {call.target or ''} {call.summary or ''}"):
            return True
        records = load_records(call, store, raw=False, cut=False)
        if contains(records.args, matcher) or contains(records.payload, matcher):
            return True
    return False


def other_sessions_holding(
    sessions: Sequence[Session],
    store: LineStore | None,
    query: str,
    current: int,
    thinking: bool = True,
) -> list[int]:
    """Indices of the sessions other than ``current`` that hold ``query``, in order."""
    if not query or len(sessions) < 2:
        return []
    matcher = Matcher.for_query(query)
    return [
        index
        for index, session in enumerate(sessions)
        if index != current and session_holds(session, store, matcher, thinking)
    ]


def next_session(holding: Sequence[int], current: int, step: int, count: int) -> int | None:
    """The session a step past the current one's last (``step=1``) or first (``-1``) hit
    goes to: the next (previous) one that holds the text, round the end."""
    if not holding:
        return None
    for offset in range(1, count):
        index = (current + step * offset) % count
        if index in holding:
            return index
    return None
