"""--otlp's settings: the standard OTEL_* variables, the flags over them, and a clear
error (exit 2, before anything runs) for a value it cannot use."""

from __future__ import annotations

import sys

import pytest

from streamview.cli import main
from streamview.fronts.otlp.config import OtlpConfigError, resolve
from tests.otlp.helpers import RECORDINGS


def test_the_variables_say_where_and_the_flags_win() -> None:
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector.example:4318/",
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20abc,x-team=agents",
        "OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
        "OTEL_RESOURCE_ATTRIBUTES": "service.name=fleet,deployment.environment=ci",
    }
    settings = resolve(env)
    assert settings.endpoint == "https://collector.example:4318/v1/traces"
    assert settings.headers == {"authorization": "Bearer abc", "x-team": "agents"}
    assert settings.timeout == 2.5
    assert settings.service_name == "fleet"
    assert not settings.content
    traces = {**env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://tempo:4318/otlp/v1/traces"}
    assert resolve(traces).endpoint == "http://tempo:4318/otlp/v1/traces"
    flagged = resolve(
        {**traces, "OTEL_SERVICE_NAME": "named"},
        endpoint="http://localhost:6006",
        headers=["X-Team=mine"],
        content=True,
    )
    assert flagged.endpoint == "http://localhost:6006/v1/traces"
    assert flagged.headers["x-team"] == "mine"
    assert flagged.service_name == "named"
    assert flagged.content
    assert resolve({}).endpoint == "http://localhost:4318/v1/traces"
    assert resolve({}).service_name == "streamview"


@pytest.mark.parametrize(
    ("env", "flags", "said"),
    [
        ({}, {"endpoint": "ftp://host"}, "must start with http:// or https://"),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://:4318"}, {}, "no host"),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://h:99999"}, {}, "OTEL_EXPORTER_OTLP_ENDPOINT"),
        ({"OTEL_EXPORTER_OTLP_HEADERS": "novalue"}, {}, "no '='"),
        ({"OTEL_EXPORTER_OTLP_HEADERS": "bad name=1"}, {}, "bad OTLP header name"),
        ({}, {"headers": ["x=a\nb"]}, "holds a control"),
        ({}, {"headers": ["nothing"]}, "expected NAME=VALUE"),
        ({"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, {}, "http/protobuf only"),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "soon"}, {}, "milliseconds"),
    ],
)
def test_a_bad_setting_is_a_clear_error(
    env: dict[str, str], flags: dict[str, object], said: str
) -> None:
    with pytest.raises(OtlpConfigError, match=said.replace("(", r"\(")):
        resolve(env, **flags)  # type: ignore[arg-type]


def test_export_with_a_bad_endpoint_exits_2_before_sending(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["export", "--otlp", "--otlp-endpoint", "localhost:4318", str(RECORDINGS[0])])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("streamview: bad OTLP endpoint 'localhost:4318' (--otlp-endpoint)")
    assert err.count("\n") == 1


def test_without_the_sdk_otlp_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The SDK is an optional extra: missing, --otlp says so in one line, exit 2."""
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.trace", None)
    assert main(["export", "--otlp", str(RECORDINGS[0])]) == 2
    err = capsys.readouterr().err
    assert "--otlp needs the OpenTelemetry SDK" in err and err.count("\n") == 1
    assert "-m pip install -e " in err and "[otlp]" in err
