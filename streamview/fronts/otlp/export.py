"""Send span records one batch at a time and say whether the backend took them
(``sessions --watch --otlp``'s way: its ledger moves only for what was taken).

Each batch is posted on a thread of its own while the caller waits for it; a caller
that must stop (a signal) sets :attr:`SpanExport.deadline`, and a batch still in flight
then is given up at that deadline instead of at the exporter's timeout (10 s): the
thread is left to the exporter's own timeout, on a daemon thread the process does not
wait for, and the batch counts as not taken (it stays owed). Nothing here encodes OTLP.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from streamview.core.otlp_spans import SpanRecord
from streamview.fronts.otlp.config import OtlpSettings
from streamview.fronts.otlp.send import BATCH_SIZE, quiet_sdk, sdk_available, to_sdk_span

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.sdk.trace.export import SpanExporter

WAIT_STEP = 0.05
"""How often a wait for a batch looks at the deadline, in seconds."""


class SpanExport:
    """Send span records with the SDK's OTLP/HTTP exporter, one batch at a time, and
    say whether the backend took them.

    Args:
        settings: Where and how.
        exporter: The SDK exporter to use instead of OTLP/HTTP (a test's).

    Raises:
        OtlpUnavailable: The SDK is not installed.
    """

    def __init__(self, settings: OtlpSettings, exporter: SpanExporter | None = None) -> None:
        sdk_available()
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.util.instrumentation import InstrumentationScope

        from streamview import __version__

        self.settings = settings
        self.log = quiet_sdk()
        if exporter is None:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            exporter = OTLPSpanExporter(
                endpoint=settings.endpoint, headers=settings.headers, timeout=settings.timeout
            )
        self.exporter = exporter
        self._resource = Resource.create({"service.name": settings.service_name})
        self._scope = InstrumentationScope("streamview", __version__)
        self.deadline: float | None = None
        """``time.monotonic()`` after which no batch is waited for (set on a signal)."""
        self.gave_up = False
        """A batch was given up at the deadline (the backend had not answered)."""
        self._why = "stopped"

    def hurry(self, seconds: float, why: str) -> None:
        """Wait for the backend at most ``seconds`` more from now (a signal came):
        a batch in flight then, or sent later, is given up at that point.

        Args:
            seconds: The longest wait left.
            why: What stopped the wait, for the line saying what was not sent.
        """
        self._why = why
        self.deadline = time.monotonic() + seconds

    def export(self, records: Sequence[SpanRecord]) -> bool:
        """Whether the backend took every span of ``records`` (sent in batches)."""
        for start in range(0, len(records), BATCH_SIZE):
            batch = [
                to_sdk_span(r, self._resource, self._scope) for r in records[start:][:BATCH_SIZE]
            ]
            if not self._export_batch(batch):
                return False
        return True

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _export_batch(self, batch: list[ReadableSpan]) -> bool:
        from opentelemetry.sdk.trace.export import SpanExportResult

        if self._past_deadline():
            return False
        taken: list[bool] = []

        def post() -> None:
            try:
                taken.append(self.exporter.export(batch) == SpanExportResult.SUCCESS)
            except Exception as error:  # an exporter that raises: not taken, kept owed
                self.log.reason = self.log.reason or str(error)
                taken.append(False)

        posting = threading.Thread(target=post, name="streamview-otlp-export", daemon=True)
        posting.start()
        while posting.is_alive():
            posting.join(WAIT_STEP)
            if posting.is_alive() and self._past_deadline():
                self.gave_up = True
                self.log.reason = self._why  # why it stopped, over a retry's warning
                return False
        return bool(taken and taken[0])

    def close(self, seconds: float = 0.5) -> None:
        """Stop the exporter, waiting at most ``seconds`` (an export in flight gives
        up; a hung one is not waited for)."""

        def shut() -> None:
            try:
                self.exporter.shutdown()
            except Exception:  # stopping: nothing left to tell
                return

        stopping = threading.Thread(target=shut, name="streamview-otlp-close", daemon=True)
        stopping.start()
        stopping.join(seconds)
