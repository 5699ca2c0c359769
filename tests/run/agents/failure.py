"""A run that fails like the real CLI: init and user only, coloured stderr, exit 1."""

import sys

from _stream import INIT, USER, emit  # type: ignore[import-not-found]

emit([INIT, USER])
sys.stderr.write("\x1b[31mError: \x1b[1mauthentication failed\x1b[0m\r\n")
sys.stderr.write("\x1b[2K\rRun 'agent login' first.\n")
sys.stderr.flush()
sys.exit(1)
