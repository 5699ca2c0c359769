"""An agent that prints its whole run while a viewer may still be starting, then exits 0.

It prints a line, waits until the line has left the pipe (someone read it), then waits
20 ms and prints the next, and at the end a blank line the same way, so that the reader
has stamped its last line before the agent exits. It writes, as JSON to the file named
by its argument, when it wrote each line (``written``) and when it saw each read
(``read``), in epoch milliseconds as streamview stamps them: each line's stamp must lie
between the two, whatever the load. If nobody reads a line for 10 s it stops waiting
(nobody reads ahead) and prints the rest at once.
"""

import fcntl
import json
import os
import struct
import sys
import termios
import time

from _stream import RUN  # type: ignore[import-not-found]

NOBODY_READS = 10.0


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def unread() -> int:
    """Bytes still in the pipe on stdout (FIONREAD works on a pipe's write end)."""
    return int(struct.unpack("i", fcntl.ioctl(1, termios.FIONREAD, b"\0\0\0\0"))[0])


def wait_read() -> bool:
    deadline = time.monotonic() + NOBODY_READS
    while unread():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


written: list[int] = []
read: list[int | None] = []
reading = True
for line in [*RUN, ""]:
    written.append(now_ms())
    os.write(1, line.encode() + b"\n")
    reading = reading and wait_read()
    read.append(now_ms() if reading else None)
    time.sleep(0.02)
with open(sys.argv[1], "w", encoding="utf-8") as times:
    json.dump({"written": written, "read": read}, times)
