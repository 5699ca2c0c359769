"""A run that would outlive a killed streamview: it ignores SIGPIPE and SIGTERM, and
so does the grandchild it starts (in its own process group, as ``bash -m`` puts a
background job).

Argument 1: a file to write the pids into (its own, then its child's), once both run.
"""

import contextlib
import os
import signal
import subprocess
import sys
import time

from _stream import INIT, USER, emit  # type: ignore[import-not-found]

STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)"

signal.signal(signal.SIGPIPE, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", STUBBORN], process_group=0)
emit([INIT, USER])
with open(sys.argv[1] + ".part", "w") as out:
    out.write(f"{os.getpid()}\n{child.pid}\n")
os.rename(sys.argv[1] + ".part", sys.argv[1])
while True:
    with contextlib.suppress(OSError):  # nobody reads any more: work on regardless
        print('{"type":"system","subtype":"tick"}', flush=True)
    time.sleep(0.1)
