"""What a run becomes without the viewer: plain text (:mod:`.printer`), normalized events
for scripts (:mod:`.events_api`), the viewer served to a browser (:mod:`.serve`) and
spans sent to a tracing backend (:mod:`.otlp`)."""
