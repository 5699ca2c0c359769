"""--redact in the viewer (issue 29.3): the event log says what was removed."""

from __future__ import annotations

import time

from streamview.core.events import AgentNotice
from streamview.core.redact import Redactor
from streamview.sources.base import MemorySource
from streamview.sources.redacting_source import RedactingSource
from streamview.ui.frame.app import StreamviewApp
from tests.core.redact.secrets import AGENTS_DIR, leaks, seeded


async def test_the_viewer_of_a_redacted_run_logs_the_counts_and_shows_no_secret() -> None:
    """The viewer reads the redacted source: once the input ended, the event log holds
    one notice with the counts, and no pane's text holds a seeded secret."""
    data = seeded(AGENTS_DIR / "claude" / "success-tools.jsonl")
    source = RedactingSource(MemorySource(data, "run.jsonl"), Redactor())
    app = StreamviewApp(source, clock=lambda: 0)
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 30
        while not (app.state.ended and app.session_index is not None):
            assert time.monotonic() < deadline, "the input never ended"
            await pilot.pause(0.02)
        await pilot.pause()
        notices = [n for n in app.state.notices if isinstance(n, AgentNotice)]
        redact = [n for n in notices if n.subtype == "redact"]
        assert len(redact) == 1 and redact[0].text.startswith("redacted "), notices
        assert "home" in redact[0].text
        shown = [app.transcript.render_line(y).text for y in range(app.transcript.size.height)]
        table = [app.tool_table.render_line(y).text for y in range(app.tool_table.size.height)]
        assert "[REDACTED:" in "\n".join(shown + table)
        assert leaks("\n".join(shown + table)) == []
