"""``--otlp``: send runs to a tracing backend as OpenTelemetry traces.

``streamview export --otlp FILE...`` sends recorded runs; ``streamview run --otlp --
AGENT...`` sends a run's spans as its calls finish. The spans are
:mod:`streamview.core.otlp_spans`'s; the SDK's plumbing is :mod:`streamview.fronts.otlp`.
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from streamview.cli.common import fail, say
from streamview.core.exit_status import EXIT_RUN_FAILED, EXIT_USAGE
from streamview.core.formatting import counted
from streamview.sources.base import InputError, Source, empty_input, source_for

if TYPE_CHECKING:
    from streamview.fronts.otlp.config import OtlpSettings
    from streamview.fronts.otlp.send import SpanSender

EXPORT_DESCRIPTION = """\
Send recorded runs to a tracing backend as OpenTelemetry traces (OTLP over HTTP):
one trace per session, a root span `invoke_agent` for the agent's run and a child span
`execute_tool` per tool call, with their real times from the recording. Prompts,
answers, arguments and results are sent only with --otlp-content. Needs the optional
OpenTelemetry SDK (the otlp extra: pip install -e '.[otlp]' in streamview's checkout).

Where to: --otlp-endpoint, else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318. Headers from
OTEL_EXPORTER_OTLP_HEADERS and --otlp-header; the service from OTEL_SERVICE_NAME
(default streamview) and OTEL_RESOURCE_ATTRIBUTES. Sending the same run again
sends the same span ids.
"""

EXPORT_EPILOG = """\
examples:
  streamview export --otlp recordings/*.ndjson
  OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:6006 streamview export --otlp run.ndjson
  streamview export --otlp --otlp-header 'authorization=Bearer TOKEN' run.ndjson

exit status: 0 every span was delivered; 1 some were not (stderr says how many);
2 bad usage, a bad endpoint or header, an unreadable file, or no SDK installed.
"""

EXPORT_GRACE = 30.0
"""Seconds ``export`` waits for the backend to take what it was sent, at most."""


def add_otlp_options(parser: argparse.ArgumentParser, required: bool = False) -> None:
    """``--otlp`` and the options that say where and what it sends."""
    group = parser.add_argument_group("tracing (OpenTelemetry: needs the otlp extra)")
    group.add_argument(
        "--otlp",
        action="store_true",
        required=required,
        help="send the run as an OpenTelemetry trace over OTLP/HTTP "
        "(where to: --otlp-endpoint or OTEL_EXPORTER_OTLP_ENDPOINT)",
    )
    group.add_argument(
        "--otlp-endpoint",
        metavar="URL",
        help="the backend's OTLP/HTTP address (http://host:4318; /v1/traces is added); "
        "over OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT",
    )
    group.add_argument(
        "--otlp-header",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="a header sent with the spans (repeatable; over OTEL_EXPORTER_OTLP_HEADERS)",
    )
    group.add_argument(
        "--otlp-service-name",
        metavar="NAME",
        help="service.name of the spans (over OTEL_SERVICE_NAME; default streamview)",
    )
    group.add_argument(
        "--otlp-content",
        action="store_true",
        help="also send prompts, answers, tool arguments and results (they hold code and "
        "keys: off by default), cleaned of terminal escapes and capped",
    )


def make_sender(args: argparse.Namespace) -> SpanSender | int:
    """The :class:`~streamview.fronts.otlp.send.SpanSender` the options ask for, or the exit
    status (2) after saying on stderr why there is none."""
    settings = settings_of(args)
    if isinstance(settings, int):
        return settings
    from streamview.fronts.otlp.send import SpanSender

    return SpanSender(settings)


def settings_of(args: argparse.Namespace) -> OtlpSettings | int:
    """The settings the options and variables ask for (the SDK checked), or the exit
    status (2) after saying on stderr why there are none."""
    from streamview.fronts.otlp.config import OtlpConfigError, resolve
    from streamview.fronts.otlp.send import OtlpUnavailable, environment, sdk_available

    try:
        settings = resolve(
            environment(),
            endpoint=args.otlp_endpoint,
            headers=args.otlp_header,
            service_name=args.otlp_service_name,
            content=args.otlp_content,
        )
        sdk_available()
    except (OtlpConfigError, OtlpUnavailable) as error:
        return fail(str(error))
    return settings


def main_export(args: argparse.Namespace) -> int:
    """``streamview export --otlp FILE...``; returns the exit status."""
    from streamview.core.otlp_spans import spans_of
    from streamview.core.reader import fold
    from streamview.core.state import StreamState

    sender = make_sender(args)
    if isinstance(sender, int):
        return sender
    status = 0
    traces = 0
    for name in args.files:
        size = [0]
        try:
            source = source_for(name)
            chunks = _measured(source, size)
            state = fold(chunks, StreamState(track_changes=False), agent=args.agent)
        except InputError as error:
            say(str(error))
            status = EXIT_USAGE
            continue
        if state.counts.total == 0:
            say(empty_input(source, size[0]))
            status = EXIT_USAGE
            continue
        spans = spans_of(state, content=args.otlp_content, anchor_ms=_changed_ms(source))
        timeless = len(state.sessions) - sum(1 for span in spans if span.parent_id is None)
        if timeless:
            say(f"{name}: {counted(timeless, 'session')} with no time to give: not sent")
        traces += len(state.sessions) - timeless
        sender.send(spans)
    sender.close(EXPORT_GRACE)
    dropped = sender.dropped_words()
    if dropped is not None:
        say(dropped)
        return status or EXIT_RUN_FAILED
    endpoint = sender.settings.endpoint
    say(f"sent {counted(traces, 'trace')} ({counted(sender.queued, 'span')}) to {endpoint}")
    return status


def _measured(source: Source, size: list[int]) -> Iterator[bytes]:
    """``source``'s chunks, adding up their bytes in ``size[0]``."""
    for chunk in source.chunks(threading.Event()):
        size[0] += len(chunk)
        yield chunk


def _changed_ms(source: Source) -> int | None:
    """When a recorded file last changed (epoch ms): the end of a stream that says no
    time of its own (Claude Code's, Codex's); ``None`` for stdin."""
    path = source.path
    if path is None:
        return None
    try:
        return path.stat().st_mtime_ns // 1_000_000
    except OSError:
        return None
