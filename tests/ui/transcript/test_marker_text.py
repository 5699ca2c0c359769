"""The search's prefilter reads tool markers' text from the packed call columns
(:mod:`streamview.ui.transcript.marker_text`): it must be the marker's text exactly, or
a block that holds the query is passed over."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from rich.control import strip_control_codes
from rich.style import Style

from streamview.core.call_columns import CallColumns, pack_session
from streamview.core.model import Session, ToolCall
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.ui.transcript.blocks import tool_line
from streamview.ui.transcript.marker_text import RUN, MarkerHolds, marker_texts
from streamview.ui.transcript.search_keys import KeyFinder, key_of, query_key

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted(
    [*(ROOT / "recordings").glob("*.ndjson"), *(ROOT / "tests/fixtures/dialects").rglob("*.jsonl")]
)
CONSOLE = Console(width=100_000)


def drawn(call: ToolCall | None, cwd: str | None) -> str:
    """The marker's text as the transcript draws it (not cut)."""
    return tool_line(call, cwd, lambda _name: Style(), CONSOLE, 100_000).text


def sessions_of(path: Path) -> list[Session]:
    return fold([path.read_bytes()], StreamState(track_changes=False)).sessions


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_a_markers_text_from_the_columns_is_the_drawn_one(path: Path) -> None:
    for session in sessions_of(path):
        for cwd in (session.cwd, None, "/"):
            objects = list(session.tool_calls)
            expected = [drawn(call, cwd) for call in objects]
            assert marker_texts(objects, cwd, 0, len(objects)) == expected
        pack_session(session)
        calls = session.tool_calls
        for cwd in (session.cwd, None, "/"):
            expected = [drawn(calls[index], cwd) for index in range(len(calls))]
            assert marker_texts(calls, cwd, 0, len(calls)) == expected, path
            assert marker_texts(calls, cwd, 1, len(calls) + 5) == expected[1:]


def call(index: int, **fields: object) -> ToolCall:
    made = ToolCall(index, f"c{index}", "read", None, f"/w/src/f{index}.py", "completed")
    for name, value in fields.items():
        setattr(made, name, value)
    return made


def packed(calls: list[ToolCall]) -> Session:
    session = Session(0)
    session.cwd = "/w"
    for made in calls:
        session.tool_calls.append(made)
        session.calls_by_id[made.call_id] = made
    pack_session(session)
    assert isinstance(session.tool_calls, CallColumns)
    return session


def test_odd_rows_read_as_their_calls_draw_them() -> None:
    """Summaries equal to the status, cleaned, empty once cleaned; times in each pair, a
    bool, a huge int; a nested call; a shell call; a running call; a row taken back."""
    odd = [
        call(0, summary="completed"),
        call(1, summary="a\x1b[1mb\nc", started_at_ms=5, completed_at_ms=1500),
        call(2, summary="\x1b[0m", start_ts=1, end_ts=70_000),
        call(3, start_recv=0, end_recv=4_000_000, kind="shell", target="ls\n-l"),
        call(4, started_at_ms=True, completed_at_ms=2**70, parent_call_id="c3"),
        call(5, started_at_ms=10, completed_at_ms=3, start_ts=1, end_ts=2),
        call(6, status="running", summary="half"),
        call(7, kind="edit", target="/w"),
        call(8, kind="\x9bodd", target=None, status="x\x07"),
    ]
    session = packed(odd)
    calls = session.tool_calls
    expected = [drawn(made, "/w") for made in odd]
    texts = marker_texts(calls, "/w", 0, len(calls))
    assert [strip_control_codes(text) for text in texts] == expected  # Rich drops a BEL
    assert [key_of(text) for text in texts] == [key_of(text) for text in expected]
    taken = calls.unpack(1)
    taken.summary = "zebra"
    assert marker_texts(calls, "/w", 0, 3)[1] == drawn(taken, "/w")
    holds = MarkerHolds(calls, "/w", KeyFinder(query_key("zebra") or ""))
    assert [holds(index) for index in range(len(calls))] == [index == 1 for index in range(9)]


def test_marker_flags_span_runs_and_the_calls_not_packed() -> None:
    many = [call(index) for index in range(RUN + 10)]
    session = packed(many)
    late = call(RUN + 10, summary=f"found {RUN + 10}")
    session.tool_calls.append(late)
    key = key_of(f"f{RUN + 3}.py")
    holds = MarkerHolds(session.tool_calls, "/w", KeyFinder(key))
    found = [index for index in range(RUN + 11) if holds(index)]
    assert found == [RUN + 3]
    holds = MarkerHolds(session.tool_calls, "/w", KeyFinder(key_of(f"found {RUN + 10}")))
    assert [index for index in range(RUN + 11) if holds(index)] == [RUN + 10]


def test_a_walk_reads_the_calls_the_session_has_now() -> None:
    """The first pack makes a session's list of calls columns, and its cwd can come
    late: a search under way reads the session's calls as they are."""
    from streamview.core.state import TOOL, Block
    from streamview.core.textmatch import Matcher
    from streamview.ui.transcript.searching import VIEW, SearchWalk

    session = Session(0)
    first = call(0)
    session.tool_calls.append(first)
    session.calls_by_id[first.call_id] = first
    blocks = [Block(TOOL, 0, call_index=0), Block(TOOL, 1, call_index=1)]
    walk = SearchWalk(Matcher.for_query("w src"), KeyFinder(key_of("w src")), 0, 2, VIEW)
    assert walk.may_hold(blocks, 0, TOOL, session)  # no cwd: /w/src/f0.py
    pack_session(session)
    later = call(1)
    session.tool_calls.append(later)
    assert walk.may_hold(blocks, 1, TOOL, session)
    session.cwd = "/w"
    assert not walk.may_hold(blocks, 0, TOOL, session)  # src/f0.py
    assert not walk.may_hold(blocks, 1, TOOL, session)
