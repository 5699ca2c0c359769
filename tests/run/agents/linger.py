"""A run that ends with a result but does not exit (a known `-p` bug)."""

import time

from _stream import RUN, emit  # type: ignore[import-not-found]

emit(RUN)
time.sleep(60)
