"""A stand-in for a headless agent: prints a fixture's lines one at a time.

Usage: ``dialect_fixture.py FIXTURE [DELAY] [STATUS]``. Writes a line of its own on
stderr first (as real CLIs do), each fixture line flushed after ``DELAY`` seconds, then
exits with ``STATUS``.
"""

import sys
import time

path = sys.argv[1]
delay = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
status = int(sys.argv[3]) if len(sys.argv) > 3 else 0
sys.stderr.write("fake agent: starting\n")
sys.stderr.flush()
with open(path, "rb") as lines:
    for line in lines:
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
        time.sleep(delay)
sys.exit(status)
