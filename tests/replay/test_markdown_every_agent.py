"""The Markdown export and the CI summary of one run per agent, read back through a
CommonMark parser (markdown-it-py, as GitHub's renderer reads them): each begins with
the run's summary, shows a table row per tool call, renders no HTML from the stream and
leaves no fence open over what follows; a hostile run's text stays inert."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from streamview.core.linestore import LineStore
from streamview.core.markdown_export import to_markdown
from streamview.core.reader import EventReader
from streamview.core.run_summary import run_summary
from streamview.core.state import StreamState
from streamview.core.summary_markdown import ci_summary
from tests.agent_runs import demo_recordings, one_run_per_agent, run_id
from tests.hostile.streams import hostile_stream
from tests.html_export.test_html_page import PAYLOAD

RUNS = one_run_per_agent() + demo_recordings()
ALLOWED_HTML = ("<details>", "</details>", "<summary>", "</summary>")
"""The only HTML the exports write themselves (thinking and failures folded)."""


def _read(text: str) -> list[Token]:
    """Block tokens and their inline children, flat."""
    found = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        found.append(token)
        found.extend(token.children or [])
    return found


def _headings(tokens: list[Token]) -> list[str]:
    """Every heading's text, in order."""
    return [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]


def _calls_tables(tokens: list[Token]) -> list[tuple[str, list[str]]]:
    """``(heading, first cell of each body row)`` of every table under a "Tool calls" heading."""
    tables: list[tuple[str, list[str]]] = []
    heading = ""
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = tokens[i + 1].content
        elif token.type == "table_open" and heading.startswith("Tool calls"):
            tables.append((heading, []))
        elif token.type == "td_open" and tables and tokens[i - 1].type == "tr_open":
            tables[-1][1].append(tokens[i + 1].content)
        elif token.type == "table_close":
            heading = ""
    return tables


@pytest.fixture(scope="module")
def exports() -> dict[Path, tuple[StreamState, list[Token], list[Token]]]:
    """Each agent's run folded as ``--export-markdown`` folds it (its lines kept, so
    calls carry their arguments and results), both exports parsed: one pass."""
    read: dict[Path, tuple[StreamState, list[Token], list[Token]]] = {}
    for name, path in RUNS:
        store = LineStore()
        reader = EventReader(store, agent=name)
        state = StreamState(track_changes=False)
        for event in [*reader.feed(path.read_bytes()), *reader.finish()]:
            state.apply(event)
        state.finish()
        markdown = to_markdown(state, title=path.name, store=store)
        summary = ci_summary(state, title=path.name, store=store)
        read[path] = (state, _read(markdown), _read(summary))
    return read


def _refs(state: StreamState) -> list[tuple[Any, Any]]:
    """``(session, call)`` for every tool call of the run."""
    return [(session, call) for session in state.sessions for call in session.tool_calls]


def _check_no_stream_html(tokens: list[Token]) -> None:
    html = [t.content.strip() for t in tokens if t.type in ("html_block", "html_inline")]
    assert all(part.startswith(ALLOWED_HTML) for part in html), html


@pytest.mark.parametrize(("agent", "path"), RUNS, ids=[run_id(run) for run in RUNS])
def test_markdown_and_ci_summary_of_each_agent_read_back(
    agent: str,
    path: Path,
    exports: dict[Path, tuple[StreamState, list[Token], list[Token]]],
) -> None:
    """The title, then the summary whose first paragraph is the run's headline; one
    row per call in order in each session's table, and every call, failures first, in
    the CI summary's; no HTML but the exports' own folds; no fence left open."""
    state, markdown, summary = exports[path]
    headline = run_summary(state).headline()
    calls = [call for session in state.sessions for call in session.tool_calls]
    assert calls
    for tokens in (markdown, summary):
        assert _headings(tokens)[:2] == [path.name, "Summary"]
        summary_at = next(i for i, t in enumerate(tokens) if t.content == "Summary")
        paragraph = next(t for t in tokens[summary_at + 1 :] if t.type == "strong_open")
        assert tokens[tokens.index(paragraph) + 1].content == headline
        _check_no_stream_html(tokens)
        # A fence left open would swallow the headings after it.
        assert not any(t.type == "fence" and "Tool calls (" in t.content for t in tokens)
    tables = _calls_tables(markdown)
    assert [heading for heading, _ in tables] == [
        f"Tool calls ({len(s.tool_calls)})" for s in state.sessions if s.tool_calls
    ]
    assert [row for _, rows in tables for row in rows] == [
        str(call.index + 1) for s in state.sessions for call in s.tool_calls
    ]
    (heading, rows), *_ = _calls_tables(summary)
    assert heading == f"Tool calls ({len(calls):,}, failures first)"
    assert len(rows) == len(calls)
    failed = [f"{call.session + 1}.{call.index + 1}" for call in run_summary(state).failed]
    assert rows[: len(failed)] == failed
    assert sorted(rows) == sorted(f"{s.index + 1}.{c.index + 1}" for s, c in _refs(state))


def test_a_hostile_run_reads_back_inert() -> None:
    """Tags, script links, images and control sequences in every field (prompt,
    thinking, answer, arguments, outputs): both exports, the calls' arguments and
    results included, hold no control character, no HTML but their own folds, no
    image a renderer would fetch (each is a link, clicked or not), and no link but
    ``http(s):`` and ``mailto:``."""
    store = LineStore()
    reader = EventReader(store, agent="cursor")
    state = StreamState(track_changes=False)
    for event in [*reader.feed(hostile_stream(PAYLOAD)), *reader.finish()]:
        state.apply(event)
    state.finish()
    for text in (to_markdown(state, store=store), ci_summary(state, store=store)):
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)
        tokens = _read(text)
        _check_no_stream_html(tokens)
        assert not [t.attrs for t in tokens if t.type == "image"]
        links = [str(t.attrs["href"]) for t in tokens if t.type == "link_open"]
        assert all(link.startswith(("https://", "http://", "mailto:")) for link in links)
    assert "evil.example/PWNED.png" in to_markdown(state, store=store)  # shown, as a link
