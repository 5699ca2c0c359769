"""Where ``--otlp`` sends spans, from the standard variables and the flags over them.

The variables are OpenTelemetry's own: ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (the
full URL) or ``OTEL_EXPORTER_OTLP_ENDPOINT`` (a base URL: ``/v1/traces`` is added),
``OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`` (``key=value,key2=value2``, URL-encoded),
``OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL`` (only ``http/protobuf``),
``OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT`` (milliseconds), ``OTEL_SERVICE_NAME`` and
``OTEL_RESOURCE_ATTRIBUTES``. A bad value is a :class:`OtlpConfigError` raised
before anything runs (the command then exits 2). No SDK import here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from streamview.core.sanitize import one_line

DEFAULT_ENDPOINT = "http://localhost:4318/v1/traces"
TRACES_PATH = "/v1/traces"
PROTOCOL = "http/protobuf"
DEFAULT_SERVICE = "streamview"
DEFAULT_TIMEOUT = 10.0
"""Seconds one export request may take (``OTEL_EXPORTER_OTLP_TIMEOUT`` says otherwise)."""

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
"""An HTTP header name (RFC 9110's token)."""
_BAD_VALUE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


class OtlpConfigError(ValueError):
    """A setting ``--otlp`` cannot use: its message says which and why."""


@dataclass(frozen=True)
class OtlpSettings:
    """What the exporter is built from."""

    endpoint: str
    """The full URL spans are posted to."""
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    service_name: str = DEFAULT_SERVICE
    content: bool = False
    """Send prompts, answers, arguments and results (``--otlp-content``)."""


def _pick(env: Mapping[str, str], *names: str) -> tuple[str, str] | None:
    for name in names:
        value = env.get(name, "").strip()
        if value:
            return name, value
    return None


def _url(value: str, origin: str) -> str:
    shown = one_line(value, 120)
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as error:
        raise OtlpConfigError(f"bad OTLP endpoint {shown!r} ({origin}): {error}") from None
    if parts.scheme not in ("http", "https"):
        raise OtlpConfigError(
            f"bad OTLP endpoint {shown!r} ({origin}): it must start with http:// or https://"
        )
    if not parts.hostname:
        raise OtlpConfigError(f"bad OTLP endpoint {shown!r} ({origin}): no host")
    del port
    return value


def resolve_endpoint(flag: str | None, env: Mapping[str, str]) -> str:
    """The traces URL: ``--otlp-endpoint`` (a base URL, or one ending in
    ``/v1/traces``), else the variables, else ``http://localhost:4318/v1/traces``."""
    if flag:
        base = _url(flag.strip(), "--otlp-endpoint")
        if base.rstrip("/").endswith(TRACES_PATH):
            return base
        return base.rstrip("/") + TRACES_PATH
    found = _pick(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    if found is not None:
        return _url(found[1], found[0])
    found = _pick(env, "OTEL_EXPORTER_OTLP_ENDPOINT")
    if found is not None:
        return _url(found[1], found[0]).rstrip("/") + TRACES_PATH
    return DEFAULT_ENDPOINT


def _header(key: str, value: str, origin: str) -> tuple[str, str]:
    key = key.strip()
    if not _TOKEN.match(key):
        shown = one_line(key, 60)
        raise OtlpConfigError(f"bad OTLP header name {shown!r} ({origin})")
    if _BAD_VALUE.search(value):
        raise OtlpConfigError(f"bad OTLP header {key} ({origin}): its value holds a control")
    return key, value.strip()


def resolve_headers(flags: Sequence[str], env: Mapping[str, str]) -> dict[str, str]:
    """Headers from the variables (``k=v,k2=v2``, URL-encoded), then ``--otlp-header
    K=V`` flags over them (by name, whatever the case)."""
    headers: dict[str, str] = {}
    found = _pick(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS")
    if found is not None:
        name, text = found
        for pair in text.split(","):
            if not pair.strip():
                continue
            key, equals, value = pair.partition("=")
            if not equals:
                raise OtlpConfigError(f"bad OTLP header {one_line(pair, 60)!r} ({name}): no '='")
            key, value = _header(unquote(key), unquote(value), name)
            headers[key.lower()] = value
    for flag in flags:
        key, equals, value = flag.partition("=")
        if not equals:
            shown = one_line(flag, 60)
            raise OtlpConfigError(f"bad --otlp-header {shown!r}: expected NAME=VALUE")
        key, value = _header(key, value, "--otlp-header")
        headers[key.lower()] = value
    return headers


def resolve_timeout(env: Mapping[str, str]) -> float:
    """Seconds per export request: ``OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT`` (ms)."""
    found = _pick(env, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT")
    if found is None:
        return DEFAULT_TIMEOUT
    try:
        millis = float(found[1])
    except ValueError:
        millis = -1.0
    if not millis > 0:
        shown = one_line(found[1], 40)
        raise OtlpConfigError(f"bad {found[0]} {shown!r}: milliseconds, more than 0")
    return millis / 1000


def check_protocol(env: Mapping[str, str]) -> None:
    """Only OTLP over HTTP with protobuf is sent; another protocol asked for is an error."""
    found = _pick(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
    if found is not None and found[1] != PROTOCOL:
        shown = one_line(found[1], 40)
        raise OtlpConfigError(
            f"{found[0]}={shown}: streamview sends OTLP as {PROTOCOL} only "
            "(an OpenTelemetry collector takes it on port 4318)"
        )


def resolve_service(flag: str | None, env: Mapping[str, str]) -> str:
    """``--otlp-service-name``, else ``OTEL_SERVICE_NAME``, else ``service.name`` of
    ``OTEL_RESOURCE_ATTRIBUTES``, else ``streamview``."""
    if flag and flag.strip():
        return flag.strip()
    found = _pick(env, "OTEL_SERVICE_NAME")
    if found is not None:
        return found[1]
    for pair in env.get("OTEL_RESOURCE_ATTRIBUTES", "").split(","):
        key, _, value = pair.partition("=")
        if key.strip() == "service.name" and value.strip():
            return unquote(value.strip())
    return DEFAULT_SERVICE


def resolve(
    env: Mapping[str, str],
    *,
    endpoint: str | None = None,
    headers: Sequence[str] = (),
    service_name: str | None = None,
    content: bool = False,
) -> OtlpSettings:
    """Every setting, flags over variables.

    Raises:
        OtlpConfigError: A value cannot be used (the message says which).
    """
    check_protocol(env)
    return OtlpSettings(
        endpoint=resolve_endpoint(endpoint, env),
        headers=resolve_headers(headers, env),
        timeout=resolve_timeout(env),
        service_name=resolve_service(service_name, env),
        content=content,
    )
