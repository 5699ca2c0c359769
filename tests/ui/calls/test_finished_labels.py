"""Empty panes say "yet" only while a run can still fill them.

A finished run with no prompt, no call or no answer says so plainly; a stream that
ended before any session started says that, not "waiting for the session".
"""

from __future__ import annotations

from pathlib import Path

import orjson

from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.session_header import SessionHeader

from ..conftest import FakeClock, ScriptedSource, settle, wait_for

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
INIT = {"type": "system", "subtype": "init", "session_id": "s", "model": "GPT-5", "cwd": "/w"}
RESULT = {"type": "result", "subtype": "success", "session_id": "s", "duration_ms": 5}


def lines(*records: dict[str, object]) -> bytes:
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


def shown(widget: object) -> str:
    height = widget.size.height  # type: ignore[attr-defined]
    return "\n".join(widget.render_line(y).text for y in range(height))  # type: ignore[attr-defined]


def header_text(app: StreamviewApp) -> str:
    return str(app.query_one(SessionHeader).render())


async def test_a_running_session_waits_and_a_finished_one_says_what_it_lacks() -> None:
    source = ScriptedSource([lines(INIT)])
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == 1)
        await pilot.pause()
        assert "(no prompt yet)" in header_text(app)
        assert "no tool calls yet" in shown(app.query_one(ToolCallTable))
        assert "waiting for the answer…" in shown(app.transcript)
        source.push(lines(RESULT))
        source.close()
        await settle(pilot)
        await pilot.pause()
        assert "(the stream has no prompt)" in header_text(app)
        assert "yet" not in header_text(app)
        table = shown(app.query_one(ToolCallTable))
        assert "no tool calls" in table and "yet" not in table
        transcript = shown(app.transcript)
        assert "no answer in this run" in transcript and "waiting" not in transcript


async def test_a_stream_that_ends_before_a_session_says_so() -> None:
    source = ScriptedSource([b"warning: not logged in\n"])
    source.close()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.ended)
        await pilot.pause()
        await pilot.pause()
        assert header_text(app) == "no session: the stream ended before one started"


async def test_a_finished_claude_run_never_claims_its_prompt_is_coming() -> None:
    """Claude Code's stream does not echo the prompt: the header must not promise one."""
    source = ScriptedSource([(FIXTURES / "claude" / "success-tools.jsonl").read_bytes()])
    source.close()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.pause()
        text = header_text(app)
        assert text.startswith("Claude Code  claude-sonnet-4-5")
        assert "(the stream has no prompt)" in text


async def test_the_header_names_cursor_too() -> None:
    source = ScriptedSource([(FIXTURES / "cursor" / "read-and-answer.ndjson").read_bytes()])
    source.close()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.pause()
        assert header_text(app).startswith("Cursor  GPT-5 Mini")
