"""A run that ends with a result but does not exit (a known `-p` bug)."""

import time

from _stream import RUN, emit

emit(RUN)
time.sleep(60)
