"""A tool call in full: the detail screen, on real captures and synthetic calls (the sections
per kind are in ``test_detail_views.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from textual.app import App
from textual.widgets import Static

from streamview.core import tools
from streamview.core.call_records import load_records
from streamview.core.linestore import LineStore
from streamview.core.parse import parse_line
from streamview.core.reader import EventReader
from streamview.core.state import StreamState, ToolCall
from streamview.ui.details.screen import ToolCallDetailScreen, escaped_id
from streamview.ui.details.section_view import SectionView
from streamview.ui.text.capping import FULL_MAX_LINES, MAX_LINES, cap_text, more_note

from ..conftest import settle_sections
from .helpers import segments

REPO = Path(__file__).resolve().parents[3]
STYLESHEET = REPO / "streamview" / "ui" / "streamview.tcss"
CAPTURES = REPO / "tests" / "fixtures" / "cursor-real"


def load_capture(name: str) -> tuple[StreamState, LineStore]:
    """Fold a real capture, keeping its lines in a memory store."""
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    data = (CAPTURES / name).read_bytes()
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    state.finish()
    return state, store


# -- detail screen ----------------------------------------------------------------------


class DetailApp(App[None]):
    """A host that opens the detail screen of one call."""

    CSS_PATH = STYLESHEET

    def __init__(self, call: ToolCall, store: LineStore | None, cwd: str | None = None) -> None:
        super().__init__()
        self.call = call
        self.store = store
        self.cwd = cwd

    def on_mount(self) -> None:
        self.push_screen(ToolCallDetailScreen(self.call, self.store, cwd=self.cwd))


async def shown_text(app: App[None], pilot: Any) -> str:
    """Wait for the workers, then return the title bars and every laid-out line."""
    await settle_sections(app, pilot)
    screen = app.screen
    parts = []
    for widget in screen.query(Static):
        content = widget.content
        if isinstance(content, str):
            parts.append(content)
        else:
            parts.append("".join(s.text for s in segments(content, 200)))  # type: ignore[arg-type]
    for view in screen.query(SectionView):
        parts.append(view.text)
    return "\n".join(parts)


async def test_detail_of_a_real_edit_shows_the_diff() -> None:
    state, store = load_capture("hcn_2026.09.10_probe-13_read-edit-composer.ndjson")
    calls = state.sessions[0].tool_calls
    assert [c.kind for c in calls] == ["read", "edit"]
    app = DetailApp(calls[1], store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "+probe13" in text and "@@ -1,2 +1,3 @@" in text
        assert "loading…" not in text
        await pilot.press("r")
        text = await shown_text(app, pilot)
        assert '"editToolCall"' in text and '"diffString"' in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ToolCallDetailScreen)


async def test_detail_of_a_real_read_starts_at_line_one() -> None:
    state, store = load_capture("hcn_2026.09.10_probe-13_read-edit-composer.ndjson")
    app = DetailApp(state.sessions[0].tool_calls[0], store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "1 │ alpha" in text and "2 │ beta" in text


async def test_detail_of_a_real_shell_call_with_crlf_output() -> None:
    state, store = load_capture("hcn_2026.09.15_probe-52s_shell-success-crlf.ndjson")
    call = state.sessions[0].tool_calls[0]
    assert "\n" in call.call_id
    app = DetailApp(call, store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "HTTP/2 200" in text and "cf-cache-status: HIT" in text
        assert "\r" not in text and "␍" not in text
        assert "exit code" in text and "curl -sI https://example.com" in text
        assert "call_8qXsc566qQDgNuht3JE6Zx5z\\nfc_0fe82f95" in text


async def test_detail_of_real_rejected_calls() -> None:
    state, store = load_capture(
        "hcn_2026.09.10_probe-15_denials-and-completion-without-started.ndjson"
    )
    calls = state.sessions[0].tool_calls
    assert [c.status for c in calls] == [tools.REJECTED] * len(calls)
    fetch, shell = calls[0], calls[1]
    app = DetailApp(fetch, store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "User Rejected" in text and "https://example.com" in text
    app = DetailApp(shell, store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "no reason given" in text and "isReadonly" in text


async def test_detail_of_the_real_glob_and_a_completion_without_started() -> None:
    state, store = load_capture("unknownrepo_cursor-agent-2026.07.23_test-fixture-lines.ndjson")
    calls = state.sessions[0].tool_calls
    app = DetailApp(calls[0], store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "**/app.ts" in text and "./app.ts" in text
    records = load_records(calls[1], store)
    assert records.outcome == "success" and records.args == {
        "path": "/tmp/cursor-probe/note.txt",
        "streamContent": "DONE",
    }


async def test_detail_without_a_store_falls_back_to_the_fold() -> None:
    call = ToolCall(
        index=0,
        call_id="c\n1",
        kind="read",
        args={"path": "a.py"},
        target="a.py",
        status=tools.SUCCEEDED,
        summary="3 lines",
        completed_line=9,
    )
    app = DetailApp(call, None)
    async with app.run_test(size=(80, 20)) as pilot:
        text = await shown_text(app, pilot)
        assert "a.py" in text and "3 lines" in text and "not kept" in text
        assert escaped_id("c\n1") == "c\\n1"


async def test_big_payload_offers_show_all() -> None:
    store = LineStore()
    content = "\n".join(f"row {n}" for n in range(MAX_LINES + 50))
    line = orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "big",
            "tool_call": {
                "readToolCall": {
                    "args": {"path": "big.txt"},
                    "result": {"success": {"content": content}},
                }
            },
        }
    )
    store.remember(1, 0, line, parse_line(line, 1))
    call = ToolCall(index=0, call_id="big", kind="read", status=tools.SUCCEEDED, completed_line=1)
    app = DetailApp(call, store)
    async with app.run_test(size=(80, 20)) as pilot:
        text = await shown_text(app, pilot)
        assert "50 more lines" in text and f"row {MAX_LINES + 49}" not in text
        await pilot.press("a")
        text = await shown_text(app, pilot)
        assert f"row {MAX_LINES + 49}" in text and "more lines" not in text


def test_snapshot_detail_of_an_edit_diff(snap_compare: Any) -> None:
    """Title bar (edit, path, ✓ succeeded, 147ms), call id and line numbers, the
    arguments, the file facts, and the diff with '+probe13' in green, its headers
    relative to the session's directory ('--- a/notes.txt', as git writes them)."""
    state, store = load_capture("hcn_2026.09.10_probe-13_read-edit-composer.ndjson")
    session = state.sessions[0]
    app = DetailApp(session.tool_calls[1], store, cwd=session.cwd)

    async def loaded(pilot: Any) -> None:
        await settle_sections(app, pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=loaded)


def test_snapshot_detail_of_a_shell_call(snap_compare: Any) -> None:
    """The command and description, bookkeeping arguments folded into one line, the
    exit code and time, and the HTTP header output with no stray carriage returns."""
    state, store = load_capture("hcn_2026.09.15_probe-52s_shell-success-crlf.ndjson")
    app = DetailApp(state.sessions[0].tool_calls[0], store)

    async def loaded(pilot: Any) -> None:
        await settle_sections(app, pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=loaded)


def test_show_all_still_stops_at_the_full_limit() -> None:
    text = "\n".join("y" for _ in range(FULL_MAX_LINES + 5))
    capped = cap_text(text, full=True)
    assert capped.truncated and capped.lines_left == 5
    note = more_note(capped).plain
    assert note == "… 5 more lines (too long to lay out; r for the raw JSON)"


async def test_a_running_call_on_show_updates_when_it_completes() -> None:
    started = orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "live",
            "tool_call": {"shellToolCall": {"args": {"command": "make test"}}},
        }
    )
    completed = orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "live",
            "tool_call": {
                "shellToolCall": {
                    "args": {"command": "make test"},
                    "result": {"success": {"exitCode": 0, "interleavedOutput": "all green"}},
                }
            },
        }
    )
    store = LineStore()
    store.remember(1, 0, started, parse_line(started, 1))
    call = ToolCall(index=0, call_id="live", kind="shell", target="make test", started_line=1)
    app = DetailApp(call, store)
    async with app.run_test(size=(80, 20)) as pilot:
        text = await shown_text(app, pilot)
        assert "… running" in text and "no result (yet)" in text
        store.remember(2, len(started) + 1, completed, parse_line(completed, 2))
        call.status, call.summary, call.completed_line = tools.SUCCEEDED, "exit 0", 2
        await pilot.pause(0.7)  # the screen looks at its call twice a second
        text = await shown_text(app, pilot)
        assert "✓ succeeded" in text and "all green" in text and "lines 1, 2" in text


async def test_a_body_that_arrives_for_a_screen_without_one_is_dropped() -> None:
    """A worker's body can arrive when the screen has no body any more (closed, or
    between the old view's removal and the new one's mount): it raised NoMatches in
    the worker, and the viewer exited 70 (the hostile Kimi walk, c then r then escape,
    at load 8). It is dropped now, and the screen stays usable."""
    state, store = load_capture("hcn_2026.09.10_probe-13_read-edit-composer.ndjson")
    app = DetailApp(state.sessions[0].tool_calls[1], store)
    async with app.run_test(size=(100, 30)) as pilot:
        await shown_text(app, pilot)
        screen = app.screen
        assert isinstance(screen, ToolCallDetailScreen)
        sections = screen.build_sections()
        await screen.query_one(SectionView).remove()
        screen.show_sections(sections)  # raised NoMatches
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ToolCallDetailScreen)
