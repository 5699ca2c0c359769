"""What the ``--otlp`` tests share: folding a file, and sending spans through the SDK
into its in-memory exporter."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from streamview.core.otlp_spans import SpanRecord, spans_of
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.send import SpanSender

REPO = Path(__file__).resolve().parents[2]
RECORDINGS = sorted((REPO / "recordings").glob("*.ndjson"))
DIALECTS = REPO / "tests" / "fixtures" / "dialects"
ANCHOR_MS = 1_800_000_000_000
"""The end given to streams that say no time (a recording's last change, in export)."""


def one_per_agent() -> list[Path]:
    """A fixture of each agent: its ``success-tools`` stream, else its first."""
    chosen = []
    for folder in sorted(p for p in DIALECTS.iterdir() if p.is_dir()):
        streams = sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".ndjson"))
        preferred = [p for p in streams if p.stem == "success-tools"]
        chosen.append((preferred or streams)[0])
    return chosen


def folded(path: Path) -> StreamState:
    """The finished fold of a file, as ``export`` folds it."""
    return fold([path.read_bytes()], StreamState(track_changes=False))


def send_in_memory(
    records: list[SpanRecord], service: str = "streamview-test"
) -> tuple[list[Any], SpanSender]:
    """Send ``records`` through :class:`SpanSender` into the SDK's in-memory exporter;
    the SDK's finished spans, and the sender."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    settings = OtlpSettings(endpoint="http://unused.invalid/v1/traces", service_name=service)
    sender = SpanSender(settings, exporter=exporter, schedule_ms=10)
    sender.send(records)
    sender.close(10.0)
    return list(exporter.get_finished_spans()), sender


def spans_of_file(path: Path, content: bool = False) -> list[Any]:
    """A file's spans, as the SDK's in-memory exporter received them."""
    records = spans_of(folded(path), content=content, anchor_ms=ANCHOR_MS)
    spans, _ = send_in_memory(records)
    return spans


def closed_port() -> int:
    """A local port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port
