"""Home and End in a call's details jump, as in less and lnav (Textual glided up to a
second through a long output); ``a`` shows a cut output in full from where the person
was, not from the top (issue 21.11)."""

from __future__ import annotations

import json
from pathlib import Path

from streamview.sources.base import FileSource
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.text.capping import MAX_LINES

from ..conftest import FakeClock, settle, settle_sections, spy_on_glides, wait_for


def long_shell_run(path: Path, lines: int = 400) -> Path:
    """A run with one shell call whose output is ``lines`` lines long."""
    output = "".join(f"line {n}\n" for n in range(lines))
    call = {"shellToolCall": {"args": {"command": "seq 400"}}}
    done = {
        "shellToolCall": {
            "args": {"command": "seq 400"},
            "result": {"success": {"stdout": output, "exitCode": 0}},
        }
    }
    records = [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "cwd": "/w"},
        {"type": "tool_call", "subtype": "started", "call_id": "c", "tool_call": call},
        {"type": "tool_call", "subtype": "completed", "call_id": "c", "tool_call": done},
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 5},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


async def test_home_and_end_jump_in_a_calls_details(tmp_path: Path) -> None:
    app = StreamviewApp(FileSource(long_shell_run(tmp_path / "run.ndjson")), clock=FakeClock())
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        body = app.screen.query_one(SectionView)
        body.focus()
        assert body.max_scroll_y > 100
        glides = spy_on_glides(body)
        await pilot.press("end")
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("home")
        assert body.scroll_y == 0
        assert glides == []


async def test_a_in_the_real_viewer_shows_the_rest_where_the_person_was(tmp_path: Path) -> None:
    """Tab, Enter on the call, End to the "… more lines" note, a: the lines on screen
    stay where they were and the rest goes on below them (a jumped to the top)."""
    run = long_shell_run(tmp_path / "run.ndjson", lines=MAX_LINES + 300)
    app = StreamviewApp(FileSource(run), clock=FakeClock())
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ToolCallDetailScreen))
        await settle_sections(app, pilot)
        body = app.screen.query_one(SectionView)
        await pilot.press("end")
        await pilot.pause()
        top = round(body.scroll_y)
        before = [body.render_line(y).text.rstrip() for y in range(body.size.height)]
        note = next(y for y, text in enumerate(before) if "more lines" in text)
        assert top > MAX_LINES - 50 and f"line {MAX_LINES - 1}" in before[note - 1]
        await pilot.press("a")
        await settle_sections(app, pilot)
        await pilot.pause()
        body = app.screen.query_one(SectionView)
        assert round(body.scroll_y) == top
        after = [body.render_line(y).text.rstrip() for y in range(body.size.height)]
        assert after[:note] == before[:note]
        assert f"line {MAX_LINES}" in after[note]
