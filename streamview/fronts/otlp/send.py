"""Send span records (:mod:`streamview.core.otlp_spans`) with the OpenTelemetry SDK.

The SDK's :class:`BatchSpanProcessor` batches on a background thread with a bounded
queue, and its OTLP/HTTP exporter encodes and posts; nothing here encodes OTLP. A
backend that is down or slow costs the caller nothing: :meth:`SpanSender.send` only
queues, :meth:`SpanSender.close` waits at most its grace, and what did not reach the
backend is counted (:attr:`SpanSender.dropped`), never raised. The SDK's own log
lines are kept off stderr: the caller says once what was dropped, with the first
reason the SDK gave.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import threading
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from streamview import __version__
from streamview.core.otlp_spans import FAILED, OK, SpanRecord
from streamview.core.sanitize import one_line
from streamview.fronts.otlp.config import OtlpSettings

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

MISSING_SDK = "--otlp needs the OpenTelemetry SDK and its OTLP exporter, not installed here: "
_EXPORTER_MODULE = "opentelemetry.exporter.otlp.proto.http.trace_exporter"
_REQUIREMENTS = "opentelemetry-sdk opentelemetry-exporter-otlp-proto-http"
QUEUE_SIZE = 8192
"""Spans waiting to be sent at most; more are dropped (and counted)."""
BATCH_SIZE = 256
CLOSE_STEP = 0.05
FAILURE_PATIENCE = 0.1
"""Once the SDK says an export failed, how long closing still waits for its retries."""
SCHEDULE_MS = 500
"""A live run's spans wait at most this long before their batch leaves."""


class OtlpUnavailable(RuntimeError):
    """The OpenTelemetry SDK is not installed (the ``otlp`` extra)."""


def sdk_available() -> None:
    """Raise :class:`OtlpUnavailable` when the SDK or its OTLP/HTTP exporter is missing
    (found, not imported: the import takes a quarter of a second, paid where it is used)."""
    try:
        for module in ("opentelemetry.sdk.trace", _EXPORTER_MODULE):
            if importlib.util.find_spec(module) is None:
                raise ImportError(module)
    except (ImportError, ValueError) as error:  # ValueError: a module without a spec
        from streamview.fronts.serve import install_hint

        hint = install_hint(extra="otlp", requirement=_REQUIREMENTS)
        raise OtlpUnavailable(MISSING_SDK + hint) from error


class _FirstReason(logging.Handler):
    """Keeps the SDK's first warning (why an export failed), shows none of them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.reason: str | None = None
        self.failed_at: float | None = None
        """``time.monotonic()`` of the SDK's latest warning."""

    def emit(self, record: logging.LogRecord) -> None:
        self.failed_at = time.monotonic()
        if self.reason is not None:  # the first says why; later ones follow from it
            return
        try:
            self.reason = record.getMessage()
        except Exception:  # a log line that cannot be formatted: no reason, no crash
            self.reason = None


def quiet_sdk() -> _FirstReason:
    """Keep the SDK's log lines off stderr; the handler keeps the first reason given."""
    handler = _FirstReason()
    sdk_logger = logging.getLogger("opentelemetry")
    for old in [h for h in sdk_logger.handlers if isinstance(h, _FirstReason)]:
        sdk_logger.removeHandler(old)
    sdk_logger.addHandler(handler)
    sdk_logger.propagate = False
    return handler


class _Counting:
    """An exporter that counts the spans its inner exporter took."""

    def __init__(self, inner: SpanExporter) -> None:
        self.inner = inner
        self.delivered = 0
        self._lock = threading.Lock()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        from opentelemetry.sdk.trace.export import SpanExportResult

        try:
            result = self.inner.export(spans)
        except Exception:  # an exporter that raises loses its batch, not the run
            return SpanExportResult.FAILURE
        if result == SpanExportResult.SUCCESS:
            with self._lock:
                self.delivered += len(spans)
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return bool(self.inner.force_flush(timeout_millis))


def to_sdk_span(record: SpanRecord, resource: Any, scope: Any) -> ReadableSpan:
    """The SDK's span for one record, with the record's ids and times."""
    from opentelemetry.sdk.trace import Event, ReadableSpan
    from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

    flags = TraceFlags(TraceFlags.SAMPLED)
    context = SpanContext(record.trace_id, record.span_id, is_remote=False, trace_flags=flags)
    parent = None
    if record.parent_id is not None:
        parent = SpanContext(record.trace_id, record.parent_id, is_remote=False, trace_flags=flags)
    if record.status == FAILED:
        status = Status(StatusCode.ERROR, record.status_message)
    elif record.status == OK:
        status = Status(StatusCode.OK)
    else:
        status = Status(StatusCode.UNSET)
    return ReadableSpan(
        name=record.name,
        context=context,
        parent=parent,
        resource=resource,
        attributes=dict(record.attributes),
        events=[Event(e.name, dict(e.attributes), e.time_ns) for e in record.events],
        kind=SpanKind.CLIENT if parent is not None else SpanKind.INTERNAL,
        status=status,
        start_time=record.start_ns,
        end_time=record.end_ns,
        instrumentation_scope=scope,
    )


class SpanSender:
    """Queue span records and send them on the SDK's background thread.

    Args:
        settings: Where and how (:func:`streamview.fronts.otlp.config.resolve`).
        exporter: The SDK exporter to use instead of OTLP/HTTP (a test's in-memory one).
        schedule_ms: Longest wait before a batch leaves.

    Raises:
        OtlpUnavailable: The SDK is not installed.
    """

    def __init__(
        self,
        settings: OtlpSettings,
        exporter: SpanExporter | None = None,
        schedule_ms: int = SCHEDULE_MS,
    ) -> None:
        sdk_available()
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
        from opentelemetry.sdk.util.instrumentation import InstrumentationScope

        self.settings = settings
        self._log = quiet_sdk()
        if exporter is None:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            exporter = OTLPSpanExporter(
                endpoint=settings.endpoint, headers=settings.headers, timeout=settings.timeout
            )
        self._exporter = _Counting(exporter)
        self._resource = Resource.create({"service.name": settings.service_name})
        self._scope = InstrumentationScope("streamview", __version__)
        self._processor = BatchSpanProcessor(
            self._exporter,  # type: ignore[arg-type]
            max_queue_size=QUEUE_SIZE,
            schedule_delay_millis=schedule_ms,
            max_export_batch_size=BATCH_SIZE,
            export_timeout_millis=int(settings.timeout * 1000),
        )
        self.queued = 0
        """Spans handed to the SDK so far."""
        self._closed = False

    def send(self, records: Iterable[SpanRecord]) -> None:
        """Queue spans; returns at once (a full queue drops them, counted)."""
        if self._closed:
            return
        for record in records:
            self._processor.on_end(to_sdk_span(record, self._resource, self._scope))
            self.queued += 1

    def close(self, grace_s: float, why: str | None = None) -> int:
        """Send what is queued, waiting at most ``grace_s`` seconds, then stop.

        Args:
            grace_s: The longest wait for the backend.
            why: What to say of a backend that did not answer in time (default: ``no
                answer within N s``).

        Returns:
            How many spans did not reach the backend (:attr:`dropped`).
        """
        if not self._closed:
            self._closed = True
            # The SDK's shutdown may wait for a slow backend far longer than the
            # grace (an export in flight, its retries): it goes on, on a daemon thread
            # the process does not wait for, and what it had not sent counts as dropped.
            stopping = threading.Thread(
                target=self._processor.shutdown, name="streamview-otlp-close", daemon=True
            )
            stopping.start()
            deadline = time.monotonic() + grace_s
            while stopping.is_alive() and time.monotonic() < deadline:
                stopping.join(CLOSE_STEP)
                failed = self._log.failed_at
                if failed is not None and time.monotonic() - failed >= FAILURE_PATIENCE:
                    break  # the backend refuses or is gone: its retries are not waited for
            silent = self._log.failed_at is None  # no refusal: no answer at all
            if stopping.is_alive() and (self._log.reason is None or (why and silent)):
                self._log.reason = why or f"no answer within {grace_s:g} s"
        return self.dropped

    @property
    def delivered(self) -> int:
        """Spans the backend took."""
        return self._exporter.delivered

    @property
    def dropped(self) -> int:
        """Spans queued that the backend did not take (yet, before :meth:`close`)."""
        return max(self.queued - self._exporter.delivered, 0)

    def dropped_words(self) -> str | None:
        """One line saying what did not reach the backend and why; ``None`` if all did."""
        dropped = self.dropped
        if not dropped:
            return None
        spans = "span" if self.queued == 1 else "spans"
        reason = self._log.reason
        why = f": {short_reason(reason)}" if reason else ""
        endpoint = one_line(self.settings.endpoint, 120)
        return f"--otlp: {dropped} of {self.queued} {spans} not delivered to {endpoint}{why}"


def short_reason(reason: str) -> str:
    """The SDK's warning made short: ``connection refused``, ``timed out``, else cut."""
    lowered = reason.lower()
    if "connection refused" in lowered:
        return "connection refused"
    if "timed out" in lowered or "timeout" in lowered:
        return "timed out"
    if "name or service not known" in lowered or "nodename nor servname" in lowered:
        return "unknown host"
    return one_line(reason, 160)


def environment() -> dict[str, str]:
    """The process's environment, for :func:`streamview.fronts.otlp.config.resolve`."""
    return dict(os.environ)
