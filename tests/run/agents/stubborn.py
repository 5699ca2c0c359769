"""A run that ignores SIGINT and SIGTERM: only SIGKILL stops it."""

import signal
import sys
import time

from _stream import INIT, USER, emit  # type: ignore[import-not-found]

signal.signal(signal.SIGINT, lambda signum, frame: sys.stderr.write("ignoring SIGINT\n"))
signal.signal(signal.SIGTERM, lambda signum, frame: sys.stderr.write("ignoring SIGTERM\n"))
emit([INIT, USER])
while True:
    time.sleep(0.05)
