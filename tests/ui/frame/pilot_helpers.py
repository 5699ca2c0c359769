"""What the viewer's Pilot tests share: captures by name, the screen as text, a
viewer on a file."""

from __future__ import annotations

from pathlib import Path

import orjson
from textual.widget import Widget

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.session_header import SessionHeader
from streamview.ui.frame.status_bar import StatusBar

from ..conftest import (
    NOW_MS,
    FakeClock,
)

PROBE_43 = "hcn_2026.09.15_probe-43_partial-output-tool-turn.ndjson"
PROBE_11 = "hcn_2026.09.15_probe-11_stream-partial-output.ndjson"
THINKING = "hcn_2026.09.10_probe-11_partial-output-with-thinking-composer.ndjson"
DENIALS = "hcn_2026.09.10_probe-15_denials-and-completion-without-started.ndjson"


def screen_lines(widget: Widget) -> list[str]:
    """What a widget shows, line by line."""
    return [widget.render_line(y).text.rstrip() for y in range(widget.size.height)]


def header_text(app: StreamviewApp) -> str:
    """The session header as plain text."""
    header = app.query_one(SessionHeader)
    return str(header.render())


def status_text(app: StreamviewApp) -> str:
    """The status line as plain text."""
    return app.query_one(StatusBar).text


def record(**fields: object) -> bytes:
    """One NDJSON line."""
    return orjson.dumps(fields) + b"\n"


def file_app(path: Path, **options: object) -> StreamviewApp:
    """The viewer on a recorded file, with the fixed test clock."""
    return StreamviewApp(FileSource(path), clock=FakeClock(), **options)  # type: ignore[arg-type]


def long_answer_lines(count: int) -> list[bytes]:
    """A session whose answer arrives as ``count`` one-line deltas."""
    lines = [
        record(type="system", subtype="init", session_id="s1", model="Auto", cwd="/w"),
        record(type="user", session_id="s1", message={"content": [{"type": "text", "text": "go"}]}),
    ]
    for number in range(count):
        lines.append(
            record(
                type="assistant",
                session_id="s1",
                timestamp_ms=NOW_MS + number,
                message={"content": [{"type": "text", "text": f"line {number}\n\n"}]},
            )
        )
    return lines


RECORDINGS = Path(__file__).resolve().parents[3] / "recordings"
