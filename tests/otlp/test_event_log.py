"""``run --otlp`` in the viewer with the backend down: the dropped count reaches the
event log when the run ends (sent from the reader's thread), and stderr once after."""

from __future__ import annotations

import sys
import time
from functools import partial
from pathlib import Path

from streamview.core.events import AgentNotice
from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.forward import LiveForwarder
from streamview.fronts.otlp.send import SpanSender
from streamview.runs.recording import Recorder
from streamview.sources.process import ProcessSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.log.event_log import log_entries
from tests.otlp.helpers import REPO, closed_port

AGENT = REPO / "tests" / "run" / "agents" / "success.py"


async def test_the_event_log_says_what_a_down_backend_dropped(tmp_path: Path) -> None:
    """One notice in the event log, '2 of 2 spans not delivered ... connection
    refused', once the run ended; then the stderr line is said once, not twice."""
    url = f"http://127.0.0.1:{closed_port()}/v1/traces"
    forwarder = LiveForwarder(SpanSender(OtlpSettings(endpoint=url), schedule_ms=10))
    recorder = Recorder(tmp_path / "run.ndjson")
    source = ProcessSource([sys.executable, str(AGENT)], recorder=recorder)
    recorder.tap = forwarder.feed
    recorder.open()
    source.ending = partial(forwarder.ended_notice, None)
    app = StreamviewApp(source, clock=lambda: 0)
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 30
        while not app.state.ended:
            assert time.monotonic() < deadline, "the run never ended"
            await pilot.pause(0.02)
        notices = [n for n in app.state.notices if isinstance(n, AgentNotice)]
        said = f"--otlp: 2 of 2 spans not delivered to {url}: connection refused"
        assert [n.text for n in notices if n.subtype == "otlp"] == [said]
        labels = [entry.label for entry in log_entries(app.state) if entry.kind == "notice"]
        assert labels == [said]
    assert forwarder.close() == said  # stderr: once, after the viewer
    assert forwarder.close() is None
