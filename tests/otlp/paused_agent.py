"""A fake agent that stops mid-call: it prints the fake run up to its read call's start
(its end too, given ``--end-call``), waits until the file named by its argument exists,
then prints the rest (exit 0)."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "run" / "agents"))
from _stream import RUN, SESSION, emit  # type: ignore[import-not-found]

OWN_SESSION = "0d1e2f3a-0000-4000-8000-0000000000a7"
"""A session id of its own: a backend keeps one span of each id, whatever the project."""
LINES = [line.replace(SESSION, OWN_SESSION) for line in RUN]

cut = 4 if "--end-call" in sys.argv else 3
emit(LINES[:cut])
go = Path(sys.argv[1])
deadline = time.monotonic() + 60
while not go.exists() and time.monotonic() < deadline:
    time.sleep(0.02)
emit(LINES[cut:])
