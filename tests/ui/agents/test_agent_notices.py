"""What an agent says about its own work, as a person watching the run sees it (issue
22.2): a live mark in the status bar while it holds (compacting, rate limited), lines
in the event log, and nothing of it, nor any unknown record, inside the answer.

Fixture: tests/fixtures/dialects/claude/every-record.jsonl (see its SOURCES.md).
"""

from __future__ import annotations

from pathlib import Path

import orjson

from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.status_bar import StatusBar
from streamview.ui.log.event_log import EventLogList, EventLogScreen
from streamview.ui.transcript.transcript import Transcript

from ..conftest import FakeClock, ScriptedSource, wait_for

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "claude"
LINES = (FIXTURE / "every-record.jsonl").read_bytes().splitlines(keepends=True)
RECORDS = [orjson.loads(line) for line in LINES]
HOLOGRAM = b'{"type":"hologram","subtype":"beam","session_id":"e5e5e5e5"}\n'


def upto(kind: str, **fields: object) -> int:
    """How many lines of the fixture, through the first ``kind`` record with ``fields``."""
    for number, record in enumerate(RECORDS, 1):
        if record["type"] == kind and all(record.get(k) == v for k, v in fields.items()):
            return number
    raise AssertionError(f"no {kind} {fields} in the fixture")


def status_of(app: StreamviewApp) -> str:
    app.refresh_status()
    return app.query_one(StatusBar).text


def transcript_of(app: StreamviewApp) -> str:
    return "\n".join(app.query_one(Transcript).plain_lines())


async def test_the_status_bar_marks_compaction_and_a_rate_limit_while_they_hold() -> None:
    compacting = upto("system", subtype="status", status="compacting")
    source = ScriptedSource([b"".join(LINES[:compacting])])
    clock = FakeClock()
    app = StreamviewApp(source, clock=clock)
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == compacting)
        assert status_of(app).startswith("⚠ compacting")
        clock.advance(30_000)  # compaction is 25-40 s of silence: say so, not "hung"
        assert status_of(app).startswith("⚠ compacting · idle 30s since last event")
        limited = _rejected()
        source.push(b"".join(LINES[compacting:limited]))
        await wait_for(pilot, lambda: app.state.counts.total == limited)
        assert status_of(app).startswith("⚠ rate limited until 2026-09-02 04:00 UTC")
        source.push(b"".join(LINES[limited:]))
        await wait_for(pilot, lambda: app.state.counts.total == len(LINES))
        assert "rate limited" not in status_of(app)
        assert "compacting" not in status_of(app)


def _rejected() -> int:
    for number, record in enumerate(RECORDS, 1):
        if (
            record["type"] == "rate_limit_event"
            and record["rate_limit_info"]["status"] == "rejected"
        ):
            return number
    raise AssertionError("no rejected rate limit in the fixture")


async def test_notices_and_an_unknown_record_never_paint_into_the_answer() -> None:
    """A task starting and an unknown record between two deltas of one sentence."""
    task = upto("system", subtype="task_started")
    lines = [*LINES[:task], HOLOGRAM, *LINES[task:]]
    source = ScriptedSource([b"".join(lines)])
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == len(lines))
        await pilot.pause(0.1)
        shown = transcript_of(app)
        assert shown.count("Running the tests in the background.") == 1
        for word in ("hologram", "unknown record", "task_started", "Watch the test log", "hook"):
            assert word not in shown
        assert "1 unknown (l)" in status_of(app)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, EventLogScreen))
        log = app.screen.query_one(EventLogList)
        labels = [entry.label for entry in log.entries]
        assert "task bq1 started: Watch the test log [monitor]" in labels
        assert "hook SessionStart:startup error (exit 127): lint.sh: not found" in labels
        assert "hologram/beam" in labels
