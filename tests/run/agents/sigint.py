"""A run that stops on SIGINT like the real CLI: 'Aborting operation...', exit 130."""

import signal
import sys
import time

from _stream import INIT, STARTED, USER, emit  # type: ignore[import-not-found]


def abort(signum: int, frame: object) -> None:
    sys.stderr.write("Aborting operation...\n")
    sys.stderr.flush()
    sys.exit(130)


signal.signal(signal.SIGINT, abort)
emit([INIT, USER, STARTED])
time.sleep(60)
