"""The runs on this machine: the runs directory and its recordings (:mod:`.recording`,
:mod:`.recording_files`, :mod:`.run_meta`), and every agent's session files found in
their own folders (:mod:`.session_discovery`, :mod:`.session_heads`) for
``streamview sessions``."""

SIDECAR_SUFFIX = ".meta.json"
"""Added to a recording's name for its sidecar (``run.ndjson.meta.json``): here, so a
command can tell that a FILE has none without importing :mod:`.run_meta` (issue 30.8)."""
