"""``--otlp``: runs sent as OpenTelemetry traces with the SDK (the optional extra
``otlp``). The span mapping itself is :mod:`streamview.core.otlp_spans`."""
