"""Home and End in a call's details jump, as in less and lnav (Textual glided up to a
second through a long output)."""

from __future__ import annotations

import json
from pathlib import Path

from streamview.sources import FileSource
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle, settle_sections, spy_on_glides, wait_for


def long_shell_run(path: Path) -> Path:
    """A run with one shell call whose output is 400 lines long."""
    output = "".join(f"line {n}\n" for n in range(400))
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
