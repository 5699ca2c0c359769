"""A run that starts background children holding its stdout, then works on.

Argument 1: a file to write the pids into (its own first, then its children's).
Argument 2: ``exit`` to exit at once after the stream (the children stay), or
``work`` to wait for a signal; SIGINT is ignored by the children, as a shell's ``&``
jobs ignore it.
"""

import os
import signal
import subprocess
import sys
import time

from _stream import INIT, STARTED, USER, emit  # type: ignore[import-not-found]

pids_file, mode = sys.argv[1], sys.argv[2]
children = [
    subprocess.Popen(
        ["sleep", str(300 + n)],
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    for n in range(2)
]
with open(pids_file, "w") as out:
    out.write("\n".join(str(pid) for pid in [os.getpid(), *(c.pid for c in children)]))
emit([INIT, USER, STARTED])
if mode == "exit":
    sys.exit(0)
while True:
    time.sleep(0.05)
