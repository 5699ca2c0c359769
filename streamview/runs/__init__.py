"""The runs on this machine: the runs directory and its recordings (:mod:`.recording`,
:mod:`.recording_files`, :mod:`.run_meta`), and every agent's session files found in
their own folders (:mod:`.session_discovery`, :mod:`.session_heads`) for
``streamview sessions``."""
