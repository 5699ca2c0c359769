"""Where a run's bytes come from: a pipe or a file (:mod:`.base`), a file followed as it
grows (:mod:`.follow`), a recording replayed (:mod:`.replay`), the agent's own process
(:mod:`.process`, with its group, watch, state and stderr), and the agents' session files
(:mod:`.session_files`, :mod:`.session_source`, :mod:`.opencode_db`).

A source hands lines on; it never decides where they are kept. A recording is written by
a tee handed to the process source from above (:mod:`streamview.runs.recording`)."""
