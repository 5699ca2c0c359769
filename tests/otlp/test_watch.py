"""``sessions --watch --otlp``'s core: a growing file's spans sent once each, across a
restart and a backend that refuses (the SDK's in-memory exporter as the backend)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from streamview.core.otlp_spans import spans_of
from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.export import SpanExport
from streamview.fronts.otlp.watch import SessionWatch, WatchBusy, Watched, WatchLedger
from tests.otlp.helpers import REPO, folded

JOB = REPO / "recordings" / "success-multi-tool.ndjson"
SETTINGS = OtlpSettings(endpoint="http://unused.invalid/v1/traces")


class Refusing:
    """A backend that is down: every export fails."""

    def export(self, spans: Any) -> Any:
        from opentelemetry.sdk.trace.export import SpanExportResult

        return SpanExportResult.FAILURE

    def shutdown(self) -> None:
        pass


def _watch(folder: Path, exporter: Any) -> SessionWatch:
    ledger = WatchLedger(folder, SETTINGS.endpoint)
    ledger.open()
    return SessionWatch(ledger, SpanExport(SETTINGS, exporter=exporter))


def test_a_growing_file_is_sent_once_across_a_restart_and_a_refusing_backend(
    tmp_path: Path,
) -> None:
    """Calls go as they end, the root with the result; a watch started again after
    one that stopped sends only the rest, a refusing backend moves nothing, and the
    ledger is the owner's only."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    lines = JOB.read_bytes().splitlines(keepends=True)
    job = tmp_path / "job.ndjson"
    job.write_bytes(b"".join(lines[:149]) + lines[149][:40])  # a line cut short, too
    backend = InMemorySpanExporter()
    first = _watch(tmp_path / "state", backend)
    with pytest.raises(WatchBusy, match=r"sends to http://unused\.invalid/v1/traces already"):
        WatchLedger(tmp_path / "state", SETTINGS.endpoint).open()
    assert first.look([Watched(job, live=True)]) == 6
    assert first.look([Watched(job, live=True)]) == 0  # nothing new: nothing again
    assert {s.name for s in backend.get_finished_spans()} >= {"execute_tool read"}
    first.ledger.close()  # as a kill leaves it: the lock goes with the process

    with job.open("ab") as out:
        out.write(b"".join(lines[149:])[40:])
    down = _watch(tmp_path / "state", Refusing())
    assert down.look([Watched(job, live=True)]) == 0
    assert down.owed == 5  # four calls and the root, kept for later
    down.ledger.close()

    again = _watch(tmp_path / "state", backend)
    assert again.look([Watched(job, live=True)]) == 5
    assert again.owed == 0
    expected = spans_of(folded(job), anchor_ms=0)
    sent = [span.context.span_id for span in backend.get_finished_spans()]
    assert sorted(sent) == sorted(span.span_id for span in expected)  # each once
    ledger = again.ledger.path
    assert stat.S_IMODE(os.stat(ledger).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(ledger.parent).st_mode) == 0o700


def test_the_first_watch_leaves_quiet_history_and_sends_what_goes_on(tmp_path: Path) -> None:
    """At the first watch a quiet run is history (not sent); once it grows, its session
    is sent whole; a quiet file's running calls and root go once it stops growing."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    lines = JOB.read_bytes().splitlines(keepends=True)
    old = tmp_path / "old.ndjson"
    old.write_bytes(b"".join(lines[:50]))
    backend = InMemorySpanExporter()
    watch = _watch(tmp_path / "state", backend)
    assert watch.look([Watched(old, live=False)]) == 0
    with old.open("ab") as out:
        out.write(b"".join(lines[50:120]))
    assert watch.look([Watched(old, live=True)]) == 4  # resumed: its calls so far
    assert watch.look([Watched(old, live=False)]) == 2  # quiet: the open call and the root
    (root,) = [s for s in backend.get_finished_spans() if s.parent is None]
    assert root.attributes["streamview.outcome"] == "running"
    assert watch.look([Watched(old, live=False)]) == 0


def test_a_big_file_is_read_over_several_looks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A look reads at most READ_LIMIT bytes (here 20 KB of the 95 KB job): the looks
    after it read on, though the file did not change, until every span is sent."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    import streamview.fronts.otlp.watch as watch_module

    monkeypatch.setattr(watch_module, "READ_LIMIT", 20_000)
    job = tmp_path / "job.ndjson"
    job.write_bytes(JOB.read_bytes())
    watch = _watch(tmp_path / "state", InMemorySpanExporter())
    sent = [watch.look([Watched(job, live=True)]) for _ in range(12)]
    assert sum(sent) == 11 and sent[-1] == 0
    assert sum(1 for count in sent if count) > 1  # over several looks
